/**
 * The training journal's officer key (createDemoJournal) is granted to sign with, never to
 * read: the folders granted readable, the journal and its trust store's, do not hold it, so
 * artifactContent (or any path the API names) cannot return its PEM. The journal worker is
 * played by the journal ops of this tree (main/host/journal-ops.ts), not dist/'s.
 */
import { readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DemoJournal } from '../../shared/api.js';
import { demoJournal } from '../../main/host/journal-ops.js';
import { JournalSide } from '../../main/host/journal-side.js';
import { GrantedGate } from '../../main/host/granted-gate.js';
import { isWithin } from '../../main/host/path-gate.js';
import type { JournalWorker } from '../../main/host/journal-client.js';
import { EmittedReports } from '../../main/host/emitted-reports.js';

const hints = { root: 'add a root', key: 'pick the key', adapter: 'name the adapter' };
const made: string[] = [];
afterAll(async () => {
  for (const d of made) await rm(d, { recursive: true, force: true });
});

/** The training officer's own folder (reprise-training-*), whatever its layout inside. */
function trainingFolder(file: string): string {
  let dir = dirname(file);
  while (!basename(dir).startsWith('reprise-training-') && dirname(dir) !== dir) dir = dirname(dir);
  if (dirname(dir) === dir) throw new Error(`${file} is in no training folder`);
  return dir;
}

/** A journal side whose worker answers `demo` with `make` (the real demo journal unless a test says otherwise). */
function journalSide(make: () => Promise<DemoJournal> = demoJournal) {
  const gate = new GrantedGate(hints);
  const worker = { run: async () => make() } as unknown as JournalWorker;
  return { gate, side: new JournalSide(gate, worker, new EmittedReports()) };
}

describe("the training officer's key is granted to sign with, never to read", () => {
  it('the key lies in no folder granted to read; the journal and trust store are readable; the key signs', async () => {
    const { gate, side } = journalSide();
    const demo = await side.createDemoJournal((g) => gate.grant(g));
    made.push(trainingFolder(demo.keyFile));
    expect(await readFile(demo.keyFile, 'utf8')).toMatch(/PRIVATE KEY/);
    await expect(gate.confine(demo.keyFile, 'the artifact')).rejects.toMatchObject({
      message: expect.stringMatching(/^refused: .* is outside the folders this workbench may read/),
    });
    expect(await gate.confine(demo.trustStore, 'the trust store')).toBe(demo.trustStore);
    expect(await gate.confine(demo.dir, 'the journal directory')).toBe(demo.dir);
    expect(await gate.keyFile(demo.keyFile, 'officer key file')).toBe(demo.keyFile);
    const readRoots = (await gate.readable()).filter((r) => r !== demo.keyFile);
    expect(readRoots.filter((r) => isWithin(r, demo.keyFile))).toEqual([]);
  });

  it('a second journal, signed by the same officer, is as confined', async () => {
    const { gate, side } = journalSide();
    const a = await side.createDemoJournal((g) => gate.grant(g));
    const b = await side.createDemoJournal((g) => gate.grant(g));
    expect(b.keyFile).toBe(a.keyFile);
    await expect(gate.confine(b.keyFile, 'the artifact')).rejects.toMatchObject({ usage: true });
    expect(await gate.confine(join(b.dir, 'x'), 'the journal')).toBe(join(b.dir, 'x'));
  });

  it('a journal whose trust store lies beside its key is refused, and nothing is granted', async () => {
    const beside = async (): Promise<DemoJournal> => ({
      dir: '/srv/training/journal-1',
      keyFile: '/srv/training/officer.key.pem',
      trustStore: '/srv/training/trust-store.json',
    });
    const { side } = journalSide(beside);
    const grants: unknown[] = [];
    await expect(side.createDemoJournal(async (g) => void grants.push(g))).rejects.toMatchObject({
      message: expect.stringMatching(/^internal error: .*beside its private key/),
    });
    expect(grants).toEqual([]);
  });
});
