/**
 * The officer's window shows every invisible character of what it signs: a claim id that
 * differs from another only by a variation selector or a Hangul filler (the queue, the
 * confirmation and its warning), and a rationale's hidden tag characters, variation selectors,
 * Hangul fillers and joiners (the confirmation, the case's history, the form's warning).
 * Rendered to static markup; browser globals stubbed. The terminal's side is in
 * test/core/invisible-identifiers.test.ts and test/journal/rationale-visible.test.ts.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from './browser-stubs';
import type { CaseEventView } from '../../shared/api';
import { CaseQueue } from '../../renderer/src/components/CaseQueue';
import { ConfirmDecision } from '../../renderer/src/components/ConfirmDecision';
import { ConfirmSign } from '../../renderer/src/components/ConfirmSign';
import { CaseHistory, RationaleEscapes } from '../../renderer/src/components/JournalView';
import {
  caseView as view,
  IGNORABLE_NOT_CF,
  LOOKALIKE_CLAIMS as LOOKALIKES,
  PLAIN_CLAIM as PLAIN,
} from '../helpers/case-view';

stubBrowser();
// The dialog notes the element focused before it opened (SignDialog): none, in a test.
beforeAll(() => vi.stubGlobal('HTMLElement', class {}));

/** "IGNORE" in tag characters: text a model reads and no one sees. */
const TAGS = [...'IGNORE'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
const RATIONALE = `Replayed twice with the pinned model${TAGS}; the drift\u3164 is within the band\ufe0f.\n\tSee case\u200cnotes.`;
const HIDDEN = [...TAGS, '\u3164', '\ufe0f', '\u200c'];
const GOOD = 'Replayed twice with the pinned model; the drift is within the band.';
const CLAIM_WARNING = 'invisible characters, shown escaped';

const event = (text: string): CaseEventView => ({
  seq: 1,
  entryHash: `sha256:${'b'.repeat(64)}`,
  decision: 'release',
  author: `ed25519:${'1'.repeat(64)}`,
  role: 'quarantine-officer',
  label: 'officer',
  atUtc: '2026-12-05T10:00:00Z',
  text,
});

function confirm(claim: string, rationale: string): string {
  const what = {
    c: view('case-1', claim),
    decision: 'release' as const,
    rationale,
    key: null,
    keyPath: '/k',
    journal: '/j',
  };
  return renderToStaticMarkup(
    createElement(ConfirmDecision, { what, refused: null, onSign: () => undefined, onCancel: () => undefined }),
  );
}

const noneRaw = (html: string, hidden: string[]) => {
  for (const c of hidden) expect(html, `U+${c.codePointAt(0)!.toString(16)}`).not.toContain(c);
};

describe('a claim id in the window', () => {
  it('the queue shows each lookalike escaped', () => {
    const cases = [PLAIN, ...LOOKALIKES].map((claim, i) => view(`case-${i}`, claim));
    const html = renderToStaticMarkup(createElement(CaseQueue, { cases, chosen: null, choose: () => undefined }));
    noneRaw(html, ['\ufe0f', '\u115f', '\u3164']);
    expect(html).toContain('claim:loan<span class="control-escape"');
    for (const e of ['\\ufe0f', '\\u115f', '\\u3164']) expect(html).toContain(e);
  });

  it('the confirmation shows it escaped and warns; a plain claim draws no warning', () => {
    for (const claim of LOOKALIKES) {
      const html = confirm(claim, GOOD);
      noneRaw(html, ['\ufe0f', '\u115f', '\u3164']);
      expect(html, claim).toContain(CLAIM_WARNING);
    }
    expect(confirm(PLAIN, GOOD)).not.toContain(CLAIM_WARNING);
  });
});

describe('a rationale in the window', () => {
  it('the confirmation shows what is signed, every invisible character escaped, line feeds and tabs kept', () => {
    const html = confirm(PLAIN, RATIONALE);
    noneRaw(html, HIDDEN);
    for (const e of ['\\u{e0049}', '\\u{e0047}', '\\u3164', '\\ufe0f', '\\u200c']) expect(html).toContain(e);
    expect(html).toContain('.\n\tSee case');
  });

  it("a judgement's confirmation shows its rationale so too", () => {
    const what = {
      artifact: `sha256:${'c'.repeat(64)}`,
      reportDigest: null,
      pointer: '',
      label: 'dump.json',
      decision: 'accept' as const,
      rationale: RATIONALE,
      key: { path: '/k', keyId: `ed25519:${'2'.repeat(64)}`, role: 'reviewer', label: null, status: 'active' },
      journal: '/j',
    };
    const html = renderToStaticMarkup(
      createElement(ConfirmSign, { what, refused: null, onSign: () => undefined, onCancel: () => undefined }),
    );
    noneRaw(html, HIDDEN);
    expect(html).toContain('\\u{e0049}');
  });

  it("the case's history shows a recorded rationale so too", () => {
    const html = renderToStaticMarkup(
      createElement(CaseHistory, { c: view('case-1', PLAIN, [event(RATIONALE)]), checked: true }),
    );
    noneRaw(html, HIDDEN);
    expect(html).toContain('\\u{e0049}');
  });

  it('the form warns for tags, variation selectors, Hangul fillers and joiners, not for line feeds and tabs', () => {
    const warns = (text: string) => renderToStaticMarkup(createElement(RationaleEscapes, { rationale: text })) !== '';
    const invisible = [TAGS, '\u{e0001}', ...IGNORABLE_NOT_CF, '\u200c', '\u200d'];
    for (const c of invisible)
      expect(warns(`checked the replay${c} twice`), `U+${c.codePointAt(0)!.toString(16)}`).toBe(true);
    expect(warns('checked the replay \u202e twice')).toBe(true);
    expect(warns('checked the replay\n\ttwice, and it held')).toBe(false);
  });
});
