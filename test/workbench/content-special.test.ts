/**
 * The editor's content of a file opened by path through the API: the path is the user's
 * (or a token holder's), so a FIFO (which blocks its reader for ever) or a link to
 * /dev/zero (which never ends) under a root must be refused at once with one clear line,
 * as the engine's own reads are, not hang the journal worker or fill its memory.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
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
  // A journal's two files (their content is not checked here: the editor shows what is there).
  await mkdir(join(root, 'journal'));
  await writeFile(join(root, 'journal', 'entries.jsonl'), '{"seq":0}\n{"seq":1}\n');
  await writeFile(join(root, 'journal', 'checkpoints.jsonl'), '{"treeSize":2}\n');
  // One whose checkpoints file is a link to a file elsewhere, which a journal reader never follows.
  await mkdir(join(root, 'linked'));
  await writeFile(join(root, 'linked', 'entries.jsonl'), '{"seq":0}\n');
  await symlink(join(root, 'a.json'), join(root, 'linked', 'checkpoints.jsonl'));
  await mkdir(join(root, 'plain'));
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
  it('a journal directory: its entries and checkpoints files as text; a link among them is not followed', async () => {
    expect(await within(join(root, 'journal'))).toMatchObject({
      raw: null,
      files: [
        { name: 'entries.jsonl', raw: '{"seq":0}\n{"seq":1}\n', note: null },
        { name: 'checkpoints.jsonl', raw: '{"treeSize":2}\n', note: null },
      ],
    });
    const linked = (await within(join(root, 'linked'))) as {
      files: { name: string; raw: string | null; note: string }[];
    };
    expect(linked.files[0]).toMatchObject({ name: 'entries.jsonl', raw: '{"seq":0}\n' });
    expect(linked.files[1]).toMatchObject({ name: 'checkpoints.jsonl', raw: null });
    expect(linked.files[1]!.note).toMatch(/symbolic link/);
    // A directory that is no journal has no files to show, and says so.
    const plain = (await within(join(root, 'plain'))) as { files?: unknown; note: string };
    expect(plain.files).toBeUndefined();
    expect(plain.note).toMatch(/directory/);
  });
  it('a FIFO (skipped where mkfifo is unavailable)', async (ctx) => {
    if (!fifo) return ctx.skip();
    await expect(within(fifo)).rejects.toMatchObject({
      usage: true,
      message: expect.stringMatching(/fifo\.json.*a FIFO \(named pipe\), not a regular file/),
    });
  });
});
