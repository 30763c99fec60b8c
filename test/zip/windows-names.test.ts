/**
 * Names that Windows resolves to another file or to a device: every reserved device name
 * × extension × letter case × position in the path, and every trailing dot/space variant
 * beside the name Windows would make of it. Each is refused by the strict reader; names
 * that merely look alike (CONSOLE, com10, aux_, x.con) are not.
 */
import { describe, expect, it } from 'vitest';
import { readStructure, resolveLimits } from '../../app/zip/index.js';
import { gen } from './gen.js';

function rulesOf(...names: string[]): string[] {
  return readStructure(gen({ entries: names.map((name) => ({ name, data: 'x' })) }), resolveLimits({})).findings.map(
    (f) => f.rule,
  );
}

const DEVICES = [
  'CON',
  'PRN',
  'AUX',
  'NUL',
  'CONIN$',
  'CONOUT$',
  ...[...'0123456789\u00b9\u00b2\u00b3'].flatMap((d) => [`COM${d}`, `LPT${d}`]),
];
const EXTENSIONS = ['', '.txt', '.json', '.tar.gz', ' .txt', '.'];
const CASINGS: ((s: string) => string)[] = [
  (s) => s,
  (s) => s.toLowerCase(),
  (s) => s[0]! + s.slice(1).toLowerCase(),
  (s) => s[0]!.toLowerCase() + s.slice(1),
];
const PLACES: ((s: string) => string)[] = [
  (s) => s,
  (s) => `extras/${s}`,
  (s) => `${s}/notes.txt`,
  (s) => `a/${s}/b.txt`,
];

describe('Windows device names are refused in every path segment (RPR-ZIP-053)', () => {
  it('each reserved name × extension × case × place', () => {
    let n = 0;
    for (const d of DEVICES)
      for (const ext of EXTENSIONS)
        for (const cased of CASINGS)
          for (const place of PLACES) {
            const name = place(cased(d) + ext);
            expect(rulesOf(name), name).toContain('RPR-ZIP-053');
            n++;
          }
    expect(n).toBe(DEVICES.length * EXTENSIONS.length * CASINGS.length * PLACES.length);
  });
  it('names that only contain or resemble one pass', () => {
    for (const name of [
      'CONSOLE',
      'com10',
      'lpt',
      'aux_',
      'x.con',
      'extras/nul-report.txt',
      'prn2.txt',
      'COM\u2074',
      'data/conin.txt',
      'a/CONS/b',
    ])
      expect(rulesOf(name), name).toEqual([]);
  });
});

describe('trailing dots and spaces (RPR-ZIP-052, and RPR-ZIP-046 beside the stripped name)', () => {
  const TAILS = ['.', ' ', '..', '. ', ' .', '  ', '...', ' . '];
  it('each tail, alone and beside the name Windows makes of it, in a file or a directory segment', () => {
    for (const tail of TAILS) {
      for (const [name, stripped] of [
        [`extras/notes.txt${tail}`, 'extras/notes.txt'],
        [`extras${tail}/notes.txt`, 'extras/notes.txt'],
        [`Extras/NOTES.TXT${tail}`, 'extras/notes.txt'],
      ] as const) {
        expect(rulesOf(name), JSON.stringify(name)).toContain('RPR-ZIP-052');
        const both = rulesOf(stripped, name);
        expect(both, JSON.stringify(name)).toContain('RPR-ZIP-046');
      }
    }
  });
  it('dots and spaces inside a name are fine', () => {
    for (const name of ['notes.v2.txt', 'my notes.txt', 'a.b/c d.e', '.hidden', 'extras/.env'])
      expect(rulesOf(name), name).toEqual([]);
  });
});
