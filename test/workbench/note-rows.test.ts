/**
 * The case view's notes list (renderer/src/lib/note-rows.ts rowsOf, shown by CaseNotes.tsx):
 * nothing recorded is hidden, a note that does not count (a quarantine officer's "edit") or
 * whose signer was not judged never replaces the reviewer's, the notes of a journal that fails
 * verification are not proven, and a note's text shows its invisible characters.
 */
import { describe, expect, it } from 'vitest';
import type { JudgementView } from '../../shared/api.js';
import type { CaseJudgement } from '../../shared/case.js';
import { escapeControls } from '../../shared/controls.js';
import type { Verdict } from '../../shared/report.js';
import { rowsOf, type WorkNotes } from '../../renderer/src/lib/note-rows.js';

const ART = `sha256:${'a'.repeat(64)}`;
const h = (c: string) => `sha256:${c.repeat(64)}`;
const REVIEWER = `ed25519:${'1'.repeat(64)}`;
const OFFICER = `ed25519:${'2'.repeat(64)}`;

function caseNote(seq: number, hash: string, over: Partial<CaseJudgement> = {}): CaseJudgement {
  return {
    journal: 'journal',
    seq,
    entryHash: hash,
    artifact: 'report.json',
    subject: ART,
    decision: 'note',
    rationale: `note number ${seq} on the artifact`,
    author: REVIEWER,
    atUtc: `2026-12-05T10:00:0${seq}Z`,
    supersedes: null,
    standing: 'counts',
    problem: null,
    ...over,
  };
}

function workNote(seq: number, hash: string, over: Partial<JudgementView> = {}): JudgementView {
  return {
    seq,
    entryHash: hash,
    recordedAtUtc: `2026-12-05T10:00:0${seq}Z`,
    decision: 'note',
    rationale: `note number ${seq} on the artifact`,
    pointer: '',
    reportDigest: null,
    author: REVIEWER,
    role: 'reviewer',
    label: 'test reviewer',
    problem: null,
    proofBuilt: true,
    proofVerified: true,
    proofFindings: [],
    supersedes: null,
    ...over,
  };
}

const work = (judgements: JudgementView[], verdict: Verdict | null = 'pass', failures: string[] = []): WorkNotes => ({
  judgements,
  verdict,
  failures,
  failureCount: failures.length,
});

const at = (verdicts: [string, Verdict][] = [['journal', 'pass']]) => ({
  artifact: ART,
  checked: true,
  verdicts: new Map(verdicts),
});

describe("the case view's notes list", () => {
  it("an officer's edit of the reviewer's note does not count: the reviewer's stays the latest", () => {
    const officer = caseNote(1, h('b'), {
      author: OFFICER,
      rationale: 'OFFICER OVERRIDE',
      supersedes: h('a'),
      standing: 'does-not-count',
      problem: 'the key is a quarantine-officer key: a judgement is signed by a reviewer key',
    });
    const rows = rowsOf([caseNote(0, h('a')), officer], work([]), [], at());
    expect(rows.map((r) => [r.entryHash, r.supersededBy, r.problem !== null])).toEqual([
      [h('a'), null, false],
      [h('b'), null, true],
    ]);
    expect(rows[1]!.problem).toMatch(/quarantine-officer/);
    expect(rows[1]!.editRefused).toBe('it does not count');
  });

  it('an edit whose signer the case could not judge (no trust store) replaces nothing, and says why', () => {
    const rows = rowsOf(
      [
        caseNote(0, h('a'), { standing: 'unchecked' }),
        caseNote(1, h('b'), { standing: 'unchecked', supersedes: h('a') }),
      ],
      work([]),
      [],
      at(),
    );
    expect(rows[0]!.supersededBy).toBeNull();
    expect(rows[1]!.editRefused).toMatch(/without a trust store/);
  });

  it('lists every note of the journal worked in, those with a problem too, each with its problem', () => {
    const revoked = 'the key ed25519:1111 is revoked in the trust store';
    const notes = [0, 1, 2].map((i) => workNote(i, h('abc'[i]!), { problem: revoked }));
    const rows = rowsOf([], work(notes), [], at());
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.problem === revoked && r.author === REVIEWER)).toBe(true);
  });

  it('the journal worked in, when also a case journal, lists its notes once, as its own', () => {
    const revoked = 'the key is revoked';
    const rows = rowsOf(
      [caseNote(0, h('a'), { standing: 'does-not-count', problem: revoked }), caseNote(1, h('b'))],
      work([workNote(0, h('a'), { problem: revoked }), workNote(1, h('b'))]),
      [],
      at(),
    );
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.caseJournal === null)).toBe(true);
  });

  it('marks every note of a journal worked in that fails as not proven, saying why; its edits replace nothing', () => {
    const rows = rowsOf(
      [],
      work([workNote(0, h('a')), workNote(1, h('b'), { supersedes: h('a') })], 'fail', [
        'RPR-JOURNAL-030: checkpoint signature does not verify',
      ]),
      [],
      at(),
    );
    expect(rows.every((r) => r.unproven?.includes('FAILS verification: RPR-JOURNAL-030'))).toBe(true);
    expect(rows[0]!.supersededBy).toBeNull();
    // A note the journal could not build a proof of says so too, in the engine's words.
    const damaged = "the latest checkpoint's root does not match the journal";
    const lost = workNote(0, h('a'), { proofBuilt: false, proofVerified: false, proofFindings: [damaged] });
    expect(rowsOf([], work([lost], 'fail', ['RPR-JOURNAL-002: x']), [], at())[0]!.unproven).toMatch(
      /FAILS verification: RPR-JOURNAL-002: x; no inclusion proof could be built \(the latest checkpoint's root/,
    );
    // A listing without a verdict proves nothing either.
    expect(rowsOf([], work([workNote(0, h('a'))], null), [], at())[0]!.unproven).toMatch(/without its verdict/);
    // A journal that verifies proves its notes, and a reviewer's edit replaces the text.
    const ok = rowsOf([], work([workNote(0, h('a')), workNote(1, h('b'), { supersedes: h('a') })]), [], at());
    expect(ok.map((r) => [r.unproven, r.supersededBy])).toEqual([
      [null, h('b')],
      [null, null],
    ]);
  });

  it("a note's text shows its invisible characters, its line feeds and tabs as they are", () => {
    const as = { keep: '\n\t', everyInvisible: true };
    expect(escapeControls('a\u200bb\n\tc', as)).toBe('a\\u200bb\n\tc');
    for (const c of ['\u2060', '\u00ad', '\ufeff', '\u180e', '\u3164', '\u{e0041}'])
      expect(escapeControls(`x${c}y`, as)).not.toBe(`x${c}y`);
    expect(escapeControls('x\u{e0041}y', as)).toBe('x\\u{e0041}y');
    // Other callers: the controls alone keep them raw; an identifier escapes them all, as a note does.
    expect(escapeControls('a\u200bb\u3164', { keep: '\n\t' })).toBe('a\u200bb\u3164');
    expect(escapeControls('a\u200bb\u3164', { identifier: true })).toBe('a\\u200bb\\u3164');
  });
});
