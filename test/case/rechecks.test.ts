/**
 * An exported report in a case that holds the artifact it is about is decided against that
 * artifact (engine/case/rechecks.ts), as `reprise verify REPORT --artifact FILE` decides it:
 * in the case report, inline, on the worker pool and through the CLI, the same bytes each
 * way; the per-artifact output stays each artifact's alone. A report whose artifact is not
 * in the case, or a case run with --artifact given, is left as it was.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaseReport } from '../../shared/case.js';
import type { CaseOutcome } from '../../app/engine/case/index.js';
import type { RunCaseOptions } from '../../app/jobs/case.js';
import { writeExamples } from '../../app/examples/index.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { tmp } from '../journal/helpers.js';

type RunCase = (dir: string, run?: RunCaseOptions) => Promise<CaseReport>;
let runCase: RunCase;
let dir = '';
let trust = '';

/** Each artifact's verdict and the rules of its findings above info, by path. */
const verdicts = (r: CaseReport) => Object.fromEntries(r.artifacts.map((a) => [a.path, [a.verdict, a.counts]]));

beforeAll(async () => {
  if (!cliBuilt()) throw new Error("the CLI is not built: run 'npm run build:cli' first");
  ({ runCase } = (await import(new URL('../../dist/app/jobs/case.js', import.meta.url).href)) as { runCase: RunCase });
  const base = tmp('reprise-case-rechecks-');
  const ex = join(base, 'examples');
  await writeExamples(ex);
  trust = join(ex, 'dumps', 'trust-store.json');
  dir = join(base, 'case');
  mkdirSync(join(dir, 'reports'), { recursive: true });
  copyFileSync(join(ex, 'dumps', 'intact.dump.json'), join(dir, 'dump.json'));
  const dump = join(dir, 'dump.json');
  // One report made without a trust store, one with it; one of an artifact the case does not hold.
  const alone = await runCli(['verify', dump, '--json']);
  const trusted = await runCli(['verify', dump, '--json', '--trust-store', trust]);
  const other = await runCli(['verify', join(ex, 'dumps', 'fail', 'altered-artifact.dump.json'), '--json']);
  writeFileSync(join(dir, 'reports', 'alone.json'), alone.stdout);
  writeFileSync(join(dir, 'reports', 'trusted.json'), trusted.stdout);
  writeFileSync(join(dir, 'reports', 'other.json'), other.stdout);
}, 120_000);

describe('an exported report in a case that holds its artifact', () => {
  it('is decided against it, under the options the case runs with, the same bytes inline and on the pool', async () => {
    const landed: CaseOutcome[] = [];
    const inline = await runCase(dir, { workers: 0 });
    const pooled = await runCase(dir, { workers: 2, reports: true, onArtifact: (o) => landed.push(o) });
    expect(JSON.stringify(pooled)).toBe(JSON.stringify(inline));
    expect(verdicts(pooled)).toEqual({
      'dump.json': ['unavailable', { fail: 0, unavailable: 1, warning: 0, info: 0 }],
      // Made as the case runs it (no trust store): the dump gives it again (info), its own verdict stays UNAVAILABLE.
      'reports/alone.json': ['unavailable', { fail: 0, unavailable: 1, warning: 0, info: 1 }],
      // The report of an artifact the case does not hold: alone, as before (undecided, and its own FAIL carried).
      'reports/other.json': ['fail', { fail: 1, unavailable: 1, warning: 0, info: 0 }],
      // Made with a trust store the case was not given: the dump gives another report.
      'reports/trusted.json': ['fail', { fail: 1, unavailable: 0, warning: 0, info: 0 }],
    });
    // The second outcome is heard too (a case bundle carries the report the case names).
    const last = landed.filter((o) => o.ok && o.part.artifact.path === 'reports/trusted.json').at(-1);
    expect(last?.ok && last.report?.findings.map((f) => f.rule)).toEqual(['RPR-RPT-005']);
    const entry = pooled.artifacts.find((a) => a.path === 'reports/trusted.json')!;
    expect(last?.ok && last.part.artifact.reportDigest).toBe(entry.reportDigest);

    // With the trust store the trusted report was made with, it passes and the other fails.
    const withTrust = await runCase(dir, { workers: 2, options: { trustStore: trust } });
    expect(verdicts(withTrust)['reports/trusted.json']![0]).toBe('pass');
    expect(verdicts(withTrust)['reports/alone.json']![0]).toBe('fail');
  });

  it.skipIf(!cliBuilt())(
    'through the CLI: the case report holds the second outcome, the per-artifact output the first',
    async () => {
      const cases: string[] = [];
      for (const w of ['0', '2']) {
        const r = await runCli(['verify', dir, '--case', '-', '--workers', w]);
        expect(r.code, r.stderr).toBe(1);
        cases.push(r.stdout);
      }
      expect(cases[1]).toBe(cases[0]);
      const viaCli = JSON.parse(cases[0]!) as CaseReport;
      expect(verdicts(viaCli)).toEqual(verdicts(await runCase(dir, { workers: 0 })));
      // The per-artifact output is verify DIR's: each report alone, undecided (RPR-RPT-003).
      const plain = await runCli(['verify', dir, '--workers', '2']);
      expect(plain.code).toBe(1);
      expect(plain.stdout).toMatch(
        /UNAVAILABLE .*reports\/trusted\.json[^\n]*\n(?:[^\n]*\n)*?\s+unavailable RPR-RPT-003/,
      );
    },
  );

  it('is left alone when the case is run with --artifact given: that option is the user’s', async () => {
    const given = await runCase(dir, { workers: 0, options: { artifact: join(dir, 'dump.json') } });
    // Every report is checked against the artifact given, as the flag says: other.json is not its report.
    expect(verdicts(given)['reports/other.json']![0]).toBe('fail');
    expect(verdicts(given)['reports/trusted.json']![0]).toBe('fail');
  });
});
