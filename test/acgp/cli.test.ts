/** The ACGP examples through the CLI, the streaming verifier, JSON Lines strictness, limits. */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { runPath } from '../../app/engine/run.js';
import { acgpWriter, cleanTrace } from '../../app/kinds/acgp/examples.js';
import type { ExampleFile } from '../../app/examples/index.js';
import { deterministicPart } from '../../app/core/report.js';
import { runTraceFile } from '../../app/kinds/acgp/index.js';
import { ACGP_LIMITS, LINE_LIMIT } from '../../app/kinds/acgp/limits.js';
import { LineFeeder } from '../../app/kinds/acgp/lines.js';
import type { AcgpChecker } from '../../app/kinds/acgp/checker.js';
import { generateTrace } from '../../app/kinds/acgp/generate.js';
import { dec, num4 } from '../../app/kinds/acgp/model.js';
import { runCli } from '../helpers/cli.js';
import { findingOf, run, tempFile } from './helpers.js';

describe('reprise examples: acgp/', () => {
  it('writes the ACGP examples deterministically, and each gives the verdict and rule it is made for', async () => {
    const a = acgpWriter.build() as { path: string; bytes: string }[];
    const b = acgpWriter.build() as { path: string; bytes: string }[];
    expect(a).toEqual(b);
    const dir = await mkdtemp(join(tmpdir(), 'reprise-acgp-ex-'));
    const res = await runCli(['examples', dir]);
    expect(res.code).toBe(0);
    const index = JSON.parse(await readFile(join(dir, 'examples.json'), 'utf8')) as {
      files: { path: string; expect?: { verdict: string; rule?: string; command?: string } }[];
    };
    const options = new Map((acgpWriter.build() as ExampleFile[]).map((f) => [f.path, f.options] as const));
    const mine = index.files.filter((f) => f.path.startsWith('acgp/'));
    expect(mine.map((f) => f.path)).toEqual([
      'acgp/policy.json',
      'acgp/seed-eval-corrected.json',
      'acgp/seed-eval.json',
      'acgp/trace-blueprint-override.jsonl',
      'acgp/trace-clean.jsonl',
      'acgp/trace-missing-timestamp.jsonl',
      'acgp/trace-private-provider.json',
      'acgp/trace-relaxed-intervention.json',
      'acgp/trace-tampered-post.jsonl',
    ]);
    for (const f of mine) {
      if (!f.expect) continue;
      const policy = options.get(f.path)?.policy;
      const out = await runCli([
        f.expect.command ?? 'verify',
        join(dir, f.path),
        '--json',
        ...(policy ? ['--policy', join(dir, policy)] : []),
      ]);
      const r = JSON.parse(out.stdout) as Report;
      expect(r.verdict, f.path).toBe(f.expect!.verdict);
      expect(out.code).toBe({ pass: 0, fail: 1, unavailable: 2 }[f.expect!.verdict]);
      if (f.expect!.rule)
        expect(
          r.findings.map((x) => x.rule),
          f.path,
        ).toContain(f.expect!.rule);
    }
    // the blueprint-override trace needs its policy: without it, replay fails
    expect((await runCli(['replay', join(dir, 'acgp/trace-blueprint-override.jsonl')])).code).toBe(1);
    // the seed example fails replay too
    const rep = JSON.parse((await runCli(['replay', join(dir, 'acgp/seed-eval.json'), '--json'])).stdout) as Report;
    expect(rep.verdict).toBe('fail');
  });

  it('the clean trace crosses every threshold and decays back below all of them', async () => {
    const t = cleanTrace();
    expect(t.length).toBeGreaterThanOrEqual(30);
    const crossed = new Set(t.flatMap((e) => (e['trust_debt'] as { thresholds_crossed: string[] }).thresholds_crossed));
    expect([...crossed].sort()).toEqual(['elevated_monitoring', 're_tiering_review', 'restricted_mode']);
    const posts = t.map((e) => (e['trust_debt'] as { post: number }).post);
    expect(Math.max(...posts)).toBeGreaterThan(10);
    expect(posts.at(-1)!).toBeLessThan(3);
  });
});

describe('streaming verifier (runTraceFile)', () => {
  it('gives the same report as the in-memory kind', async () => {
    const p = await tempFile(
      'clean.jsonl',
      cleanTrace()
        .map((e) => JSON.stringify(e))
        .join('\n') + '\n',
    );
    for (const mode of ['verify', 'replay'] as const) {
      const a = await runPath(p, mode, {});
      const b = await runTraceFile(p, mode, {});
      expect(deterministicPart(b)).toEqual(deterministicPart(a));
      expect(b.verdict).toBe('pass');
    }
  });

  it('bounds findings, comparisons and trajectory by the limits, and keeps the worst severity of what it leaves out', async () => {
    const evals = generateTrace({ count: 60, seed: 5 });
    for (const e of evals) {
      const td = e['trust_debt'] as Record<string, number>;
      td['post'] = td['post']! + 1;
    }
    const p = await tempFile('bad.jsonl', evals.map((e) => JSON.stringify(e)).join('\n'));
    const r = await runTraceFile(p, 'replay', {
      limits: { 'acgp-findings': 10, 'acgp-comparisons': 50, 'acgp-trajectory': 20 },
    });
    expect(r.verdict).toBe('fail');
    expect(r.findings.filter((f) => f.rule !== 'RPR-ACGP-034' && f.rule !== 'RPR-ACGP-035')).toHaveLength(10);
    expect(findingOf(r, 'RPR-ACGP-034').severity).toBe('fail');
    expect(r.comparisons).toHaveLength(50);
    expect(r.details!['trajectory']).toHaveLength(20);
    expect((r.details!['comparisonCounts'] as { fail: number }).fail).toBe(60); // each post; every next pre is replayed from the exact state, so it matches
  });
});

describe('JSON Lines strictness', () => {
  const lines = generateTrace({ count: 4, seed: 9 }).map((e) => JSON.stringify(e));
  it('refuses a blank line inside the trace and names its line', async () => {
    const r = await run([lines[0], lines[1], '', lines[2], lines[3]].join('\n') + '\n', 'verify', {}, 't.jsonl');
    expect(r.artifact.kind).toBe('acgp-trace');
    expect(findingOf(r, 'RPR-ACGP-001')).toMatchObject({ pointer: 'line:3' });
  });
  it('refuses a line with invalid UTF-8 or a duplicate member, and checks the rest', async () => {
    const bad = Buffer.concat([
      Buffer.from(lines[0] + '\n' + lines[1]!.replace('"GT-2"', '"GT-\xff"') + '\n', 'latin1'),
      Buffer.from(lines[2]!.replace('"flagged":', '"flagged":false,"flagged":') + '\n' + lines[3] + '\n'),
    ]);
    const r = await run(bad, 'verify', {}, 't.jsonl');
    expect(r.findings.filter((f) => f.rule === 'RPR-ACGP-001').map((f) => f.pointer)).toEqual(['line:2', 'line:3']);
    expect(r.details!['evals']).toBe(4);
  });
  it('accepts CRLF line ends', async () => {
    const r = await run(lines.join('\r\n') + '\r\n', 'replay', {}, 't.jsonl');
    expect(r.artifact.kind).toBe('acgp-trace');
    expect(r.verdict).toBe('pass');
    expect(r.details!['evals']).toBe(4);
  });
  type Debt = { pre: number; delta: number; post: number };
  /**
   * A private provider's EVALs taking over the debt `first` ends with, as the default provider
   * hands it over: its post decayed by the baseline 5% over the whole hours to the first of them.
   */
  const handedOver = (first: unknown[], o: { count: number; seed: number }) => {
    const at = first[first.length - 1] as { timestamp: string; trust_debt: Debt };
    const priv = generateTrace({ ...o, private: true, start: at.timestamp });
    const p = priv[0] as { timestamp: string; trust_debt: Debt };
    const periods = Math.floor((Date.parse(p.timestamp) - Date.parse(at.timestamp)) / 3_600_000);
    const pre = num4(dec(at.trust_debt.post).times(dec(0.95).pow(periods)));
    Object.assign(p.trust_debt, { pre, post: num4(dec(pre).plus(dec(p.trust_debt.delta))) });
    return priv;
  };

  it("after a private provider's EVALs, the default provider decays from their recorded post", async () => {
    const first = generateTrace({ count: 1, seed: 2, start: '2026-05-01T00:00:00Z' });
    const priv = handedOver(first, { count: 2, seed: 3 });
    const last = priv[1] as { timestamp: string; trust_debt: { post: number } };
    const def = generateTrace({ count: 1, seed: 4, start: last.timestamp, startDebt: last.trust_debt.post });
    const td = (def[0] as { trust_debt: { pre: number; delta: number; post: number } }).trust_debt;
    // One whole hour (one period) after the private post: the default provider's 5% decay.
    const decayed = Math.round(last.trust_debt.post * 0.95 * 1e4) / 1e4;
    Object.assign(td, { pre: decayed, post: Math.round((decayed + td.delta) * 1e4) / 1e4 });
    const r = await run([...first, ...priv, ...def], 'replay');
    expect(r.verdict).toBe('pass');
    expect(findingOf(r, 'RPR-ACGP-025').pointer).toBe('/0/trust_debt/pre');
    expect(r.findings.some((f) => f.rule === 'RPR-ACGP-026')).toBe(false);
    expect(findingOf(r, 'RPR-ACGP-013').message).toMatch(/2 EVAL\(s\)/);
  });

  it("a pre that is not the private provider's post decayed is not taken as given (a reset across providers)", async () => {
    const first = generateTrace({ count: 1, seed: 2, start: '2026-05-01T00:00:00Z' });
    const priv = handedOver(first, { count: 2, seed: 3 });
    const def = generateTrace({ count: 2, seed: 4, start: '2026-06-01T00:00:00Z', startDebt: 2.5 });
    const r = await run([...first, ...priv, ...def], 'replay');
    expect(r.verdict).toBe('unavailable');
    const f = findingOf(r, 'RPR-ACGP-026');
    expect([f.pointer, f.severity, f.actual]).toEqual(['/3/trust_debt/pre', 'unavailable', 2.5]);
  });
  it("a private provider's pre that is not the default provider's debt decayed is not passed (a reset into a private provider)", async () => {
    // The red team's trace: the default provider's debt climbs past re_tiering_review, then a
    // private EVAL takes over at 0 and the default provider goes on from 0: it replayed PASS.
    const first = generateTrace({ count: 3, seed: 2, start: '2026-05-01T00:00:00Z', startDebt: 12.6 });
    const at = first[2] as { timestamp: string };
    const priv = generateTrace({ count: 1, seed: 3, private: true, start: at.timestamp, startDebt: 0 });
    const r = await run([...first, ...priv], 'replay');
    expect(r.verdict).toBe('unavailable');
    const f = findingOf(r, 'RPR-ACGP-026');
    expect([f.pointer, f.severity, f.actual]).toEqual(['/3/trust_debt/pre', 'unavailable', 0]);
    expect(f.message).toMatch(
      /^EVAL 3: its private provider's recorded pre 0 is not the debt the default provider hands over \(its state decayed is \d+(\.\d+)?\)/,
    );
    const row = r.comparisons!.find((c) => c.output === '/3/trust_debt/pre')!;
    expect([row.status, row.reason]).toEqual(['unavailable', 'not the debt the default provider hands over']);
    // Taken over as it stood, the same trace passes.
    const kept = handedOver(first, { count: 1, seed: 3 });
    expect((await run([...first, ...kept], 'replay')).verdict).toBe('pass');
  });

  it("a private provider's EVAL without a timestamp leaves the next decay undecided (RPR-ACGP-024), never a silent re-anchor", async () => {
    const first = generateTrace({ count: 1, seed: 2, start: '2026-05-01T00:00:00Z' });
    const priv = generateTrace({ count: 2, seed: 3, private: true });
    delete (priv[1] as { timestamp?: string }).timestamp;
    // The next EVAL records pre 0: a reset of the debt, which only its decay could have ruled out.
    const def = generateTrace({ count: 2, seed: 4, start: '2026-06-01T00:00:00Z', startDebt: 0 });
    const r = await run([...first, ...priv, ...def], 'replay');
    expect(r.verdict).toBe('unavailable');
    const f = findingOf(r, 'RPR-ACGP-024');
    expect([f.severity, f.pointer]).toEqual(['unavailable', '/3/timestamp']);
    expect(f.message).toContain(
      "the private provider's EVAL before EVAL 3, whose recorded post it decays from, has no timestamp",
    );
  });
  it('a report is byte-identical from run to run (but for run)', async () => {
    const text = lines.join('\n');
    const a = await run(text, 'replay', {}, 't.jsonl');
    const b = await run(text, 'replay', {}, 't.jsonl');
    expect(JSON.stringify(deterministicPart(a))).toBe(JSON.stringify(deterministicPart(b)));
  });
});

describe('the line limit (acgp-line-bytes) holds memory, not only lines', () => {
  const lines = generateTrace({ count: 3, seed: 4 }).map((e) => JSON.stringify(e));
  const MAX = ACGP_LIMITS[LINE_LIMIT];

  /** What a LineFeeder hands its checker, line by line. */
  function feed(chunks: Buffer[], limits?: Record<string, number>): string[] {
    const heard: string[] = [];
    const checker = {
      add: (i: number) => heard.push(`${i}: EVAL`),
      precision: () => undefined,
      parseError: (i: number, m: string) => heard.push(`${i}: ${m}`),
      lineTooLong: (i: number, bytes: number, limit: number) => heard.push(`${i}: ${bytes} bytes, over ${limit}`),
    } as unknown as AcgpChecker;
    const f = new LineFeeder(checker, undefined, limits);
    for (const c of chunks) f.push(c);
    f.end();
    return heard;
  }

  it('a longer line is refused unread, whether it comes whole or in pieces, and the lines around it are checked', () => {
    const long = '{"trace_id":"' + 'x'.repeat(MAX) + '"}';
    const text = Buffer.from([lines[0], long, lines[1]].join('\r\n') + '\r\n');
    const want = ['0: EVAL', `1: ${long.length} bytes, over ${MAX}`, '2: EVAL'];
    expect(feed([text])).toEqual(want);
    const pieces: Buffer[] = [];
    for (let i = 0; i < text.length; i += 4099) pieces.push(text.subarray(i, i + 4099));
    expect(feed(pieces)).toEqual(want);
    // A line of exactly the limit is read, CR or not; the limit can be raised.
    const exact = '{"trace_id":"' + 'x'.repeat(MAX - 16) + '"}';
    expect(feed([Buffer.from(lines[0] + '\n' + exact + '\r\n')])).toEqual(['0: EVAL', '1: EVAL']);
    expect(feed([Buffer.from(lines[0] + '\n' + long + '\n')], { [LINE_LIMIT]: long.length })).toEqual([
      '0: EVAL',
      '1: EVAL',
    ]);
    // An unterminated last line too long: still only its length.
    expect(feed([Buffer.from(lines[0] + '\n' + long)])).toEqual(['0: EVAL', `1: ${long.length} bytes, over ${MAX}`]);
  });

  it('through the engine: the trace is detected and the line named, even when the first line is the long one', async () => {
    const huge = '{"ctq_dimensions":{},"trace_id":[' + '1,'.repeat(MAX) + '1]}';
    for (const [text, line] of [
      [[lines[0], '{"trace_id":"' + 'x'.repeat(2 * MAX) + '"}', lines[1]].join('\n') + '\n', 2],
      [[huge, lines[0], lines[1]].join('\n') + '\n', 1],
    ] as const) {
      const r = await run(text, 'verify', {}, 't.jsonl');
      expect(r.artifact.kind).toBe('acgp-trace');
      expect(findingOf(r, 'RPR-ACGP-001')).toMatchObject({
        pointer: `line:${line}`,
        message: expect.stringMatching(
          /bytes long, more than an EVAL line may hold \(limit acgp-line-bytes = 1048576\); it was not parsed$/,
        ) as unknown,
      });
    }
  });
});
