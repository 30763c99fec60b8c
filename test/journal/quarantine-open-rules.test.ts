/**
 * What opening a quarantine case asks (docs/journal.md, "Quarantine cases" and "Claim ids"):
 * its reason is held to the one rationale rule a release's rationale is (RPR-QUAR-004), and its
 * claim id must be NFC, without whitespace at either end or a control character (RPR-QUAR-008),
 * whoever appends it; a journal that already holds such a claim id lists it escaped, with a
 * warning. Found by review: "drift seen" opened a case an officer had to release on a 70-character
 * rationale, and `claim:A ` or a decomposed `café` listed exactly as `claim:A` or `café`.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendEntry, decideCase, openCase, verifyJournal, type AppendInput } from '../../app/journal/index.js';
import { claimIdProblem, shownClaimId } from '../../shared/claim-id.js';
import { checkRationale } from '../../shared/rationale.js';
import { cliIn } from '../cli/in-process.js';
import { forgeEntry } from './forge.helpers.js';
import { GOOD_RATIONALE, makeKeys, tmp, type Keys } from './helpers.js';

const opts = { fsync: false };
const REASON = 'decision-material drift on the replayed score';
const FILES = ['entries.jsonl', 'checkpoints.jsonl', 'notes.jsonl'];
const snapshot = (dir: string) => FILES.map((f) => readFileSync(join(dir, f), 'utf8'));
const opening = (claimRef: string, reason: string): AppendInput => ({
  kind: 'quarantine-open',
  subject: { claimRef },
  body: { reason, source: 'manual' },
});

/** A journal holding case-0 for `claim:A`, opened through the workflow. */
async function journal(k: Keys): Promise<string> {
  const dir = join(tmp('reprise-quar-open-'), 'J');
  await openCase(dir, { claimRef: 'claim:A', reason: REASON }, k.reviewer, opts);
  return dir;
}

describe("a case's reason is held to the rationale rule", () => {
  const WEAK = ['drift seen', 'held', 'aaaaaaaaaaaaaaaaaaaaaaaa bb cc', 'ok ab cde' + '\u200b'.repeat(14)];

  it('openCase refuses a reason the rule refuses (RPR-QUAR-004), before the directory is made', async () => {
    const k = makeKeys(tmp());
    for (const reason of WEAK) {
      const dir = join(tmp('reprise-quar-open-'), 'J');
      const why = checkRationale(reason, 'new')!;
      expect(why, reason).not.toBeNull();
      await expect(openCase(dir, { claimRef: 'claim:A', reason }, k.reviewer, opts)).rejects.toMatchObject({
        code: 'REFUSED',
        message: `quarantine-open refused (RPR-QUAR-004): a case's reason is held to the rationale rule: ${why}; nothing was written`,
      });
      expect(existsSync(dir)).toBe(false);
    }
  });

  it('the writer refuses it too, whoever appends it, and writes nothing; a blank one stays RPR-QUAR-005', async () => {
    const k = makeKeys(tmp());
    const dir = await journal(k);
    const before = snapshot(dir);
    await expect(appendEntry(dir, opening('claim:B', 'drift seen'), k.reviewer, opts)).rejects.toMatchObject({
      code: 'REFUSED',
      message: expect.stringContaining('RPR-QUAR-004'),
    });
    await expect(appendEntry(dir, opening('claim:B', ' '), k.reviewer, opts)).rejects.toMatchObject({
      message: expect.stringContaining('RPR-QUAR-005'),
    });
    expect(snapshot(dir)).toEqual(before);
    await appendEntry(dir, opening('claim:B', REASON), k.reviewer, opts);
    expect((await verifyJournal(dir, k.trust)).cases.cases.map((c) => c.subject.claimRef)).toEqual([
      'claim:A',
      'claim:B',
    ]);
  });

  it('`quarantine open --reason held` exits 3 naming the rule; an opening the journal already holds still verifies', async () => {
    const k = makeKeys(tmp());
    const dir = await journal(k);
    const r = await cliIn(
      tmp(),
      'quarantine',
      'open',
      dir,
      '--claim',
      'claim:B',
      '--reason',
      'held',
      '--key',
      k.reviewerPem,
    );
    expect(r.code).toBe(3);
    expect(r.err).toContain('RPR-QUAR-004');
    expect(r.err).toContain('the rationale has 4 characters; at least 20 are required');
    // Signed under the looser rule (by another tool, or before it): the fold does not reopen it.
    forgeEntry(dir, opening('claim:C', 'drift seen'), k.reviewer);
    const v = await verifyJournal(dir, k.trust);
    expect(v.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(v.cases.cases.map((c) => c.history[0]!.text)).toEqual([REASON, 'drift seen']);
  });
});

/** Claim ids that draw as `claim:A` or `claim:café` (NFC), each with the escape `quarantine list` shows. */
const LOOKALIKES: [string, string][] = [
  ['claim:A ', 'claim:A\\x20'],
  [' claim:A', '\\x20claim:A'],
  ['claim:A\u00a0', 'claim:A\\xa0'],
  ['claim:A\u3000', 'claim:A\\u3000'],
  ['claim:cafe\u0301', 'claim:cafe\\u0301'],
  ['claim:\u212b', 'claim:\\u212b'],
  ['claim:A\t', 'claim:A\\x09'],
  ['claim:\u202egnp.exe', 'claim:\\u202egnp.exe'],
];

describe('a claim id in the form claims are compared in', () => {
  it('the rule: NFC, no whitespace at either end, no control character; the escape shows each lookalike apart', () => {
    for (const [id, shown] of LOOKALIKES) {
      expect(claimIdProblem(id), JSON.stringify(id)).not.toBeNull();
      expect(shownClaimId(id)).toBe(shown);
    }
    expect(claimIdProblem('claim:A\u202e')).toBe('holds the control character U+202E');
    expect(claimIdProblem('claim:A ')).toBe('begins or ends with whitespace');
    expect(claimIdProblem('claim:cafe\u0301')).toMatch(/^is not in Unicode normalization form NFC/);
    for (const ok of ['claim:A', 'claim:caf\u00e9', 'claim:loan\ufe0f-1', 'claim:a b', 'C:\\x20'])
      expect(claimIdProblem(ok), ok).toBeNull();
    // An invisible character is shown escaped (the identifier escape), not refused.
    expect(shownClaimId('claim:loan\ufe0f-1')).toBe('claim:loan\\ufe0f-1');
    // A typed backslash never reads as an escape: doubled whenever something is escaped.
    expect(shownClaimId('C:\\x20 ')).toBe('C:\\\\x20\\x20');
  });

  it('openCase and every append refuse such a claim id (RPR-QUAR-008), writing nothing; the NFC form opens', async () => {
    const k = makeKeys(tmp());
    const dir = await journal(k);
    const before = snapshot(dir);
    for (const [id] of LOOKALIKES) {
      await expect(openCase(dir, { claimRef: id, reason: REASON }, k.reviewer, opts)).rejects.toMatchObject({
        code: 'REFUSED',
        message: expect.stringMatching(/^quarantine-open refused \(RPR-QUAR-008\): the claim id /),
      });
      await expect(appendEntry(dir, opening(id, REASON), k.reviewer, opts)).rejects.toMatchObject({
        code: 'REFUSED',
        message: expect.stringContaining('RPR-QUAR-008'),
      });
    }
    expect(snapshot(dir)).toEqual(before);
    await openCase(dir, { claimRef: 'claim:caf\u00e9', reason: REASON }, k.reviewer, opts);
  });

  it('`quarantine open --claim "claim:A "` exits 3 with the rule and what is wrong', async () => {
    const k = makeKeys(tmp());
    const dir = await journal(k);
    const r = await cliIn(
      tmp(),
      'quarantine',
      'open',
      dir,
      '--claim',
      'claim:A ',
      '--reason',
      REASON,
      '--key',
      k.reviewerPem,
    );
    expect(r.code).toBe(3);
    expect(r.err).toContain('RPR-QUAR-008');
    expect(r.err).toContain('the claim id begins or ends with whitespace');
  });
});

/** A journal whose cases 1.. were opened around the writer (another tool, an older version) for each lookalike of claim:A / café. */
function heldLookalikes(k: Keys): string {
  const dir = join(tmp('reprise-quar-lookalike-'), 'J');
  mkdirSync(dir, { recursive: true });
  forgeEntry(dir, opening('claim:A', REASON), k.reviewer);
  forgeEntry(dir, opening('claim:A ', REASON), k.reviewer);
  forgeEntry(dir, opening('claim:caf\u00e9', REASON), k.reviewer);
  forgeEntry(dir, opening('claim:cafe\u0301', REASON), k.reviewer);
  return dir;
}

describe('a journal already holding such a claim id', () => {
  it('`quarantine list` shows it escaped and warns (RPR-QUAR-008) naming the case; the verdict stays pass', async () => {
    const k = makeKeys(tmp());
    const dir = heldLookalikes(k);
    const r = await cliIn(tmp(), 'quarantine', 'list', dir, '--trust-store', k.trustPath);
    expect(r.code).toBe(0);
    expect(
      r.out
        .trim()
        .split('\n')
        .map((l) => l.split(/\s+/)[2]),
    ).toEqual(['claim:A', 'claim:A\\x20', 'claim:caf\u00e9', 'claim:cafe\\u0301']);
    // The listing's own, once per case: `journal verify`'s, at the same opening entries, are not said twice.
    expect(r.err).toContain('journal verdict PASS with 2 warnings');
    expect(r.err).toContain('RPR-QUAR-008  the claim id of case-1 begins or ends with whitespace');
    expect(r.err).toContain('concerns case-1');
    expect(r.err).toContain('the claim id of case-3 is not in Unicode normalization form NFC');
    expect(r.err).toContain('concerns case-3');
  });

  it('`--json` keeps the claim id exact and carries the warnings with their case; `show` says it of its case', async () => {
    const k = makeKeys(tmp());
    const dir = heldLookalikes(k);
    const r = await cliIn(tmp(), 'quarantine', 'list', dir, '--trust-store', k.trustPath, '--json');
    const doc = JSON.parse(r.out) as {
      verdict: string;
      cases: { subject: { claimRef: string } }[];
      findings: { rule: string; severity: string; caseId?: string; pointer?: string }[];
    };
    expect(doc.verdict).toBe('pass');
    expect(doc.cases.map((c) => c.subject.claimRef)).toEqual([
      'claim:A',
      'claim:A ',
      'claim:caf\u00e9',
      'claim:cafe\u0301',
    ]);
    expect(doc.findings.map((f) => [f.rule, f.severity, f.caseId, f.pointer])).toEqual([
      ['RPR-QUAR-008', 'warning', 'case-1', 'line:2'],
      ['RPR-QUAR-008', 'warning', 'case-3', 'line:4'],
    ]);
    const show = await cliIn(tmp(), 'quarantine', 'show', dir, 'case-3', '--trust-store', k.trustPath);
    expect(show.code).toBe(0);
    expect(show.out).toContain('claim:cafe\\u0301');
    expect(show.err).toContain('concerns case-3');
    // A plain case: the journal's own warnings (of case-1 and case-3), none of its own.
    const plain = await cliIn(tmp(), 'quarantine', 'show', dir, 'case-2', '--trust-store', k.trustPath);
    expect(plain.code).toBe(0);
    expect(plain.err).not.toContain('concerns case-2');
    expect(plain.err).not.toContain('the claim id of case-');
  });

  it('its case can still be decided: the decision names the subject its case recorded', async () => {
    const k = makeKeys(tmp());
    const dir = heldLookalikes(k);
    const r = await decideCase(dir, 'case-1', 'release', GOOD_RATIONALE, k.officer, k.trust, opts);
    expect([r.case.state, r.case.subject.claimRef]).toEqual(['released', 'claim:A ']);
  });
});
