/**
 * A case decision's rationale is shown with every invisible character escaped, as a signed
 * note is (hidden tag characters spell text no one sees; a variation selector or a Hangul
 * filler draws as nothing), by `quarantine show`, the confirmation before signing, the case's
 * history and the decision form's warning; and the rule's 20 characters of a new rationale
 * are characters a reader sees, while a rationale a journal already holds is judged as it was
 * when signed (docs/journal.md, "Invisible characters"). The window's components are
 * rendered in test/renderer/invisible-shown.test.ts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideCase, openCase, verifyJournal } from '../../app/journal/index.js';
import { forgeEntry } from './forge.helpers.js';
import { checkRationale } from '../../shared/rationale.js';
import { cliIn, examplesIn } from '../cli/in-process.js';
import { makeKeys, tmp } from './helpers.js';

/** "IGNORE" in tag characters: text a model reads and no one sees. */
const TAGS = [...'IGNORE'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
const TAGS_SHOWN = '\\u{e0049}\\u{e0047}\\u{e004e}\\u{e004f}\\u{e0052}\\u{e0045}';
const RATIONALE = `Replayed twice with the pinned model${TAGS}; the drift\u3164 is within the band\ufe0f.\n\tSee case\u200cnotes.`;
/** Every invisible character of RATIONALE, raw: none may reach a reader so. */
const HIDDEN = [...TAGS, '\u3164', '\ufe0f', '\u200c'];
const opts = { fsync: false };

const noneRaw = (text: string) => {
  for (const c of HIDDEN) expect(text, `U+${c.codePointAt(0)!.toString(16)}`).not.toContain(c);
};

describe('a rationale shows its invisible characters', () => {
  it('`quarantine show` prints tags, a variation selector, a Hangul filler and ZWNJ escaped, its line feeds kept', async () => {
    const root = tmp('reprise-rationale-visible-');
    const k = makeKeys(root);
    const dir = join(root, 'journal');
    await openCase(dir, { claimRef: 'claim:loan-1', reason: 'held for review of the drift' }, k.officer, opts);
    await decideCase(dir, 'case-0', 'release', RATIONALE, k.officer, k.trust, opts);
    const show = await cliIn(root, 'quarantine', 'show', dir, 'case-0', '--trust-store', k.trustPath);
    expect(show.code).toBe(0);
    noneRaw(show.out);
    // ZWNJ too (docs/journal.md: no exception for the letters it shapes).
    expect(show.out).toContain(
      `the pinned model${TAGS_SHOWN}; the drift\\u3164 is within the band\\ufe0f.\n      \\x09See case\\u200cnotes.`,
    );
  });
});

describe('the rationale rule counts what a reader sees', () => {
  it('a new rationale: invisible characters not counted, an emoji or an accented letter is one', () => {
    const padded = 'ok ab cde' + '\u200b'.repeat(14);
    expect(padded.replace(/\s+/gu, ' ').trim().length).toBeGreaterThanOrEqual(20);
    expect(checkRationale(padded)).toBe('the rationale has 9 characters; at least 20 are required');
    expect(checkRationale('ok ab cde' + '\u{e0041}'.repeat(7))).toMatch(/has 9 characters/);
    // 19 characters seen, 20 UTF-16 units: the emoji is one.
    expect(checkRationale('checked it all ok \u{1f600}')).toBe(
      'the rationale has 19 characters; at least 20 are required',
    );
    expect(checkRationale('checked it all o\u0301k \u{1f600}')).toMatch(/has 19 characters/);
    expect(checkRationale('checked it all okay \u{1f600}')).toBeNull();
    // Hangul fillers are letters to Unicode, and show nothing: no words, no distinct letters.
    expect(checkRationale('abcdefghijklmnopqrstu \u3164 \u3164')).toMatch(/1 word\(s\)/);
    // A zero-width space is no word break to a reader.
    expect(checkRationale('checked\u200bthe\u200breplay\u200btwice')).toMatch(/1 word\(s\)/);
  });

  it('the engine refuses a padded decision, writing nothing', async () => {
    const root = tmp('reprise-rationale-padded-');
    const k = makeKeys(root);
    const dir = join(root, 'journal');
    await openCase(dir, { claimRef: 'claim:loan-1', reason: 'held for review of the drift' }, k.officer, opts);
    const before = await readFile(join(dir, 'entries.jsonl'));
    await expect(
      decideCase(dir, 'case-0', 'release', 'ok ab cde' + '\u200b'.repeat(14), k.officer, k.trust, opts),
    ).rejects.toMatchObject({ code: 'REFUSED', message: expect.stringMatching(/has 9 characters/) });
    expect((await readFile(join(dir, 'entries.jsonl'))).equals(before)).toBe(true);
  });

  it('a recorded rationale is judged as it was when signed: a journal that verified still does', async () => {
    expect(checkRationale('ok ab cde' + '\u200b'.repeat(14), 'recorded')).toBeNull();
    const root = tmp('reprise-rationale-recorded-');
    const k = makeKeys(root);
    const dir = join(root, 'journal');
    const open = await openCase(
      dir,
      { claimRef: 'claim:loan-1', reason: 'held for review of the drift' },
      k.officer,
      opts,
    );
    // Written as the writer wrote it before the rule counted what is seen.
    const rationale = 'ok ab cde' + '\u200b'.repeat(14);
    // Around the writer: today's writer refuses it under today's rule.
    forgeEntry(
      dir,
      {
        kind: 'quarantine-release',
        subject: { claimRef: 'claim:loan-1' },
        body: { case: open.entryHash, decision: 'release', rationale },
      },
      k.officer,
    );
    const v = await verifyJournal(dir, k.trust);
    expect(v.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    expect(v.cases.cases.map((c) => c.state)).toEqual(['released']);
    const show = await cliIn(root, 'quarantine', 'show', dir, 'case-0', '--trust-store', k.trustPath);
    expect(show.out).toContain('ok ab cde' + '\\u200b'.repeat(14));
  });

  it('the example journals still verify', async () => {
    const ex = await examplesIn('reprise-rationale-examples-');
    const trust = join(ex, 'journal', 'trust-store.json');
    const r = await cliIn(ex, 'journal', 'verify', join(ex, 'journal', 'sample'), '--trust-store', trust);
    expect([r.code, r.err]).toEqual([0, '']);
  });
});
