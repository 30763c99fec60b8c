/** One EVAL: the seed's example, its corrected twin, exact CTQ / risk / intervention, form. */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SEED_EVAL, correctedSeedEval } from '../../app/kinds/acgp/examples.js';
import { SHARED } from '../helpers/cli.js';
import { findingOf, mkEval, run, rules, tempFile } from './helpers.js';

async function seedExample(): Promise<string> {
  const text = await readFile(`${SHARED}seeds/003_fc0d958177620f1b.txt`, 'utf8');
  const start = text.indexOf('{\n    "trace_id"');
  const end = text.indexOf('\nPrivate providers MAY');
  return text.slice(start, end).trim() + '\n';
}

describe("the seed's EVAL example", () => {
  it('is carried verbatim by the examples', async () => {
    expect(SEED_EVAL).toBe(await seedExample());
  });

  it('in binary floating point sums to 0.8925000000000001 (why Reprise uses exact decimals)', () => {
    expect(0.89 * 0.25 + 0.87 * 0.2 + 0.92 * 0.2 + 0.9 * 0.2 + 0.88 * 0.15).toBe(0.8925000000000001);
  });

  for (const mode of ['verify', 'replay'] as const) {
    it(`fails under ${mode} with expected 0.8925 and actual 0.8915`, async () => {
      const r = await run(await seedExample(), mode);
      expect(r.artifact.kind).toBe('acgp-eval');
      expect(r.artifact.id).toBe('trace-12345');
      expect(r.verdict).toBe('fail');
      const f = findingOf(r, 'RPR-ACGP-005');
      expect(f).toMatchObject({ severity: 'fail', pointer: '/ctq_score', expected: 0.8925, actual: 0.8915 });
      expect(findingOf(r, 'RPR-ACGP-006')).toMatchObject({ expected: 0.1075, actual: 0.1085 });
      // its attestation digest is the placeholder "sha256:..."
      expect(findingOf(r, 'RPR-ACGP-012')).toMatchObject({
        pointer: '/trust_debt_extended/attestation/digest',
        actual: 'sha256:...',
      });
      const row = r.comparisons!.find((c) => c.output === '/ctq_score')!;
      expect(row).toMatchObject({ mode: 'EXACT', original: 0.8915, replayed: 0.8925, status: 'fail' });
    });
  }

  it('its corrected twin passes verify and replay, and replay says plainly the private debt was not recomputed', async () => {
    const twin = correctedSeedEval();
    const v = await run(twin, 'verify');
    expect(v.verdict).toBe('pass');
    const r = await run(twin, 'replay');
    expect(r.verdict).toBe('pass');
    expect(findingOf(r, 'RPR-ACGP-013').message).toMatch(/NOT recomputed/);
    const rows = r.comparisons!.filter((c) => c.output.startsWith('/trust_debt/'));
    expect(rows.map((c) => c.mode)).toEqual(['RECORDED', 'RECORDED', 'RECORDED', 'RECORDED']);
    expect(rows.find((c) => c.output === '/trust_debt/post')).toMatchObject({
      original: 1.2,
      replayed: 1.2,
      status: 'pass',
    });
    expect(r.details!['notRecomputed']).toEqual(['urn:acgp:ext:trust-debt-private@1']);
  });

  it('the CLI fails it with exit 1 and shows both values', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const p = await tempFile('seed.json', await seedExample());
    const res = await runCli(['verify', p]);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(/RPR-ACGP-005/);
    expect(res.stdout).toMatch(/expected 0\.8925/);
    expect(res.stdout).toMatch(/actual {3}0\.8915/);
  });
});

const dims = (entries: [number, number, string?][]) =>
  Object.fromEntries(
    entries.map(([score, weight, status], k) => [
      `d${k}`,
      { score, weight, status: status ?? 'evaluated', contributors: [] },
    ]),
  );

describe('exact CTQ and risk', () => {
  it('rounds half-even to 4 places: 0.12345 → 0.1234, 0.12355 → 0.1236, and risk likewise', async () => {
    const a = {
      ...mkEval({ intervention: 'block', pre: 0, delta: 2, post: 2 }),
      ctq_dimensions: dims([[0.12345, 1]]),
      ctq_score: 0.1234,
      risk_score: 0.8766,
    };
    expect((await run(a, 'verify')).verdict).toBe('pass');
    const b = { ...a, ctq_score: 0.1235 };
    expect(findingOf(await run(b, 'verify'), 'RPR-ACGP-005')).toMatchObject({ expected: 0.1234, actual: 0.1235 });
    const c = { ...a, ctq_dimensions: dims([[0.12355, 1]]), ctq_score: 0.1236, risk_score: 0.8764 };
    expect((await run(c, 'verify')).verdict).toBe('pass');
  });

  it('ignores dimensions that are not evaluated, and fails weights of evaluated dimensions that do not sum to 1', async () => {
    const ok = {
      ...mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0 }),
      ctq_dimensions: dims([
        [0.8, 0.6],
        [0.9, 0.4],
        [0.1, 0.5, 'not_applicable'],
      ]),
      ctq_score: 0.84,
      risk_score: 0.16,
    };
    expect((await run(ok, 'verify')).verdict).toBe('pass');
    const bad = {
      ...ok,
      ctq_dimensions: dims([
        [0.8, 0.6],
        [0.9, 0.35],
      ]),
    };
    const r = await run(bad, 'verify');
    expect(r.verdict).toBe('fail');
    expect(findingOf(r, 'RPR-ACGP-004')).toMatchObject({ expected: 1, actual: 0.95 });
    expect(r.comparisons!.find((c) => c.output === '/ctq_score')!.status).toBe('unavailable');
  });

  it('fails when no dimension is evaluated, or a score is out of range', async () => {
    const none = {
      ...mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0 }),
      ctq_dimensions: dims([[0.8, 1, 'skipped']]),
    };
    expect(rules(await run(none, 'verify'))).toContain('RPR-ACGP-016');
    const out = { ...mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0 }), ctq_dimensions: dims([[1.2, 1]]) };
    expect(findingOf(await run(out, 'verify'), 'RPR-ACGP-003').pointer).toBe('/ctq_dimensions/d0/score');
  });
});

describe('interventions', () => {
  it('a recorded intervention below the computed one fails: trust debt never relaxes an intervention', async () => {
    const e = { ...mkEval({ intervention: 'escalate', pre: 0, delta: 0.5, post: 0.5 }), intervention: 'nudge' };
    const r = await run(e, 'verify');
    expect(findingOf(r, 'RPR-ACGP-007')).toMatchObject({
      severity: 'fail',
      expected: 'escalate',
      actual: 'nudge',
      pointer: '/intervention',
    });
    expect(findingOf(r, 'RPR-ACGP-007').message).toMatch(/never relaxes/);
  });

  it('a stricter recorded intervention passes (trust debt may tighten scrutiny)', async () => {
    const e = { ...mkEval({ intervention: 'ok', pre: 0, delta: 2, post: 2 }), intervention: 'block' };
    const r = await run(e, 'replay');
    expect(r.verdict).toBe('pass');
    expect(r.comparisons!.find((c) => c.output === '/intervention')).toMatchObject({
      original: 'block',
      replayed: 'ok',
      status: 'pass',
    });
  });

  it('thresholds are closed above: risk exactly 0.40 is ok, 0.4001 is nudge', async () => {
    const at = {
      ...mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0 }),
      ctq_dimensions: dims([[0.6, 1]]),
      ctq_score: 0.6,
      risk_score: 0.4,
    };
    expect((await run(at, 'verify')).verdict).toBe('pass');
    const above = { ...at, ctq_dimensions: dims([[0.5999, 1]]), ctq_score: 0.5999, risk_score: 0.4001 };
    expect(findingOf(await run(above, 'verify'), 'RPR-ACGP-007')).toMatchObject({ expected: 'nudge', actual: 'ok' });
  });

  it('a risk the 4-place rounding carries across a threshold: an intervention only one reading allows is unavailable', async () => {
    // ctq 0.59996: the exact risk 0.40004 gives nudge, the 4-place 0.4000 the EVAL records gives ok.
    const e = {
      ...mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0 }),
      ctq_dimensions: dims([[0.59996, 1]]),
      ctq_score: 0.6,
      risk_score: 0.4,
    };
    const r = await run(e, 'verify');
    expect(r.verdict).toBe('unavailable');
    expect(findingOf(r, 'RPR-ACGP-007')).toMatchObject({ severity: 'unavailable', expected: 'nudge', actual: 'ok' });
    expect(findingOf(r, 'RPR-ACGP-007').message).toBe(
      'the EVAL: risk 0.4000 gives ok but risk 0.40004 (exact) gives nudge with thresholds ok ≤ 0.4, nudge ≤ 0.55, escalate ≤ 0.7; which one the writer compared is not known, so whether the recorded ok relaxed the intervention cannot be decided',
    );
    expect(r.comparisons!.find((c) => c.output === '/intervention')).toMatchObject({
      status: 'unavailable',
      replayed: 'nudge',
    });
    // What both readings allow passes; what neither allows fails.
    expect((await run({ ...e, intervention: 'nudge' }, 'verify')).verdict).toBe('pass');
    const below = { ...e, ctq_dimensions: dims([[0.60004, 1]]) };
    expect((await run(below, 'verify')).verdict).toBe('pass');
    const high = { ...e, ctq_dimensions: dims([[0.44996, 1]]), ctq_score: 0.45, risk_score: 0.55, intervention: 'ok' };
    expect(findingOf(await run(high, 'verify'), 'RPR-ACGP-007').severity).toBe('fail');
  });

  it('uses the stricter of the blueprint and tier thresholds from --policy', async () => {
    const policy = await tempFile(
      'policy.json',
      JSON.stringify({
        type: 'reprise.acgp-policy/v1',
        blueprints: { 'finance_qa@2.1': { risk_thresholds: { ok: 0.3, nudge: 0.6, escalate: 0.8 } } },
        tiers: { 'GT-2': { risk_thresholds: { ok: 0.35, nudge: 0.45, escalate: 0.9 } } },
      }),
    );
    // risk 0.32: baseline ok; blueprint nudge (0.32 > 0.30); the stricter-of is ok 0.30, nudge 0.45, escalate 0.80 → nudge
    const e = {
      ...mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0 }),
      ctq_dimensions: dims([[0.68, 1]]),
      ctq_score: 0.68,
      risk_score: 0.32,
    };
    expect((await run(e, 'verify')).verdict).toBe('pass');
    expect(findingOf(await run(e, 'verify', { policy }), 'RPR-ACGP-007')).toMatchObject({
      expected: 'nudge',
      actual: 'ok',
    });
    // risk 0.5: stricter-of gives escalate (0.5 > 0.45) although each alone would give nudge
    const f = {
      ...e,
      ctq_dimensions: dims([[0.5, 1]]),
      ctq_score: 0.5,
      risk_score: 0.5,
      intervention: 'nudge',
      trust_debt: { provider_id: 'acgp.core.default@1', pre: 0, delta: 0.5, post: 0.5, thresholds_crossed: [] },
    };
    expect(findingOf(await run(f, 'verify', { policy }), 'RPR-ACGP-007')).toMatchObject({
      expected: 'escalate',
      actual: 'nudge',
    });
  });

  it('a policy tripwire action raises the computed intervention; halt without a tripwire is a warning', async () => {
    const policy = await tempFile(
      'p.json',
      JSON.stringify({
        type: 'reprise.acgp-policy/v1',
        blueprints: { 'finance_qa@2.1': { tripwires: { pii_leak: 'halt' } } },
      }),
    );
    const e = { ...mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0 }), tripwires_triggered: ['pii_leak'] };
    expect(findingOf(await run(e, 'verify', { policy }), 'RPR-ACGP-007')).toMatchObject({
      expected: 'halt',
      actual: 'ok',
    });
    const h = { ...mkEval({ intervention: 'halt', pre: 0, delta: 5, post: 5 }), tripwires_triggered: [] };
    const r = await run(h, 'verify');
    expect(r.verdict).toBe('pass');
    expect(rules(r, 'warning')).toEqual(['RPR-ACGP-008']);
  });
});

describe('form', () => {
  it('refuses a duplicate member, a local timestamp, a malformed trust_debt and a mismatched descriptor', async () => {
    const text = JSON.stringify(mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0 })).replace(
      '"flagged":false',
      '"flagged":false,"flagged":true',
    );
    const d = await run(text, 'verify');
    expect(d.artifact.kind).toBe('acgp-eval');
    expect(findingOf(d, 'RPR-ACGP-001').pointer).toBe('/flagged');
    expect(
      findingOf(
        await run(
          { ...mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0 }), timestamp: '2026-05-04T10:00:00+02:00' },
          'verify',
        ),
        'RPR-ACGP-009',
      ).actual,
    ).toBe('2026-05-04T10:00:00+02:00');
    const td = {
      ...mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0 }),
      trust_debt: { provider_id: 'acgp.core.default@1', pre: '0', delta: 0, post: 0, thresholds_crossed: [] },
    };
    expect(findingOf(await run(td, 'verify'), 'RPR-ACGP-002').pointer).toBe('/trust_debt/pre');
    const x = {
      ...mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0 }),
      trust_debt_extended: { provider: { id: 'urn:other@1', visibility: 'secret' } },
    };
    const r = await run(x, 'verify');
    expect(r.findings.filter((f) => f.rule === 'RPR-ACGP-011').map((f) => f.pointer)).toEqual([
      '/trust_debt_extended/provider/id',
      '/trust_debt_extended/provider/visibility',
    ]);
  });

  it('fails post != pre + delta (observable for every provider)', async () => {
    const r = await run(mkEval({ intervention: 'nudge', pre: 1, delta: 0.5, post: 1.6 }), 'verify');
    expect(findingOf(r, 'RPR-ACGP-010')).toMatchObject({ expected: 1.5, actual: 1.6, pointer: '/trust_debt/post' });
  });

  it('an unknown public provider cannot be replayed: unavailable, never a guess', async () => {
    const r = await run(
      mkEval({ intervention: 'nudge', pre: 1, delta: 0.5, post: 1.5, provider: 'urn:acgp:ext:custom@2' }),
      'replay',
    );
    expect(r.verdict).toBe('unavailable');
    expect(rules(r, 'unavailable')).toEqual(['RPR-ACGP-014']);
  });

  it('a malformed --policy is a usage error (exit 3, one line)', async () => {
    const { runCli } = await import('../helpers/cli.js');
    const policy = await tempFile(
      'bad.json',
      JSON.stringify({
        type: 'reprise.acgp-policy/v1',
        blueprints: { b: { risk_thresholds: { ok: 0.7, nudge: 0.5, escalate: 0.9 } } },
      }),
    );
    const p = await tempFile('e.json', JSON.stringify(mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0 })));
    const res = await runCli(['verify', p, '--policy', policy]);
    expect(res.code).toBe(3);
    expect(res.stderr).toMatch(/ok <= nudge <= escalate/);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });
});
