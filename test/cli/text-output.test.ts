/**
 * The terminal rendering of every example, verified and replayed without any flag (no
 * trust store, no providers): findings with an expected value only, an actual value only,
 * or neither print without a crash, and reports state the artifact's origin.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatFinding } from '../../app/engine/report-text.js';
import { runCli } from '../helpers/cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reprise-text-'));
  const r = await runCli(['examples', dir]);
  expect(r.code).toBe(0);
}, 60_000);

describe('text output', () => {
  it('prints a finding with only one of expected and actual', () => {
    expect(formatFinding({ rule: 'X-1', severity: 'fail', message: 'm', actual: 'a' })).toBe(
      '  fail        X-1  m\n              actual   a',
    );
    expect(formatFinding({ rule: 'X-1', severity: 'fail', message: 'm', expected: { k: 1 } })).toBe(
      '  fail        X-1  m\n              expected {"k":1}',
    );
    expect(formatFinding({ rule: 'X-1', severity: 'info', message: 'm', pointer: '' })).toBe(
      '  info        X-1  m  [/]',
    );
  });

  for (const command of ['verify', 'replay']) {
    it(`${command} over every example without flags: no internal error, no exit 3`, async () => {
      const r = await runCli([command, dir], { timeoutMs: 120_000 });
      expect(r.stderr).not.toMatch(/internal error|at .*\.js:\d+/);
      expect(r.code === 1 || r.code === 2).toBe(true);
      expect(r.stdout).toMatch(/^PASS|^FAIL|^UNAVAILABLE/m);
      expect(r.stdout).toContain('origin: Unknown signer: the dump is signed by ed25519:');
    }, 180_000);
  }
});
