/**
 * A report lists at most MAX_FINDINGS_PER_RULE findings of one rule and counts the rest
 * (RPR-REPORT-001): a 2.5 MB TG manifest of 100,000 tiny executions, each missing its
 * members, made a 130 MB report and a 986 MiB peak RSS before (the fuzz found it,
 * test/hardening/fuzz.test.ts). The verdict stays the one of every finding.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { verifyJournal } from '../../app/journal/verify.js';
import { fail, info, MAX_FINDINGS_PER_RULE, warning } from '../../app/core/findings.js';
import { buildReport } from '../../app/core/report.js';
import { runBytes, runPath } from '../../app/engine/run.js';
import { tgWriter } from '../../app/kinds/tg/examples.js';

const report = (findings: ReturnType<typeof fail>[]) =>
  buildReport({ path: 'x', kind: 'unknown', id: null, sha256: null, findings, chain: [] }, 0);

describe('findings per rule are bounded in every report', () => {
  it('keeps the first of a flooding rule, counts the rest with their worst severity, keeps other rules whole', () => {
    const flood = Array.from({ length: 100_000 }, (_, i) =>
      i === 99_999 ? fail('R-1', `f${i}`) : warning('R-1', `w${i}`),
    );
    const r = report([info('R-0', 'first'), ...flood, info('R-2', 'last')]);
    expect(r.findings.length).toBe(MAX_FINDINGS_PER_RULE + 3);
    expect(r.findings.filter((f) => f.rule === 'R-1').length).toBe(MAX_FINDINGS_PER_RULE);
    expect(r.findings.map((f) => f.rule).slice(-2)).toEqual(['RPR-REPORT-001', 'R-2']);
    const summary = r.findings.at(-2)!;
    expect(summary).toMatchObject({
      severity: 'fail',
      actual: { rule: 'R-1', count: 100_000 - MAX_FINDINGS_PER_RULE },
    });
    expect(r.verdict).toBe('fail');
  });

  it('bounds a rule one finding over the bound (the summary takes its place)', () => {
    const findings = Array.from({ length: MAX_FINDINGS_PER_RULE + 1 }, (_, i) => warning('R-1', `w${i}`));
    const r = report(findings);
    expect(r.findings.filter((f) => f.rule === 'R-1')).toHaveLength(MAX_FINDINGS_PER_RULE);
    expect(r.findings.at(-1)).toMatchObject({ rule: 'RPR-REPORT-001', actual: { rule: 'R-1', count: 1 } });
  });

  it('leaves a report within the bound as it was', () => {
    const findings = Array.from({ length: MAX_FINDINGS_PER_RULE }, (_, i) => warning('R-1', `w${i}`));
    expect(report(findings).findings).toEqual(findings);
  });

  it('a journal of 20,000 tiny lines holds a bounded list while it is verified', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reprise-bound-'));
    writeFileSync(join(dir, 'entries.jsonl'), '{"seq":1}\n'.repeat(20_000));
    writeFileSync(join(dir, 'checkpoints.jsonl'), '');
    const r = await verifyJournal(dir, null);
    rmSync(dir, { recursive: true, force: true });
    expect(r.findings.length).toBeLessThan(2000);
    expect(r.findings.find((f) => f.rule === 'RPR-REPORT-001')).toMatchObject({
      severity: 'fail',
      actual: { rule: 'RPR-JOURNAL-004' },
    });
  });

  it('a TG manifest of 100,000 tiny executions: a report of kilobytes, not of hundreds of MB', async () => {
    const files = await tgWriter.build();
    const doc = JSON.parse(String(files.find((f) => f.path === 'tg/exact-intact/manifest.json')!.bytes)) as {
      executions: unknown[];
    };
    doc.executions.push(...Array.from({ length: 100_000 }, (_, i) => ({ executionId: `x${i}` })));
    const r = await runBytes('m.json', Buffer.from(JSON.stringify(doc)), 'verify', {});
    expect(r.verdict).toBe('fail');
    expect(JSON.stringify(r).length).toBeLessThan(1024 * 1024);
    expect(r.findings.some((f) => f.rule === 'RPR-REPORT-001')).toBe(true);
  });

  it('--limit findings-per-rule raises the bound: a reviewer can list every finding', async () => {
    const files = await tgWriter.build();
    const doc = JSON.parse(String(files.find((f) => f.path === 'tg/exact-intact/manifest.json')!.bytes)) as {
      executions: unknown[];
    };
    doc.executions.push(...Array.from({ length: 300 }, (_, i) => ({ executionId: `x${i}` })));
    const bytes = Buffer.from(JSON.stringify(doc));
    const bounded = await runBytes('m.json', bytes, 'verify', {});
    const summary = bounded.findings.find((f) => f.rule === 'RPR-REPORT-001');
    expect(summary?.message).toMatch(/--limit findings-per-rule=N lists more/);
    const all = await runBytes('m.json', bytes, 'verify', { limits: { 'findings-per-rule': 1_000_000 } });
    expect(all.findings.some((f) => f.rule === 'RPR-REPORT-001')).toBe(false);
    const rule = (summary!.actual as { rule: string }).rule;
    const kept = bounded.findings.filter((f) => f.rule === rule).length;
    expect(all.findings.filter((f) => f.rule === rule).length).toBe(
      kept + (summary!.actual as { count: number }).count,
    );
    expect(all.verdict).toBe(bounded.verdict);
  });

  it('--limit findings-per-rule reaches a journal directory too (it is bounded while read)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reprise-bound-'));
    writeFileSync(join(dir, 'entries.jsonl'), '{"seq":1}\n'.repeat(300));
    writeFileSync(join(dir, 'checkpoints.jsonl'), '');
    const bounded = await runPath(dir, 'verify', {});
    const all = await runPath(dir, 'verify', { limits: { 'findings-per-rule': 1_000_000 } });
    rmSync(dir, { recursive: true, force: true });
    expect(bounded.findings.some((f) => f.rule === 'RPR-REPORT-001')).toBe(true);
    expect(all.findings.some((f) => f.rule === 'RPR-REPORT-001')).toBe(false);
    expect(all.findings.filter((f) => f.rule === 'RPR-JOURNAL-004').length).toBeGreaterThan(
      bounded.findings.filter((f) => f.rule === 'RPR-JOURNAL-004').length,
    );
    expect(all.verdict).toBe(bounded.verdict);
  });
});
