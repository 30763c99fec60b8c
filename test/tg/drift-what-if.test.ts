/**
 * A what-if replay is a demonstration, never governed drift data (docs/tg-replay.md,
 * "What-if (training)"): it writes nothing to a journal (no replay-drift, no case, no
 * replay-comparison), its own figure names the version it ran under, and `drift` replays a
 * manifest as pinned whatever substitution its options carry.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { driftTelemetry } from '../../app/engine/drift.js';
import { runPath } from '../../app/engine/run.js';
import { cliIn } from '../cli/in-process.js';
import { driftBench, driftJson, kindsIn, manifestOf, replayedJournal, type DriftBench } from './drift-helpers.js';

let b: DriftBench;
const PINNED = 'reprise.reference@ref-1';

beforeAll(async () => {
  b = await driftBench('reprise-drift-whatif-');
});

/** `reprise replay EXAMPLE --what-if model=ref-2` into `dir`, signed by the reviewer: the report. */
async function whatIfInto(dir: string, example: string) {
  const r = await cliIn(
    b.work,
    'replay',
    manifestOf(b, example),
    '--what-if',
    'model=ref-2',
    '--journal',
    dir,
    '--key',
    b.keys.reviewerPem,
    '--trust-store',
    b.keys.trustPath,
    '--json',
  );
  return { code: r.code, report: JSON.parse(r.out) as { findings: { rule: string; message: string }[] } };
}

describe('a what-if replay writes nothing to a journal', () => {
  it('into a new journal: no journal is made, and RPR-TG-037 says nothing was written', async () => {
    const dir = join(b.work, 'fresh-whatif');
    const { report } = await whatIfInto(dir, 'exit-human-review');
    expect(existsSync(join(dir, 'entries.jsonl'))).toBe(false);
    const marker = report.findings.find((f) => f.rule === 'RPR-TG-037');
    expect(marker?.message).toContain('nothing of it is written to --journal');
    expect(report.findings.map((f) => f.rule)).not.toContain('RPR-TG-040');
  });

  it("demonstrations under ref-2 never count for the pinned ref-1, nor clear ref-1's real figure", async () => {
    const j = await replayedJournal(b, ['banded-drift-not-material']);
    const before = kindsIn(j);
    for (const example of ['exit-human-review', 'banded-within-epsilon', 'banded-drift-material'])
      await whatIfInto(j, example);
    expect(kindsIn(j)).toEqual(before);
    const r = await driftJson(b, j, '--trust-store', b.keys.trustPath);
    expect(r.doc?.models).toEqual([expect.objectContaining({ model: PINNED, drifted: 1, inWindow: 1, flag: true })]);
  });
});

describe('observations name the version A ran under', () => {
  it("a what-if replay's own figure is under ref-2; drift replays the manifest as pinned", async () => {
    const m = manifestOf(b, 'exit-human-review');
    const demo = await runPath(m, 'replay', { whatIf: ['model=ref-2'] });
    const versions = (demo.details?.['tg'] as { driftRate: { versions: { model: string }[] } }).driftRate.versions;
    expect(versions.map((v) => v.model)).toEqual(['reprise.reference@ref-2']);
    const pinned = await driftTelemetry([m], {}, null);
    const asked = await driftTelemetry([m], { whatIf: ['model=ref-2'] }, null);
    expect(asked.observations).toEqual(pinned.observations);
    expect(asked.rates).toEqual(pinned.rates);
    expect(asked.rates.map((r) => r.model)).toEqual([PINNED]);
  });
});
