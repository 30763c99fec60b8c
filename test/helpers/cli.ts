/** Runs the built CLI (`node bin/reprise.js`) as a user would. `npm test` builds it first. */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/reprise.js', import.meta.url));
export const SHARED = fileURLToPath(new URL('../../../shared/', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function cliBuilt(): boolean {
  return existsSync(fileURLToPath(new URL('../../dist/app/cli/main.js', import.meta.url)));
}

export function runCli(
  args: string[],
  opts: { cwd?: string; input?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  if (!cliBuilt()) throw new Error("the CLI is not built: run 'npm run build:cli' first");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.end(opts.input ?? '');
  });
}
