// Every temporary file of a test run lives in one folder of its own, removed when the run
// ends. Tests make their folders with `mkdtemp(os.tmpdir() …)` and many spawn the CLI,
// which makes its own; without this, each run left thousands of folders in the machine's
// /tmp. TMPDIR is what `os.tmpdir()` reads, and the test workers and every process they
// spawn inherit it from here, since a global setup runs before any of them starts.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const parent = tmpdir();
  const run = mkdtempSync(join(parent, 'reprise-test-run-'));
  // As /tmp is: a test that runs the CLI as another user (nobody) needs to reach and write it.
  chmodSync(run, 0o1777);
  const before = process.env['TMPDIR'];
  process.env['TMPDIR'] = run;
  return () => {
    if (before === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = before;
    try {
      rmSync(run, { recursive: true, force: true, maxRetries: 3 });
    } catch (e) {
      // A folder still mounted (a full-disk test that could not unmount) is left, and said.
      process.stderr.write(`test run: could not remove ${run}: ${(e as Error).message}\n`);
    }
  };
}
