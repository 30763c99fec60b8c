/**
 * Pointers are bounded where they are made (app/core/jcs/diagnose.ts MAX_POINTER_CHARS) and
 * cut where a message shows them (errors.ts): 512 levels of 64 KiB names make a pointer of
 * 32 MB, and a warning for each number under it once held gigabytes (`verify` of a 24 MB
 * dump ended in "internal error: Invalid string length"; `canonicalize` ran out of heap).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { JcsError, parseCanonical } from '../../app/core/jcs.js';
import { MAX_POINTER_CHARS } from '../../app/core/jcs/diagnose.js';
import { cliIn, examplesIn } from '../cli/in-process.js';
import { tmp } from '../journal/helpers.js';

/** `levels` objects deep, each member named by `width` characters, around `inner`. */
const nested = (levels: number, width: number, inner: string): string =>
  Array.from({ length: levels }, (_, i) => `{"${'k'.repeat(width)}${i}":`).join('') + inner + '}'.repeat(levels);
const imprecise = (n: number) => `[${Array(n).fill('9007199254740993').join(',')}]`;

describe('long pointers', () => {
  it('a warning under a long path names its deepest ancestor that fits, and says so', () => {
    const { warnings } = parseCanonical(nested(100, 20_000, imprecise(150)));
    expect(warnings).toHaveLength(150);
    for (const w of warnings) {
      expect(w.pointer.length).toBeLessThanOrEqual(MAX_POINTER_CHARS);
      expect(w.message).toContain(
        `(in a member under this pointer, whose own pointer is longer than ${MAX_POINTER_CHARS} characters)`,
      );
    }
    // A short path is named exactly, as before.
    expect(parseCanonical('{"a":[1,9007199254740993]}').warnings[0]!.pointer).toBe('/a/1');
  });

  it('canonicalize prints each warning and a depth refusal in a bounded line', async () => {
    const dir = tmp('reprise-long-pointer-');
    writeFileSync(join(dir, 'warn.json'), nested(100, 20_000, imprecise(150)));
    const w = await cliIn(dir, 'canonicalize', '--hash', join(dir, 'warn.json'));
    expect(w.code, w.err.slice(0, 300)).toBe(0);
    const lines = w.err.trimEnd().split('\n');
    expect(lines).toHaveLength(150);
    for (const l of lines) expect(l.length).toBeLessThan(1000);
    writeFileSync(join(dir, 'deep.json'), '['.repeat(100_000) + ']'.repeat(100_000));
    const d = await cliIn(dir, 'canonicalize', join(dir, 'deep.json'));
    expect(d.code).toBe(1);
    expect(d.err).toMatch(/ERR_DEPTH: nesting deeper than 512 at \/0\/0.*… \(cut: \d+ characters, 51\d levels\)/);
    expect(d.err.length).toBeLessThan(400);
  });

  it('a dump holding numbers under a 2 MB path is verified, with a report of bounded size', async () => {
    const dir = await examplesIn('reprise-long-pointer-dump-');
    const dump = readFileSync(join(dir, 'dumps', 'intact.dump.json'), 'utf8');
    const bad = dump.replace(
      '"capacitySnapshot": {',
      `"capacitySnapshot": {"zz": ${nested(100, 20_000, imprecise(150))}, `,
    );
    expect(bad).not.toBe(dump);
    writeFileSync(join(dir, 'deep.dump.json'), bad);
    const r = await cliIn(dir, 'verify', '--json', join(dir, 'deep.dump.json'));
    expect(r.code, r.err.slice(0, 300)).toBe(1);
    expect(r.out.length).toBeLessThan(1_000_000);
    expect(r.out).toContain('whose own pointer is longer than 4096 characters');
  });

  it('a duplicate member of a 64 KiB name is refused in a short message', () => {
    const name = 'n'.repeat(65_000);
    let e: unknown;
    try {
      parseCanonical(`{"${name}":1,"${name}":2}`);
    } catch (x) {
      e = x;
    }
    expect(e).toBeInstanceOf(JcsError);
    expect((e as JcsError).message.length).toBeLessThan(600);
    expect((e as JcsError).message).toContain('(65000 characters)');
  });
});
