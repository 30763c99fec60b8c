/**
 * The evidence a quarantine case was opened with (`body.details`: a drift rate, its deltas)
 * is what an officer decides on: `quarantine show` prints it as its entry signed it, every
 * number the one signed (0.30000000000000004 stays so; 1e21 is JSON's 1e+21), text and
 * `--json` alike. It was left out of both.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCase } from '../../app/journal/index.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { makeKeys, tmp } from './helpers.js';

const details = { rate: 0.30000000000000004, big: 1e21, tiny: 5e-324, threshold: 0.1, note: 'x\u202ey' };

describe.skipIf(!cliBuilt())('quarantine show', () => {
  it('prints the evidence the case was opened with, as signed, in text and --json; a case without any says nothing of it', async () => {
    const base = tmp('reprise-quarantine-evidence-');
    const keys = makeKeys(base);
    const dir = join(base, 'j');
    const open = { claimRef: 'drift-1', reason: 'drift rate above threshold', source: 'routing' as const, details };
    await openCase(dir, open, keys.officer, { trustStore: keys.trust });
    await openCase(dir, { claimRef: 'manual-1', reason: 'held by hand for a second look' }, keys.officer, {
      trustStore: keys.trust,
    });
    const trust = ['--trust-store', keys.trustPath];
    const text = await runCli(['quarantine', 'show', dir, 'case-0', ...trust]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(
      '  evidence {"big":1e+21,"note":"x\\u202ey","rate":0.30000000000000004,"threshold":0.1,"tiny":5e-324}\n',
    );
    const json = await runCli(['quarantine', 'show', dir, 'case-0', ...trust, '--json']);
    expect((JSON.parse(json.stdout) as { case: { evidence: unknown } }).case.evidence).toEqual(details);
    const none = await runCli(['quarantine', 'show', dir, 'case-1', ...trust]);
    expect(none.stdout).not.toContain('evidence');
    expect(
      (
        JSON.parse((await runCli(['quarantine', 'show', dir, 'case-1', ...trust, '--json'])).stdout) as {
          case: { evidence: unknown };
        }
      ).case.evidence,
    ).toBeNull();
  });
});
