/**
 * A timeline event carries the worst severity of its report's findings where it lies. A JSON
 * Lines trace's events point at their lines (`line:9`, where the editor opens) while its
 * findings point into the EVAL by index (`/8/trust_debt/post`): the event of a tampered EVAL
 * was `info`, and a case's "severity: fail" filter found nothing in a FAIL case.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaseReport } from '../../shared/case.js';
import { driveCase, inlineExecutor } from '../../app/engine/case/index.js';
import { writeExamples } from '../../app/examples/index.js';

let report: CaseReport;
beforeAll(async () => {
  const work = mkdtempSync(join(tmpdir(), 'reprise-case-severity-'));
  await writeExamples(join(work, 'ex'));
  const dir = join(work, 'case');
  cpSync(join(work, 'ex', 'acgp', 'trace-tampered-post.jsonl'), join(dir, 'lines.jsonl'));
  // The same EVALs as one JSON array: its events already point into the EVAL by index.
  const evals = readFileSync(join(dir, 'lines.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
  writeFileSync(join(dir, 'array.json'), JSON.stringify(evals));
  // Pretty-printed, with a member repeated in EVAL 0: the strict parse fails, and it is still one array.
  const pretty = JSON.stringify(evals, null, 2).replace('{\n', '{\n    "note": 1,\n    "note": 1,\n');
  writeFileSync(join(dir, 'pretty.json'), pretty);
  report = await driveCase(dir, inlineExecutor);
});

describe('the severity of a trace event', () => {
  it('is that of the findings in its EVAL, whether the trace is JSON Lines or one array', () => {
    for (const artifact of ['lines.jsonl', 'array.json']) {
      const a = report.artifacts.find((x) => x.path === artifact)!;
      expect(a.verdict).toBe('fail');
      const failing = report.timeline.filter((e) => e.artifact === artifact && e.severity === 'fail');
      expect(failing.map((e) => e.label)).toEqual([expect.stringMatching(/^EVAL 8\b/)]);
    }
  });
});

describe('the pointer of a trace event', () => {
  it('is into the array for a JSON trace whose strict parse fails (a repeated member), never a JSON Lines line', () => {
    const events = report.timeline.filter((e) => e.artifact === 'pretty.json');
    expect(events.length).toBeGreaterThan(3);
    expect(events.map((e) => e.pointer).slice(0, 2)).toEqual(['/0/timestamp', '/1/timestamp']);
    expect(report.artifacts.find((a) => a.path === 'pretty.json')).toMatchObject({
      kind: 'acgp-trace',
      verdict: 'fail',
    });
  });
});
