/**
 * One concept, one module: "is this a JSON object" is shared/plain-object.ts `isPlainObject`
 * (app/core/closed.ts re-exports it for the engine). Hand-written copies (`typeof v ===
 * 'object' && v !== null && !Array.isArray(v)`) had multiplied across the formats; this
 * keeps them from coming back in the engine and the host.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { sources } from '../helpers/sources.js';

/** The test written out: typeof … 'object', a null check and an Array.isArray check on the same name, in one expression. */
const HAND_WRITTEN =
  /typeof (\w+) === 'object' && \1 !== null && !Array\.isArray\(\1\)|typeof (\w+) === 'object' && !Array\.isArray\(\2\) && \2 !== null/;

export function handWrittenPlainObjectTests(text: string): number {
  return text.split('\n').filter((l) => HAND_WRITTEN.test(l)).length;
}

describe('the plain-object test', () => {
  it('is written once, in shared/plain-object.ts', () => {
    const found: string[] = [];
    for (const f of ['app', 'main'].flatMap((r) => sources(join(ROOT, r)))) {
      if (handWrittenPlainObjectTests(readFileSync(f, 'utf8')) > 0) found.push(relative(ROOT, f));
    }
    expect(found).toEqual([]);
    expect(handWrittenPlainObjectTests(readFileSync(join(ROOT, 'shared', 'plain-object.ts'), 'utf8'))).toBe(1);
  });

  it('finds a planted copy, in either order', () => {
    expect(
      handWrittenPlainObjectTests(
        "const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);",
      ),
    ).toBe(1);
    expect(handWrittenPlainObjectTests("if (typeof x === 'object' && !Array.isArray(x) && x !== null) {}")).toBe(1);
    expect(handWrittenPlainObjectTests("typeof a === 'object' && b !== null && !Array.isArray(c)")).toBe(0);
  });
});
