/**
 * A file and a directory of one exact name (RPR-ZIP-047) stay a fail; a file and a directory
 * whose names are one only after NFC normalization, case folding and dropping trailing dots
 * and spaces are two paths to upstream Nemosyne, so they are a warning (RPR-ZIP-046), as two
 * such files are. Upstream's `pack` (TsatsuAmable/nemosyne src/session/NemosynePackage.ts)
 * keys each extra by its exact sanitized name in the object fflate's `zipSync` writes, and
 * `unpack` keys each entry by its exact name: `extras/a/B` and `extras/a/b/c` are two members
 * to it, and only a file system that folds names cannot hold both (docs/zip-reader.md, "Names").
 */
import { describe, expect, it } from 'vitest';
import { buildPackageParts, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { readStructure, resolveLimits } from '../../app/zip/index.js';
import { verify } from '../nemosyne/helpers.js';
import { gen, type GenEntry } from './gen.js';

/** A directory name (ending in `/`) is an empty stored entry, a file holds one byte. */
const entry = (name: string): GenEntry => (name.endsWith('/') ? { name, data: '', method: 0 } : { name, data: 'x' });

const structure = (...names: string[]) => readStructure(gen({ entries: names.map(entry) }), resolveLimits({}));

const severities = (...names: string[]) => structure(...names).findings.map((f) => [f.rule, f.severity]);

const withExtras = (...names: string[]): Buffer =>
  packPackage(
    buildPackageParts(2, {
      digest: false,
      extraFiles: names.map((name, i) => ({ name, data: Buffer.from(`extra ${i}`) })),
    }),
  );

const EXTRACT_ONLY =
  'a file and a directory to a reader that reads by name, one path to a file system that folds case or Unicode form (Windows, macOS), which cannot hold both; Reprise reads entries by name and never extracts them, so the archive is checked as it is. Do not extract it on Windows or macOS with a tool that keeps names; read the members in Reprise instead';

/** [what, the file, the entry making the directory, the directory as that entry spells it] */
const FOLDED: [string, string, string, string][] = [
  ['letter case, the directory implied by a longer name', 'extras/a/B', 'extras/a/b/c.txt', 'extras/a/b'],
  ['letter case, an explicit directory entry', 'extras/Notes', 'extras/notes/', 'extras/notes'],
  ['letter case of a parent directory', 'extras/Data', 'extras/data/x/y.txt', 'extras/data'],
  ['Unicode form (NFC file, NFD directory)', 'extras/caf\u00e9', 'extras/cafe\u0301/menu.txt', 'extras/cafe\u0301'],
  ['sharp s beside SS', 'extras/stra\u00dfe', 'extras/STRASSE/1.txt', 'extras/STRASSE'],
];

describe('a file and a directory one only to a folding file system: a warning (RPR-ZIP-046), as upstream reads both', () => {
  it.each(FOLDED)(
    '%s: the archive is read, with a warning naming the file and the directory',
    (_w, file, dirEntry, dir) => {
      for (const names of [
        [file, dirEntry],
        [dirEntry, file],
      ]) {
        const s = structure(...names);
        expect(s.ok, names.join(' | ')).toBe(true);
        expect(s.findings.map((f) => [f.rule, f.severity])).toEqual([['RPR-ZIP-046', 'warning']]);
        const [f] = s.findings;
        expect([f!.pointer, f!.expected, f!.actual]).toEqual([`entry:${file}`, dirEntry, file]);
        expect(f!.message).toBe(
          `entry ${JSON.stringify(file)} is a file, and ${JSON.stringify(dirEntry)} uses ${JSON.stringify(dir)} as a directory: one name after NFC normalization, case folding and dropping trailing dots and spaces, so ${EXTRACT_ONLY}`,
        );
      }
    },
  );

  it("a trailing dot Windows drops: the 046 warning beside the name's own 052 warning", () => {
    expect(severities('extras/name.', 'extras/name/x.txt')).toEqual([
      ['RPR-ZIP-052', 'warning'],
      ['RPR-ZIP-046', 'warning'],
    ]);
  });

  it('a package upstream could write (extras "a/B" and "a/b/c.txt") passes, with the warning', async () => {
    const r = await verify(withExtras('a/B', 'a/b/c.txt'));
    expect(r.verdict).toBe('pass');
    expect(r.findings.filter((x) => x.rule.startsWith('RPR-ZIP')).map((x) => [x.rule, x.severity])).toEqual([
      ['RPR-ZIP-046', 'warning'],
    ]);
  });
});

describe('a file and a directory of one exact name stay a fail (RPR-ZIP-047)', () => {
  it.each([
    ['implied by a longer name', 'extras/a', 'extras/a/b'],
    ['an explicit directory entry', 'extras/a', 'extras/a/'],
    ['a parent directory', 'extras/a', 'extras/a/b/c'],
    ['the directory first', 'extras/a/b', 'extras/a'],
  ])('%s: refused, and not also warned about', (_w, first, second) => {
    const s = structure(first, second);
    expect(s.ok).toBe(false);
    expect(s.findings.map((f) => [f.rule, f.severity])).toEqual([['RPR-ZIP-047', 'fail']]);
  });

  it('an exact pair is refused even beside a pair differing only in case', () => {
    expect(severities('extras/a', 'extras/A/x', 'extras/a/y')).toEqual([['RPR-ZIP-047', 'fail']]);
  });

  it('a package with extras "a" and "a/b" fails', async () => {
    const r = await verify(withExtras('a', 'a/b'));
    expect(r.verdict).toBe('fail');
    expect(r.findings.filter((x) => x.rule === 'RPR-ZIP-047').map((x) => x.severity)).toEqual(['fail']);
  });
});
