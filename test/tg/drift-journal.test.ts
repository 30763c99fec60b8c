/**
 * `reprise drift` over an evidence journal counts only what the journal proves (docs/tg-replay.md,
 * "Drift telemetry"; RPR-TG-050 to 053): a journal that fails verification counts nothing and
 * fails the run, one that cannot be checked (no --trust-store) is unavailable, a
 * replay-comparison entry out of bounds is refused by name, and one signed by a key whose role
 * does not govern drift (a trainer's) is not counted. Flags are anchored only with a trust
 * store, by a key of a governing role, and once.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  driftBench,
  driftJson,
  entriesText,
  kindsIn,
  recordComparison,
  replayedJournal,
  type DriftBench,
} from './drift-helpers.js';

let b: DriftBench;
/** A replay that drifted (not decision-material) and one within ε: 1 of 2 drifted, above the bundle's 0.1. */
const REPLAYS = ['banded-drift-not-material', 'banded-within-epsilon'];
const MODEL = 'reprise.reference@ref-1';

beforeAll(async () => {
  b = await driftBench('reprise-drift-j-');
});

const rulesOf = (doc: { findings?: { rule: string; severity: string }[] } | null) =>
  (doc?.findings ?? []).map((f) => `${f.rule}:${f.severity}`);

/** The journal with its drifted replay-comparison entry edited to say it did not drift (its signature now breaks). */
function hideDrift(dir: string): void {
  const file = join(dir, 'entries.jsonl');
  const lines = readFileSync(file, 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes('"kind":"replay-comparison"') && l.includes('"drift":true'));
  expect(i).toBeGreaterThanOrEqual(0);
  lines[i] = lines[i]!.replace('"drift":true', '"drift":false');
  writeFileSync(file, lines.join('\n'));
}

describe('H1: a journal that does not verify counts nothing', () => {
  it('a tampered entry (drift true → false) fails the run (RPR-TG-050, exit 1) instead of hiding the flag', async () => {
    const j = await replayedJournal(b, REPLAYS);
    const before = await driftJson(b, j, '--trust-store', b.keys.trustPath);
    expect(before.code).toBe(1);
    expect(before.doc?.models[0]).toMatchObject({ model: MODEL, drifted: 1, inWindow: 2, flag: true });
    hideDrift(j);
    const r = await driftJson(b, j, '--trust-store', b.keys.trustPath);
    expect(r.code).toBe(1);
    expect(r.doc?.observations).toBe(0);
    expect(r.doc?.models).toEqual([]);
    expect(rulesOf(r.doc)).toEqual(['RPR-TG-050:fail']);
  });
  it('without --trust-store the journal cannot be checked: unavailable (RPR-TG-051, exit 2), tampered or not', async () => {
    const j = await replayedJournal(b, REPLAYS);
    const intact = await driftJson(b, j);
    expect(intact.code).toBe(2);
    expect(intact.doc?.observations).toBe(0);
    expect(rulesOf(intact.doc)).toEqual(['RPR-TG-051:unavailable']);
    hideDrift(j);
    const tampered = await driftJson(b, j);
    expect(tampered.code).toBe(2);
    expect(tampered.doc?.models).toEqual([]);
  });
});

const forged = (window: unknown, maxRate: unknown, drift = false) => ({
  driftRate: { window, maxRate },
  manifestHash: `sha256:${'ab'.repeat(32)}`,
  banded: [{ executionId: 'x3', model: MODEL, drift }],
});

describe('H2: a replay-comparison entry cannot steer the governed window', () => {
  it("a trainer's hand-recorded entry {window 1, maxRate 1} is not counted (RPR-TG-053) and the flag stands", async () => {
    const j = await replayedJournal(b, REPLAYS);
    await recordComparison(b, j, b.trainer, forged(1, 1));
    const r = await driftJson(b, j, '--trust-store', b.keys.trustPath);
    expect(r.code).toBe(1);
    expect(r.doc?.models).toEqual([
      expect.objectContaining({ model: MODEL, drifted: 1, inWindow: 2, window: 50, maxRate: 0.1, flag: true }),
    ]);
    expect(rulesOf(r.doc)).toEqual(['RPR-TG-053:warning']);
    expect(r.doc?.findings?.[0]?.message).toContain('entry 3');
  });
  for (const [window, maxRate] of [
    [-9, 0.1],
    [-1, 0.1],
    [0, 0.1],
    [1.5, 0.1],
    [50, 1.5],
    [50, -0.1],
  ] as const)
    it(`a reviewer's entry with window ${window}, maxRate ${maxRate} is refused by name (RPR-TG-052), never NaN`, async () => {
      const j = await replayedJournal(b, REPLAYS);
      await recordComparison(b, j, b.keys.reviewer, forged(window, maxRate));
      const r = await driftJson(b, j, '--trust-store', b.keys.trustPath);
      expect(r.code).toBe(1);
      expect(rulesOf(r.doc)).toEqual(['RPR-TG-052:fail']);
      expect(r.doc?.findings?.[0]?.message).toContain('entry 3');
      expect(r.doc?.models).toEqual([expect.objectContaining({ drifted: 1, inWindow: 2, window: 50, flag: true })]);
      expect(r.doc?.models.every((m) => Number.isFinite(m.rate))).toBe(true);
    });
  it('an entry whose banded rows are not what a replay writes (no executionId) is refused, not filtered', async () => {
    const j = await replayedJournal(b, REPLAYS);
    await recordComparison(b, j, b.keys.reviewer, {
      ...forged(50, 0.1),
      banded: [{ model: MODEL, drift: true }],
    });
    const r = await driftJson(b, j, '--trust-store', b.keys.trustPath);
    expect(rulesOf(r.doc)).toEqual(['RPR-TG-052:fail']);
    expect(r.code).toBe(1);
  });
  it("a governing key's well-formed entry with a laxer window and limit does not win by coming last", async () => {
    const j = await replayedJournal(b, REPLAYS);
    await recordComparison(b, j, b.keys.officer, forged(1, 1));
    const r = await driftJson(b, j, '--trust-store', b.keys.trustPath);
    expect(r.code).toBe(1);
    expect(r.doc?.models[0]).toMatchObject({ maxRate: 0.1, flag: true });
  });
});

describe('M2: a flag is anchored with a trust store, by a governing key, once', () => {
  it('without --trust-store nothing is anchored: usage error (exit 3), the journal unchanged', async () => {
    const j = await replayedJournal(b, REPLAYS);
    const bytes = entriesText(j);
    const r = await driftJson(b, join(b.ex, 'tg'), '--journal', j, '--key', b.keys.reviewerPem);
    expect(r.code).toBe(3);
    expect(r.err).toContain('--trust-store');
    expect(entriesText(j)).toBe(bytes);
  });
  it("a trainer's key may not anchor the calibration authority's flag (exit 3, nothing written)", async () => {
    const j = await replayedJournal(b, REPLAYS);
    const bytes = entriesText(j);
    const args = ['--trust-store', b.keys.trustPath, '--journal', j, '--key', b.trainerPem];
    const r = await driftJson(b, join(b.ex, 'tg'), ...args);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/trainer/);
    expect(entriesText(j)).toBe(bytes);
  });
  it('an identical flag already in the journal is not anchored again, and the run says so', async () => {
    const j = await replayedJournal(b, REPLAYS);
    const args = [j, '--trust-store', b.keys.trustPath, '--journal', j, '--key', b.keys.officerPem];
    const first = await driftJson(b, ...args);
    expect(first.code).toBe(1);
    expect(first.doc?.models[0]?.anchor).toMatchObject({ seq: expect.any(Number) });
    expect(first.doc?.models[0]?.anchor?.alreadyAnchored).toBeUndefined();
    const second = await driftJson(b, ...args);
    expect(second.code).toBe(1);
    expect(second.doc?.models[0]?.anchor).toEqual({ ...first.doc?.models[0]?.anchor, alreadyAnchored: true });
    expect(kindsIn(j).filter((k) => k === 'recalibration-flag')).toHaveLength(1);
  });
});
