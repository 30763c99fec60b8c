/**
 * A reader that stops early (`reprise verify DIR | head`) closes stdout. The run goes on
 * without printing: its exit code is still its verdict's (never 0 over a failing run), and
 * the case report it was asked to write is written.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliBuilt, runCli } from '../helpers/cli.js';

let base = '';
let dir = '';

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'reprise-closed-stdout-'));
  const ex = join(base, 'ex');
  expect((await runCli(['examples', ex])).code).toBe(0);
  dir = join(base, 'case');
  mkdirSync(dir);
  // Enough failing reports that the text outgrows a pipe's buffer many times over.
  for (let i = 0; i < 200; i++)
    copyFileSync(join(ex, 'dumps', 'fail', 'altered-artifact.dump.json'), join(dir, `d${i}.dump.json`));
}, 120_000);

/** Runs the CLI and closes its stdout after the first bytes; the exit code and stderr. */
function runClosingEarly(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.stdout.once('data', () => child.stdout.destroy());
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe.skipIf(!cliBuilt())('stdout closed by its reader', () => {
  it('a failing batch still exits 1 and writes its case report', async () => {
    const out = join(base, 'case.json');
    const r = await runClosingEarly(['verify', dir, '--workers', '2', '--case', out]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).not.toMatch(/internal error|at .*\.js:\d+/);
    expect(existsSync(out)).toBe(true);
    const report = JSON.parse(readFileSync(out, 'utf8')) as { verdict: string; artifacts: unknown[] };
    expect(report.verdict).toBe('fail');
    expect(report.artifacts).toHaveLength(200);
  }, 120_000);

  it('the case report on stdout, cut short, still exits 1', async () => {
    const r = await runClosingEarly(['verify', dir, '--case', '-']);
    expect(r.code, r.stderr).toBe(1);
  }, 120_000);
});
