/**
 * A command run by runCommand ends as it would have ended spawned plainly, whether or not it
 * is started through setpriv (Linux, parent-death.ts): its exit code, `code: null` when a
 * signal ended it, and, for a file exec cannot start, Node's own spawn error rather than the
 * 126 or 127 setpriv would exit with. Its end when the engine's process is SIGKILLed is
 * test/jobs/adapter-process-group.test.ts's (a process of its own, on the built engine).
 */
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCommand, type Command } from '../../app/threads/owned-commands.js';

let dir: string;
const run = (file: string, args: string[] = [], input = '') =>
  runCommand({ file, args, input, timeoutMs: 60_000, maxOutput: 1024 } satisfies Command);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reprise-owned-commands-'));
  const script = (name: string, text: string, mode = 0o755) => {
    writeFileSync(join(dir, name), text);
    chmodSync(join(dir, name), mode);
  };
  script('exits-3', '#!/bin/sh\ncat\nexit 3\n');
  script('killed', '#!/bin/sh\nkill -TERM $$\n');
  script('no-interpreter', '#!/nonexistent/interpreter\n');
  script('not-executable', '#!/bin/sh\nexit 0\n', 0o644);
  mkdirSync(join(dir, 'a-folder'));
});

describe.skipIf(process.platform === 'win32')('a command runCommand runs', () => {
  it('ends with its own exit code and output', async () => {
    const end = await run(join(dir, 'exits-3'), [], 'its input');
    expect(end).toEqual({ ok: true, code: 3, output: Buffer.from('its input') });
  });

  it('ends with code null when a signal ended it', async () => {
    expect(await run(join(dir, 'killed'))).toEqual({ ok: true, code: null, output: Buffer.alloc(0) });
  });

  it('found on PATH by a bare name, ends with its exit code', async () => {
    expect(await run('sh', ['-c', 'exit 4'])).toEqual({ ok: true, code: 4, output: Buffer.alloc(0) });
  });

  for (const [name, error] of [
    ['missing', 'ENOENT'],
    ['no-interpreter', 'ENOENT'],
    ['not-executable', 'EACCES'],
    ['a-folder', 'EACCES'],
  ] as const)
    it(`that exec cannot start (${name}) could not be run, in Node's words`, async () => {
      const file = join(dir, name);
      expect(await run(file)).toEqual({ ok: false, why: `could not be run: spawn ${file} ${error}` });
    });
});
