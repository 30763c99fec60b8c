/* eslint-disable @typescript-eslint/no-explicit-any -- the tests edit parsed JSON fixtures freely */
/**
 * Hostile JsonLogic: every rule evaluation runs under the artifact's budget. Each case is
 * a small manifest that, unmetered, runs for minutes or allocates gigabytes; through the
 * built CLI it must end within seconds of CPU time, under 256 MiB, with a fail finding naming
 * the rule.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runMeasured } from '../helpers/measured-cli.js';
import { buildScenario, EXAMPLE_BUNDLE } from '../../app/kinds/tg/examples.js';
import { hashValue } from '../../app/core/hash.js';
import type { Report } from '../../shared/report.js';

let work = '';
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'reprise-tg-budget-'));
});

/** Replaces the ruleset's rule S (or adds a bundle modifier) and re-keys the artifact. */
async function hostile(name: string, o: { rule?: unknown; modifier?: unknown }): Promise<string> {
  const m: any = await buildScenario({ claimRef: `claim:budget-${name}`, withA: false });
  const rekey = (type: string, edit: (j: any) => void): { old: string; now: string } => {
    const old = Object.keys(m.artifacts).find((k) => m.artifacts[k].json?.type === type)!;
    const j = structuredClone(m.artifacts[old].json);
    edit(j);
    const now = hashValue(j);
    delete m.artifacts[old];
    m.artifacts[now] = { mediaType: 'application/json', json: j };
    for (const e of m.executions) e.inputs = e.inputs.map((i: string) => (i === old ? now : i));
    return { old, now };
  };
  if (o.rule !== undefined) rekey('tg.ruleset/v1', (j) => void (j.rules.S = o.rule));
  if (o.modifier !== undefined) {
    const { now } = rekey(
      EXAMPLE_BUNDLE.type,
      (j) => void j.modifiers.push({ id: 'hostile', when: o.modifier, factor: 1 }),
    );
    m.policyContext.bundleHash = now;
    m.executions[0].value.bundleHash = now;
  }
  const p = join(work, `${name}.json`);
  writeFileSync(p, JSON.stringify(m));
  return p;
}

/** `reprise replay ARGS --json` in a child whose CPU time and peak RSS are measured; its report. */
async function replayMeasured(
  args: string[],
): Promise<{ code: number | null; report: Report; cpuMs: number; rssMiB: number }> {
  const r = await runMeasured(work, ['replay', ...args, '--json'], 100_000);
  try {
    return { code: r.code, report: JSON.parse(r.stdout) as Report, cpuMs: r.cpuMs, rssMiB: r.rssMiB };
  } catch {
    throw new Error(
      `no report (exit ${r.code}${r.killed ? ', killed: it hung' : ''}, ${Math.round(r.cpuMs)} ms CPU): ${r.stderr.slice(0, 500)}`,
    );
  }
}

let nested: unknown = { '+': [{ var: 'accumulator' }, 1] };
for (let i = 0; i < 5; i++) nested = { reduce: [range(100), nested, 0] };
let deepMap: unknown = { var: '' };
for (let i = 0; i < 4; i++) deepMap = { map: [range(100), deepMap] };
const CASES: [string, { rule?: unknown; modifier?: unknown }, string][] = [
  ['five nested reduce over 100 elements', { rule: nested }, 'rule "S"'],
  [
    '30 doublings through merge',
    { rule: { reduce: [range(30), { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, [1]] } },
    'rule "S"',
  ],
  [
    '40 doublings through cat',
    { rule: { reduce: [range(40), { cat: [{ var: 'accumulator' }, { var: 'accumulator' }] }, 'xx'] } },
    'rule "S"',
  ],
  ['four nested map over 100 elements', { rule: deepMap }, 'rule "S"'],
  [
    'filter / all / some / none nested over 100 elements',
    {
      rule: {
        filter: [
          range(100),
          { all: [range(100), { some: [range(100), { none: [range(100), { '==': [{ var: '' }, -1] }] }] }] },
        ],
      },
    },
    'rule "S"',
  ],
  ['nested reduce in a bundle modifier', { modifier: nested }, 'modifier "hostile"'],
  [
    'an array wrapped 100 000 times',
    {
      rule: {
        reduce: [
          { reduce: [range(17), { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, [1]] },
          [{ var: 'accumulator' }],
          [],
        ],
      },
    },
    'rule "S"',
  ],
];

describe('hostile JsonLogic ends in a fail finding naming the rule, in seconds of CPU time and under 256 MiB', () => {
  for (const [name, o, names] of CASES)
    it(
      name,
      async () => {
        const p = await hostile(name.replace(/\W+/g, '-'), o);
        const { code, report, cpuMs, rssMiB } = await replayMeasured([p]);
        expect(code).toBe(1);
        const f = report.findings.find((x) => x.rule === 'RPR-TG-038');
        expect(f, JSON.stringify(report.findings.map((x) => [x.rule, x.message]))).toBeDefined();
        expect(f!.severity).toBe('fail');
        expect(f!.message).toContain(names);
        expect(f!.message).toMatch(/tg-rule-(operations|result-size)/);
        expect(cpuMs).toBeLessThan(10_000);
        expect(rssMiB).toBeLessThan(256);
      },
      150_000,
    );
});

describe('the budget is governed: --limit raises or lowers it', () => {
  it('a legitimate ruleset passes by default and fails with a budget too small for it', async () => {
    const p = await hostile('legit', {});
    expect((await replayMeasured([p])).code).toBe(0);
    const small = await replayMeasured([p, '--limit', 'tg-rule-operations=20']);
    expect(small.code).toBe(1);
    expect(small.report.findings.find((f) => f.rule === 'RPR-TG-038')!.message).toContain('20 operations');
  });
  it('raising tg-rule-operations lets the merge doubling reach tg-rule-result-size instead', async () => {
    const p = await hostile('merge-raised', {
      rule: { reduce: [range(30), { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, [1]] },
    });
    const r = await replayMeasured([
      p,
      '--limit',
      'tg-rule-operations=100000000',
      '--limit',
      'tg-rule-result-size=1000',
    ]);
    expect(r.report.findings.find((f) => f.rule === 'RPR-TG-038')!.message).toContain('larger than 1000 units');
  });
  it('a limit name Reprise does not know is a usage error', async () => {
    const r = await runCli(['replay', await hostile('unknown-limit', {}), '--limit', 'tg-rule-steps=5']);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('tg-rule-operations');
  });
});

describe('inherited names in rules never leak host objects', () => {
  for (const v of ['constructor', 'toString', '__proto__', 'constructor.name', 'x.__proto__', 'hasOwnProperty'])
    it(`{"var": "${v}"} is refused as not JSON data, never printed`, async () => {
      const p = await hostile(`var-${v}`, { rule: { cat: [{ var: v }] } });
      const { code, report } = await replayMeasured([p]);
      expect(code).toBe(1);
      const text = JSON.stringify(report);
      expect(text).not.toContain('native code');
      expect(text).not.toContain('function Object');
      expect(report.findings.some((f) => f.rule === 'RPR-TG-033' || f.rule === 'RPR-TG-030')).toBe(true);
    }, 150_000);
});
