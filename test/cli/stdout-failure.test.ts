/**
 * What the CLI printed to a stdout that failed (a full disk: /dev/full) is lost, so the run
 * ends with exit 3 and says so on stderr, never 0 over an empty `reprise canonicalize f --hash
 * > h` (found by a red team). A reader that stops early (`| head`, EPIPE) is not a failure:
 * the run keeps its verdict's exit.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { examplesIn } from './in-process.js';

const BIN = join(__dirname, '..', '..', 'bin', 'reprise.js');
let ex = '';
beforeAll(async () => {
  ex = await examplesIn('reprise-stdout-full-');
}, 120_000);

/** Runs the built CLI with its stdout on `/dev/full`. */
function toFullDisk(...args: string[]): { status: number | null; stderr: string } {
  const full = openSync('/dev/full', 'w');
  try {
    const r = spawnSync(process.execPath, [BIN, ...args], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
    return { status: r.status, stderr: r.stderr };
  } finally {
    closeSync(full);
  }
}

describe('a stdout that cannot be written', () => {
  it('canonicalize --hash and a verify --json on a full disk: exit 3, said on stderr', () => {
    for (const args of [
      ['canonicalize', join(ex, 'tg', 'bundle.json'), '--hash'],
      ['verify', join(ex, 'tg', 'exact-intact', 'manifest.json'), '--policy', join(ex, 'tg', 'bundle.json'), '--json'],
    ]) {
      const r = toFullDisk(...args);
      expect(r.status, args.join(' ')).toBe(3);
      expect(r.stderr).toBe(
        'reprise: cannot write to standard output: no space left on the device (ENOSPC); what was printed is incomplete\n',
      );
    }
  });

  it('a reader that stops early is no failure: the verdict exit stays', () => {
    const r = spawnSync(
      'bash',
      [
        '-c',
        `"${process.execPath}" "${BIN}" verify "${join(ex, 'dumps', 'fail')}" | head -c1 >/dev/null; echo "\${PIPESTATUS[0]}"`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stdout.trim()).toBe('1');
    expect(r.stderr).toBe('');
  });
});
