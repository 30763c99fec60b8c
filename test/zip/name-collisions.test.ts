/**
 * Two names that are one after NFC normalization, case folding and dropping trailing dots and
 * spaces (RPR-ZIP-046) are a warning, not a fail: upstream Nemosyne writes them. Its
 * `NemosynePackageManager.pack` (TsatsuAmable/nemosyne src/session/NemosynePackage.ts) puts
 * each extra in an object keyed `extras/${sanitizeEntryPath(path)}` and hands it to fflate's
 * `zipSync`; `sanitizeEntryPath` folds neither case nor Unicode form nor trailing dots, so
 * `Readme.txt` and `README.txt` are two entries, and `unpack` reads each by its exact name,
 * refusing only an exact duplicate ("Package contains duplicate file entry"). Failing them
 * disagreed with the system that wrote the package; only a file system that folds names
 * (Windows, macOS) would make the two one file, and Reprise never extracts. An exact duplicate,
 * which upstream cannot write and refuses to read, stays a fail (RPR-ZIP-048).
 */
import { describe, expect, it } from 'vitest';
import { buildPackageParts, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { readStructure, resolveLimits } from '../../app/zip/index.js';
import { verify } from '../nemosyne/helpers.js';
import { gen } from './gen.js';

const PAIRS: [string, string, string][] = [
  ['letter case', 'extras/Readme.txt', 'extras/README.txt'],
  ['Unicode form (NFC beside NFD)', 'extras/caf\u00e9.txt', 'extras/cafe\u0301.txt'],
  ['sharp s beside SS', 'extras/stra\u00dfe.txt', 'extras/STRASSE.txt'],
  ['a trailing dot Windows drops', 'extras/name', 'extras/name.'],
  ['a directory differing in case', 'extras/Notes/a.txt', 'extras/notes/a.txt'],
];

const structure = (...names: string[]) =>
  readStructure(gen({ entries: names.map((name) => ({ name, data: 'x' })) }), resolveLimits({}));

const withExtras = (...names: string[]): Buffer =>
  packPackage(
    buildPackageParts(2, {
      digest: false,
      extraFiles: names.map((name, i) => ({ name, data: Buffer.from(`extra ${i}`) })),
    }),
  );

describe('two names one only to a folding file system (RPR-ZIP-046): a warning, as upstream writes them', () => {
  it.each(PAIRS)('%s: the archive is read, with the collision as a warning naming both', (_what, first, second) => {
    const s = structure(first, second);
    expect(s.ok).toBe(true);
    const f = s.findings.find((x) => x.rule === 'RPR-ZIP-046')!;
    expect([f.severity, f.pointer, f.expected, f.actual]).toEqual(['warning', `entry:${second}`, first, second]);
    expect(f.message).toBe(
      `entry ${JSON.stringify(second)} and ${JSON.stringify(first)} are one name after NFC normalization, case folding and dropping trailing dots and spaces: two members to a reader that reads by name, one file to a file system that folds case or Unicode form (Windows, macOS); Reprise reads entries by name and never extracts them, so the archive is checked as it is. Do not extract it on Windows or macOS with a tool that keeps names; read the members in Reprise instead`,
    );
  });

  it.each(PAIRS)('%s: a package upstream could write passes', async (_what, first, second) => {
    const r = await verify(withExtras(first, second));
    expect(r.verdict).toBe('pass');
    expect(r.findings.filter((x) => x.rule === 'RPR-ZIP-046').map((x) => x.severity)).toEqual(['warning']);
  });

  it('an exact duplicate, which upstream cannot write and refuses to read, stays a fail (RPR-ZIP-048)', async () => {
    const s = structure('extras/a.txt', 'extras/a.txt');
    expect(s.ok).toBe(false);
    expect(s.findings.map((f) => [f.rule, f.severity])).toEqual([['RPR-ZIP-048', 'fail']]);
  });
});
