/**
 * A flag that takes one value, given twice, is bad usage (exit 3) naming the flag: node's
 * parseArgs alone keeps the last one without a word, so `verify REPORT --artifact A
 * --artifact B` was checked against B only. Flags declared `multiple` still repeat.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runPath } from '../../app/engine/run.js';
import { cliIn, examplesIn } from './in-process.js';

let ex = '';
const cli = (...args: string[]) => cliIn(ex, ...args);

beforeAll(async () => {
  ex = await examplesIn('reprise-repeated-');
}, 120_000);

describe('a single-valued flag given twice', () => {
  it('--artifact twice on a report: exit 3 naming the flag, nothing checked', async () => {
    const ts = join(ex, 'dumps', 'trust-store.json');
    const intact = join(ex, 'dumps', 'intact.dump.json');
    const report = join(ex, 'inner.report.json');
    writeFileSync(report, JSON.stringify(await runPath(intact, 'verify', { trustStore: ts })));
    const mismatch = join(ex, 'dumps', 'fail', 'outcome-mismatch.dump.json');
    const r = await cli('verify', report, '--artifact', mismatch, '--artifact', intact, '--trust-store', ts);
    expect(r.code).toBe(3);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^reprise: --artifact was given more than once/);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('--trust-store twice, or in its --name=value form: exit 3 naming the flag', async () => {
    const ts = join(ex, 'dumps', 'trust-store.json');
    const dump = join(ex, 'dumps', 'intact.dump.json');
    for (const [flag, ...args] of [
      ['trust-store', 'verify', dump, '--trust-store', ts, '--trust-store', ts],
      ['trust-store', 'verify', dump, `--trust-store=${ts}`, '--trust-store', ts],
      ['json', 'replay', dump, '--json', '--json'],
      ['hash', 'canonicalize', dump, '--hash', '--hash'],
    ]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(3);
      expect(r.err, args.join(' ')).toContain(`--${flag} was given more than once`);
    }
  });

  it('a flag declared multiple still repeats', async () => {
    const dump = join(ex, 'dumps', 'intact.dump.json');
    const r = await cli(
      'verify',
      dump,
      '--limit',
      'findings-per-rule=5',
      '--limit',
      'json-member-names=100000',
      '--quiet',
    );
    expect(r.err).not.toContain('more than once');
    expect([0, 1, 2]).toContain(r.code);
  });

  it('one --limit NAME given two values: exit 3 naming it (the last no longer wins without a word)', async () => {
    const dump = join(ex, 'dumps', 'intact.dump.json');
    const r = await cli('verify', dump, '--limit', 'findings-per-rule=5', '--limit', 'findings-per-rule=6');
    expect(r).toMatchObject({ code: 3, out: '', err: 'reprise: --limit findings-per-rule was given more than once\n' });
  });
});
