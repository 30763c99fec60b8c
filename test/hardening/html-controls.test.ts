/**
 * Every HTML page Reprise writes shows a control from artifact data as the terminal does
 * (`\u202e`, `\x1b`: shared/controls.ts), never raw: a right-to-left override would
 * otherwise display "amount: \u202e0001 EUR" as "amount: RUE 1000". One test per page: the
 * report page (the workbench's export), an evidence bundle's page, a case bundle's page and
 * `reprise diff --html`. A bundle exported before keeps verifying: its page, with the
 * controls raw, is one of the forms verify accepts, and an edit of it is not.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../app/cli/main.js';
import { caseBundleHtml } from '../../app/kinds/evidence-bundle/case-html.js';
import { bundleHtml } from '../../app/kinds/evidence-bundle/html.js';
import { verifyBundle } from '../../app/kinds/evidence-bundle/index.js';
import { writeZip } from '../../app/zip/writer.js';
import type { CaseReport } from '../../shared/case.js';
import type { Report } from '../../shared/report.js';
import { reportPage } from '../../shared/report-html.js';
import { bundleOf, fixManifest, judged, unzip } from '../evidence-bundle/helpers.js';
import { tmp } from '../journal/helpers.js';

/** A bidi override and a C0 control (ESC, which starts a terminal's colour codes). */
const HOSTILE = 'amount: \u202e0001 EUR \u001b[31m';
const SHOWN = 'amount: &#92;u202e0001 EUR &#92;x1b[31m';
/** Any control a page must not hold raw (the tab and line feed it lays out aside). */
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

const REPORT = {
  schema: 'reprise.report/v1',
  artifact: { path: `${HOSTILE}.json`, kind: 'unknown', id: null, sha256: 'sha256:' + '0'.repeat(64) },
  verdict: 'fail',
  findings: [{ rule: 'RPR-KIND-001', severity: 'fail', message: HOSTILE, actual: HOSTILE }],
  chain: [],
  run: { tool: 'reprise', version: '0.0.0', startedAtUtc: '2026-12-02T00:00:00.000Z', durationMs: 1 },
} as unknown as Report;

const CHECKPOINT = { treeSize: 1, rootHash: 'sha256:r', timestampUtc: '2026-12-02T00:00:01Z', signer: 'ed25519:k' };

describe('HTML pages show controls as escapes', () => {
  it('the report page, its title too', () => {
    const page = reportPage(REPORT);
    expect(page).not.toMatch(RAW);
    expect(page).toContain(`<title>Reprise report: ${SHOWN}.json</title>`);
    expect(page).toContain(`<td>${SHOWN}</td>`);
  });

  it("an evidence bundle's page", () => {
    const { run: _run, ...bundled } = REPORT;
    const page = bundleHtml(bundled, [], CHECKPOINT as never, 'sha256:d');
    expect(page).not.toMatch(RAW);
    expect(page).toContain(`<dd>${SHOWN}.json</dd>`);
  });

  it("a case bundle's page", () => {
    const c = {
      schema: 'reprise.case/v1',
      verdict: 'pass',
      artifacts: [
        {
          path: HOSTILE,
          kind: 'unknown',
          sha256: '',
          verdict: 'pass',
          id: null,
          reportDigest: 'sha256:00',
          counts: { fail: 0, unavailable: 0, warning: 0, info: 0 },
        },
      ],
      links: [],
      timeline: [],
      judgements: [],
      findings: [],
    } as CaseReport;
    const page = caseBundleHtml(c, 'sha256:22', [], CHECKPOINT as never);
    expect(page).not.toMatch(RAW);
    expect(page).toContain(`<td>${SHOWN}</td>`);
  });

  it('the page of `reprise diff --html`', async () => {
    const dir = tmp('reprise-html-ctl-');
    writeFileSync(join(dir, 'b1.json'), JSON.stringify({ v: HOSTILE }));
    writeFileSync(join(dir, 'b2.json'), JSON.stringify({ v: HOSTILE.replace('0001', '0002') }));
    let err = '';
    const io = { out: () => undefined, err: (t: string) => void (err += t), stderrIsTTY: false, cwd: dir };
    const at = (name: string) => join(dir, name);
    expect(await runCli(['diff', at('b1.json'), at('b2.json'), '--html', at('b.html')], io), err).toBe(1);
    const page = readFileSync(join(dir, 'b.html'), 'utf8');
    expect(page).not.toMatch(RAW);
    // The diff escapes what it shows itself (shared/diff.ts shownRaw), a typed backslash doubled
    // where it could read as an escape, so the page holds the escape as text.
    expect(page).toContain('\\u202e000');
    expect(page).toContain('EUR \\x1b[31m');
  });
});

describe('a bundle whose page was written before controls were escaped', () => {
  const withControl = (r: Report): Report => ({
    ...r,
    findings: r.findings.map((f) => ({ ...f, message: `${f.message} ${HOSTILE} \\u202e` })),
  });

  it('still verifies; that page edited to turn a literal "\\u202e" into the control fails RPR-EVB-014', async () => {
    const j = await judged(withControl);
    const f = await unzip(await bundleOf(j));
    const trust = j.keys.trust;
    const failed = async () =>
      (await verifyBundle(writeZip(f), trust)).findings
        .filter((x) => x.severity === 'fail' && x.rule !== 'RPR-EVB-016')
        .map((x) => x.rule);
    const h = f.find((x) => x.name === 'report.html')!;
    const page = h.data.toString('utf8');
    expect(page).not.toMatch(RAW);
    expect(await failed()).toEqual([]);
    // The page those versions wrote: the same, with the controls raw (escHtml left them as they were).
    const older = page.replaceAll('&#92;u202e0001', '\u202e0001').replaceAll('&#92;x1b[31m', '\u001b[31m');
    expect(older).toMatch(RAW);
    h.data = Buffer.from(older);
    fixManifest(f);
    expect(await failed()).toEqual([]);
    h.data = Buffer.from(older.replace('EUR \u001b[31m \\u202e', 'EUR \u001b[31m \u202e'));
    fixManifest(f);
    expect(await failed()).toEqual(['RPR-EVB-014']);
  });
});
