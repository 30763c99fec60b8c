#!/usr/bin/env node
// Writes the built-in examples to a fresh temporary directory, runs each one through the
// built CLI as the workbench would (verify, and replay where the example is made for
// replay, with the options the example names), and prints one line per run:
//   <path> <command> <exit> <sha256 of the JSON report without `run`>
// A refactor that must not change behaviour is checked by running this before and
// after and diffing the two outputs (`--out DIR` also keeps every report for a diff).
// Usage: node scripts/example-reports.mjs [--out DIR]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const BIN = join(ROOT, 'bin', 'reprise.js');
const FLAG = {
  trustStore: '--trust-store',
  providers: '--providers',
  policy: '--policy',
  profiles: '--profiles',
  journal: '--journal',
};
const outIdx = process.argv.indexOf('--out');
const keepDir = outIdx > 0 ? process.argv[outIdx + 1] : undefined;

const base = mkdtempSync(join(tmpdir(), 'reprise-example-reports-'));
try {
  const pristine = join(base, 'pristine');
  const made = spawnSync(process.execPath, [BIN, 'examples', pristine], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`reprise examples failed: ${made.stderr}`);
  const index = JSON.parse(readFileSync(join(pristine, 'examples.json'), 'utf8'));
  let n = 0;
  for (const f of index.files) {
    const commands = f.expect?.command === 'replay' ? ['verify', 'replay'] : ['verify'];
    for (const command of commands) {
      // Each run gets its own copy: a replay with a journal writes to it.
      const dir = join(base, `run-${n++}`);
      cpSync(pristine, dir, { recursive: true });
      const args = [BIN, command, f.path, '--json'];
      for (const [name, rel] of Object.entries(f.options ?? {})) args.push(FLAG[name], rel);
      const r = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 30 });
      let digest = 'no-json-report';
      try {
        const report = JSON.parse(r.stdout);
        delete report.run;
        const text = JSON.stringify(report, null, 2);
        digest = createHash('sha256').update(text).digest('hex');
        if (keepDir) {
          const p = join(keepDir, `${f.path}.${command}.json`);
          mkdirSync(dirname(p), { recursive: true });
          writeFileSync(p, text + '\n');
        }
      } catch {
        digest = 'stderr:' + createHash('sha256').update(r.stderr).digest('hex');
      }
      console.log(`${f.path} ${command} ${r.status} ${digest}`);
      rmSync(dir, { recursive: true, force: true });
    }
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
