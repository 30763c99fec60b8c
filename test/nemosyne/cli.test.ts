/** The package kind end to end through `node bin/reprise.js` (the built CLI). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { cliBuilt, runCli } from '../helpers/cli.js';

describe.skipIf(!cliBuilt())('reprise verify on investigation packages', () => {
  let dir = '';
  const pkg = (name: string) => join(dir, 'packages', name);
  const flags = () => ['--kernel-adapter', pkg('kernel-adapter.mjs'), '--profiles', pkg('profiles.json')];
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'reprise-pkg-cli-'));
    const r = await runCli(['examples', dir]);
    expect(r.code).toBe(0);
  });

  it('a module adapter whose restore() never settles: unavailable (exit 2, RPR-NEM-050), not a silent exit 13', async () => {
    const stuck = join(dir, 'stuck.mjs');
    writeFileSync(stuck, 'export const restore = () => new Promise(() => {});\n');
    const r = await runCli([
      'verify',
      pkg('intact/v3.nemosyne'),
      '--kernel-adapter',
      stuck,
      '--profiles',
      pkg('profiles.json'),
    ]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain('RPR-NEM-050');
    expect(r.stdout).toContain('restore() never settles');
  });

  it('exit codes: 0 with adapter and registry, 2 without, 1 for a corrupted package', async () => {
    expect((await runCli(['verify', pkg('intact/v3.nemosyne'), ...flags()])).code).toBe(0);
    expect((await runCli(['verify', pkg('intact/v3.nemosyne')])).code).toBe(2);
    expect((await runCli(['verify', pkg('zip/043-dotdot.nemosyne')])).code).toBe(1);
    expect((await runCli(['verify', pkg('intact/v3.nemosyne'), pkg('zip/043-dotdot.nemosyne')])).code).toBe(1);
  });

  it('--json: the report names the rule, pointer, expected and actual', async () => {
    const r = await runCli(['verify', '--json', pkg('digest/022-dataset-identity.nemosyne')]);
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.stdout) as Report;
    expect(rep.artifact.kind).toBe('nemosyne-package');
    const f = rep.findings.find((x) => x.rule === 'RPR-NEM-022')!;
    expect(f.pointer).toBe('entry:manifest.json#/datasetFingerprint');
    expect(f.expected).toMatch(/^[0-9a-f]{64}$/);
    expect(f.expected).not.toBe(f.actual);
  });

  it('--limit NAME=N overrides an archive limit', async () => {
    const r = await runCli(['verify', '--json', pkg('intact/v3.nemosyne'), '--limit', 'maxArchiveBytes=100']);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as Report).findings.map((f) => f.rule)).toContain('RPR-ZIP-030');
    const ok = await runCli([
      'verify',
      pkg('zip/031-too-many-entries.nemosyne'),
      '--limit',
      'maxEntries=2000',
      ...flags(),
    ]);
    expect(ok.code).toBe(0);
  });

  it('a malformed profile registry exits 3 with one line and no stack trace', async () => {
    const r = await runCli(['verify', pkg('intact/v3.nemosyne'), '--profiles', pkg('kernel-adapter.mjs')]);
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('--workers 2 gives the same reports as inline', async () => {
    const paths = [
      'intact/v1.nemosyne',
      'intact/v4.nemosyne',
      'envelope/033-duplicate-use.nemosyne',
      'zip/009-overlap.nemosyne',
    ].map(pkg);
    const strip = (s: string) => (JSON.parse(s) as Report[]).map(({ run: _run, ...rest }) => rest);
    const a = await runCli(['verify', '--json', ...paths, ...flags()]);
    const b = await runCli(['verify', '--json', '--workers', '2', ...paths, ...flags()]);
    expect(a.code).toBe(1);
    expect(strip(b.stdout)).toEqual(strip(a.stdout));
  });
});
