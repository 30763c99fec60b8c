/**
 * Two saved reports are compared on their `run` too, but for what varies run to run (when it
 * started, how long it took): two reports that differ only in the tool, its version, or a
 * member added to `run` (a forged `run.attestation`) are not identical (docs/compare.md;
 * found by a red team: `reportSide` dropped the whole `run`, and such a pair read as
 * "identical: no difference", exit 0).
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliIn, examplesIn } from '../cli/in-process.js';
import { diffJson, reportSide, type DiffResult } from '../../shared/diff.js';
import type { Report } from '../../shared/report.js';

let dir: string;
/** A saved report of the intact dump (verify --json), whose `run` the tests edit. */
let saved: Report;
beforeAll(async () => {
  dir = await examplesIn('reprise-diff-run-');
  const v = await cliIn(dir, 'verify', join(dir, 'dumps/intact.dump.json'), '--json');
  saved = JSON.parse(v.out) as Report;
}, 60_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

/** `reprise diff` of the saved report against it written as `text` (its `run` edited). */
async function againstSaved(name: string, text: string) {
  const [l, r] = [join(dir, `${name}-l.json`), join(dir, `${name}-r.json`)];
  await writeFile(l, JSON.stringify(saved));
  await writeFile(r, text);
  return cliIn(dir, 'diff', l, r);
}

const withRun = (run: Record<string, unknown>): string => JSON.stringify({ ...saved, run });

describe('a saved report’s run', () => {
  it('another tool or version, or a member added to run: a difference, exit 1', async () => {
    const tool = await againstSaved('tool', withRun({ ...saved.run, tool: 'not-reprise' }));
    expect(tool.code, tool.err).toBe(1);
    expect(tool.out).toContain('  changed  /run/tool  "reprise" → "not-reprise"\n');
    const version = await againstSaved('version', withRun({ ...saved.run, version: '9.9.9' }));
    expect(version.code, version.err).toBe(1);
    expect(version.out).toContain(`  changed  /run/version  "${saved.run.version}" → "9.9.9"\n`);
    const added = await againstSaved('added', withRun({ ...saved.run, attestation: { signedBy: 'mallory' } }));
    expect(added.code, added.err).toBe(1);
    expect(added.out).toContain('  added    /run/attestation  (absent) → {"signedBy":"mallory"}\n');
  });

  it('only when it started and how long it took: identical, exit 0', async () => {
    const r = await againstSaved(
      'when',
      withRun({ ...saved.run, startedAtUtc: '1999-01-01T00:00:00Z', durationMs: 1 }),
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('identical: no difference\n');
  });

  it('a number in run beyond double precision is compared by its literal', async () => {
    const text = (n: string) => withRun({ ...saved.run, extra: 0 }).replace('"extra":0', `"extra":${n}`);
    const [l, r] = [join(dir, 'big-l.json'), join(dir, 'big-r.json')];
    await writeFile(l, text('9007199254740993'));
    await writeFile(r, text('9007199254740992'));
    const d = await cliIn(dir, 'diff', l, r, '--json');
    expect(d.code, d.err).toBe(1);
    const e = (JSON.parse(d.out) as DiffResult).differences;
    expect(e.map((x) => [x.pointer, x.leftLiteral])).toEqual([['/run/extra', '9007199254740993']]);
  });
});

describe('reportSide', () => {
  const report = (run: unknown) =>
    ({
      artifact: { kind: 'unknown', path: '/a', id: null, sha256: null },
      verdict: 'pass',
      findings: [],
      run,
    }) as never;

  it('keeps every member of run but startedAtUtc and durationMs; a run that is not an object as it is', () => {
    const run = { tool: 'reprise', version: '1', startedAtUtc: 'x', durationMs: 5, attestation: { by: 'm' } };
    expect(reportSide(report(run))).toMatchObject({ run: { tool: 'reprise', version: '1', attestation: { by: 'm' } } });
    expect((reportSide(report(run)) as { run: object }).run).not.toHaveProperty('startedAtUtc');
    expect(diffJson(reportSide(report(run)), reportSide(report({ ...run, startedAtUtc: 'y' }))).identical).toBe(true);
    expect(diffJson(reportSide(report(run)), reportSide(report(7))).differences[0]).toMatchObject({
      op: 'changed',
      pointer: '/run',
      right: 7,
    });
    expect(reportSide(report(undefined))).not.toHaveProperty('run');
  });
});
