/**
 * What the officer's confirmation showed is what the engine signs (docs/workbench.md, The
 * officer's queue): the case named by its opening entry, the key the file held when the
 * confirmation opened; and claims and keys shown as they are (controls escaped, a revoked key
 * named revoked and refused before the click).
 */
import { copyFile, cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSigner, type Signer } from '../../app/core/keys.js';
import { escalateCase, openCase } from '../../app/journal/index.js';
import { decide, evidenceDeltas, journalStatus } from '../../main/host/journal-ops.js';
import { recordJudgement } from '../../main/host/judgement-ops.js';
import { claimIdWarning, keyRefusal, keyStanding, queueOf, statusRefusal } from '../../renderer/src/lib/officer.js';
import type { CaseView, SigningKey } from '../../shared/api.js';
import { controlPieces, escapeControls } from '../../shared/controls.js';
import { REPORT_SCHEMA, type Report } from '../../shared/report.js';
import { makeKeys, tmp } from '../journal/helpers.js';
import { asShown, keyIdOf } from '../helpers/shown.js';
import { caseView as view } from '../helpers/case-view.js';

const RATIONALE = 'Replayed twice with the pinned model; the drift is within the band.';
const opts = { fsync: false };

/** A journal of two open cases on the claims given, opened by the officer. */
async function journalOf(dir: string, officer: Signer, claims: string[]): Promise<void> {
  for (const claimRef of claims)
    await openCase(dir, { claimRef, reason: `held for review of the drift on ${claimRef}` }, officer, opts);
}

describe('a decision signs the case the confirmation showed, with the key it showed', () => {
  it('a journal replaced on disk after the case was shown: refused, not signed onto its case of the same number', async () => {
    const root = tmp('reprise-officer-shown-');
    const k = makeKeys(root);
    const shownDir = join(root, 'shown');
    const otherDir = join(root, 'other');
    await journalOf(shownDir, k.officer, ['claim:tiny', 'claim:small']);
    await journalOf(otherDir, k.officer, ['claim:OTHER-0', 'claim:OTHER-1']);
    const req = { dir: shownDir, trustStore: k.trustPath, keyFile: k.officerPem, caseId: 'case-1' };
    const shown = await asShown(req);
    // The folder now holds the other journal (a restored backup, a colleague's copy).
    await rm(shownDir, { recursive: true });
    await cp(otherDir, shownDir, { recursive: true });
    const before = await readFile(join(shownDir, 'entries.jsonl'));
    await expect(decide({ ...req, ...shown, decision: 'release', rationale: RATIONALE })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: `case-1 is not the case shown: the journal holds no case opened by entry ${shown.openHash} (it changed since it was shown); nothing was signed`,
    });
    expect((await readFile(join(shownDir, 'entries.jsonl'))).equals(before)).toBe(true);
    // The case shown, still in its journal, is decided by that hash.
    await rm(shownDir, { recursive: true });
    await journalOf(shownDir, k.officer, ['claim:tiny']);
    const again = await asShown({ ...req, caseId: 'case-0' });
    const r = await decide({ ...req, ...again, caseId: 'case-0', decision: 'release', rationale: RATIONALE });
    expect([r.caseId, r.state]).toEqual(['case-0', 'released']);
    // A request without the hash is refused: the number alone never picks the case.
    await expect(
      decide({ ...req, ...again, openHash: 'case-0', decision: 'uphold', rationale: RATIONALE }),
    ).rejects.toThrow(/opening entry's hash/);
  });

  it('a case that moved on after it was shown (a reviewer escalated it meanwhile): refused, nothing signed', async () => {
    const root = tmp('reprise-officer-moved-');
    const k = makeKeys(root);
    const dir = join(root, 'journal');
    await journalOf(dir, k.officer, ['claim:a']);
    const req = { dir, trustStore: k.trustPath, keyFile: k.officerPem, caseId: 'case-0' };
    const shown = await asShown(req);
    // The confirmation shows "open → released" over one entry; a reviewer escalates before the click.
    await escalateCase(dir, 'case-0', 'Escalating: the drift exceeds what a release can cover.', k.reviewer, k.trust);
    const before = await readFile(join(dir, 'entries.jsonl'));
    await expect(decide({ ...req, ...shown, decision: 'release', rationale: RATIONALE })).rejects.toMatchObject({
      code: 'REFUSED',
      message:
        'case-0 changed since it was shown: 1 entry was added since (the last: escalate at seq 1, now escalated); nothing was signed (review it again)',
    });
    const unknown = { ...req, ...shown, shownLast: `sha256:${'0'.repeat(64)}`, decision: 'uphold' as const };
    await expect(decide({ ...unknown, rationale: RATIONALE })).rejects.toThrow(
      'case-0 changed since it was shown: its history is not the one shown; nothing was signed (review it again)',
    );
    await expect(decide({ ...unknown, shownLast: '', rationale: RATIONALE })).rejects.toThrow(
      "a decision names the last entry of the case's history it showed",
    );
    expect((await readFile(join(dir, 'entries.jsonl'))).equals(before)).toBe(true);
    // Shown again (the escalation read), the release signs.
    const r = await decide({ ...req, ...(await asShown(req)), decision: 'release', rationale: RATIONALE });
    expect([r.caseId, r.state]).toEqual(['case-0', 'released']);
  });

  it('a key file replaced after the confirmation showed its key: refused, nothing signed (decision and judgement)', async () => {
    const root = tmp('reprise-officer-key-');
    const other = generateSigner();
    const k = makeKeys(root, [{ signer: other, role: 'quarantine-officer', status: 'active' }]);
    const dir = join(root, 'journal');
    await journalOf(dir, k.officer, ['claim:a']);
    const req = { dir, trustStore: k.trustPath, keyFile: k.officerPem, caseId: 'case-0' };
    const shown = await asShown(req);
    // Officer B's key copied over officer A's file after the dialog showed officer A.
    const otherPem = join(root, 'other.pem');
    await writeFile(otherPem, other.privateKey.export({ format: 'pem', type: 'pkcs8' }));
    await copyFile(otherPem, k.officerPem);
    const before = await readFile(join(dir, 'entries.jsonl'));
    await expect(decide({ ...req, ...shown, decision: 'release', rationale: RATIONALE })).rejects.toThrow(
      `the key file changed since it was shown: officer.pem now holds ${other.keyId}, the confirmation showed ${k.officer.keyId}; nothing was signed (review it again)`,
    );
    await expect(decide({ ...req, ...shown, keyId: '', decision: 'release', rationale: RATIONALE })).rejects.toThrow(
      'a signature needs the key id its confirmation showed',
    );
    const report = {
      schema: REPORT_SCHEMA,
      artifact: { kind: 'replay-dump', sha256: `sha256:${'ab'.repeat(32)}` },
      findings: [],
    } as unknown as Report;
    const judgement = {
      dir,
      trustStore: k.trustPath,
      keyFile: k.officerPem,
      report,
      pointer: '',
      decision: 'note' as const,
      rationale: RATIONALE,
    };
    await expect(recordJudgement({ ...judgement, keyId: k.reviewer.keyId })).rejects.toThrow(
      /^the key file changed since it was shown: officer\.pem now holds /,
    );
    expect((await readFile(join(dir, 'entries.jsonl'))).equals(before)).toBe(true);
    // Shown as it is now, it signs.
    const r = await decide({
      ...req,
      ...shown,
      keyId: await keyIdOf(k.officerPem),
      decision: 'release',
      rationale: RATIONALE,
    });
    expect(r.keyId).toBe(other.keyId);
    expect((await journalStatus({ dir, trustStore: k.trustPath })).cases[0]!.state).toBe('released');
  });
});

describe('evidence deltas: a cause named only when known, extremes in exponent form', () => {
  it('a written delta that is no float rounding is not blamed on one; 5e-324 and 1.797e308 are not 330- and 630-digit decimals', () => {
    const [bigInt, float, extremes] = evidenceDeltas([
      { original: 9007199254740992, replayed: 9007199254740992, delta: 1 },
      { original: 0.7193599213366195, replayed: 0.6193599213366195, delta: 0.09999999999999998 },
      { original: 5e-324, replayed: 1.7976931348623157e308, delta: 1.7976931348623157e308, epsilon: 1e-7 },
    ]);
    expect(bigInt).toMatchObject({ exact: '0', agrees: false, floatRounding: false });
    expect(float).toMatchObject({ exact: '0.1', agrees: false, floatRounding: true });
    expect(extremes).toMatchObject({ original: '5e-324', epsilon: '0.0000001' });
    expect(extremes!.replayed).toBe('1.7976931348623157e+308');
    // The exact difference needs its 600-odd digits: the table wraps it (styles.css .evidence-num).
    expect(extremes!.exact).toMatch(/^1\.797693134862315\d{600,}e\+308$/);
  });
});

describe('claims and keys shown as they are', () => {
  it('controls and bidi characters are escaped as the terminal shows them; a rationale keeps its line feeds', () => {
    const claim = 'claim:\u202egnp.exe';
    expect(escapeControls(claim)).toBe('claim:\\u202egnp.exe');
    expect(escapeControls('a\u0007b\u2066c')).toBe('a\\x07b\\u2066c');
    expect(escapeControls('line one\nline\ttwo\u202e', { keep: '\n\t' })).toBe('line one\nline\ttwo\\u202e');
    expect(controlPieces(claim)).toEqual([
      { text: 'claim:', control: false },
      { text: '\\u202e', control: true },
      { text: 'gnp.exe', control: false },
    ]);
    expect(controlPieces('plain')).toEqual([{ text: 'plain', control: false }]);
  });

  it('the queue finds a claim by what it shows, never by the claim it only looked like', () => {
    const c = (caseId: string, claimRef: string): CaseView => ({
      caseId,
      state: 'open',
      claimRef,
      artifact: null,
      source: 'manual',
      openedAtUtc: '2026-11-01T00:00:00Z',
      updatedAtUtc: '2026-11-01T00:00:00Z',
      evidence: null,
      history: [],
    });
    const cases = [c('case-3', 'claim:\u202egnp.exe'), c('case-8', 'claim:exe.png')];
    const ids = (s: string) => queueOf(cases, '', s, { key: 'state', dir: 'asc' }).map((x) => x.caseId);
    expect(ids('exe.png')).toEqual(['case-8']);
    expect(ids('\\u202e')).toEqual(['case-3']);
    expect(ids('claim:\\u202Egnp')).toEqual(['case-3']);
  });

  it('the queue finds a claim id that breaks the form a new case needs (RPR-QUAR-008) by the escape it shows', () => {
    const cases = [
      view('case-0', 'claim:A'),
      view('case-1', 'claim:A '),
      view('case-2', 'claim:caf\u00e9'),
      view('case-3', 'claim:cafe\u0301'),
    ];
    const ids = (s: string) => queueOf(cases, '', s, { key: 'claim', dir: 'asc' }).map((x) => x.caseId);
    expect(ids('claim:a\\x20')).toEqual(['case-1']);
    expect(ids('cafe\\u0301')).toEqual(['case-3']);
    expect(ids('\\u0301')).toEqual(['case-3']);
    // As written, too: typing the claim finds it and every id that begins with it.
    expect(ids('claim:A')).toEqual(['case-0', 'case-1']);
    expect(ids('caf\u00e9')).toEqual(['case-2']);
  });

  it('a claim id is warned of as `quarantine list` warns, in one sentence: what is wrong, and that it may draw as another claim', () => {
    const broken = (why: string) =>
      `this claim id ${why}, so it may draw as another claim's: read it as shown, escaped; the signed claim is these code points (RPR-QUAR-008: no new case is opened for such an id)`;
    expect(claimIdWarning('claim:A')).toBeNull();
    expect(claimIdWarning('claim:caf\u00e9')).toBeNull();
    expect(claimIdWarning('claim:A ')).toBe(broken('begins or ends with whitespace'));
    expect(claimIdWarning('claim:cafe\u0301')).toMatch(
      /^this claim id is not in Unicode normalization form NFC .*, so it may draw as another claim's/,
    );
    // An invisible character: shown escaped and said so, yet no break of the rule.
    expect(claimIdWarning('claim:loan\ufe0f-1')).toBe(
      'this claim id holds invisible characters, shown escaped: the signed claim is these code points',
    );
    // A bidi control is both shown escaped and a break of the rule: one sentence says both.
    expect(claimIdWarning('claim:\u202egnp.exe')).toBe(broken('holds the control character U+202E'));
    // A break of the rule besides an invisible character: one sentence names both.
    expect(claimIdWarning('claim:loan\ufe0f-1 ')).toBe(
      broken('begins or ends with whitespace and holds invisible characters'),
    );
  });

  it('a revoked or retired key is named so and refused before the click, for a decision and a judgement', () => {
    const key = (status: string | null, role: string | null = 'quarantine-officer'): SigningKey => ({
      path: '/keys/officerB.pem',
      keyId: 'ed25519:b',
      role,
      label: role ? 'officer B' : null,
      status,
    });
    const c = {
      caseId: 'case-0',
      decisions: [{ decision: 'release', to: 'released', roles: ['quarantine-officer'] }],
    } as unknown as CaseView;
    expect(keyRefusal(c, 'release', key('revoked'))).toBe(
      "The chosen key (officer B) is revoked in the journal's trust store: only an active key signs. Choose another in the journal header (Signing key).",
    );
    expect(keyRefusal(c, 'release', key('retired'))).toMatch(/is retired in the journal's trust store/);
    expect(keyRefusal(c, 'release', key('active'))).toBeNull();
    // The role is said first when both are wrong.
    expect(keyRefusal(c, 'release', key('revoked', 'reviewer'))).toMatch(/is a reviewer key/);
    expect(statusRefusal(key('revoked', 'reviewer'))).toMatch(/is revoked/);
    expect(statusRefusal(key(null, null))).toBeNull();
    expect(keyStanding(key('revoked'))).toBe('quarantine-officer, REVOKED');
    expect(keyStanding(key('active'))).toBe('quarantine-officer');
    expect(keyStanding(key(null, null))).toBe('not in the trust store');
  });
});
