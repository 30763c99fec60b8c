/**
 * A claim id shows every character Unicode lets a renderer draw as nothing, not only the
 * format characters: claims that differ by a variation selector, a Hangul filler or a
 * Mongolian free variation selector never read as one claim, in `quarantine list|show`, in
 * the officer's queue, in its search, or in the confirmation (whose warning says so). Found
 * by a red team of the quarantine list: `claim:loan\ufe0f-1` read as `claim:loan-1`. The
 * window's components are rendered in test/renderer/invisible-shown.test.ts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { safeIdentifier } from '../../app/core/text.js';
import { openCase } from '../../app/journal/index.js';
import { escapeControls } from '../../shared/controls.js';
import { queueOf } from '../../renderer/src/lib/officer.js';
import { cliIn } from '../cli/in-process.js';
import { makeKeys, tmp } from '../journal/helpers.js';
import {
  caseView as view,
  IGNORABLE_NOT_CF,
  LOOKALIKE_CLAIMS as LOOKALIKES,
  PLAIN_CLAIM as PLAIN,
} from '../helpers/case-view.js';

/** Invisible characters the identifier escape once left raw (Default_Ignorable_Code_Point, not \p{Cf}). */
const ONCE_RAW = [...IGNORABLE_NOT_CF, '\u180b', '\u17b4', '\u{1d173}'];

describe('an identifier shows every default-ignorable character', () => {
  it('escapes each of them, exactly as a note escapes them', () => {
    for (const c of ONCE_RAW) {
      const shown = safeIdentifier(`claim:loan${c}-1`);
      expect(shown, c).not.toBe(PLAIN);
      expect(shown, c).not.toContain(c);
      expect(shown, c).toBe(escapeControls(`claim:loan${c}-1`, { everyInvisible: true }));
    }
    expect(safeIdentifier('claim:loan\ufe0f-1')).toBe('claim:loan\\ufe0f-1');
    expect(safeIdentifier('claim:loan\u{e0100}-1')).toBe('claim:loan\\u{e0100}-1');
  });

  it('leaves no Default_Ignorable_Code_Point raw, whichever it is', () => {
    const ignorable = /^\p{Default_Ignorable_Code_Point}$/u;
    let seen = 0;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (!ignorable.test(c)) continue;
      seen++;
      if (safeIdentifier(`a${c}b`).includes(c)) throw new Error(`U+${cp.toString(16)} is left raw`);
    }
    expect(seen).toBeGreaterThan(4000);
  });

  it('`quarantine list` and `show` print each lookalike claim otherwise than the plain one', async () => {
    const root = tmp('reprise-invisible-claims-');
    const k = makeKeys(root);
    const dir = join(root, 'journal');
    for (const claimRef of [PLAIN, ...LOOKALIKES])
      await openCase(dir, { claimRef, reason: 'held for review of the replayed score drift' }, k.officer, {
        fsync: false,
      });
    const list = await cliIn(root, 'quarantine', 'list', dir, '--trust-store', k.trustPath);
    expect(list.code).toBe(0);
    const claims = list.out
      .trim()
      .split('\n')
      .map((l) => l.split(/\s+/)[2]);
    expect(claims).toEqual([PLAIN, 'claim:loan\\ufe0f-1', 'claim:loan\\u115f-1', 'claim:loan\\u3164-1']);
    const show = await cliIn(root, 'quarantine', 'show', dir, 'case-2', '--trust-store', k.trustPath);
    expect(show.out).toContain('claim:loan\\u115f-1');
    expect(show.out).not.toContain('\u115f');
  });

  it("the officer's queue finds a lookalike by the escape it shows (test/renderer/invisible-shown.test.ts renders it)", () => {
    const cases = [PLAIN, ...LOOKALIKES].map((claim, i) => view(`case-${i}`, claim));
    const sort = { key: 'claim', dir: 'asc' } as const;
    expect(queueOf(cases, '', '\\u3164', sort).map((c) => c.caseId)).toEqual(['case-3']);
    expect(queueOf(cases, '', 'loan-1', sort).map((c) => c.caseId)).toEqual(['case-0']);
  });
});
