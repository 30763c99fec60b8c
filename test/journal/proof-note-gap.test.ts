/**
 * `journal proof` never drops the checkpoint's signed note silently: a proof made while the
 * newest note line is damaged, or of another tree, says on stderr why it carries none, and
 * a note whose line fails the journal's checks is not put in a proof.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendEntry } from '../../app/journal/index.js';
import { cliIn } from '../cli/in-process.js';
import { makeKeys, tmp } from './helpers.js';

async function journal(n: number): Promise<string> {
  const base = tmp('reprise-proof-note-');
  const k = makeKeys(base);
  const dir = join(base, 'j');
  for (let i = 0; i < n; i++)
    await appendEntry(dir, { kind: 'review-rationale', subject: { claimRef: `c${i}` }, body: { i } }, k.reviewer);
  return dir;
}

const NOTES = 'notes.jsonl';
const proofs = (dir: string) => [
  ['journal', 'proof', dir, '--from', '1'],
  ['journal', 'proof', dir, '--entry', '0'],
];

describe('journal proof and the signed note', () => {
  it('an intact journal: every proof carries the note and says nothing', async () => {
    const dir = await journal(3);
    for (const args of proofs(dir)) {
      const r = await cliIn(dir, ...args);
      expect(r.code, r.err).toBe(0);
      expect(r.err).toBe('');
      expect(JSON.parse(r.out).note).toMatch(/\n\n— /);
    }
  });

  it('the newest note line damaged: no note, and stderr says which line and why', async () => {
    const dir = await journal(3);
    const lines = readFileSync(join(dir, NOTES), 'utf8').split('\n');
    lines[lines.length - 2] = JSON.stringify('not a note');
    writeFileSync(join(dir, NOTES), lines.join('\n'));
    for (const args of proofs(dir)) {
      const r = await cliIn(dir, ...args);
      expect(r.code, r.err).toBe(0);
      expect(JSON.parse(r.out).note).toBeUndefined();
      expect(r.err).toContain('the proof carries no signed note');
      expect(r.err).toContain(`the note at ${NOTES} line ${lines.length - 1} is not a C2SP checkpoint note`);
    }
  });

  it('a newest note for the right tree that fails the checks is not carried', async () => {
    const dir = await journal(3);
    const lines = readFileSync(join(dir, NOTES), 'utf8').split('\n');
    const last = JSON.parse(lines[lines.length - 2]!) as string;
    // Same tree size, another root: the note's line fails RPR-JOURNAL-041.
    const forged = last.replace(
      /^(.*\n\d+\n)([A-Za-z0-9+/=]+)\n/,
      (_m, head: string) => `${head}${Buffer.alloc(32, 7).toString('base64')}\n`,
    );
    expect(forged).not.toBe(last);
    lines[lines.length - 2] = JSON.stringify(forged);
    writeFileSync(join(dir, NOTES), lines.join('\n'));
    const r = await cliIn(dir, 'journal', 'proof', dir, '--entry', '1');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).note).toBeUndefined();
    expect(r.err).toContain('differs from the root recomputed over the entries');
  });

  it('no notes at all: the proof says the journal holds none', async () => {
    const dir = await journal(2);
    writeFileSync(join(dir, NOTES), '');
    const r = await cliIn(dir, 'journal', 'proof', dir, '--from', '1');
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain('the journal holds no signed notes');
  });
});
