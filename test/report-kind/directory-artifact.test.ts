/**
 * A directory kind's exported report (a journal's: `artifact.sha256` null) is checked
 * against its directory, given as `--artifact DIR`, by verifying it again as the report
 * says (docs/report-kind.md). A file for a directory report, or a directory for a file
 * report, is refused (exit 3) when the report is named alone, and RPR-RPT-004 in a folder.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runPath } from '../../app/engine/run.js';
import type { Report } from '../../shared/report.js';
import { tmp } from '../journal/helpers.js';
import { cliIn, examplesIn } from '../cli/in-process.js';

let ex = '';
let out = '';
let journal = '';
let journalReport = '';
let dumpReport = '';
const jts = () => join(ex, 'journal', 'trust-store.json');
const dts = () => join(ex, 'dumps', 'trust-store.json');
const cli = (...args: string[]) => cliIn(out, ...args);

beforeAll(async () => {
  ex = await examplesIn('reprise-dirrpt-');
  out = tmp('reprise-dirrpt-out-');
  journal = join(out, 'j');
  cpSync(join(ex, 'journal', 'sample'), journal, { recursive: true });
  const rep = await runPath(journal, 'verify', { trustStore: jts() });
  expect(rep.artifact.sha256).toBeNull();
  journalReport = join(out, 'jr.report.json');
  writeFileSync(journalReport, JSON.stringify(rep));
  dumpReport = join(out, 'dump.report.json');
  const dump = join(ex, 'dumps', 'intact.dump.json');
  writeFileSync(dumpReport, JSON.stringify(await runPath(dump, 'verify', { trustStore: dts() })));
}, 120_000);

describe("a journal's exported report", () => {
  it('checked against its journal directory: made again, PASS as its own verdict', async () => {
    const r = await cli('verify', journalReport, '--artifact', journal, '--trust-store', jts(), '--json');
    expect(r.err).toBe('');
    const rep = JSON.parse(r.out) as Report;
    expect(rep.findings.map((f) => f.rule)).toEqual(['RPR-RPT-000']);
    expect(rep.chain.map((n) => [n.id, n.status])).toEqual([
      ['report', 'match'],
      ['artifact', 'unresolved'],
      ['reverified', 'match'],
    ]);
    expect(r.code).toBe(0);
  });

  it('against a journal changed since: RPR-RPT-005, not a refusal', async () => {
    const changed = join(out, 'j2');
    cpSync(journal, changed, { recursive: true });
    const entries = join(changed, 'entries.jsonl');
    const lines = readFileSync(entries, 'utf8').split('\n').filter(Boolean);
    writeFileSync(entries, lines.slice(0, -1).join('\n') + '\n');
    const r = await cli('verify', journalReport, '--artifact', changed, '--trust-store', jts(), '--json');
    expect(r.code).toBe(1);
    const rep = JSON.parse(r.out) as Report;
    expect(rep.findings.map((f) => f.rule)).toContain('RPR-RPT-005');
  });

  it('given a regular file: refused in one line (exit 3) saying a directory is wanted', async () => {
    const file = join(ex, 'dumps', 'intact.dump.json');
    const r = await cli('verify', journalReport, '--artifact', file, '--trust-store', jts());
    expect(r).toEqual({
      code: 3,
      out: '',
      err: `reprise: --artifact ${file} is a file, and the report is about a directory (kind journal): give that directory\n`,
    });
  });
});

describe("a file's exported report given a directory", () => {
  it('named alone: refused in one line (exit 3) saying a file is wanted', async () => {
    const r = await cli('verify', dumpReport, '--artifact', journal, '--trust-store', dts());
    expect(r).toEqual({
      code: 3,
      out: '',
      err: `reprise: --artifact ${journal} is a directory, and the report is about a file (kind replay-dump): give that file\n`,
    });
  });

  it('among a folder of reports: RPR-RPT-004 for that report, the journal report checked', async () => {
    const folder = join(out, 'reports');
    mkdirSync(folder, { recursive: true });
    cpSync(dumpReport, join(folder, 'dump.report.json'));
    cpSync(journalReport, join(folder, 'jr.report.json'));
    const r = await cli('verify', folder, '--artifact', journal, '--trust-store', jts(), '--json');
    expect(r.code).toBe(1);
    const reps = JSON.parse(r.out) as Report[];
    const byName = (n: string) => reps.find((x) => x.artifact.path.endsWith(n))!;
    expect(byName('dump.report.json').findings.find((f) => f.rule === 'RPR-RPT-004')?.message).toBe(
      "the artifact given is not the report's: it is a directory, and the report is about a file (kind replay-dump): give that file",
    );
    expect(byName('jr.report.json').findings.map((f) => f.rule)).toEqual(['RPR-RPT-000']);
  });
});
