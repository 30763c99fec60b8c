// Every test's temporary files go to the run's own folder (test/setup/tmpdir.ts), which the
// run removes when it ends: a test run leaves nothing behind in the machine's /tmp.
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('a test run keeps its temporary files in a folder of its own', () => {
  it('os.tmpdir() in a test worker is the run folder', () => {
    expect(basename(tmpdir())).toMatch(/^reprise-test-run-/);
  });

  it('a process a test spawns inherits it', () => {
    const child = spawnSync(process.execPath, ['-p', 'require("node:os").tmpdir()'], { encoding: 'utf8' });
    expect(child.stdout.trim()).toBe(tmpdir());
  });
});
