/**
 * A change that renders alike on both sides (precomposed against combining, Latin against
 * Cyrillic, a real control against its escape typed as text) is told by its code points, in
 * the terminal, the page and the window (found by a red team of the diff).
 */
import { describe, expect, it } from 'vitest';
import { diffPage } from '../../shared/diff-html.js';
import { diffJson, spanCodePoints } from '../../shared/diff.js';

const entry = (a: string, b: string) => diffJson({ v: a }, { v: b }).differences[0]!;

describe('spanCodePoints', () => {
  it('names the code points of a short non-ASCII change, and a change of normalization form', () => {
    expect(spanCodePoints(entry('caf\u00e9', 'cafe\u0301'))).toBe(
      'code points U+00E9 against U+0065 U+0301; the same text in another Unicode normalization form',
    );
    expect(spanCodePoints(entry('paypal', 'p\u0430ypal'))).toBe('code points U+0061 against U+0430');
    expect(spanCodePoints(entry('x\u202ey', 'x\\u202ey'))).toMatch(/^code points U\+202E against U\+005C U\+0075/);
    expect(spanCodePoints(entry('ab', 'a\u200bb'))).toBe('code points nothing against U+200B');
    expect(spanCodePoints(entry('a\u{1f600}', 'a\u{1f601}'))).toBe('code points U+1F600 against U+1F601');
  });

  it('says nothing where the text reads as what it is: plain ASCII, a long span, not strings', () => {
    expect(spanCodePoints(entry('cat', 'cot'))).toBeNull();
    expect(spanCodePoints(entry('é'.repeat(9), 'e'.repeat(9)))).toBeNull();
    expect(spanCodePoints(diffJson({ v: 1 }, { v: 2 }).differences[0]!)).toBeNull();
  });

  it('is on the page beside the change', () => {
    const result = diffJson({ nfc: 'caf\u00e9' }, { nfc: 'cafe\u0301' });
    const side = { name: 'a', kind: 'unknown', content: 'parsed' };
    const page = diffPage({ title: 't', what: 'w', left: side, right: side, result });
    expect(page).toContain('<small>code points U+00E9 against U+0065 U+0301; the same text');
  });
});
