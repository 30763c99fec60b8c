/**
 * A claim id that may draw as another claim's (RPR-QUAR-008: not NFC, whitespace at an end, a
 * control or bidi character) on any entry, not only a new case's (docs/journal.md, "Claim ids"):
 * the writer signs no new entry naming one as its own claim, a decision on a case already held
 * under one is still signed, and `journal verify` warns once per distinct id a journal holds
 * (a warning: the journal still verifies), in bounded memory.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendEntry,
  decideCase,
  JournalWriter,
  recordJudgement,
  verifyJournal,
  type AppendInput,
} from '../../app/journal/index.js';
import type { EntryKind } from '../../app/journal/format.js';
import { LookalikeClaims } from '../../app/journal/claim-ids.js';
import { recordNote } from '../../app/journal/notes.js';
import { journalKindResult } from '../../app/journal/result.js';
import { runBytes } from '../../app/engine/run.js';
import { cliIn } from '../cli/in-process.js';
import { forgeEntry } from './forge.helpers.js';
import { GOOD_RATIONALE, makeKeys, tmp, writeJson, type Keys } from './helpers.js';

const opts = { fsync: false };
const FILES = ['entries.jsonl', 'checkpoints.jsonl', 'notes.jsonl'];
const snapshot = (dir: string) => FILES.map((f) => readFileSync(join(dir, f), 'utf8'));
const entry = (kind: EntryKind, claimRef: string, body: Record<string, unknown> = { n: 1 }): AppendInput => ({
  kind,
  subject: { claimRef },
  body,
});
const ARTIFACT = `sha256:${'ab'.repeat(32)}`;
/** The kinds that name their own claim, each with a body the writer takes. */
const OWN_CLAIM: AppendInput[] = [
  entry('replay-drift', 'claim:A '),
  entry('replay-comparison', 'claim:A '),
  entry('recalibration-flag', 'claim:A '),
  entry('review-rationale', 'claim:A '),
  { kind: 'review-rationale', subject: { claimRef: 'claim:A ', artifact: ARTIFACT }, body: { note: 'x' } },
  entry('journal-repair', 'claim:A '),
];
const REFUSAL = (kind: string) =>
  `${kind} refused (RPR-QUAR-008): the claim id begins or ends with whitespace: it would draw as another claim's; nothing was written`;

/** A journal of one replay-drift entry on `claim:A`, written by the writer. */
async function journal(k: Keys): Promise<string> {
  const dir = join(tmp('reprise-claim-entries-'), 'J');
  await appendEntry(dir, entry('replay-drift', 'claim:A'), k.reviewer, opts);
  return dir;
}

describe('the writer refuses a claim id that may draw as another claim’s on every entry naming its own claim', () => {
  it('appendEntry and JournalWriter.append refuse it for each kind (RPR-QUAR-008), writing nothing', async () => {
    const k = makeKeys(tmp());
    const dir = await journal(k);
    const before = snapshot(dir);
    for (const input of OWN_CLAIM) {
      await expect(appendEntry(dir, input, k.reviewer, opts), input.kind).rejects.toMatchObject({
        code: 'REFUSED',
        message: REFUSAL(input.kind),
      });
    }
    const w = await JournalWriter.open(dir, { ...opts, signer: k.reviewer });
    try {
      for (const id of ['claim:cafe\u0301', 'claim:\u202egnp.exe', '\u3000claim:A'])
        await expect(w.append(entry('replay-drift', id), k.reviewer)).rejects.toMatchObject({
          code: 'REFUSED',
          message: expect.stringMatching(/^replay-drift refused \(RPR-QUAR-008\): the claim id /),
        });
    } finally {
      await w.close();
    }
    expect(snapshot(dir)).toEqual(before);
    // The NFC form, and an id with an inner space, are in form.
    await appendEntry(dir, entry('replay-drift', 'claim:caf\u00e9'), k.reviewer, opts);
    await appendEntry(dir, entry('replay-comparison', 'claim:a b'), k.reviewer, opts);
  });

  it('a refused first entry leaves no journal behind; a note and `journal record` are refused the same way', async () => {
    const k = makeKeys(tmp());
    const fresh = join(tmp('reprise-claim-entries-'), 'new', 'J');
    await expect(appendEntry(fresh, entry('replay-drift', 'claim:A\t'), k.reviewer, opts)).rejects.toMatchObject({
      code: 'REFUSED',
      message: expect.stringContaining('holds the control character U+0009'),
    });
    expect(existsSync(join(fresh, '..'))).toBe(false);
    const note = { artifact: ARTIFACT, text: GOOD_RATIONALE, claimRef: 'claim:A ' };
    await expect(recordNote(fresh, note, k.reviewer, k.trust, opts)).rejects.toMatchObject({
      code: 'REFUSED',
      message: REFUSAL('review-rationale'),
    });
    expect(existsSync(join(fresh, '..'))).toBe(false);
    const dir = await journal(k);
    const body = writeJson(join(tmp(), 'body.json'), { drift: true });
    const args = ['journal', 'record', dir, '--kind', 'replay-drift', '--claim', 'claim:A ', '--body-file', body];
    const r = await cliIn(tmp(), ...args, '--key', k.reviewerPem);
    expect(r.code).toBe(3);
    expect(r.err).toContain(REFUSAL('replay-drift'));
  });

  it('a decision on a case held under such an id is still signed, with the subject its case recorded', async () => {
    const k = makeKeys(tmp());
    const dir = await journal(k);
    const open = entry('quarantine-open', 'claim:A ', {
      reason: 'decision-material drift on the score',
      source: 'manual',
    });
    forgeEntry(dir, open, k.reviewer);
    const escalated = await decideCase(dir, 'case-1', 'escalate', GOOD_RATIONALE, k.reviewer, k.trust, opts);
    expect([escalated.case.state, escalated.entry.subject.claimRef]).toEqual(['escalated', 'claim:A ']);
    const released = await decideCase(dir, 'case-1', 'release', GOOD_RATIONALE, k.officer, k.trust, opts);
    expect([released.case.state, released.entry.subject.claimRef]).toEqual(['released', 'claim:A ']);
    // Its other entries are refused still: a decision names its case's claim, nothing else does.
    await expect(appendEntry(dir, entry('replay-drift', 'claim:A '), k.reviewer, opts)).rejects.toMatchObject({
      code: 'REFUSED',
    });
  });

  it("a judgement on an artifact whose id is out of form names the artifact's hash as its claim", async () => {
    const k = makeKeys(tmp());
    const dir = tmp('reprise-claim-judge-');
    const report = await runBytes(join(dir, 'a.json'), Buffer.from('{"hello": "world"}\n'), 'verify', {});
    const lookalike = { ...report, artifact: { ...report.artifact, id: 'claim:A\u00a0' } };
    const input = { report: lookalike, pointer: '', decision: 'accept' as const, rationale: GOOD_RATIONALE };
    const r = await recordJudgement(join(dir, 'J'), input, k.reviewer, k.trust, opts);
    expect(r.entry.subject).toEqual({ claimRef: report.artifact.sha256, artifact: report.artifact.sha256 });
    const named = { ...report, artifact: { ...report.artifact, id: 'claim:A' } };
    const r2 = await recordJudgement(join(dir, 'J'), { ...input, report: named }, k.reviewer, k.trust, opts);
    expect(r2.entry.subject.claimRef).toBe('claim:A');
  });
});

/** A journal written around the writer: lookalike ids on every kind that carries one, some repeated. */
function heldLookalikes(k: Keys): string {
  const dir = join(tmp('reprise-claim-held-'), 'J');
  mkdirSync(dir, { recursive: true });
  const reason = { reason: 'decision-material drift on the score', source: 'manual' };
  forgeEntry(dir, entry('replay-drift', 'claim:A'), k.reviewer); // line 1: in form
  forgeEntry(dir, entry('replay-drift', 'claim:A '), k.reviewer); // line 2
  forgeEntry(dir, entry('quarantine-open', 'claim:A ', reason), k.reviewer); // line 3: the same id
  forgeEntry(dir, entry('review-rationale', 'claim:cafe\u0301'), k.reviewer); // line 4
  forgeEntry(dir, entry('recalibration-flag', 'model:\u202egnp'), k.reviewer); // line 5
  forgeEntry(dir, entry('replay-comparison', 'claim:A '), k.reviewer); // line 6: the same id again
  forgeEntry(dir, entry('journal-repair', ' journal:repair'), k.reviewer); // line 7
  return dir;
}

describe('`journal verify` warns of such a claim id a journal holds, once per id', () => {
  it('one RPR-QUAR-008 warning per distinct id, at its first entry, with the id escaped; the journal still verifies', async () => {
    const k = makeKeys(tmp());
    const v = await verifyJournal(heldLookalikes(k), k.trust, { keep: false });
    expect(v.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(v.claimIds.map((f) => [f.rule, f.severity, f.pointer, f.actual])).toEqual([
      ['RPR-QUAR-008', 'warning', 'line:2', 'claim:A\\x20'],
      ['RPR-QUAR-008', 'warning', 'line:4', 'claim:cafe\\u0301'],
      ['RPR-QUAR-008', 'warning', 'line:5', 'model:\\u202egnp'],
      ['RPR-QUAR-008', 'warning', 'line:7', '\\x20journal:repair'],
    ]);
    expect(v.claimIds[0]!.message).toBe(
      `entry at line 2 (replay-drift): the claim id "claim:A\\x20" begins or ends with whitespace, so it may draw as another claim's (3 entries name it, this one first): read it as shown here, escaped. The writer signs no new entry naming it but a decision on a case opened under it`,
    );
    expect(v.claimIds[1]!.message).toContain('(review-rationale): the claim id "claim:cafe\\u0301" is not in Unicode');
    expect(v.claimIds[2]!.message).toContain('holds the control character U+202E, so it may draw');
    // The journal's report carries them beside its own findings.
    expect(journalKindResult(v).findings.filter((f) => f.rule === 'RPR-QUAR-008')).toHaveLength(4);
  });

  it('`reprise journal verify` prints them and exits 0 (pass); --json carries them with their lines', async () => {
    const k = makeKeys(tmp());
    const dir = heldLookalikes(k);
    const r = await cliIn(tmp(), 'journal', 'verify', dir, '--trust-store', k.trustPath);
    expect(r.code).toBe(0);
    expect(r.out).toContain('RPR-QUAR-008');
    // The printer doubles the backslashes of a message holding escapes, as it does every such text.
    expect(r.out).toContain(String.raw`the claim id "claim:A\\x20" begins or ends with whitespace`);
    expect(r.out).not.toMatch(/\u202e/u);
    const j = await cliIn(tmp(), 'journal', 'verify', dir, '--trust-store', k.trustPath, '--json');
    const doc = JSON.parse(j.out) as { verdict: string; findings: { rule: string; pointer?: string }[] };
    expect(doc.verdict).toBe('pass');
    expect(doc.findings.filter((f) => f.rule === 'RPR-QUAR-008').map((f) => f.pointer)).toEqual([
      'line:2',
      'line:4',
      'line:5',
      'line:7',
    ]);
  });

  it('many entries of one id give one warning; ids beyond the limit are counted in one RPR-REPORT-001', async () => {
    const k = makeKeys(tmp());
    const dir = join(tmp('reprise-claim-many-'), 'J');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i < 40; i++) forgeEntry(dir, entry('replay-drift', 'claim:A '), k.reviewer);
    for (const id of ['claim:B ', 'claim:C ', 'claim:D ', 'claim:C '])
      forgeEntry(dir, entry('replay-drift', id), k.reviewer);
    const v = await verifyJournal(dir, k.trust, { keep: false, maxFindingsPerRule: 2 });
    expect(v.claimIds.map((f) => [f.rule, f.pointer])).toEqual([
      ['RPR-QUAR-008', 'line:1'],
      ['RPR-QUAR-008', 'line:41'],
      ['RPR-REPORT-001', 'line:42'],
    ]);
    expect(v.claimIds[0]!.message).toContain('(40 entries name it, this one first)');
    expect(v.claimIds[2]).toMatchObject({ severity: 'warning', actual: { rule: 'RPR-QUAR-008', count: 3 } });
    expect(v.claimIds[2]!.message).toMatch(/^3 more entries of RPR-QUAR-008, from line 42 on, name claim ids/);
  });

  it('100,000 entries of one id are one warning, and only the limit of ids is ever held', () => {
    const claims = new LookalikeClaims(100);
    for (let i = 0; i < 100_000; i++) claims.step(entry('replay-drift', 'claim:A '), i + 1);
    expect(claims.findings().map((f) => [f.pointer, f.message.match(/\((\d+) entries/)?.[1]])).toEqual([
      ['line:1', '100000'],
    ]);
    const many = new LookalikeClaims(100);
    for (let i = 0; i < 100_000; i++) many.step(entry('replay-drift', `claim:${i} `), i + 1);
    const f = many.findings();
    expect(f).toHaveLength(101);
    expect(f[100]).toMatchObject({ rule: 'RPR-REPORT-001', actual: { rule: 'RPR-QUAR-008', count: 99_900 } });
    // A long id is held by its hash and shown by its start, its length and its hash.
    const long = new LookalikeClaims();
    long.step(entry('replay-drift', `claim:${'x'.repeat(5000)} `), 1);
    long.step(entry('replay-drift', `claim:${'x'.repeat(5000)} `), 2);
    const [one] = long.findings();
    expect(one!.actual).toMatch(/^claim:x{58}… \(5007 characters; sha256:[0-9a-f]{64}\)$/);
    expect(one!.message).toContain('(2 entries name it');
  });
});
