/**
 * Property tests: random traces generated with the provider always verify and replay
 * clean; changing any single recorded number makes replay fail.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generateTrace, type Eval } from '../../app/kinds/acgp/generate.js';
import { run } from './helpers.js';

const traceArb = fc.record({
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  count: fc.integer({ min: 1, max: 40 }),
  startDebt: fc.integer({ min: 0, max: 120 }).map((n) => n / 10),
  priv: fc.boolean(),
});

const gen = (t: { seed: number; count: number; startDebt: number; priv: boolean }, priv = t.priv) =>
  generateTrace({
    seed: t.seed,
    count: t.count,
    startDebt: t.startDebt,
    private: priv,
    traceId: `trace-prop-${t.seed}`,
  });

/** Every number a single edit may change, with a change that must be detected. */
function numberSites(trace: Eval[]): { label: string; apply: (t: Eval[]) => void }[] {
  const sites: { label: string; apply: (t: Eval[]) => void }[] = [];
  trace.forEach((e, i) => {
    for (const k of ['ctq_score', 'risk_score'] as const)
      sites.push({ label: `/${i}/${k}`, apply: (t) => void (t[i]![k] = bump(t[i]![k] as number)) });
    for (const [name, d] of Object.entries(
      e['ctq_dimensions'] as Record<string, { score: number; weight: number; status: string }>,
    )) {
      if (d.status !== 'evaluated') continue;
      sites.push({
        label: `/${i}/ctq_dimensions/${name}/score`,
        apply: (t) => void (dim(t, i, name).score = d.score >= 0.5 ? round(d.score - 0.01) : round(d.score + 0.01)),
      });
      sites.push({
        label: `/${i}/ctq_dimensions/${name}/weight`,
        apply: (t) => void (dim(t, i, name).weight = d.weight >= 0.5 ? round(d.weight - 0.05) : round(d.weight + 0.05)),
      });
    }
    for (const k of ['pre', 'delta', 'post'] as const)
      sites.push({
        label: `/${i}/trust_debt/${k}`,
        apply: (t) =>
          void ((t[i]!['trust_debt'] as Record<string, number>)[k] = bump(
            (t[i]!['trust_debt'] as Record<string, number>)[k]!,
          )),
      });
  });
  return sites;
}
const round = (x: number) => Number(x.toFixed(4));
const bump = (x: number) => round(x + 0.0001);
const dim = (t: Eval[], i: number, name: string) =>
  (t[i]!['ctq_dimensions'] as Record<string, { score: number; weight: number }>)[name]!;

describe('property: generated traces pass', () => {
  it('verify and replay pass every generated trace (default and private providers)', async () => {
    await fc.assert(
      fc.asyncProperty(traceArb, async (t) => {
        const evals = gen(t);
        const v = await run(evals, 'verify', {}, 't.json');
        const r = await run(evals.map((e) => JSON.stringify(e)).join('\n') + '\n', 'replay', {}, 't.jsonl');
        expect(v.findings.filter((f) => f.severity === 'fail' || f.severity === 'unavailable')).toEqual([]);
        expect(r.findings.filter((f) => f.severity === 'fail' || f.severity === 'unavailable')).toEqual([]);
        expect(r.artifact.kind).toBe(evals.length === 1 ? 'acgp-eval' : 'acgp-trace');
      }),
      { numRuns: 60 },
    );
  });
});

describe('property: any single changed number fails', () => {
  it('changing one score, weight, ctq_score, risk_score, pre, delta or post makes replay fail (default provider)', async () => {
    await fc.assert(
      fc.asyncProperty(traceArb, fc.nat(), async (t, pick) => {
        const evals = gen(t, false);
        const sites = numberSites(evals);
        const site = sites[pick % sites.length]!;
        const changed = structuredClone(evals);
        site.apply(changed);
        const r = await run(changed, 'replay');
        expect(r.verdict, `${site.label} changed, yet: ${JSON.stringify(r.findings)}`).toBe('fail');
        expect(
          r.findings.some(
            (f) => f.severity === 'fail' && (f.pointer ?? '').startsWith(site.label.split('/').slice(0, 2).join('/')),
          ),
        ).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});

describe('property: bad input never crashes', () => {
  it('replacing any member (at any depth) of an EVAL or trace with random JSON gives a report, never an exception', async () => {
    const base = generateTrace({ count: 3, seed: 11, private: false });
    const paths: (string | number)[][] = [];
    const walk = (v: unknown, p: (string | number)[]) => {
      paths.push(p);
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...p, i]));
      else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) walk(x, [...p, k]);
    };
    walk(base, []);
    await fc.assert(
      fc.asyncProperty(
        fc.nat(),
        fc.jsonValue({ maxDepth: 2 }),
        fc.constantFrom('verify', 'replay') as fc.Arbitrary<'verify' | 'replay'>,
        fc.boolean(),
        async (pick, junk, mode, lines) => {
          const t = structuredClone(base) as unknown as Record<string | number, unknown>;
          const path = paths[pick % paths.length]!;
          if (path.length === 0) return;
          let o = t as Record<string | number, unknown>;
          for (const k of path.slice(0, -1)) o = o[k] as Record<string | number, unknown>;
          o[path.at(-1)!] = junk;
          const text = lines ? (t as unknown as unknown[]).map((e) => JSON.stringify(e)).join('\n') : JSON.stringify(t);
          const r = await run(text, mode, {}, lines ? 't.jsonl' : 't.json');
          expect(['pass', 'fail', 'unavailable']).toContain(r.verdict);
          JSON.stringify(r);
        },
      ),
      { numRuns: 400 },
    );
  });
});
