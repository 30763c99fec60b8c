/**
 * `reprise export … --attestation FILE` checks the attestation with the verifier's own check
 * before it writes, and refuses (exit 3, one line naming why, nothing written) one the
 * bundle's verifier would not pass: not JSON, about another artifact, or (with the trust
 * store `verify` will use) signed by a key that store does not hold or with a signature that
 * does not verify. It wrote each (exit 0) into a bundle its own verifier then failed.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliIn } from '../cli/in-process.js';
import { attest, attestedReplay, exported, resigned, type AttestedReplay } from './attestation-fixture.js';

let a: AttestedReplay;
let genuine = '';
let outsider = '';

beforeAll(async () => {
  a = await attestedReplay('reprise-att-export-');
  genuine = await attest(a, a.keys.reviewerPem, 'reviewer.dsse.json');
  outsider = await attest(a, a.keys.outsiderPem, 'outsider.dsse.json');
});

/** The export with `--attestation file` refused: exit 3, one line naming `why`, no bundle. */
async function refused(name: string, file: string, why: RegExp, ...args: string[]): Promise<void> {
  const r = await exported(a, `${name}.zip`, '--attestation', file, ...args);
  expect(r.code, r.out).toBe(3);
  expect(r.err).toMatch(/^reprise: the attestation does not verify \(RPR-EVB-013: /);
  expect(r.err).toMatch(why);
  expect(r.err).toMatch(/a bundle carrying it would fail its own verification, so none was written\n$/);
  expect(r.err.trim().split('\n')).toHaveLength(1);
  expect(existsSync(r.out)).toBe(false);
}

describe('export --attestation', () => {
  it('refuses a file that is not JSON', async () => {
    const garbage = join(a.ex, 'garbage.json');
    writeFileSync(garbage, 'hello, not an envelope\n');
    await refused('garbage', garbage, /is not strict JSON.*\(RPR-ATTEST-001\)/);
  });

  it('refuses an attestation of another artifact, with or without a trust store', async () => {
    const other = await attest(a, a.keys.reviewerPem, 'other.dsse.json', a.other);
    await refused('other', other, /the attestation is not about this artifact/);
    await refused('other-ts', other, /the attestation is not about this artifact/, '--trust-store', a.keys.trustPath);
  });

  it('with the trust store, refuses a signer it does not hold and a signature that does not verify', async () => {
    await refused(
      'outsider',
      outsider,
      /is not in the trust store \(RPR-ATTEST-004\)/,
      '--trust-store',
      a.keys.trustPath,
    );
    const forged = resigned(genuine, join(a.ex, 'forged.dsse.json'), (s) => void (s.sig = ''));
    await refused('forged', forged, /\(RPR-ATTEST-003\)/, '--trust-store', a.keys.trustPath);
  });

  it("writes the reviewer's attestation, and its bundle verifies PASS", async () => {
    const r = await exported(a, 'genuine.zip', '--attestation', genuine, '--trust-store', a.keys.trustPath);
    expect(r.code, r.err).toBe(0);
    expect((await cliIn(a.ex, 'verify', r.out, '--trust-store', a.keys.trustPath)).code).toBe(0);
  });

  it("without a trust store, leaves the signer to the verifier, as it does a judgement's role", async () => {
    const r = await exported(a, 'unchecked.zip', '--attestation', outsider);
    expect(r.code, r.err).toBe(0);
    expect((await cliIn(a.ex, 'verify', r.out, '--trust-store', a.keys.trustPath)).code).toBe(2);
  });
});
