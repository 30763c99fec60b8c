/**
 * A journal entry dated in the future (written by a machine whose clock was set to 2999):
 * timestamps never go backwards, so every later entry would take its date. The writer refuses
 * to append behind an entry dated further ahead of its clock than CLOCK_TOLERANCE_MS, naming the
 * entry and both times, and writes nothing; verification stays what the spec makes it (the
 * journal is valid) and warns (RPR-JOURNAL-022) of an entry dated after the checkpoint that
 * first covers it or after the verification's time. Every clock here is a fake one.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  appendEntry,
  JournalError,
  JournalWriter,
  signCheckpoint,
  verifyJournal,
  type AppendInput,
  type Checkpoint,
} from '../../app/journal/index.js';
import { CLOCK_TOLERANCE_MS } from '../../app/journal/verify.js';
import { cli, makeKeys, tmp, type Keys } from './helpers.js';

const FUTURE = Date.parse('2999-12-31T23:59:59Z');
const NOW = Date.parse('2026-12-04T10:00:00Z');
const entry = (claim: string): AppendInput => ({
  kind: 'review-rationale',
  subject: { claimRef: claim },
  body: { rationale: 'a rationale' },
});

/** Every file of the journal, by name (but state.json, whose file identities every writer's close records afresh). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).sort())
    if (f !== 'state.json') out[f] = readFileSync(join(dir, f)).toString('base64');
  return out;
}

const warnings22 = (v: Awaited<ReturnType<typeof verifyJournal>>) =>
  v.findings.filter((f) => f.rule === 'RPR-JOURNAL-022');

let base: string;
let k: Keys;
/** A journal whose third entry was written by a machine whose clock said 2999, after two honest ones. */
let future: string;
beforeAll(async () => {
  base = tmp();
  k = makeKeys(base);
  future = join(base, 'future');
  await appendEntry(future, entry('claim:0'), k.reviewer, { clock: () => NOW - 120_000 });
  await appendEntry(future, entry('claim:1'), k.reviewer, { clock: () => NOW - 60_000 });
  await appendEntry(future, entry('claim:2999'), k.reviewer, { clock: () => FUTURE });
});

describe('the writer refuses to date an entry after a future-dated one', () => {
  it('refuses, naming the entry and both times, "not recorded", and writes nothing', async () => {
    const before = snapshot(future);
    const w = await JournalWriter.open(future, { clock: () => NOW, trustStore: k.trust });
    let err: unknown;
    try {
      await w.append(entry('claim:later'), k.reviewer);
    } catch (e) {
      err = e;
    } finally {
      await w.close();
    }
    expect(err).toBeInstanceOf(JournalError);
    const e = err as JournalError;
    expect(e.code).toBe('REFUSED');
    expect(e.message).toMatch(/^not recorded: /);
    expect(e.message).toContain('(seq 2, line 3) is dated 2999-12-31T23:59:59.000Z');
    expect(e.message).toContain("later than this machine's clock (2026-12-04T10:00:00.000Z) by more than 5 minutes");
    expect(e.message).toContain('Nothing was written');
    expect(snapshot(future)).toEqual(before);
  });

  it('within the tolerance the last time is reused (a clock stepped back a little); beyond it, refused', async () => {
    const dir = join(base, 'skew');
    const last = Date.parse('2026-12-04T10:05:00Z');
    await appendEntry(dir, entry('claim:a'), k.reviewer, { clock: () => last });
    const r = await appendEntry(dir, entry('claim:b'), k.reviewer, { clock: () => last - CLOCK_TOLERANCE_MS });
    expect(r.entry.recordedAtUtc).toBe('2026-12-04T10:05:00.000Z');
    await expect(
      appendEntry(dir, entry('claim:c'), k.reviewer, { clock: () => last - CLOCK_TOLERANCE_MS - 1 }),
    ).rejects.toThrow(
      /^not recorded: .*\(seq 1, line 2\) is dated 2026-12-04T10:05:00.000Z.*\(2026-12-04T09:59:59.999Z\)/,
    );
    const v = await verifyJournal(dir, k.trust, { clock: () => last });
    expect(v.entryLines).toBe(2);
    expect(warnings22(v)).toEqual([]);
  });

  it('once the clock has passed the entry, appends go on', async () => {
    const dir = join(base, 'passed');
    await appendEntry(dir, entry('claim:a'), k.reviewer, { clock: () => NOW + 3_600_000 });
    const r = await appendEntry(dir, entry('claim:b'), k.reviewer, { clock: () => NOW + 3_600_001 });
    expect(r.entry.recordedAtUtc).toBe('2026-12-04T11:00:00.001Z');
  });

  it('reprise quarantine open on such a journal exits 3 with one line, and the journal is unchanged', () => {
    // The CLI runs on this machine's clock, which is before 2999 (nothing here reads it).
    const before = snapshot(future);
    const r = cli([
      'quarantine',
      'open',
      future,
      '--claim',
      'claim:x',
      '--reason',
      'a reason for the case',
      '--key',
      k.reviewerPem,
      '--trust-store',
      k.trustPath,
    ]);
    expect(r.stderr).toMatch(
      /not recorded: the last entry of journal .* \(seq 2, line 3\) is dated 2999-12-31T23:59:59.000Z/,
    );
    expect(r.status).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(snapshot(future)).toEqual(before);
  });
});

describe('verification warns of future-dated entries (RPR-JOURNAL-022) and the journal stays valid', () => {
  it('an entry dated after the verification time: one warning at the first, saying how many', async () => {
    const dir = join(base, 'many');
    await appendEntry(dir, entry('claim:0'), k.reviewer, { clock: () => NOW });
    for (let i = 1; i <= 3; i++) await appendEntry(dir, entry(`claim:${i}`), k.reviewer, { clock: () => FUTURE });
    const v = await verifyJournal(dir, k.trust, { clock: () => NOW });
    expect(v.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    const w = warnings22(v);
    expect(w).toHaveLength(1);
    expect(w[0]!.severity).toBe('warning');
    expect(w[0]!.pointer).toBe('line:2');
    expect(w[0]!.actual).toBe('2999-12-31T23:59:59.000Z');
    expect(w[0]!.message).toContain('(3 entries from it on are dated so)');
    // The same journal verified once that time has come: nothing to say.
    expect(warnings22(await verifyJournal(dir, k.trust, { clock: () => FUTURE }))).toEqual([]);
    // Within the tolerance of the verification's clock: no warning either.
    expect(warnings22(await verifyJournal(dir, k.trust, { clock: () => FUTURE - CLOCK_TOLERANCE_MS }))).toEqual([]);
    expect(
      warnings22(await verifyJournal(dir, k.trust, { clock: () => FUTURE - CLOCK_TOLERANCE_MS - 1 })),
    ).toHaveLength(1);
  });

  it('the CLI reports it: journal verify passes with the warning', () => {
    const r = cli(['journal', 'verify', future, '--trust-store', k.trustPath, '--json']);
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as { verdict: string; findings: { rule: string; pointer?: string }[] };
    expect(report.verdict).toBe('pass');
    expect(report.findings.filter((f) => f.rule === 'RPR-JOURNAL-022').map((f) => f.pointer)).toEqual(['line:3']);
  });

  it('an entry dated after the checkpoint that first covers it', async () => {
    const dir = join(base, 'after-checkpoint');
    for (let i = 0; i < 3; i++)
      await appendEntry(dir, entry(`claim:${i}`), k.reviewer, { clock: () => NOW + i * 3_600_000 });
    // Re-sign checkpoint 2 (the first to cover entry 1) half an hour before entry 1 (and after
    // checkpoint 1, so checkpoint times still never go backwards): same tree, another time.
    const file = join(dir, 'checkpoints.jsonl');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    const cp = JSON.parse(lines[1]!) as Checkpoint;
    lines[1] = signCheckpoint(
      { treeSize: cp.treeSize, rootHash: cp.rootHash, signer: cp.signer, timestampUtc: '2026-12-04T10:30:00.000Z' },
      k.reviewer,
    ).line;
    writeFileSync(file, lines.join('\n') + '\n');
    const v = await verifyJournal(dir, k.trust, { clock: () => NOW + 7_200_000 });
    expect(v.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    const w = warnings22(v);
    expect(w.map((f) => f.pointer)).toEqual(['line:2']);
    expect(w[0]!.message).toContain(
      'dated after checkpoint at checkpoints.jsonl line 2, the first checkpoint that covers it',
    );
    expect(w[0]!.expected).toBe('<= 2026-12-04T10:30:00.000Z (entry:checkpoints.jsonl:line:2)');
    expect(w[0]!.actual).toBe('2026-12-04T11:00:00.000Z');
  });

  it('an honest journal, its clock stepping back within the tolerance, has no such warning', async () => {
    const dir = join(base, 'honest');
    const times = [NOW, NOW + 5000, NOW + 2000, NOW + 9000];
    for (const [i, t] of times.entries()) await appendEntry(dir, entry(`claim:${i}`), k.reviewer, { clock: () => t });
    const v = await verifyJournal(dir, k.trust, { clock: () => NOW + 9000 });
    expect(v.findings.map((f) => f.rule)).toEqual(['RPR-JOURNAL-000']);
  });
});
