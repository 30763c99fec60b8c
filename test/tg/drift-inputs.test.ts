/**
 * What `reprise drift` counts from manifests (docs/tg-replay.md, "Drift telemetry"): a replay
 * that failed for anything but drift counts nothing and fails the run (RPR-TG-054), and one
 * replay is one observation however often it is given (a path twice, byte-identical copies,
 * a journal that recorded the manifest's replay, a manifest replayed twice into a journal).
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runPath } from '../../app/engine/run.js';
import { tgDriftRateOf } from '../../shared/report.js';
import {
  driftBench,
  driftJson,
  manifestCopies,
  manifestOf,
  oneCopy,
  replayedJournal,
  type DriftBench,
} from './drift-helpers.js';

let b: DriftBench;
const MODEL = 'reprise.reference@ref-1';

beforeAll(async () => {
  b = await driftBench('reprise-drift-in-');
});

/** The recorded EXACT decision of a within-ε manifest changed (ACCEPT → QUARANTINE): its replay fails RPR-TG-030. */
const decisionChanged = (t: string) => t.replace('"value": "ACCEPT"', '"value": "QUARANTINE"');

describe('H3: a replay that failed is no observation', () => {
  it('1 drifted manifest + 11 whose replay fails: the failures count nothing, the flag is raised, exit 1', async () => {
    const drifted = oneCopy(b, 'banded-drift-material');
    const tampered = manifestCopies(b, 'banded-within-epsilon', 11, decisionChanged);
    const r = await driftJson(b, drifted, tampered);
    expect(r.code).toBe(1);
    expect(r.doc?.models).toEqual([expect.objectContaining({ model: MODEL, drifted: 1, inWindow: 1, flag: true })]);
    const failed = (r.doc?.findings ?? []).filter((f) => f.rule === 'RPR-TG-054');
    expect(failed).toHaveLength(11);
    expect(failed.every((f) => f.severity === 'fail' && f.message.includes('RPR-TG-030'))).toBe(true);
  });
  it('a failing input fails the run even when nothing is flagged (not exit 0)', async () => {
    const r = await driftJson(b, manifestCopies(b, 'banded-within-epsilon', 1, decisionChanged));
    expect(r.doc?.models).toEqual([]);
    expect(r.code).toBe(1);
  });
  it("the replay's own drift figure counts no failed replay; drift (RPR-TG-031) alone still counts", async () => {
    const tampered = join(manifestCopies(b, 'banded-within-epsilon', 1, decisionChanged), 'c00', 'manifest.json');
    const failed = await runPath(tampered, 'replay', {});
    expect(failed.verdict).toBe('fail');
    expect(tgDriftRateOf((failed.details?.['tg'] as { driftRate?: never })?.driftRate)?.versions).toEqual([]);
    const drifted = await runPath(manifestOf(b, 'banded-drift-material'), 'replay', {});
    expect(tgDriftRateOf((drifted.details?.['tg'] as { driftRate?: never })?.driftRate)?.versions).toHaveLength(1);
  });
});

describe('M1: one replay, one observation', () => {
  it('the same folder given twice counts once, and says how many it dropped', async () => {
    const tg = join(b.ex, 'tg');
    const once = await driftJson(b, tg);
    const twice = await driftJson(b, tg, tg);
    expect(twice.doc?.observations).toBe(once.doc?.observations);
    expect(twice.doc?.duplicates).toBe(once.doc?.observations);
    expect(twice.doc?.models).toEqual(once.doc?.models);
  });
  it('12 byte-identical within-ε copies and 1 drifted manifest: 1 of 2, flagged', async () => {
    const r = await driftJson(b, manifestCopies(b, 'banded-within-epsilon', 12), oneCopy(b, 'banded-drift-material'));
    expect(r.doc?.duplicates).toBe(11);
    expect(r.doc?.models).toEqual([expect.objectContaining({ drifted: 1, inWindow: 2, flag: true })]);
    expect(r.code).toBe(1);
  });
  it('a journal and the manifests it recorded count each replay once', async () => {
    const j = await replayedJournal(b, ['banded-within-epsilon', 'banded-drift-not-material']);
    const r = await driftJson(
      b,
      j,
      oneCopy(b, 'banded-within-epsilon'),
      oneCopy(b, 'banded-drift-not-material'),
      '--trust-store',
      b.keys.trustPath,
    );
    expect(r.doc?.observations).toBe(2);
    expect(r.doc?.duplicates).toBe(2);
    expect(r.doc?.models[0]).toMatchObject({ drifted: 1, inWindow: 2 });
  });
  it('a manifest replayed twice into a journal is one observation', async () => {
    const j = await replayedJournal(b, ['banded-within-epsilon', 'banded-within-epsilon', 'banded-drift-not-material']);
    const r = await driftJson(b, j, '--trust-store', b.keys.trustPath);
    expect(r.doc?.observations).toBe(2);
    expect(r.doc?.duplicates).toBe(1);
    expect(r.doc?.models[0]).toMatchObject({ drifted: 1, inWindow: 2, flag: true });
  });
});
