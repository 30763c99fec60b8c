/**
 * What a reader is shown of a value Reprise did not write: an escaped control and the same
 * escape typed as text must never read alike, and two claims that differ by an invisible
 * character must not print alike (found by red teams of the diff and of the quarantine list).
 */
import { describe, expect, it } from 'vitest';
import { controlPieces, escapeControls } from '../../shared/controls.js';
import { safeIdentifier, safeJsonText, safeText } from '../../app/core/text.js';

describe('an escape and the same text typed never read alike', () => {
  it('doubles backslashes where a control is escaped or escape-like text is typed', () => {
    const real = 'x\u202ey';
    const typed = 'x\\u202ey';
    expect(safeText(real)).toBe('x\\u202ey');
    expect(safeText(typed)).toBe('x\\\\u202ey');
    expect(safeText(real)).not.toBe(safeText(typed));
    expect(safeText('a\\ \u0007')).toBe('a\\\\ \\x07');
    expect(safeText('\\x41')).toBe('\\\\x41');
    // A backslash then a real control: the backslash doubled, the control escaped.
    expect(safeText('\\\u202e')).toBe('\\\\\\u202e');
    expect(safeText('\\\u202e')).not.toBe(safeText('\\u202e'));
  });

  it('leaves text with neither as it is (a Windows path)', () => {
    expect(safeText('C:\\Users\\me\\report.json')).toBe('C:\\Users\\me\\report.json');
    expect(escapeControls('a\\b')).toBe('a\\b');
  });

  it('leaves JSON text, which already doubles a typed backslash, as it is', () => {
    const json = JSON.stringify({ a: 'x\\u202ey', b: 'x\u202ey' });
    expect(safeJsonText(json)).toBe('{"a":"x\\\\u202ey","b":"x\\u202ey"}');
    expect(
      controlPieces(json, { json: true })
        .map((p) => p.text)
        .join(''),
    ).toBe(safeJsonText(json));
  });

  it('marks the same escapes in the window as the terminal writes them', () => {
    const typed = 'claim:\\u202e';
    expect(controlPieces(typed)).toEqual([{ text: 'claim:\\\\u202e', control: false }]);
    expect(controlPieces('claim:\u202e')).toEqual([
      { text: 'claim:', control: false },
      { text: '\\u202e', control: true },
    ]);
  });
});

describe('an identifier shows its invisible characters', () => {
  it('escapes zero-width, joiner, word-joiner, BOM, soft hyphen, tag and CGJ characters', () => {
    const claims = [
      'clai\u200bmA',
      'clai\u2060mA',
      'clai\ufeffmA',
      'clai\u00admA',
      'clai\u200dmA',
      'clai\u034fmA',
      'clai\u{e0041}mA',
    ];
    const shown = claims.map(safeIdentifier);
    expect(new Set([...shown, safeIdentifier('claimA')]).size).toBe(claims.length + 1);
    expect(shown[0]).toBe('clai\\u200bmA');
    expect(shown[3]).toBe('clai\\xadmA');
    expect(shown[6]).toBe('clai\\u{e0041}mA');
    expect(safeText('\\u{e0041}')).toBe('\\\\u{e0041}');
    expect(escapeControls('clai\u200bmA', { identifier: true })).toBe('clai\\u200bmA');
    // Elsewhere (a rationale in a script that needs ZWNJ) they stay as written.
    expect(safeText('clai\u200bmA')).toBe('clai\u200bmA');
  });
});
