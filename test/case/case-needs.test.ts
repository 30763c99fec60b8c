/**
 * An artifact of a case left UNAVAILABLE for want of an option names that option in its entry
 * (CaseArtifact.needs), from what its kind declares (KindOption.decides), never from the words
 * of its findings: a dump without a trust store, a package without a kernel adapter, a journal
 * and the manifest it anchors without a trust store. An option given is never named; a rule
 * that also says what no option decides (a V1/V2 package's replay) names none; the entry is
 * absent when no option would decide anything, and the report is the same bytes on the pool.
 */
import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeExamples } from '../../app/examples/index.js';
import { driveCase, inlineExecutor } from '../../app/engine/case/index.js';
import { casePart, NO_FACTS } from '../../app/engine/case/part.js';
import type { runCase as RunCase } from '../../app/jobs/case.js';
import { cliBuilt } from '../helpers/cli.js';
import { decidersOf, declaredOptions, KINDS, DIRECTORY_KINDS } from '../../app/kinds/registry.js';
import type { CaseReport } from '../../shared/case.js';
import type { Finding, Report } from '../../shared/report.js';
import { caseSchemaValidator } from '../helpers/case-schema.js';
import { caseShapeProblems } from '../../shared/case-shape.js';
import { tmp } from '../journal/helpers.js';

const validate = caseSchemaValidator();

function report(kind: string, findings: Finding[]): Report {
  return {
    schema: 'reprise.report/v1',
    artifact: { path: 'a', kind, id: null, sha256: `sha256:${'a'.repeat(64)}` },
    verdict: findings.some((f) => f.severity === 'unavailable') ? 'unavailable' : 'pass',
    findings,
    chain: [],
    run: { tool: 'reprise', version: '0', startedAtUtc: '2026-01-01T00:00:00Z', durationMs: 0 },
  } as Report;
}

const unavailable = (rule: string, pointer?: string): Finding => ({
  rule,
  severity: 'unavailable',
  message: 'undecided',
  ...(pointer === undefined ? {} : { pointer }),
});

const needs = (kind: string, findings: Finding[], options = {}) =>
  casePart('a', report(kind, findings), NO_FACTS, options).artifact.needs;

describe('one artifact', () => {
  it('names the option its kind declares as deciding an unavailable finding, only when it was not given', () => {
    expect(needs('replay-dump', [unavailable('RDS-007', '/keyId')])).toEqual([
      { option: 'trustStore', flag: 'trust-store', rules: ['RDS-007'] },
    ]);
    expect(needs('replay-dump', [unavailable('RDS-007', '/keyId')], { trustStore: '/t.json' })).toBeUndefined();
    // A warning or a failure of that rule is no undecided finding.
    expect(needs('replay-dump', [{ ...unavailable('RDS-007'), severity: 'fail' }])).toBeUndefined();
    expect(needs('replay-dump', [])).toBeUndefined();
    expect(needs('unknown', [unavailable('RPR-KIND-001')])).toBeUndefined();
  });

  it('sorts the options by flag and their rules, each once', () => {
    expect(
      needs('tg-replay-manifest', [
        unavailable('RPR-TG-051'),
        unavailable('RPR-TG-023', '/executions/5/anchor'),
        unavailable('RPR-TG-023', '/executions/6/anchor'),
      ]),
    ).toEqual([
      { option: 'journal', flag: 'journal', rules: ['RPR-TG-023'] },
      { option: 'trustStore', flag: 'trust-store', rules: ['RPR-TG-023', 'RPR-TG-051'] },
    ]);
    expect(needs('tg-replay-manifest', [unavailable('RPR-TG-023', '/x')], { journal: '/j' })).toEqual([
      { option: 'trustStore', flag: 'trust-store', rules: ['RPR-TG-023'] },
    ]);
  });

  it("names an option for a rule's findings at its pointer only, where the rule also says what no option decides", () => {
    const digest = unavailable('KERNEL_MISMATCH', 'entry:manifest.json#/investigationDigest');
    expect(needs('nemosyne-package', [digest])).toEqual([
      { option: 'kernelAdapter', flag: 'kernel-adapter', rules: ['KERNEL_MISMATCH'] },
    ]);
    // A V1/V2 package's replay: its analysis steps commit to no digest an adapter could be held to.
    expect(needs('nemosyne-package', [unavailable('KERNEL_MISMATCH', 'entry:commands.log')])).toBeUndefined();
    // A dump locked to a provider the built-in registry lacks, not to a model the reference has not.
    expect(needs('replay-dump', [unavailable('RDS-LOCK-003', '/lockedProviderInfo/providerId')])).toEqual([
      { option: 'providers', flag: 'providers', rules: ['RDS-LOCK-003'] },
    ]);
    expect(needs('replay-dump', [unavailable('RDS-LOCK-003', '/lockedProviderInfo/modelId')])).toBeUndefined();
  });
});

describe('the kinds declare it', () => {
  it("with rules of their own, and the options' shared declarations carry none", () => {
    for (const k of [...KINDS, ...DIRECTORY_KINDS])
      for (const o of k.options ?? [])
        for (const d of o.decides ?? []) expect(k.rules.ids).toHaveProperty([typeof d === 'string' ? d : d.rule]);
    expect(declaredOptions().filter((o) => o.decides !== undefined)).toEqual([]);
    expect([...(decidersOf('journal')?.keys() ?? [])]).toEqual(['RPR-JOURNAL-011']);
    expect(
      decidersOf('tg-replay-manifest')
        ?.get('RPR-TG-043')
        ?.map((d) => d.flag),
    ).toEqual(['policy']);
  });
});

describe('a case', () => {
  let dir: string;
  let examples: string;
  let bare: CaseReport;
  beforeAll(async () => {
    const root = tmp('reprise-case-needs-');
    examples = join(root, 'examples');
    await writeExamples(examples);
    dir = join(root, 'case');
    mkdirSync(dir);
    const copy = (from: string, to: string) => cpSync(join(examples, from), join(dir, to), { recursive: true });
    copy('dumps/intact.dump.json', 'dump.json');
    copy('packages/intact/v4.nemosyne', 'dataset.nemosyne');
    copy('acgp/trace-clean.jsonl', 'trace.jsonl');
    copy('tg/recorded-anchored/manifest.json', 'tg/manifest.json');
    copy('tg/bundle.json', 'tg/policy.json');
    copy('tg/journal', 'tg/journal');
    bare = await driveCase(dir, inlineExecutor, {});
  }, 120_000);

  const byPath = (r: CaseReport) => Object.fromEntries(r.artifacts.map((a) => [a.path, a.needs]));

  it('names what each UNAVAILABLE artifact needs, in a report the schema and the shape checker hold', () => {
    const got = byPath(bare);
    expect(got['dump.json']).toEqual([{ option: 'trustStore', flag: 'trust-store', rules: ['RDS-007'] }]);
    expect(got['dataset.nemosyne']?.map((n) => n.flag)).toContain('kernel-adapter');
    // The case gives the manifest its journal (a recheck): only the trust store is left to give.
    expect(got['tg/manifest.json']).toEqual([{ option: 'trustStore', flag: 'trust-store', rules: ['RPR-TG-023'] }]);
    expect(got['tg/journal']).toEqual([{ option: 'trustStore', flag: 'trust-store', rules: ['RPR-JOURNAL-011'] }]);
    expect(got['trace.jsonl']).toBeUndefined();
    expect(bare.artifacts.find((a) => a.path === 'trace.jsonl')).not.toHaveProperty('needs');
    expect(validate(bare), JSON.stringify(validate.errors)).toBe(true);
    expect(caseShapeProblems(bare)).toEqual([]);
  });

  it('names no option the case was given', async () => {
    const r = await driveCase(dir, inlineExecutor, {
      options: { trustStore: join(examples, 'dumps/trust-store.json') },
    });
    expect(byPath(r)['dump.json']).toBeUndefined();
    expect(r.artifacts.flatMap((a) => a.needs ?? []).map((n) => n.option)).not.toContain('trustStore');
  });

  it('is the same bytes on two workers (the built engine: run npm run build:cli first)', async () => {
    if (!cliBuilt()) throw new Error("the CLI is not built: run 'npm run build:cli' first");
    // The pool's worker threads run the built engine, so runCase is the built one too.
    const { runCase } = (await import(new URL('../../dist/app/jobs/case.js', import.meta.url).href)) as {
      runCase: typeof RunCase;
    };
    const pooled = await runCase(dir, { workers: 2 });
    expect(JSON.stringify(pooled)).toBe(JSON.stringify(bare));
  }, 120_000);
});
