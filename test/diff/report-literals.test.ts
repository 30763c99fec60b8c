/**
 * Two saved reports that differ only in a number a double cannot hold, directly in the
 * report or directly in its artifact (where reportSide builds new objects), differ: never
 * "identical", never exit 0 (docs/compare.md, Numbers).
 */
import { mkdtempSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessCli } from '../helpers/in-process-cli.js';
import { writeExamples } from '../../app/examples/index.js';
import {
  diffJson,
  NumberLiterals,
  parseKeepingLiterals,
  replaySides,
  reportSide,
  type DiffResult,
} from '../../shared/diff.js';
import type { JsonValue, Report } from '../../shared/report.js';

const tmp = mkdtempSync(join(tmpdir(), 'reprise-diff-literals-'));
let wellFormed: string;
beforeAll(async () => {
  await writeExamples(join(tmp, 'ex'));
  wellFormed = await readFile(join(tmp, 'ex', 'reports', 'well-formed.report.json'), 'utf8');
}, 60_000);
afterAll(() => rm(tmp, { recursive: true, force: true }));

const diff = (...args: string[]) => inProcessCli(tmp, ['diff', ...args]);

/** The example report with `insert` written after `after`, saved as `name`. */
async function edited(name: string, after: string, insert: string): Promise<string> {
  expect(wellFormed).toContain(after);
  const path = join(tmp, name);
  await writeFile(path, wellFormed.replace(after, `${after}${insert}`));
  return path;
}

const cases = [
  // [where it is inserted after, member, its pointer, left literal, right literal]
  ['"verdict": "pass",', 'extra', '/extra', '9007199254740993', '9007199254740992'],
  ['"verdict": "pass",', 'extra', '/extra', '1e-400', '0'],
  ['"artifact": {', 'signedBy', '/artifact/signedBy', '9007199254740993', '9007199254740992'],
] as const;

describe('saved reports differing only in a number beyond double precision at their top', () => {
  for (const [after, member, pointer, x, y] of cases)
    it(`${pointer}: ${x} against ${y} differs, exit 1, by its literal`, async () => {
      const l = await edited(`${member}-${x}-l.json`, after, ` "${member}": ${x},`);
      const r = await edited(`${member}-${x}-r.json`, after, ` "${member}": ${y},`);
      const text = await diff(l, r);
      expect(text.code, text.err).toBe(1);
      expect(text.out).not.toContain('identical');
      expect(text.out).toContain(`changed  ${pointer}  ${x} → ${y}  (as written: beyond double precision`);
      const json = await diff(l, r, '--json');
      expect(json.code, json.err).toBe(1);
      const d = JSON.parse(json.out) as DiffResult;
      expect(d.identical).toBe(false);
      expect(d.differences).toEqual([
        {
          op: 'changed',
          pointer,
          left: Number(x),
          right: Number(y),
          leftLiteral: x,
          ...(String(Number(y)) === y ? {} : { rightLiteral: y }),
        },
      ]);
      // The same report on both sides is still identical.
      expect((await diff(l, l)).code).toBe(0);
    });
});

describe('reportSide', () => {
  it('keeps the literals of the members it copies into the objects it builds', () => {
    // One table for both sides, as the CLI and the engine keep (the containers differ).
    const literals = new NumberLiterals();
    const [a, b] = ['9007199254740993', '9007199254740992'].map((n) => {
      const text = `{"schema":"reprise.report/v1","artifact":{"kind":"x","path":"p","signedBy":${n}},"verdict":"pass","findings":[],"extra":${n}}`;
      const value = parseKeepingLiterals(text, literals)?.value ?? (JSON.parse(text) as JsonValue);
      return reportSide(value as unknown as Report, undefined, { literals, literal: undefined });
    });
    const d = diffJson(a!, b!, { literals });
    expect(d.identical).toBe(false);
    expect(d.differences.map((e) => [e.pointer, e.leftLiteral])).toEqual([
      ['/artifact/signedBy', '9007199254740993'],
      ['/extra', '9007199254740993'],
    ]);
  });
});

describe('replaySides', () => {
  it('keeps the literal of an expression that is one such number, moved into a side of its own', () => {
    const literals = new NumberLiterals();
    const text =
      '{"comparisons":[],"details":{"expression":{"recorded":9007199254740993,"replayed":9007199254740992}}}';
    const r = parseKeepingLiterals(text, literals)!.value as unknown as Report;
    const { left, right } = replaySides(r, literals);
    expect(diffJson(left, right, { literals }).differences).toMatchObject([
      { pointer: '/expression', leftLiteral: '9007199254740993' },
    ]);
  });
});
