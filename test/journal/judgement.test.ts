import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RATIONALE_RULE, checkRationale } from '../../shared/rationale.js';
import { MIN_RATIONALE_CHARS, MIN_RATIONALE_WORDS, rationaleProblem } from '../../app/journal/cases.js';
import { runBytes } from '../../app/engine/run.js';
import { JournalError, listJudgements, recordJudgement, reportDigest, verifyJournal } from '../../app/journal/index.js';
import { makeKeys, tmp } from './helpers.js';

const ARTIFACT = Buffer.from('{"hello": "world"}\n');
const RATIONALE = 'The finding was checked against the file by hand.';

async function setup() {
  const dir = tmp('reprise-judge-');
  const keys = makeKeys(dir);
  const report = await runBytes(join(dir, 'a.json'), ARTIFACT, 'verify', {});
  return { dir, keys, report, journal: join(dir, 'journal') };
}

describe('judgements', () => {
  it("one rationale rule: the engine's quarantine checks and the shared rule are the same function and numbers", () => {
    expect(rationaleProblem).toBe(checkRationale);
    expect(MIN_RATIONALE_CHARS).toBe(RATIONALE_RULE.minChars);
    expect(MIN_RATIONALE_WORDS).toBe(RATIONALE_RULE.minWords);
    expect(checkRationale('a'.repeat(25))).toMatch(/word/);
    expect(checkRationale('one two three four five six')).toBeNull();
    expect(checkRationale('too short')).toMatch(/characters/);
  });

  it('the report digest ignores run and the path the file was opened from, nothing else', async () => {
    const { report } = await setup();
    const elsewhere = {
      ...report,
      artifact: { ...report.artifact, path: 'upload.json' },
      run: { ...report.run, durationMs: 12345 },
    };
    expect(reportDigest(elsewhere)).toBe(reportDigest(report));
    expect(reportDigest({ ...report, verdict: 'pass' })).not.toBe(reportDigest(report));
  });

  it('records a signed, anchored judgement and returns a verified receipt; listing finds it with its proof', async () => {
    const { keys, report, journal } = await setup();
    const r = await recordJudgement(
      journal,
      { report, pointer: '/findings/0', decision: 'needs-review', rationale: RATIONALE },
      keys.reviewer,
      keys.trust,
      { fsync: false },
    );
    expect(r.seq).toBe(0);
    expect(r.proofVerified).toBe(true);
    expect(r.checkpoint.treeSize).toBe(1);
    expect(r.entry.body).toEqual({
      type: 'reprise.judgement/v1',
      decision: 'needs-review',
      rationale: RATIONALE,
      reportDigest: reportDigest(report),
      pointer: '/findings/0',
    });
    expect(r.entry.subject.artifact).toBe(report.artifact.sha256);
    const { judgements, verification } = await listJudgements(journal, report.artifact.sha256!, keys.trust);
    expect(verification.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    expect(judgements.map((j) => [j.seq, j.decision, j.pointer, j.role, j.label, j.proofVerified, j.problem])).toEqual([
      [0, 'needs-review', '/findings/0', 'reviewer', 'test reviewer', true, null],
    ]);
    expect((await listJudgements(journal, 'sha256:' + '1'.repeat(64), keys.trust)).judgements).toEqual([]);
  });

  it('refuses, writing nothing: another role, an unknown key, a decision outside the set, a thin rationale, a pointer to no item', async () => {
    const { keys, report, journal } = await setup();
    const ok = { report, pointer: '', decision: 'accept' as const, rationale: RATIONALE };
    const cases: [Parameters<typeof recordJudgement>[1], typeof keys.reviewer, RegExp][] = [
      [ok, keys.officer, /reviewer key; .* is a quarantine-officer key/],
      [ok, keys.outsider, /not in the trust store/],
      [{ ...ok, decision: 'approve' as never }, keys.reviewer, /not one of accept, reject, needs-review, note/],
      [{ ...ok, rationale: 'ok fine' }, keys.reviewer, /characters/],
      [{ ...ok, pointer: '/findings/7' }, keys.reviewer, /no item \/findings\/7/],
      [{ ...ok, pointer: '/verdict' }, keys.reviewer, /neither/],
      // A megabyte-long pointer is quoted by its start and length, not echoed whole (found by a red team).
      [
        { ...ok, pointer: '/x'.repeat(500_000) },
        keys.reviewer,
        /^[^\n]{0,400}"… \(1,000,000 characters\) is neither "" \(the whole report\)/,
      ],
    ];
    for (const [input, signer, why] of cases) {
      const e = await recordJudgement(journal, input, signer, keys.trust, { fsync: false }).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(JournalError);
      expect((e as JournalError).message).toMatch(why);
    }
    let entries = '';
    try {
      entries = readFileSync(join(journal, 'entries.jsonl'), 'utf8');
    } catch {
      /* never created: nothing written */
    }
    expect(entries).toBe('');
    expect((await verifyJournal(journal, keys.trust)).entryLines).toBe(0);
  });
});
