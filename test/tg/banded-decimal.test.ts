/* eslint-disable @typescript-eslint/no-explicit-any -- the tests edit parsed JSON fixtures freely */
/** BANDED pass criterion in exact decimal arithmetic on each number's shortest text: a delta of exactly ε passes. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildScenario, EXAMPLE_BUNDLE } from '../../app/kinds/tg/examples.js';
import { exact, exactDelta, withinEpsilon } from '../../app/kinds/tg/decimal.js';
import { failRules, replayJson } from './helpers.js';

const A = 'comp.TG.OUTPUT.CONFIDENCE-SCORE.v1_0';

describe('exactDelta / withinEpsilon', () => {
  it('0.8049999842673239 against 0.7849999842673239 is exactly 0.02 and passes at ε 0.02 (binary says 0.020000000000000018)', () => {
    expect(Math.abs(0.8049999842673239 - 0.7849999842673239)).toBeGreaterThan(0.02);
    const d = exactDelta(0.8049999842673239, 0.7849999842673239);
    expect(d.delta.toString()).toBe('0.02');
    expect(d.json).toBe(0.02);
    expect(withinEpsilon(d.delta, 0.02)).toBe(true);
    expect(withinEpsilon(exactDelta(0.7849999842673239, 0.8049999842673239).delta, 0.02)).toBe(true);
  });
  it('just under ε passes, just over fails, at ε passes', () => {
    expect(withinEpsilon(exactDelta(0.8049999842673238, 0.7849999842673239).delta, 0.02)).toBe(true);
    expect(withinEpsilon(exactDelta(0.804999984267324, 0.7849999842673239).delta, 0.02)).toBe(false);
    expect(withinEpsilon(exactDelta(0.3, 0.1).delta, 0.2)).toBe(true); // binary: 0.19999999999999998
    expect(withinEpsilon(exactDelta(0.1, 0.4).delta, 0.3)).toBe(true); // binary: 0.30000000000000004
    expect(withinEpsilon(exactDelta(0.1, 0.4).delta, 0.29999999999999993)).toBe(false);
  });
  it('is never rounded, whatever the exponents', () => {
    expect(exactDelta(1e-300, 0.5).delta.toFixed()).toBe('0.4' + '9'.repeat(299));
    expect(exactDelta(1e-300, 0.5).delta.plus(exact(1e-300)).eq(exact(0.5))).toBe(true);
    expect(exactDelta(0, 0).json).toBe(0);
  });
});

describe('replay of a BANDED A at, under and over ε (0.03)', () => {
  let work = '';
  let q = 0;
  let target = 0;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'reprise-tg-dec-'));
    const base = await buildScenario({ claimRef: 'claim:2026-11-0102' });
    q = (base['executions'] as any[]).find((e) => e.output === A).value as number;
    target = Number(exact(q).plus('0.03').toString());
  });
  const run = async (recorded: number) => {
    const m = await buildScenario({ claimRef: 'claim:2026-11-0102', recordedADelta: recorded - q });
    const a = (m['executions'] as any[]).find((e) => e.output === A);
    expect(a.value).toBe(recorded);
    const p = join(work, `m-${recorded}.json`);
    writeFileSync(p, JSON.stringify(m));
    // The governed bundle decides the band (the embedded one's ε decides no pass: RPR-TG-043).
    const policy = join(work, 'bundle.json');
    writeFileSync(policy, JSON.stringify(EXAMPLE_BUNDLE));
    const { r, report } = await replayJson([p, '--policy', policy]);
    return { r, report, row: report.comparisons!.find((c) => c.output === A)!, events: report.events ?? [] };
  };

  it('the recorded A is exactly 0.03 above the replay (in decimal) and the binary difference is above 0.03', () => {
    expect(exact(target).minus(exact(q)).toString()).toBe('0.03');
    expect(target - q).toBeGreaterThan(0.03);
  });
  it('at ε: pass, delta exactly 0.03', async () => {
    const { r, row } = await run(target);
    expect(row.status).toBe('pass');
    expect(row.delta).toBe(0.03);
    expect(r.code).toBe(0);
  });
  it('just under ε: pass', async () => {
    const { row } = await run(target - Number.EPSILON / 2);
    expect(row.status).toBe('pass');
    expect(withinEpsilon(exact(row.delta!), 0.03)).toBe(true);
  });
  it('just over ε: REPLAY-DRIFT whose delta is the exact decimal', async () => {
    const over = target + Number.EPSILON / 2;
    const { r, report, row, events } = await run(over);
    expect(row.status).toBe('fail');
    expect(r.code).toBe(1);
    expect(failRules(report)).toContain('RPR-TG-031');
    const want = Number(exact(over).minus(exact(q)).toString());
    expect(row.delta).toBe(want);
    const drift = events.find((e: any) => e.type === 'comp.TG.EVENT.REPLAY-DRIFT.v1_0') as any;
    expect(drift.delta).toBe(want);
    expect(report.findings.find((f) => f.rule === 'RPR-TG-031')!.actual).toBe(want);
  });
});
