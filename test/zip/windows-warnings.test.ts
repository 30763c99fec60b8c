/**
 * Names only Windows would extract elsewhere (RPR-ZIP-052 a trailing dot or space, 053 a
 * device name, 054 a colon or < > " | ? *) are warnings: upstream Nemosyne's sanitizer
 * (src/session/NemosynePackage.ts, sanitizeEntryPath) refuses only NUL, a leading '/', a
 * drive prefix, '//' and '.'/'..' segments, so it writes and reads them, and Reprise reads
 * entries by name without extracting them. A red team's `extras/a:b.txt`, `extras/name.`
 * and `extras/CON` failed while `?`, `*`, `|` and `<>` passed unremarked.
 */
import { describe, expect, it } from 'vitest';
import { buildPackageParts, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { readStructure, resolveLimits } from '../../app/zip/index.js';
import { verify } from '../nemosyne/helpers.js';
import { gen } from './gen.js';

const WINDOWS_NAMES: [string, string][] = [
  ['extras/a:b.txt', 'RPR-ZIP-054'],
  ['extras/name.', 'RPR-ZIP-052'],
  ['extras/notes.txt ', 'RPR-ZIP-052'],
  ['extras/CON', 'RPR-ZIP-053'],
  ['extras/what?.txt', 'RPR-ZIP-054'],
  ['extras/a*b.txt', 'RPR-ZIP-054'],
  ['extras/a|b.txt', 'RPR-ZIP-054'],
  ['extras/a<b>.txt', 'RPR-ZIP-054'],
  ['extras/say "hi".txt', 'RPR-ZIP-054'],
];

const withExtra = (name: string): Buffer =>
  packPackage(buildPackageParts(2, { digest: false, extraFiles: [{ name, data: Buffer.from('hello') }] }));

const structure = (...names: string[]) =>
  readStructure(gen({ entries: names.map((name) => ({ name, data: 'x' })) }), resolveLimits({}));

describe('a name only Windows would extract elsewhere is a warning that says how to proceed', () => {
  it.each(WINDOWS_NAMES)('%s: the package passes, with %s as a warning', async (name, rule) => {
    const r = await verify(withExtra(name));
    expect(r.verdict).toBe('pass');
    const f = r.findings.find((x) => x.rule === rule)!;
    expect([f.severity, f.pointer]).toEqual(['warning', `entry:${name}`]);
    expect(f.message).toContain('Reprise reads entries by name and never extracts them');
    expect(f.message).toContain('read the member in Reprise instead');
  });

  it('every character Windows refuses is named, once', () => {
    const [f] = structure('extras/a<b>|c?*.txt:x').findings;
    expect(f?.rule).toBe('RPR-ZIP-054');
    expect(f?.message).toContain('entry name contains "<", ">", "|", "?", "*", ":", which Windows does not take');
  });
});

describe('what stays refused beside such a warning', () => {
  it('a drive prefix (two names Windows would make one are a warning too: name-collisions.test.ts)', () => {
    const drive = structure('C:notes.txt');
    expect(drive.ok).toBe(false);
    expect(drive.findings.find((f) => f.rule === 'RPR-ZIP-041')?.severity).toBe('fail');
  });

  it("a name upstream's sanitizer reads as another path is still compared with it when Windows warns too", () => {
    const s = structure('extras/a%3Fb:c.txt');
    expect(s.findings.map((f) => [f.rule, f.severity])).toEqual([
      ['RPR-ZIP-054', 'warning'],
      ['RPR-ZIP-049', 'fail'],
    ]);
  });
});
