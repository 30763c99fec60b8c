/**
 * `reprise verify --workers N` starts its pool before it walks the paths, so a pool may sit
 * idle while its threads load, or be closed before they have loaded: neither may keep the
 * process alive. Runs the built pool (dist/) in a child process, as the CLI does.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cliBuilt, ROOT } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'reprise-pool-'));
let n = 0;

/** Runs an ES module script in a fresh node (a file, not -e: worker threads inherit execArgv). */
function node(script: string): { code: number | null; stdout: string; stderr: string } {
  if (!cliBuilt()) throw new Error("the CLI is not built: run 'npm run build:cli' first");
  const file = join(dir, `script-${n++}.mjs`);
  writeFileSync(file, script);
  const r = spawnSync(process.execPath, [file], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const dist = pathToFileURL(join(ROOT, 'dist/app/jobs/')).href;
const POOL = `
import { WorkerPool } from '${dist}pool.js';
const url = new URL('${dist}batch-worker.js');
`;

describe('a batch pool started early', () => {
  it('closed while its threads still load: close resolves and the process ends', () => {
    const r = node(`${POOL}
const pool = new WorkerPool(2, url);
await pool.close();
console.log('closed');
`);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('closed\n');
    expect(r.code).toBe(0);
  });

  it('left idle and never closed: its threads do not keep the process alive', () => {
    const r = node(`${POOL}
new WorkerPool(2, url);
console.log('started');
`);
    expect(r.stdout).toBe('started\n');
    expect(r.code).toBe(0);
  });

  it('given jobs only after a while, runs them, then lets the process end', () => {
    const r = node(`${POOL}
const pool = new WorkerPool(2, url, { pipeline: 2 });
await new Promise((r) => setTimeout(r, 50));
const out = await Promise.all([0, 1, 2].map((i) => pool.run({ paths: ['package.json'], mode: 'verify', options: {}, render: 'jsonl' }).promise));
console.log(out.map((o) => o.length + ':' + o[0].verdict).join(' '));
`);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('1:fail 1:fail 1:fail\n');
    expect(r.code).toBe(0);
  });
});
