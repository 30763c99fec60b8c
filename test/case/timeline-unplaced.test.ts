/**
 * What the timeline cannot hold is said, never dropped in silence (RPR-CASE-004): a
 * timestamp that cannot be placed in time (a leap second, an offset, a lower-case z, a year
 * of five digits), named by pointer and value with the reason, the first three of them and
 * a count of the rest; and the EVALs an ACGP trace's report left out under its
 * acgp-trajectory limit, counted, with the limit that keeps them.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assembleCase } from '../../app/engine/case/assemble.js';
import { driveCase, inlineExecutor } from '../../app/engine/case/index.js';
import { casePart } from '../../app/engine/case/part.js';
import { writeExamples } from '../../app/examples/index.js';
import type { Report } from '../../shared/report.js';

const report = (findings: Report['findings'] = []): Report =>
  ({
    schema: 'reprise.report/v1',
    artifact: { path: 'x', kind: 'replay-dump', sha256: `sha256:${'a'.repeat(64)}`, id: 'd' },
    verdict: findings.length ? 'fail' : 'pass',
    findings,
    chain: [],
  }) as unknown as Report;

const event = (atUtc: string, i: number) => ({ atUtc, pointer: `/t/${i}`, label: `t${i}`, node: null });

describe('timestamps the timeline cannot place', () => {
  it('are a case finding naming the first three with why, and counting the rest; the others are placed', () => {
    const odd = [
      '2026-05-04T23:59:60Z',
      '2026-05-04T12:00:00+02:00',
      '2026-05-04t10:00:00z',
      '+010000-01-01T00:00:00Z',
      '2026-05-04T10:00:00+00:00',
    ];
    const fine = ['2026-05-04T10:00:00.1234567Z', '2026-05-04T10:00:00Z'];
    const part = casePart('d.json', report(), {
      identities: [],
      references: [],
      events: [...odd, ...fine].map(event),
    });
    const c = assembleCase([part], [], 'verify');
    expect(c.timeline.map((e) => e.atUtc)).toEqual(['2026-05-04T10:00:00Z', '2026-05-04T10:00:00.1234567Z']);
    expect(c.findings).toEqual([
      {
        rule: 'RPR-CASE-004',
        severity: 'warning',
        pointer: 'entry:d.json',
        message:
          'the timeline lacks times of d.json: 5 timestamp(s) it carries cannot be placed in time: ' +
          '/t/0 "2026-05-04T23:59:60Z": a leap second (:60), which Reprise refuses: it compares times as POSIX time, which has none (a documented decision); ' +
          '/t/1 "2026-05-04T12:00:00+02:00": an offset other than Z; ' +
          '/t/2 "2026-05-04t10:00:00z": a lower-case t or z (RFC 3339 allows it; the format requires upper case); and 2 more',
      },
    ]);
    // A warning: the verdict stays the artifacts' own.
    expect(c.verdict).toBe('pass');
  });

  it('cuts a long value short, whole characters only', () => {
    const long = '😀'.repeat(30);
    const c = assembleCase(
      [casePart('d.json', report(), { identities: [], references: [], events: [event(long, 0)] })],
      [],
      'verify',
    );
    const quoted = /"\/t\/0 (.*)": not RFC 3339/.exec(c.findings[0]!.message)?.[1] ?? c.findings[0]!.message;
    expect(quoted).not.toContain('\uFFFD');
    expect(c.findings[0]!.message.length).toBeLessThan(200);
    expect(c.findings[0]!.message).toContain('…');
  });
});

describe('an ACGP trace of more EVALs than its report keeps', () => {
  let dir = '';
  beforeAll(async () => {
    const work = mkdtempSync(join(tmpdir(), 'reprise-case-unplaced-'));
    await writeExamples(join(work, 'ex'));
    dir = join(work, 'case');
    cpSync(join(work, 'ex', 'acgp', 'trace-clean.jsonl'), join(dir, 'trace.jsonl'));
  }, 120_000);

  it('places what the report kept and says how many more there are, and the limit that keeps them', async () => {
    const all = await driveCase(dir, inlineExecutor);
    const evals = all.timeline.length;
    expect(evals).toBeGreaterThan(10);
    expect(all.findings).toEqual([]);
    const cut = await driveCase(dir, inlineExecutor, { options: { limits: { 'acgp-trajectory': 10 } } });
    expect(cut.timeline).toHaveLength(10);
    expect(cut.findings).toEqual([
      expect.objectContaining({
        rule: 'RPR-CASE-004',
        severity: 'warning',
        pointer: 'entry:trace.jsonl',
        message: `the timeline lacks times of trace.jsonl: ${evals - 10} more were left out: its report keeps the trust-debt points of the first 10 EVAL(s) only (limit acgp-trajectory; --limit acgp-trajectory=${evals} keeps every one)`,
      }),
    ]);
    // At exactly the limit nothing was left out.
    const exact = await driveCase(dir, inlineExecutor, { options: { limits: { 'acgp-trajectory': evals } } });
    expect(exact.findings).toEqual([]);
  }, 120_000);
});

describe('a time of another type than text', () => {
  let dir = '';
  beforeAll(async () => {
    const work = mkdtempSync(join(tmpdir(), 'reprise-case-untyped-time-'));
    await writeExamples(join(work, 'ex'));
    dir = join(work, 'case');
    mkdirSync(dir);
    const read = (p: string) => JSON.parse(readFileSync(join(work, 'ex', p), 'utf8')) as Record<string, unknown>;
    const dump = read('dumps/intact.dump.json');
    writeFileSync(join(dir, 'number.dump.json'), JSON.stringify({ ...dump, createdAtUtc: 1714824000 }));
    writeFileSync(join(dir, 'empty.dump.json'), JSON.stringify({ ...dump, createdAtUtc: '' }));
    writeFileSync(
      join(dir, 'm.json'),
      JSON.stringify({ ...read('tg/exact-intact/manifest.json'), createdAtUtc: 1714824000 }),
    );
  }, 120_000);

  it('is a time the timeline lacks (RPR-CASE-004), named with its value, never dropped in silence', async () => {
    const c = await driveCase(dir, inlineExecutor);
    const lacks = (path: string) => c.findings.find((f) => f.rule === 'RPR-CASE-004' && f.pointer === `entry:${path}`);
    expect(lacks('number.dump.json')?.message).toContain('/createdAtUtc "1714824000": not a string');
    expect(lacks('empty.dump.json')?.message).toContain('/createdAtUtc ""');
    // The manifest's executions were recorded at its creation time: each is a time it lacks too.
    expect(lacks('m.json')?.message).toMatch(/the timeline lacks times of m\.json: [2-9] timestamp\(s\)/);
    expect(c.timeline.filter((e) => e.pointer === '/createdAtUtc')).toEqual([]);
  }, 120_000);
});
