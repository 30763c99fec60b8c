/**
 * ε is governed, not coded: the TG engine (app/kinds/tg) holds no numeric literal in a
 * tolerance or threshold position. Checked on the source with comments and strings removed:
 * (1) no fractional or exponent literal anywhere (every ε, weight, threshold and rate
 * is a fraction, and all come from the bundle); (2) no numeric literal compared with, or
 * assigned to, anything named like a tolerance or threshold.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

const ENGINE = join(ROOT, 'app', 'kinds', 'tg');
const NAMES = /(epsilon|eps|tolerance|threshold|exits?|maxRate|band|delta|trustScore|score|rate|window|weight)/i;

/**
 * The engine's sources. Not `examples.ts`: the kind's example writer builds the example
 * policy bundles, which *carry* ε, weights and thresholds as governed data (that is where
 * they belong); it judges nothing.
 */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') && n !== 'examples.ts' ? [p] : [];
  });
}

/** Source without comments, string/template/regex literal contents (numbers in messages are not code). */
export function stripNonCode(src: string): string {
  return src
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/\/\/[^\n]*/g, ' ')
    .replace(/`(?:\\[\s\S]|[^`\\])*`/g, '``')
    .replace(/'(?:\\.|[^'\\\n])*'/g, "''")
    .replace(/"(?:\\.|[^"\\\n])*"/g, '""')
    .replace(/\/(?:\\.|\[[^\]]*\]|[^/\\\n])+\/[gimsuy]*/g, '/re/');
}

export function offendingLines(src: string): string[] {
  const bad: string[] = [];
  stripNonCode(src)
    .split('\n')
    .forEach((line, i) => {
      const frac = /(?<![\w.])\d*\.\d+(?:e[+-]?\d+)?\b|\b\d+e[+-]?\d+\b/i.test(line);
      const cmp = /([<>]=?|===?|!==?)\s*-?\d+(?:\.\d+)?\b|\b\d+(?:\.\d+)?\s*([<>]=?|===?|!==?)/.exec(line);
      // Comparing with 0 or 1 states a domain (non-negative, the unit interval), not a tolerance.
      const lit = cmp ? Number(/-?\d+(?:\.\d+)?/.exec(cmp[0])?.[0]) : NaN;
      const named = cmp !== null && NAMES.test(line) && lit !== 0 && lit !== 1;
      const assigned = new RegExp(`${NAMES.source}\\w*\\s*[:=]\\s*-?\\d`, 'i').test(line);
      if (frac || named || assigned) bad.push(`${i + 1}: ${line.trim()}`);
    });
  return bad;
}

describe('no tolerance or threshold constants in the TG engine', () => {
  it('finds the engine sources', () => {
    expect(files(ENGINE).length).toBeGreaterThan(8);
  });

  it('flags what it must flag (the check can fail)', () => {
    expect(offendingLines('const EPSILON = 0.02;')).toHaveLength(1);
    expect(offendingLines('if (delta <= 0.03) pass();')).toHaveLength(1);
    expect(offendingLines('if (score >= 80) accept();')).toHaveLength(1);
    expect(offendingLines('const maxRate = 10;')).toHaveLength(1);
    expect(offendingLines('return x * 1e-9;')).toHaveLength(1);
    expect(offendingLines("// epsilon 0.02 in a comment\nconst s = 'ε 0.03';")).toHaveLength(0);
    expect(offendingLines('if (delta <= epsilon) pass();')).toHaveLength(0);
  });

  for (const f of files(ENGINE)) {
    it(`${f.slice(ENGINE.length + 1)} has none`, () => {
      expect(offendingLines(readFileSync(f, 'utf8'))).toEqual([]);
    });
  }
});
