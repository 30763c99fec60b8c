/**
 * A journal directory whose files are not files: a FIFO blocks whoever opens it (for reading
 * until a writer comes, for writing until a reader does), /dev/zero never ends. The writer's
 * reads, its open for appending and its lock must each refuse such a thing at
 * entries.jsonl, checkpoints.jsonl or journal.lock with one clear line and a non-zero exit,
 * at once and in bounded memory, never a hang or a write into a device.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileReadError, openRegularForAppend } from '../../app/core/files.js';
import { cliBuilt } from '../helpers/cli.js';
import { runMeasured } from '../helpers/measured-cli.js';
import { makeKeys, writeJson } from './helpers.js';

const mkfifo = (p: string): boolean => spawnSync('mkfifo', [p]).status === 0;
/** Whether this machine can make a FIFO (mkfifo present and allowed here): else these tests skip. */
function canMakeFifo(): boolean {
  if (process.platform === 'win32') return false;
  const d = mkdtempSync(join(tmpdir(), 'reprise-fifo-probe-'));
  try {
    return mkfifo(join(d, 'f'));
  } finally {
    rmSync(d, { recursive: true, force: true });
  }
}
const HAVE_FIFO = canMakeFifo();
const HAVE_ZERO = existsSync('/dev/zero');
/** Stops a run that hangs; far above what a refusal takes on a loaded machine (its CPU time is bounded). */
const KILL_AFTER_MS = 45_000;

describe.skipIf(!HAVE_FIFO)('opening a journal file for appending (mkfifo is available)', () => {
  it('refuses a FIFO without a reader, a device and a link to one; opens a regular file, creating it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reprise-append-'));
    const fifo = join(dir, 'fifo');
    expect(mkfifo(fifo)).toBe(true);
    await expect(openRegularForAppend(fifo)).rejects.toThrow(FileReadError);
    await expect(openRegularForAppend(fifo)).rejects.toThrow(/a FIFO \(named pipe\), not a regular file/);
    if (HAVE_ZERO) {
      symlinkSync('/dev/zero', join(dir, 'zero-link'));
      await expect(openRegularForAppend(join(dir, 'zero-link'))).rejects.toThrow(
        /a character device, not a regular file/,
      );
    }
    const fh = await openRegularForAppend(join(dir, 'new.jsonl'));
    await fh.write('x\n');
    await fh.close();
    const again = await openRegularForAppend(join(dir, 'new.jsonl'));
    await again.write('y\n');
    await again.close();
    const back = await open(join(dir, 'new.jsonl'));
    expect(await back.readFile('utf8')).toBe('x\ny\n');
    await back.close();
  });
});

describe.skipIf(!HAVE_FIFO || !cliBuilt())('journal record over a journal whose files are not files', () => {
  const specials: [string, (p: string) => void][] = [
    ['a FIFO', (p) => expect(mkfifo(p)).toBe(true)],
    ...(HAVE_ZERO
      ? ([['a link to /dev/zero', (p: string) => symlinkSync('/dev/zero', p)]] as [string, (p: string) => void][])
      : []),
  ];
  for (const name of ['entries.jsonl', 'checkpoints.jsonl', 'journal.lock'])
    for (const [what, make] of specials)
      it(`${what} at ${name}: one line naming it, a non-zero exit, at once`, async () => {
        const base = mkdtempSync(join(tmpdir(), 'reprise-jspecial-'));
        try {
          const k = makeKeys(base);
          const body = writeJson(join(base, 'body.json'), {
            rationale: 'the replay matched within its band',
            decision: 'accept',
          });
          const dir = join(base, 'j');
          const record = [
            'journal',
            'record',
            dir,
            '--kind',
            'review-rationale',
            '--claim',
            'claim:1',
            '--body-file',
            body,
            '--key',
            k.reviewerPem,
          ];
          expect((await runMeasured(base, record)).code).toBe(0);
          rmSync(join(dir, name), { force: true });
          make(join(dir, name));
          const r = await runMeasured(base, record, KILL_AFTER_MS);
          expect(r.killed, `no answer within ${KILL_AFTER_MS} ms: the writer hung`).toBe(false);
          expect(r.code, r.stderr).not.toBe(0);
          expect(r.code).not.toBeNull();
          expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
          expect(r.stderr).toContain(name);
          // A link is refused as a link (a journal file is never opened through one), anything else as not a regular file.
          expect(r.stderr).toMatch(
            what.startsWith('a link') && name !== 'journal.lock' ? /a symbolic link/ : /not a regular file/,
          );
          expect(r.cpuMs).toBeLessThan(10_000);
          expect(r.rssMiB).toBeLessThan(512);
        } finally {
          rmSync(base, { recursive: true, force: true });
        }
      }, 120_000);
});
