/**
 * A report's digest (reportDigest: what a judgement and a case bind) must depend on what
 * decided the verdict, never on how an option's path was spelled: `--trust-store ts.json`
 * typed from one folder and `/abs/ts.json` from another name the same store. Findings that
 * named the store, the registry or the policy file by its path made the same verification
 * two digests, and a judgement made in one spelling was refused as "another report" in the
 * other.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { runPath } from '../../app/engine/run.js';
import type { EngineOptions } from '../../app/kinds/types.js';
import { writeExamples } from '../../app/examples/index.js';
import { reportDigest } from '../../app/journal/judgement.js';

let ex = '';
let work = '';
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'reprise-spelling-'));
  ex = join(work, 'ex');
  await writeExamples(ex);
});

/** The report of `path` with one option given as an absolute path and as a relative one. */
async function bothSpellings(
  path: string,
  mode: 'verify' | 'replay',
  option: 'trustStore' | 'providers' | 'policy',
  file: string,
  also: EngineOptions = {},
) {
  const abs = await runPath(path, mode, { ...also, [option]: file });
  const rel = await runPath(path, mode, { ...also, [option]: relative(process.cwd(), file) });
  return { abs, rel };
}

/** `rule`: the finding that named the file (null: a passing report, none does). */
function expectSameDigest({ abs, rel }: { abs: Report; rel: Report }, rule: string | null, file: string): void {
  if (rule !== null) expect(abs.findings.map((f) => f.rule)).toContain(rule);
  expect(reportDigest(abs)).toBe(reportDigest(rel));
  const text = JSON.stringify({ ...abs, run: undefined });
  expect(text).not.toContain(file);
  expect(text).not.toContain(relative(process.cwd(), file));
}

describe('a report does not depend on how an option path was spelled', () => {
  it('a dump signed by a key not in the trust store (RDS-007)', async () => {
    const store = join(ex, 'tg', 'trust-store.json');
    const r = await bothSpellings(join(ex, 'dumps', 'intact.dump.json'), 'verify', 'trustStore', store);
    expectSameDigest(r, 'RDS-007', store);
  });

  it('a TG manifest whose pinned provider the registry lacks (RPR-TG-034)', async () => {
    const empty = join(work, 'empty-providers.json');
    writeFileSync(empty, JSON.stringify({ type: 'reprise.providers/v1', providers: [] }));
    const r = await bothSpellings(
      join(ex, 'tg', 'banded-within-epsilon', 'manifest.json'),
      'replay',
      'providers',
      empty,
    );
    expectSameDigest(r, 'RPR-TG-034', empty);
  });

  it('a TG manifest given another policy bundle with --policy (RPR-TG-012)', async () => {
    const m = JSON.parse(readFileSync(join(ex, 'tg', 'exact-intact', 'manifest.json'), 'utf8')) as {
      artifacts: Record<string, unknown>;
      policyContext: { bundleHash: string };
    };
    delete m.artifacts[m.policyContext.bundleHash];
    const manifest = join(work, 'manifest.json');
    writeFileSync(manifest, JSON.stringify(m));
    const other = join(work, 'other-bundle.json');
    const bundle = JSON.parse(readFileSync(join(ex, 'tg', 'bundle.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(other, JSON.stringify({ ...bundle, note: 'another bundle' }));
    const r = await bothSpellings(manifest, 'verify', 'policy', other);
    expectSameDigest(r, 'RPR-TG-012', other);
  });

  it('a dump replayed under a providers registry (details.environment.registry)', async () => {
    const providers = join(ex, 'dumps', 'providers.json');
    const trustStore = join(ex, 'dumps', 'trust-store.json');
    const r = await bothSpellings(join(ex, 'dumps', 'intact.rom.md'), 'replay', 'providers', providers, { trustStore });
    expect(r.abs.verdict).toBe('pass');
    expectSameDigest(r, null, providers);
    // The registry is named by its content: another registry is another report.
    const env = (r.abs.details as { environment: { registry: string } }).environment;
    expect(env.registry).toMatch(/^sha256:[0-9a-f]{64}$/);
    const builtin = await runPath(join(ex, 'dumps', 'intact.rom.md'), 'replay', { trustStore });
    expect((builtin.details as { environment: { registry: string } }).environment.registry).toBe('(built-in)');
  });

  it('a dump whose locked provider the registry lacks (RDS-LOCK-003)', async () => {
    const empty = join(work, 'no-providers.json');
    writeFileSync(empty, JSON.stringify({ type: 'reprise.providers/v1', providers: [] }));
    const r = await bothSpellings(join(ex, 'dumps', 'intact.rom.md'), 'replay', 'providers', empty);
    expectSameDigest(r, 'RDS-LOCK-003', empty);
  });
});
