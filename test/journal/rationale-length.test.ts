/**
 * A new rationale is held to RATIONALE_RULE.maxBytes and refused at once, before any journal is
 * read or any line signed (a 20 MB paste once occupied the journal's worker for seconds); one
 * a journal already holds is read whatever its length; the counting rules are unchanged.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRationale, RATIONALE_RULE } from '../../shared/rationale.js';
import { runBytes } from '../../app/engine/run.js';
import { recordJudgement } from '../../app/journal/index.js';
import { recordNote } from '../../app/journal/notes.js';
import { decideCase, openCase } from '../../app/journal/quarantine.js';
import { judgementBodyProblem } from '../../app/journal/judgement-rules.js';
import { makeKeys, tmp } from './helpers.js';

const SENTENCE = 'The recorded tokens match the replayed ones. ';
const OVER = SENTENCE.repeat(Math.ceil((RATIONALE_RULE.maxBytes + 1) / SENTENCE.length));
const cpuMs = (f: () => void) => {
  const t = process.cpuUsage();
  f();
  const u = process.cpuUsage(t);
  return (u.user + u.system) / 1000;
};

/** The rule as it was written before it counted lazily: the reference the new counting must agree with. */
function naive(text: string): string | null {
  const norm = text.replace(/\s+/gu, ' ').trim();
  if (norm === '') return 'blank';
  if (norm.length < 20) return 'chars';
  if (norm.split(' ').filter((w) => /[\p{L}\p{N}]/u.test(w)).length < 3) return 'words';
  if (new Set(norm.toLowerCase().match(/[\p{L}\p{N}]/gu) ?? []).size < 5) return 'distinct';
  return null;
}

describe('the rationale length', () => {
  it('a new rationale over maxChars is refused naming both numbers; a recorded one is read', () => {
    expect(OVER.length).toBeGreaterThan(RATIONALE_RULE.maxBytes);
    expect(checkRationale(OVER)).toBe(
      `the rationale is at least ${OVER.length} bytes of UTF-8; at most ${RATIONALE_RULE.maxBytes} are signed (long material belongs in an artifact of the case, cited by its hash)`,
    );
    expect(checkRationale(OVER.slice(0, RATIONALE_RULE.maxBytes))).toBeNull();
    // Counted in bytes of UTF-8: 30,000 characters of three bytes each are over.
    const wide = `${'確認しました '.repeat(5000)}`;
    expect(wide.length).toBeLessThan(RATIONALE_RULE.maxBytes);
    expect(checkRationale(wide)).toMatch(
      new RegExp(`^the rationale is ${new TextEncoder().encode(wide).length} bytes`),
    );
    expect(checkRationale(OVER, 'recorded')).toBeNull();
    expect(judgementBodyProblem({ decision: 'note', rationale: OVER })).toBeNull();
    expect(judgementBodyProblem({ decision: 'note', rationale: OVER }, 'new')).toMatch(/at most/);
  });

  it('a 20 MB paste is refused in a bounded amount of CPU (it once built a string per character)', () => {
    const huge = 'a b c d e '.repeat(2_000_000);
    expect(cpuMs(() => expect(checkRationale(huge)).toMatch(/at most/))).toBeLessThan(50);
  });

  it('counting words and distinct letters agrees with the rule as first written', () => {
    const samples = [
      'ok fine',
      'abcdefghijklmnopqrstuvwxyz',
      'aaaa aaaa aaaa aaaa aaaa aaaa',
      'İİİİ İİİİ iiii İİİİ iiii İİİİ',
      'ΣΣΣΣ σσσσ ςςςς ΣΣΣΣ 1234 ----',
      '-- -- -- -- -- -- -- -- -- -- a1',
      'one two three four five six',
      '\u00a0\u2003 word\tword\nthird fourth\u3000fifth sixth',
      '日本語の 文章 です。 確認 しました',
    ];
    for (const s of samples) expect(checkRationale(s) === null, s).toBe(naive(s) === null);
  });

  it('judgements, notes and quarantine decisions refuse it before the journal is touched', async () => {
    const base = tmp('reprise-rationale-');
    const k = makeKeys(base);
    const report = await runBytes(join(base, 'a.json'), Buffer.from('{"a": 1}\n'), 'verify', {});
    const fresh = join(base, 'fresh');
    await expect(
      recordJudgement(fresh, { report, decision: 'accept', rationale: OVER, pointer: '' }, k.reviewer, k.trust),
    ).rejects.toThrow(/at most 65536 are signed/);
    await expect(
      recordNote(fresh, { artifact: report.artifact.sha256!, text: OVER }, k.reviewer, k.trust),
    ).rejects.toThrow(/note refused: the rationale is at least \d+ bytes of UTF-8; at most 65536 are signed/);
    expect(existsSync(fresh)).toBe(false);
    const q = join(base, 'q');
    const open = await openCase(q, { claimRef: 'claim-1', reason: 'held for review of the drift' }, k.officer);
    await expect(decideCase(q, open.caseId, 'release', OVER, k.officer, k.trust)).rejects.toThrow(
      /at most 65536 are signed/,
    );
  });
});
