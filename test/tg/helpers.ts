/** Shared set-up for TG tests: the examples written once per file into a temp dir, and a CLI runner returning parsed JSON. */
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Report } from '../../shared/report.js';
import { runCli, type CliResult } from '../helpers/cli.js';

export { runCli };

export async function writeExamples(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'reprise-tg-'));
  const r = await runCli(['examples', dir]);
  if (r.code !== 0) throw new Error(`examples failed: ${r.stderr}`);
  return dir;
}

export async function replayJson(args: string[], cwd?: string): Promise<{ r: CliResult; report: Report }> {
  const r = await runCli(['replay', ...args, '--json'], cwd ? { cwd } : {});
  let report: Report;
  try {
    report = JSON.parse(r.stdout) as Report;
  } catch {
    throw new Error(`no JSON report (exit ${r.code}): ${r.stderr}${r.stdout}`);
  }
  return { r, report };
}

/** A fresh copy of the example journal and trust store, plus a reviewer key added to the store. */
export async function journalCopy(examples: string): Promise<{ dir: string; trust: string; key: string }> {
  const base = mkdtempSync(join(tmpdir(), 'reprise-tg-j-'));
  const dir = join(base, 'journal');
  cpSync(join(examples, 'tg', 'journal'), dir, { recursive: true });
  const trust = join(base, 'trust-store.json');
  cpSync(join(examples, 'tg', 'trust-store.json'), trust);
  const key = join(base, 'reviewer.pem');
  const k = await runCli(['keys', 'generate', '--out', key, '--role', 'reviewer', '--trust-store', trust]);
  if (k.code !== 0) throw new Error(k.stderr);
  return { dir, trust, key };
}

export const rules = (report: Report) => report.findings.map((f) => f.rule);
export const failRules = (report: Report) => report.findings.filter((f) => f.severity === 'fail').map((f) => f.rule);
export const eventsOf = (report: Report, type: string) =>
  (report.events ?? []).filter(
    (e) => typeof e === 'object' && e !== null && !Array.isArray(e) && e['type'] === type,
  ) as Record<string, unknown>[];
