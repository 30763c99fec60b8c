/**
 * Two strings with nothing in common (no common start, no common end: the changed span is
 * each whole) are unrelated texts: compared place by place, "code points differ at 166
 * places" only counts places, so no code-point note is said for them (a red team of the
 * workbench). A change that keeps something in common is still named, and so are two whole
 * strings that differ only where a code point is not printable ASCII (lookalikes), and one
 * text in two normalization forms.
 */
import { describe, expect, it } from 'vitest';
import { diffJson, spanCodePoints } from '../../shared/diff.js';

const entry = (a: string, b: string) => diffJson({ v: a }, { v: b }).differences[0]!;

const ONE = 'The replay matched the recorded outputs within the agreed tolerance — no drift was found.';
const OTHER = 'Quarterly figures were restated after the audit; see the appendix for the “adjusted” totals.';

describe('spanCodePoints of two unrelated strings', () => {
  it('says nothing of two sentences with nothing in common, however many places differ', () => {
    expect(spanCodePoints(entry(ONE, OTHER))).toBeNull();
    // Sharing a first or last character (a full stop) makes them no more related.
    expect(spanCodePoints(entry(`${ONE}.`, `${OTHER}.`))).toBeNull();
    expect(spanCodePoints(entry(`x${ONE}`, `x${OTHER}`))).toBeNull();
  });

  it('still names a long change most of whose places are the same or not plain ASCII', () => {
    const latin = 'pay the invoice to account 4411 by friday';
    const changed = 'pay the inv\u043eice to account 9999 by monday';
    expect(spanCodePoints(entry(latin, changed))).toMatch(/^code points differ at [\d,]+ places of the span/);
  });

  it('still names two whole strings that differ only in lookalikes', () => {
    const latin = 'paypal-invoice';
    const cyrillic = '\u0440\u0430y\u0440\u0430l-inv\u043eic\u0435';
    expect(entry(latin, cyrillic).span).toMatchObject({ prefix: 0, suffix: 0 });
    expect(spanCodePoints(entry(latin, cyrillic))).toMatch(/^code points differ at 6 places of the span/);
  });

  it('says one text in two normalization forms, with nothing in common', () => {
    const nfc = '\u00e9t\u00e9 \u00e0 l\u2019\u00e9cole \u00e9t\u00e9';
    expect(spanCodePoints(entry(nfc, nfc.normalize('NFD')))).toContain(
      'the same text in another Unicode normalization form',
    );
  });
});
