/**
 * The editor's content of a file opened by path through the API: the path is the user's
 * (or a token holder's), so a FIFO (which blocks its reader for ever) or a link to
 * /dev/zero (which never ends) under a root must be refused at once with one clear line,
 * as the engine's own reads are, not hang the journal worker or fill its memory.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRemoteEngine, type RemoteEngine } from '../../main/host/engine-remote.js';
import { forkEngine } from '../../main/webhost/node-engine.js';
import { cliBuilt } from '../helpers/cli.js';

const childEntry = new URL('../../dist/main/webhost/engine-child.js', import.meta.url);
const UNIX = process.platform !== 'win32' && existsSync('/dev/zero');

let root = '';
let fifo: string | null = null;
let engine: RemoteEngine | undefined;

beforeAll(async () => {
  if (!UNIX || !cliBuilt()) return;
  root = await mkdtemp(join(tmpdir(), 'reprise-content-'));
  await writeFile(join(root, 'a.json'), '{"a":1}');
  const f = join(root, 'fifo.json');
  if (spawnSync('mkfifo', [f]).status === 0) fifo = f;
  engine = createRemoteEngine({
    start: () => forkEngine(childEntry),
    grant: { roots: [root, '/dev'] },
    pickPath: async () => null,
  });
});
afterAll(() => engine?.close());

/** The content call, or its refusal, within `ms` (a hang is a failure, not a timeout of the suite). */
async function within(path: string, ms = 10_000): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: the read hung`)), ms)),
  );
  try {
    return await Promise.race([engine!.artifactContent({ source: { type: 'path', path } }), late]);
  } finally {
    clearTimeout(timer);
  }
}

describe.skipIf(!UNIX || !cliBuilt())('artifact content by path refuses what is not a regular file', () => {
  it('a regular file is read', async () => {
    expect(await within(join(root, 'a.json'))).toMatchObject({ raw: '{"a":1}' });
  });
  it('/dev/zero (its folder granted): one line naming it and what it is', async () => {
    await expect(within('/dev/zero')).rejects.toMatchObject({
      usage: true,
      message: expect.stringMatching(/\/dev\/zero.*a character device, not a regular file/),
    });
  });
  it('a FIFO (skipped where mkfifo is unavailable)', async (ctx) => {
    if (!fifo) return ctx.skip();
    await expect(within(fifo)).rejects.toMatchObject({
      usage: true,
      message: expect.stringMatching(/fifo\.json.*a FIFO \(named pipe\), not a regular file/),
    });
  });
});
