/**
 * What `--artifact` and a case report do on `reprise verify` (docs/report-kind.md):
 * `--artifact` on one file that is not an exported report is refused whatever its kind,
 * unknown content included; Reprise's own case report (reprise.case/v1) named alone is no
 * artifact, and is refused saying how a case is checked, not failed as unknown content.
 */
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { tmp } from '../journal/helpers.js';
import { cliIn, examplesIn } from '../cli/in-process.js';

let ex = '';
let out = '';
const cli = (...args: string[]) => cliIn(out, ...args);

beforeAll(async () => {
  ex = await examplesIn('reprise-notrpt-');
  out = tmp('reprise-notrpt-out-');
}, 120_000);

describe('--artifact on one file that is not an exported report', () => {
  it('of unknown content: refused (exit 3), not ignored beside its FAIL', async () => {
    const unknown = join(ex, 'unknown', 'not-an-artifact.json');
    const dump = join(ex, 'dumps', 'intact.dump.json');
    expect(await cli('verify', unknown, '--artifact', dump)).toEqual({
      code: 3,
      out: '',
      err: `reprise: --artifact applies to exported reports; ${unknown} is of kind unknown\n`,
    });
    // Without the flag, unknown content still fails as before.
    expect((await cli('verify', unknown)).code).toBe(1);
  });
});

describe("Reprise's own case report", () => {
  let caseFile = '';
  let dir = '';
  beforeAll(async () => {
    dir = join(out, 'case1');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(ex, 'dumps', 'intact.dump.json'), join(dir, 'intact.dump.json'));
    caseFile = join(out, 'case1.json');
    const ts = join(ex, 'dumps', 'trust-store.json');
    const made = await cli('verify', dir, '--quiet', '--case', caseFile, '--trust-store', ts);
    expect(made.code).toBe(0);
    expect((JSON.parse(readFileSync(caseFile, 'utf8')) as { schema: string }).schema).toBe('reprise.case/v1');
  });

  it('named alone: exit 3 saying what it is and how a case is checked, no FAIL RPR-KIND-001', async () => {
    const r = await cli('verify', caseFile);
    expect(r.code).toBe(3);
    expect(r.out).toBe('');
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toContain(`${caseFile} is a Reprise case report (reprise.case/v1), not an artifact`);
    expect(r.err).toContain('reprise verify DIR --case FILE');
    expect(r.err).toContain('reprise verify case.zip');
    expect(r.err).not.toContain('RPR-KIND-001');
  });

  it('with --artifact: exit 3 too, never the flag silently ignored', async () => {
    const r = await cli('verify', caseFile, '--artifact', join(dir, 'intact.dump.json'));
    expect(r.code).toBe(3);
    expect(r.err).toContain('not an artifact');
  });

  it('among a folder\'s files: its finding says it is a case report, not "without a type"', async () => {
    const folder = join(out, 'with-case');
    mkdirSync(folder, { recursive: true });
    copyFileSync(caseFile, join(folder, 'case1.json'));
    const r = await cli('verify', folder, '--json');
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.out) as Report;
    const f = rep.findings.find((x) => x.rule === 'RPR-KIND-001')!;
    expect(f.actual).toMatch(/^a Reprise case report \(reprise\.case\/v1\), which is not an artifact/);
  });
});
