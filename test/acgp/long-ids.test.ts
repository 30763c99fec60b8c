/**
 * An id a trace names (a trust-debt provider, a blueprint, a tier, the trace id) may be as long
 * as a line (acgp-line-bytes, 1 MiB). The report named each provider whole, in its
 * RPR-ACGP-013 or 014 and in details.notRecomputed: 60 private providers of 200 KiB ids made a
 * report of about 20 MB, and held 10 MB of names to the end. A long id is now held and quoted
 * cut (app/kinds/acgp/held-id.ts): its start, its length, its SHA-256; the finding points at
 * the EVAL where it first appears, which holds it whole. Bounded by lengths, never by time.
 */
import { describe, expect, it } from 'vitest';
import { hashBytes } from '../../app/core/hash.js';
import { heldId, ID_SHOWN } from '../../app/kinds/acgp/held-id.js';
import type { Report } from '../../shared/report.js';
import { findingOf, mkEval, rules, run, type EvalSpec } from './helpers.js';

const KIB = 1024;
/** A long id: `size` characters, the same start for every `k`, which only its end tells apart. */
const longId = (k: number | string, size = 200 * KIB) => `urn:x:${'p'.repeat(size - 16)}:${String(k).padStart(9, '0')}`;

const privateEval = (id: string, s: Partial<Omit<EvalSpec, 'provider'>> = {}) => ({
  ...mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0, ...s, provider: id }),
  trust_debt_extended: { provider: { id, visibility: 'private', fail_mode: 'deny' } },
});
const publicEval = (id: string) => ({
  ...mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0, provider: id }),
  trust_debt_extended: { provider: { id, visibility: 'public', fail_mode: 'deny' } },
});
const lines = (evals: readonly unknown[]) => evals.map((e) => JSON.stringify(e)).join('\n') + '\n';
const jsonLength = (r: Report) => JSON.stringify(r).length;
const of = (r: Report, rule: string) => r.findings.filter((f) => f.rule === rule);

/** The value at a pointer `/i/a/b` of the trace (the id whole, where a finding points). */
function at(trace: readonly unknown[], pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((v, k) => (v as Record<string, unknown>)[k], trace);
}

describe('heldId: how a report holds and names an id', () => {
  it('keeps an id of up to 80 characters as it is', () => {
    expect(heldId('urn:x:a@1')).toBe('urn:x:a@1');
    expect(heldId('q'.repeat(ID_SHOWN))).toBe('q'.repeat(ID_SHOWN));
  });

  it('cuts a longer one to its start, its length and its SHA-256, so ids sharing a start stay two', () => {
    const a = longId(1);
    const b = longId(2);
    expect(heldId(a)).toBe(`${JSON.stringify(a.slice(0, 80))}… (cut from ${a.length} characters; ${hashBytes(a)})`);
    expect(heldId(a)).not.toBe(heldId(b));
    expect(heldId(a).length).toBeLessThan(200);
    // Longer than any id held whole: no short id is ever taken for a long one.
    expect(heldId('q'.repeat(ID_SHOWN + 1)).length).toBeGreaterThan(ID_SHOWN);
  });

  it('never cuts inside a surrogate pair', () => {
    const id = `${'q'.repeat(ID_SHOWN - 1)}😀${'q'.repeat(100)}`;
    expect(heldId(id).startsWith(`"${'q'.repeat(ID_SHOWN - 1)}"… (cut from 181 characters`)).toBe(true);
  });
});

describe('a trace of long provider ids keeps its report and its names bounded', () => {
  // 60 private providers of 200 KiB ids: 50 named (acgp-private-providers), 10 counted.
  const trace = (size: number) => Array.from({ length: 60 }, (_, k) => privateEval(longId(k, size)));

  it('names the providers cut: the report is smaller than one of their ids, whatever their length', async () => {
    for (const mode of ['verify', 'replay'] as const) {
      const evals = trace(200 * KIB);
      const r = await run(lines(evals), mode, {}, 't.jsonl');
      expect(r.verdict).toBe('pass');
      const named = of(r, 'RPR-ACGP-013');
      expect(named).toHaveLength(51);
      // Each named one is held as its cut form (the report lists the keys held), all distinct.
      const listed = r.details!['notRecomputed'] as string[];
      expect(listed).toHaveLength(50);
      expect(new Set(listed).size).toBe(50);
      expect(listed.every((s) => s.length < 200)).toBe(true);
      expect(r.details!['provider']).toBe(heldId(longId(0)));
      // One id is 200 KiB: at a few hundred bytes per provider the report holds none whole
      // (quoted whole, 50 of them twice made about 20 MB).
      expect(jsonLength(r)).toBeLessThan(200 * KIB);
      // The same trace with ids of a tenth that length: the same report but for the lengths given.
      const short = await run(lines(trace(20 * KIB)), mode, {}, 't.jsonl');
      expect(Math.abs(jsonLength(r) - jsonLength(short))).toBeLessThan(KIB);
    }
  });

  it('points each 013 at the EVAL where its provider first appears, which holds the id whole', async () => {
    const evals = trace(200 * KIB);
    const r = await run(lines(evals), 'verify', {}, 't.jsonl');
    const named = of(r, 'RPR-ACGP-013');
    for (const [k, f] of named.slice(0, 50).entries()) {
      expect(f.pointer).toBe(`/${k}/trust_debt/provider_id`);
      const id = at(evals, f.pointer!) as string;
      expect(id).toBe(longId(k));
      expect(f.message).toContain(`trust-debt provider ${heldId(id)} is private`);
      expect(f.message).toContain(hashBytes(id));
    }
    expect(named[50]!.pointer).toBeUndefined();
    expect(named[50]!.message).toMatch(/^10 more EVAL\(s\) are of private trust-debt providers beyond the 50/);
  });

  it('counts the EVALs of one long provider under one name, and the verdict is that of short ids', async () => {
    const long = [privateEval(longId('a')), privateEval(longId('a')), privateEval(longId('b'), { post: 0.5 })];
    const short = [privateEval('urn:x:a@1'), privateEval('urn:x:a@1'), privateEval('urn:x:b@1', { post: 0.5 })];
    const rl = await run(long, 'verify');
    const rs = await run(short, 'verify');
    expect(rl.verdict).toBe('fail');
    expect(rules(rl)).toEqual(rules(rs));
    expect(of(rl, 'RPR-ACGP-013').map((f) => [f.pointer, f.message.match(/of (\d+) EVAL/)![1]])).toEqual([
      ['/0/trust_debt/provider_id', '2'],
      ['/2/trust_debt/provider_id', '1'],
    ]);
  });
});

describe('every other place a provider id is quoted or held', () => {
  it('RPR-ACGP-014 names providers neither default nor private cut, at their first EVAL', async () => {
    const evals = Array.from({ length: 9 }, (_, k) => publicEval(longId(k)));
    for (const mode of ['verify', 'replay'] as const) {
      const r = await run(evals, mode);
      const fs = of(r, 'RPR-ACGP-014');
      expect(fs).toHaveLength(9);
      expect(fs[3]!.pointer).toBe('/3/trust_debt/provider_id');
      expect(fs[3]!.message).toContain(`trust-debt provider ${heldId(longId(3))} (1 EVAL(s)) is declared public`);
      expect(r.details!['notRecomputed']).toEqual(Array.from({ length: 8 }, (_, k) => heldId(longId(k))));
      // Under replay each of their EVALs has four unavailable rows whose reason names the provider.
      expect(jsonLength(r)).toBeLessThan(200 * KIB);
    }
  });

  it('the unavailable rows of replay name an unknown provider cut', async () => {
    const r = await run([mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0, provider: longId(1) })], 'replay');
    const reasons = (r.comparisons ?? []).filter((c) => c.status === 'unavailable').map((c) => c.reason);
    expect(reasons).toHaveLength(4);
    expect(reasons[0]).toBe(`provider ${heldId(longId(1))} is not available here`);
  });

  it('RPR-ACGP-026 names the private provider the debt was handed from cut', async () => {
    const evals = [privateEval(longId('a'), { delta: 3, post: 3 }), privateEval(longId('b'))];
    const r = await run(evals, 'replay');
    expect(r.verdict).toBe('unavailable');
    const f = findingOf(r, 'RPR-ACGP-026');
    expect(f.message).toContain(`(private provider ${heldId(longId('a'))})`);
    expect(f.message.length).toBeLessThan(1000);
  });

  it("RPR-ACGP-011 quotes a descriptor's other provider, and RPR-ACGP-031 another trace id, cut and told apart", async () => {
    const e = {
      ...privateEval(longId('a')),
      trust_debt_extended: { provider: { id: longId('b'), visibility: 'private' } },
    };
    const f011 = findingOf(await run(e, 'verify'), 'RPR-ACGP-011');
    expect([f011.expected, f011.actual]).toEqual([heldId(longId('a')), heldId(longId('b'))]);
    const traces = [
      mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0, traceId: longId('t1') }),
      mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0, traceId: longId('t2') }),
    ];
    const f031 = findingOf(await run(traces, 'verify'), 'RPR-ACGP-031');
    expect([f031.expected, f031.actual]).toEqual([heldId(longId('t1')), heldId(longId('t2'))]);
  });

  it('RPR-ACGP-042 tells apart two long blueprints that share their start', async () => {
    const evals = ['x', 'y'].map((k) =>
      mkEval({ intervention: 'ok', pre: 0, delta: 0, post: 0, blueprint: longId(k) }),
    );
    const said = of(await run(evals, 'verify'), 'RPR-ACGP-042');
    expect(said.map((f) => f.pointer)).toEqual(['/0/blueprint_id', '/1/blueprint_id']);
    expect(said[0]!.message).toContain(`blueprint ${heldId(longId('x'))}, and no --policy`);
    expect(said[1]!.message).toContain(hashBytes(longId('y')));
  });
});
