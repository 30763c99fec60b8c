/** Drift telemetry: rate per model version over the governed window, the recalibration flag, anchored with --journal. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { driftRates } from '../../app/kinds/tg/telemetry.js';
import { cliIn } from '../cli/in-process.js';
import { journalCopy, writeExamples } from './helpers.js';

/** The CLI in this process (the source, not a build), with the shape of the built CLI's result. */
async function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await cliIn(tmpdir(), ...args);
  return { code: r.code, stdout: r.out, stderr: r.err };
}

describe('driftRates', () => {
  const o = (drift: boolean, model = 'p@m1', window = 4, maxRate = 0.25) => ({
    model,
    drift,
    driftRate: { window, maxRate },
    claimRef: 'c',
  });
  it('counts the last `window` observations per model and flags above maxRate only', () => {
    const r = driftRates([o(true), o(true), o(false), o(false), o(false), o(true), o(false, 'p@m2')]);
    expect(r).toEqual([
      { model: 'p@m1', observations: 6, window: 4, inWindow: 4, drifted: 1, rate: 0.25, maxRate: 0.25, flag: false },
      { model: 'p@m2', observations: 1, window: 4, inWindow: 1, drifted: 0, rate: 0, maxRate: 0.25, flag: false },
    ]);
    expect(driftRates([o(false), o(true), o(true), o(false), o(false)])[0]!.flag).toBe(true);
  });
});

describe('reprise drift', () => {
  it('over manifests: reports the rate and raises the flag; over a journal after replays; the flag is anchored', async () => {
    const ex = await writeExamples();
    // The governed bundle: an A within only the embedded bundle's ε is not counted (RPR-TG-043).
    const policy = ['--policy', join(ex, 'tg', 'bundle.json')];
    const r = await runCli(['drift', join(ex, 'tg'), ...policy, '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as {
      models: { model: string; drifted: number; inWindow: number; flag: boolean; window: number; maxRate: number }[];
    };
    expect(doc.models).toEqual([
      expect.objectContaining({
        model: 'reprise.reference@ref-1',
        drifted: 2,
        inWindow: 4,
        window: 50,
        maxRate: 0.1,
        flag: true,
      }),
    ]);
    const ok = await runCli(['drift', join(ex, 'tg', 'banded-within-epsilon'), ...policy]);
    expect(ok.code).toBe(0);

    const j = await journalCopy(ex);
    for (const s of ['banded-within-epsilon', 'banded-drift-not-material'])
      await runCli([
        'replay',
        join(ex, 'tg', s, 'manifest.json'),
        '--journal',
        j.dir,
        '--key',
        j.key,
        '--trust-store',
        j.trust,
        ...policy,
      ]);
    const fromJournal = await runCli(['drift', j.dir, '--trust-store', j.trust, '--json']);
    expect(JSON.parse(fromJournal.stdout).models[0]).toMatchObject({ drifted: 1, inWindow: 2, flag: true });
    const anchored = await runCli([
      'drift',
      j.dir,
      '--trust-store',
      j.trust,
      '--journal',
      j.dir,
      '--key',
      j.key,
      '--json',
    ]);
    expect(JSON.parse(anchored.stdout).models[0].anchor).toMatchObject({ seq: expect.any(Number) });
    const kinds = readFileSync(join(j.dir, 'entries.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).kind);
    expect(kinds).toContain('recalibration-flag');
    expect(kinds.filter((k: string) => k === 'replay-comparison')).toHaveLength(2);
    expect((await runCli(['journal', 'verify', j.dir, '--trust-store', j.trust])).code).toBe(0);
    // --journal without --key is fine while no flag is raised (nothing to anchor).
    expect((await runCli(['drift', join(ex, 'tg', 'banded-within-epsilon'), '--journal', j.dir, ...policy])).code).toBe(
      0,
    );
    // A folder that holds no file is nothing observed, refused rather than passed.
    const empty = mkdtempSync(join(tmpdir(), 'e-'));
    const none = await runCli(['drift', empty, '--journal', j.dir]);
    expect(none.code).toBe(3);
    expect(none.stderr.trim()).toBe(`reprise: ${empty} holds no file: there is nothing in it to check`);
  });
});
