/**
 * The reviewer's case (app/engine/case/, docs/case.md) on a folder with an artifact of every
 * kind that offers one something: every artifact verified, links found by content (and
 * missing ones said), the timeline, the judgements on its artifacts, one unreadable
 * artifact that stops nothing, and the same bytes whatever order the verdicts land in.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaseReport } from '../../shared/case.js';
import { hashBytes } from '../../app/core/hash.js';
import {
  driveCase,
  inlineExecutor,
  normalisedUtc,
  type CaseExecutor,
  type CaseOutcome,
} from '../../app/engine/case/index.js';
import { sortTimeline } from '../../app/engine/case/assemble.js';
import { caseFixture, CLAIM, type CaseFixture } from './fixture.js';
import { fixtureCopy } from './copy.js';
import { tmp } from '../journal/helpers.js';

let fx: CaseFixture;
let report: CaseReport;
const options = () => ({ trustStore: fx.keys.trustPath });

beforeAll(async () => {
  fx = await caseFixture();
  report = await driveCase(fx.dir, inlineExecutor, { options: options() });
}, 120_000);

const link = (r: CaseReport, from: string, relation: string) =>
  r.links.filter((l) => l.from.artifact === from && l.relation === relation);

describe('a case folder', () => {
  it('verifies every artifact, each with its kind, hash and verdict', () => {
    expect(report.schema).toBe('reprise.case/v1');
    expect(report.artifacts.map((a) => [a.path, a.kind])).toEqual([
      ['agent/eval.json', 'acgp-eval'],
      ['agent/trace-array.json', 'acgp-trace'],
      ['agent/trace.jsonl', 'acgp-trace'],
      ['dataset.nemosyne', 'nemosyne-package'],
      ['dump-evidence.zip', 'evidence-bundle'],
      ['dump.json', 'replay-dump'],
      ['review', 'journal'],
      ['tg/journal', 'journal'],
      ['tg/manifest.json', 'tg-replay-manifest'],
      ['tg/policy.json', 'tg-policy-bundle'],
    ]);
    const dump = report.artifacts.find((a) => a.path === 'dump.json')!;
    expect(dump.sha256).toBe(fx.dumpSha);
    const journal = report.artifacts.find((a) => a.path === 'review')!;
    const entries = readFileSync(join(fx.dir, 'review/entries.jsonl'));
    expect(journal.sha256).toBe(hashBytes(entries));
  });

  it('finds the links the contents make, each naming the field that made it', () => {
    expect(link(report, 'tg/manifest.json', 'policy-bundle')).toMatchObject([
      { from: { pointer: '/policyContext/bundleHash' }, to: { artifact: 'tg/policy.json' }, status: 'found' },
    ]);
    expect(link(report, 'tg/manifest.json', 'anchor')).toMatchObject([
      { from: { pointer: '/executions/5/anchor' }, to: { artifact: 'tg/journal', pointer: 'line:1' }, status: 'found' },
    ]);
    expect(link(report, 'dump.json', 'material')).toMatchObject([
      {
        from: { pointer: '/materialSnapshotHashSet/0' },
        to: { artifact: 'dataset.nemosyne', pointer: 'entry:data/material.bin' },
        value: fx.material,
        status: 'found',
      },
    ]);
    expect(link(report, 'dump-evidence.zip', 'bundled-report')).toMatchObject([
      { to: { artifact: 'dump.json', pointer: null }, value: fx.dumpSha, status: 'found' },
    ]);
    expect(link(report, 'review', 'subject').map((l) => [l.from.pointer, l.to.artifact, l.status])).toEqual([
      ['line:1', 'dump.json', 'found'],
      ['line:3', 'dump.json', 'found'],
      ['line:4', 'dump.json', 'found'],
    ]);
    expect(link(report, 'review', 'claim')).toMatchObject([
      { from: { pointer: 'line:2' }, to: { artifact: 'tg/manifest.json', pointer: '/claimRef' }, value: CLAIM },
    ]);
    // The TG journal's judgement is on the review rationale the manifest embeds: a link into it.
    expect(link(report, 'tg/journal', 'subject')).toMatchObject([
      { to: { artifact: 'tg/manifest.json', pointer: expect.stringMatching(/^\/artifacts\/sha256:/) } },
    ]);
    expect(report.findings).toEqual([]);
  });

  it('lists the judgements on its artifacts, by journal and sequence number', () => {
    expect(report.judgements.map((j) => [j.journal, j.seq, j.artifact, j.decision])).toEqual([
      ['review', 0, 'dump.json', 'accept'],
      ['review', 2, 'dump.json', 'note'],
      ['review', 3, 'dump.json', 'note'],
      ['tg/journal', 0, 'tg/manifest.json', 'accept'],
    ]);
    expect(report.judgements[0]).toMatchObject({ subject: fx.dumpSha, supersedes: null });
    // A note's edit names the note it supersedes; the old text stays listed.
    const [, note, edit] = report.judgements;
    expect(note).toMatchObject({
      supersedes: null,
      rationale: 'The prompt matches the one the claim was scored with.',
    });
    expect(edit).toMatchObject({ supersedes: note!.entryHash, rationale: expect.stringMatching(/byte for byte/) });
  });

  it('places every timestamp on one timeline in time order, tied to artifact and pointer', () => {
    const t = report.timeline;
    const times = t.map((e) => Date.parse(e.atUtc));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const has = (artifact: string, label: RegExp) => t.some((e) => e.artifact === artifact && label.test(e.label));
    expect(has('dump.json', /^dump created$/)).toBe(true);
    expect(has('dump.json', /^provider state captured$/)).toBe(true);
    expect(has('agent/trace.jsonl', /^EVAL 0: ok$/)).toBe(true);
    // EVALs by line in a JSON Lines trace, by pointer in a trace that is one JSON array.
    expect(t.find((e) => e.artifact === 'agent/trace.jsonl' && e.label === 'EVAL 1: ok')?.pointer).toBe('line:2');
    expect(t.find((e) => e.artifact === 'agent/trace-array.json' && /^EVAL 1:/.test(e.label))?.pointer).toBe(
      '/1/timestamp',
    );
    expect(has('tg/manifest.json', /^manifest created$/)).toBe(true);
    expect(has('tg/manifest.json', /^execution x7 recorded/)).toBe(true);
    expect(has('review', /^judgement: accept$/)).toBe(true);
    expect(has('review', /^quarantine case opened/)).toBe(true);
    expect(has('review', /^checkpoint signed/)).toBe(true);
    expect(has('dump-evidence.zip', /^bundled judgement: accept$/)).toBe(true);
    const trust = t.find((e) => e.artifact === 'dump.json' && e.pointer === '/trustDecision/evaluatedAtUtc')!;
    expect(trust).toMatchObject({ node: 'trust', kind: 'replay-dump', atUtc: '2026-05-04T10:00:01Z' });
    for (const e of t) expect(e.atUtc).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z$/);
  });

  it("takes an event's severity from the findings at its pointer or its node's", () => {
    // The manifest's RECORDED anchor is checked against the TG journal of the case that holds
    // its entry (rechecks.ts), whose signers the case's trust store does not hold: it fails,
    // at that execution only, as `verify MANIFEST --journal tg/journal` says.
    const m = report.timeline.filter((e) => e.artifact === 'tg/manifest.json');
    expect(m.find((e) => e.node === 'anchor:x7')).toMatchObject({ pointer: '/executions/5', severity: 'fail' });
    // And the bundle's ε for TRUST-SCORE, which that manifest records EXACT, is a warning there (RPR-TG-025).
    expect(m.filter((e) => e.severity !== 'info').map((e) => [e.pointer, e.severity])).toEqual([
      ['/executions/2', 'warning'],
      ['/executions/5', 'fail'],
    ]);
    // The TG journal was signed by keys the case's trust store does not hold: its entry and checkpoint fail.
    const raised = report.timeline.filter((e) => e.severity !== 'info' && e.artifact !== 'tg/manifest.json');
    expect(raised.map((e) => [e.artifact, e.pointer, e.severity])).toEqual([
      ['tg/journal', 'entry:checkpoints.jsonl:line:1', 'fail'],
      ['tg/journal', 'line:1', 'fail'],
    ]);
  });
});

/** Lands the outcomes in a shuffled order (a seeded permutation), as parallel workers might. */
function shuffled(seed: number): CaseExecutor {
  return async (files, mode, opts, land, signal) => {
    const got: CaseOutcome[] = [];
    await inlineExecutor(files, mode, opts, (o) => got.push(o), signal);
    let s = seed;
    for (let i = got.length - 1; i > 0; i--) {
      s = (s * 1103515245 + 12345) % 2147483648;
      const j = s % (i + 1);
      [got[i], got[j]] = [got[j]!, got[i]!];
    }
    got.forEach(land);
  };
}

describe('determinism', () => {
  it('gives the same bytes whatever order the verdicts land in', async () => {
    const base = JSON.stringify(report);
    for (const seed of [1, 7, 42]) {
      const order: string[] = [];
      const r = await driveCase(fx.dir, shuffled(seed), {
        options: options(),
        onArtifact: (o) => order.push(o.ok ? o.part.artifact.path : o.unreadable.path),
      });
      expect(JSON.stringify(r)).toBe(base);
      // Each artifact lands once, and the manifest a second time: the case's run of it with its journal.
      expect([...new Set(order)].sort()).toEqual(report.artifacts.map((a) => a.path));
      expect(order.filter((p) => p === 'tg/manifest.json')).toHaveLength(2);
      expect(order).toHaveLength(report.artifacts.length + 1);
    }
  }, 120_000);
});

describe('what the case lacks or cannot read', () => {
  it('says a missing expected target as a missing link and a finding, and never stops for an unreadable file', async () => {
    const dir = fixtureCopy(fx.dir);
    rmSync(join(dir, 'tg/journal'), { recursive: true });
    execFileSync('mkfifo', [join(dir, 'a-fifo')]);
    writeFileSync(join(dir, 'notes.txt'), 'not evidence');
    const progress: number[] = [];
    const r = await driveCase(dir, inlineExecutor, { options: options(), onProgress: (p) => progress.push(p.done) });
    // The anchoring journal is gone: the anchor names an entry no artifact of the case holds.
    expect(link(r, 'tg/manifest.json', 'anchor')).toMatchObject([
      { from: { pointer: '/executions/5/anchor' }, to: { artifact: null, pointer: null }, status: 'missing' },
    ]);
    expect(r.findings.map((f) => [f.rule, f.severity, f.pointer, f.actual])).toEqual([
      ['RPR-CASE-002', 'fail', 'entry:a-fifo', undefined],
      ['RPR-CASE-001', 'warning', 'entry:tg/manifest.json', '/executions/5/anchor'],
    ]);
    // The manifest embeds its policy bundle: with the bundle's file gone, nothing is missing.
    rmSync(join(dir, 'tg/policy.json'));
    const without = await driveCase(dir, inlineExecutor, { options: options() });
    expect(link(without, 'tg/manifest.json', 'policy-bundle')).toEqual([]);
    expect(without.findings).toHaveLength(2);
    // Every other artifact still has its verdict; the unknown file is an artifact that fails.
    expect(r.artifacts.map((a) => a.path)).toContain('dump.json');
    expect(r.artifacts.find((a) => a.path === 'notes.txt')).toMatchObject({ kind: 'unknown', verdict: 'fail' });
    expect(r.verdict).toBe('fail');
    expect(progress.at(-1)).toBe(r.artifacts.length + 1);
  }, 120_000);
});

describe('times on the timeline', () => {
  const at = (atUtc: string) => ({
    atUtc,
    artifact: 'a',
    kind: 'k',
    node: null,
    pointer: '',
    label: 'x',
    severity: 'info' as const,
  });

  it('keep their fraction as written without trailing zeros, and are sorted by time', () => {
    expect(normalisedUtc('2026-01-01T00:00:00Z')).toBe('2026-01-01T00:00:00Z');
    expect(normalisedUtc('2026-01-01T00:00:00.000Z')).toBe('2026-01-01T00:00:00Z');
    expect(normalisedUtc('2026-01-01T00:00:00.5Z')).toBe('2026-01-01T00:00:00.5Z');
    expect(normalisedUtc('2026-01-01T00:00:00.500Z')).toBe('2026-01-01T00:00:00.5Z');
    expect(normalisedUtc('2026-01-01T00:00:00.1234560Z')).toBe('2026-01-01T00:00:00.123456Z');
    expect(normalisedUtc('2026-01-01T00:00:00.123456789Z')).toBe('2026-01-01T00:00:00.123456789Z');
    expect(normalisedUtc('2026-01-01T00:00:00+00:00')).toBeNull();
    expect(normalisedUtc('2026-02-30T00:00:00Z')).toBeNull();
    const sorted = sortTimeline([at('2026-01-01T00:00:01Z'), at('2026-01-01T00:00:00.5Z'), at('2026-01-01T00:00:00Z')]);
    expect(sorted.map((e) => e.atUtc)).toEqual([
      '2026-01-01T00:00:00Z',
      '2026-01-01T00:00:00.5Z',
      '2026-01-01T00:00:01Z',
    ]);
  });

  it('are ordered below the millisecond as written (.NET writes seven digits): against nanoseconds counted exactly', () => {
    // Times within two seconds, fractions of every length, so ties of whole seconds and of prefixes abound.
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const written: string[] = [];
    for (let i = 0; i < 400; i++) {
      const digits = rand(10);
      const frac = digits === 0 ? '' : '.' + String(rand(10 ** Math.min(digits, 6))).padStart(digits, '0');
      written.push(`2026-05-04T10:00:0${rand(2)}${frac}Z`);
    }
    const nanos = (s: string): bigint => {
      const m = /:(\d{2})(?:\.(\d+))?Z$/.exec(s)!;
      return BigInt(m[1]!) * 1_000_000_000n + BigInt((m[2] ?? '').padEnd(9, '0') || '0');
    };
    // Labels that say nothing of time: a tie the sort breaks by label is in no time order.
    const events = written.map((w, i) => ({ ...at(normalisedUtc(w)!), label: `e${String(399 - i).padStart(3, '0')}` }));
    const got = sortTimeline(events).map((e) => nanos(written[399 - Number(e.label.slice(1))]!));
    const want = written.map(nanos).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(got).toEqual(want);
    // One instant, one spelling.
    for (const w of written) {
      const longer = w.includes('.') ? w.replace(/(\.\d{1,7})Z$/, '$100Z') : w.replace('Z', '.000Z');
      expect(normalisedUtc(longer)).toBe(normalisedUtc(w));
    }
  });
});

describe('a RECORDED output naming a file of the case', () => {
  it("links the manifest's artifactHash to the dump whose SHA-256 it is, and says it missing without the dump", async () => {
    const dir = fixtureCopy(fx.dir);
    const m = JSON.parse(readFileSync(join(dir, 'tg/manifest.json'), 'utf8')) as {
      executions: { replayMode: string; artifactHash?: string }[];
    };
    const i = m.executions.findIndex((e) => e.replayMode === 'RECORDED');
    m.executions[i]!.artifactHash = fx.dumpSha;
    writeFileSync(join(dir, 'tg/manifest.json'), JSON.stringify(m));
    const r = await driveCase(dir, inlineExecutor, {});
    expect(link(r, 'tg/manifest.json', 'artifact-hash')).toMatchObject([
      {
        from: { pointer: `/executions/${i}/artifactHash` },
        to: { artifact: 'dump.json', pointer: null },
        status: 'found',
      },
    ]);
    rmSync(join(dir, 'dump.json'));
    const without = await driveCase(dir, inlineExecutor, {});
    expect(link(without, 'tg/manifest.json', 'artifact-hash')).toMatchObject([{ status: 'missing' }]);
    expect(without.findings).toContainEqual(
      expect.objectContaining({ rule: 'RPR-CASE-001', actual: `/executions/${i}/artifactHash`, expected: fx.dumpSha }),
    );
  }, 60_000);
});

describe("the case's own findings", () => {
  it('are bounded per rule as every report is (--limit findings-per-rule), with every missing link still listed', async () => {
    const dir = join(tmp('reprise-case-bound-'), 'case');
    for (const i of [1, 2, 3]) {
      mkdirSync(join(dir, `m${i}`), { recursive: true });
      cpSync(join(fx.dir, 'tg/manifest.json'), join(dir, `m${i}/manifest.json`));
    }
    const r = await driveCase(dir, inlineExecutor, { options: { limits: { 'findings-per-rule': 2 } } });
    expect(r.links.filter((l) => l.status === 'missing')).toHaveLength(3);
    expect(r.findings.map((f) => f.rule)).toEqual(['RPR-CASE-001', 'RPR-CASE-001', 'RPR-REPORT-001']);
    expect(r.findings[2]).toMatchObject({ severity: 'warning', actual: { rule: 'RPR-CASE-001', count: 1 } });
  }, 60_000);
});
