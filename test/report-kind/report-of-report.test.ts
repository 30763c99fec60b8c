/**
 * A report of an exported report (docs/report-kind.md, "A report of a report"): the inner
 * report was checked against its own artifact, which `--artifact` (naming the inner
 * report) cannot give again. Made again without it, an intact outer report is
 * UNAVAILABLE (RPR-RPT-005 saying the inner artifact is needed), never FAIL; an edit to
 * what the inner report's bytes decide alone still fails.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runPath } from '../../app/engine/run.js';
import type { Report } from '../../shared/report.js';
import { tmp } from '../journal/helpers.js';
import { examplesIn } from '../cli/in-process.js';

let ex = '';
let out = '';
let inner = '';
let outer: Report;
const ts = () => join(ex, 'dumps', 'trust-store.json');
const rules = (r: Report) => r.findings.map((f) => [f.rule, f.severity]);

/** Writes `report` as a file and verifies it against the inner report. */
async function checkOuter(name: string, report: Report, options: Record<string, string> = {}): Promise<Report> {
  const p = join(out, name);
  writeFileSync(p, JSON.stringify(report, null, 2) + '\n');
  return runPath(p, 'verify', { artifact: inner, trustStore: ts(), alone: true, ...options } as never);
}

beforeAll(async () => {
  ex = await examplesIn('reprise-rptrpt-');
  out = tmp('reprise-rptrpt-out-');
  const dump = join(ex, 'dumps', 'intact.dump.json');
  inner = join(out, 'inner.report.json');
  writeFileSync(inner, JSON.stringify(await runPath(dump, 'verify', { trustStore: ts() })));
  outer = await runPath(inner, 'verify', { artifact: dump, trustStore: ts() });
  expect(outer.verdict).toBe('pass');
}, 120_000);

describe('a report of a report checked against the inner report', () => {
  it('unedited: UNAVAILABLE with RPR-RPT-005 naming the inner artifact, not FAIL', async () => {
    const r = await checkOuter('outer.report.json', outer);
    expect(rules(r)).toEqual([['RPR-RPT-005', 'unavailable']]);
    expect(r.findings[0]!.message).toContain('reprise verify INNER --artifact FILE');
    expect(r.verdict).toBe('unavailable');
    expect(r.chain.map((n) => [n.id, n.status])).toEqual([
      ['report', 'match'],
      ['artifact', 'match'],
      ['reverified', 'unresolved'],
    ]);
  });

  it("made without the inner report's artifact: made again the same, PASS", async () => {
    const alone = await runPath(inner, 'verify', { trustStore: ts() });
    const r = await checkOuter('outer-alone.report.json', alone);
    // Its own verdict is the inner report's, UNAVAILABLE (RPR-RPT-003), carried as RPR-RPT-006.
    expect(rules(r)).toEqual([
      ['RPR-RPT-000', 'info'],
      ['RPR-RPT-006', 'unavailable'],
    ]);
    expect(r.chain.find((n) => n.id === 'reverified')?.status).toBe('match');
  });

  it('edited where the inner bytes decide alone (its id): FAIL RPR-RPT-005', async () => {
    const edited = { ...outer, artifact: { ...outer.artifact, id: 'sha256:' + '0'.repeat(64) } };
    const r = await checkOuter('outer-edited.report.json', edited);
    expect(r.findings.find((f) => f.rule === 'RPR-RPT-005')?.severity).toBe('fail');
    expect(r.verdict).toBe('fail');
  });

  it('edited in a carried finding it holds: FAIL RPR-RPT-005', async () => {
    const mismatch = join(ex, 'dumps', 'fail', 'outcome-mismatch.dump.json');
    const failing = join(out, 'failing.report.json');
    writeFileSync(failing, JSON.stringify(await runPath(mismatch, 'verify', { trustStore: ts() })));
    const o = await runPath(failing, 'verify', { artifact: mismatch, trustStore: ts() });
    expect(o.findings.some((f) => f.rule === 'RPR-RPT-006')).toBe(true);
    const cut = { ...o, findings: o.findings.filter((f) => f.rule !== 'RPR-RPT-006'), verdict: 'pass' as const };
    const r = await checkOuter('outer-cut.report.json', cut, { artifact: failing });
    expect(r.findings.find((f) => f.rule === 'RPR-RPT-005')?.severity).toBe('fail');
  });
});
