/**
 * `details.tg.driftRate` of a TG replay: per model version (the one the replay ran under)
 * the drift rate over the bundle's governed window, with the governed maximum.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tgDriftRateOf, type TgDriftRate } from '../../shared/report.js';
import { hashValue } from '../../app/core/hash.js';
import { runPath } from '../../app/engine/run.js';
import { writeExamples } from '../../app/examples/index.js';

let dir = '';
let bundle: { driftRate: { window: number; maxRate: number } };
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reprise-driftrate-'));
  await writeExamples(dir);
  bundle = JSON.parse(await readFile(join(dir, 'tg/bundle.json'), 'utf8'));
});

async function driftRate(example: string, whatIf?: string[]): Promise<{ dr: TgDriftRate | null; bundleHash: unknown }> {
  // The governed bundle (--policy): an A within only the embedded bundle's ε is not decided (RPR-TG-043).
  const policy = join(dir, 'tg/bundle.json');
  const r = await runPath(join(dir, example), 'replay', whatIf ? { whatIf, policy } : { policy });
  const tg = r.details?.['tg'] as { driftRate?: never; bundleHash?: unknown } | undefined;
  return { dr: tgDriftRateOf(tg?.driftRate), bundleHash: tg?.bundleHash };
}

describe('details.tg.driftRate', () => {
  it('a drifted BANDED replay: the version exceeds the governed maximum, window and maximum from the bundle', async () => {
    const { dr, bundleHash } = await driftRate('tg/banded-drift-material/manifest.json');
    expect(bundleHash).toBe(hashValue(bundle));
    expect(dr).toEqual({
      window: bundle.driftRate.window,
      maxRate: bundle.driftRate.maxRate,
      versions: [
        { model: 'reprise.reference@ref-1', observations: 1, inWindow: 1, drifted: 1, rate: 1, exceeds: true },
      ],
    });
  });
  it('within ε: rate 0, not exceeding', async () => {
    const { dr } = await driftRate('tg/banded-within-epsilon/manifest.json');
    expect(dr?.versions).toEqual([
      { model: 'reprise.reference@ref-1', observations: 1, inWindow: 1, drifted: 0, rate: 0, exceeds: false },
    ]);
  });
  it('a what-if replay is counted under the substituted version', async () => {
    const { dr } = await driftRate('tg/banded-within-epsilon/manifest.json', ['model=ref-2']);
    expect(dr?.versions.map((v) => v.model)).toEqual(['reprise.reference@ref-2']);
  });
  it('a manifest without BANDED replays has the governed figures and no versions', async () => {
    const { dr } = await driftRate('tg/exact-intact/manifest.json');
    expect(dr).toEqual({ window: bundle.driftRate.window, maxRate: bundle.driftRate.maxRate, versions: [] });
  });
  it('tgDriftRateOf refuses malformed values', () => {
    expect(tgDriftRateOf(undefined)).toBeNull();
    expect(tgDriftRateOf({ window: 50, maxRate: 0.1 })).toBeNull();
    expect(tgDriftRateOf({ window: 50, maxRate: 0.1, versions: [{ model: 'm', rate: '1' }] })).toBeNull();
    expect(tgDriftRateOf({ window: 50, maxRate: 0.1, versions: [] })).toEqual({
      window: 50,
      maxRate: 0.1,
      versions: [],
    });
  });
});
