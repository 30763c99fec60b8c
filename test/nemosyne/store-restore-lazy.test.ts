/**
 * A discovery or NIL state whose list is a string (`{"episodes": "aaaa…"}`) is read as
 * upstream's `for…of` reads it: one code point at a time, stopping at the first that refuses.
 * A red team's 99.6 MB package holding a 95 MiB such string took 44 s and 2.4 GB while its
 * code points were spread into an array. Counted here: the string iterator's steps.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildPackageParts, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { discoveryRestoreRefusal, nilRestoreRefusal } from '../../app/kinds/nemosyne/store-restore.js';
import { ENTRY } from '../../app/kinds/nemosyne/verify.js';
import { verify } from './helpers.js';

/** 4 Mi letters that deflate barely compresses (a fixed linear congruential sequence). */
const LONG = (() => {
  const out = Buffer.alloc(4 * 1024 * 1024);
  let x = 1;
  for (let i = 0; i < out.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = 0x61 + ((x >>> 16) % 26);
  }
  return out.toString('latin1');
})();

/** Counts every step any string iterator takes while installed. */
const steps = { n: 0 };
const original = String.prototype[Symbol.iterator];
function counting(this: string): IterableIterator<string> {
  const it = original.call(this);
  const counted: IterableIterator<string> = {
    next() {
      steps.n++;
      return it.next();
    },
    [Symbol.iterator]() {
      return counted;
    },
  };
  return counted;
}

beforeEach(() => {
  steps.n = 0;
  String.prototype[Symbol.iterator] = counting;
});
afterEach(() => {
  String.prototype[Symbol.iterator] = original;
});

describe('a store list that is a string is iterated lazily, as upstream iterates it', () => {
  it('the first code point decides the restore: the rest are never read', () => {
    const why = discoveryRestoreRefusal({ schemaVersion: '1.0.0', episodes: LONG });
    expect(why).toMatch(/analyticalTests is no array/);
    expect(nilRestoreRefusal({ schemaVersion: '1.0.0', outcomes: LONG })).toBe('NIL outcome id must be non-empty');
    expect(steps.n).toBeLessThanOrEqual(2);
  });

  it('an empty string restores (no item), and a list that is no string or array is not iterable', () => {
    expect(discoveryRestoreRefusal({ schemaVersion: '1.0.0', episodes: '' })).toBeNull();
    expect(nilRestoreRefusal({ schemaVersion: '1.0.0', outcomes: 7 })).toBe('its outcomes is not iterable');
  });

  it('a package carrying such a discovery state is refused without reading the string (RPR-NEM-041)', async () => {
    const discoveries = Buffer.from(JSON.stringify({ schemaVersion: '1.0.0', episodes: LONG }));
    const r = await verify(
      packPackage(
        buildPackageParts(2, { digest: false, extraFiles: [{ name: ENTRY.discoveries, data: discoveries }] }),
      ),
    );
    expect(r.verdict).toBe('fail');
    const f = r.findings.find((x) => x.rule === 'RPR-NEM-041');
    expect(f?.message).toContain('its analyticalTests is no array');
    // Other code may walk a few short strings; none walks the 4 Mi code points.
    expect(steps.n).toBeLessThan(10_000);
  });
});
