/**
 * A bundle's attestation that does not verify keeps the bundle from passing, as `reprise
 * attest --verify FILE --manifest M` says of the same file: signed by a key the trust store
 * does not hold, UNAVAILABLE (exit 2); a signature that does not verify under the key it
 * names, a quarantine officer's key, or a statement about another artifact, FAIL (exit 1).
 * The origin is never "Trusted signer" over it. Each attestation is put into a genuine
 * bundle after the export (the manifest is unsigned and rewritten), so nothing but the
 * attestation's own check can catch it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { cliIn } from '../cli/in-process.js';
import {
  attest,
  attestedReplay,
  exported,
  resigned,
  withAttestation,
  type AttestedReplay,
} from './attestation-fixture.js';

let a: AttestedReplay;
let genuine = '';
let outsider = '';
let plain = '';

beforeAll(async () => {
  a = await attestedReplay('reprise-att-signer-');
  genuine = await attest(a, a.keys.reviewerPem, 'reviewer.dsse.json');
  outsider = await attest(a, a.keys.outsiderPem, 'outsider.dsse.json');
  const r = await exported(a, 'plain.zip', '--trust-store', a.keys.trustPath);
  expect(r.code, r.err).toBe(0);
  plain = r.out;
});

/** The bundle with `attestation` in it, verified; and `attest --verify` of that file against the judged manifest. */
async function both(attestation: string, trust = a.keys.trustPath) {
  const bundle = await withAttestation(plain, readFileSync(attestation), `${attestation}.zip`);
  const v = await cliIn(a.ex, 'verify', bundle, '--trust-store', trust, '--json');
  const att = await cliIn(a.ex, 'attest', '--verify', attestation, '--trust-store', trust, '--manifest', a.manifest);
  const report = JSON.parse(v.out) as Report;
  const attestationFindings = report.findings.filter((f) => f.rule === 'RPR-EVB-013');
  return { code: v.code, attestCode: att.code, report, attestationFindings };
}

describe("a bundle's attestation", () => {
  it("signed by the trust store's reviewer: the bundle passes, its origin the trusted checkpoint", async () => {
    const r = await both(genuine);
    expect([r.code, r.attestCode]).toEqual([0, 0]);
    expect(r.attestationFindings).toEqual([]);
    expect(r.report.authenticity?.status).toBe('trusted-signer');
  });

  it('signed by a key the trust store does not hold: UNAVAILABLE, as attest --verify says, never "Trusted signer"', async () => {
    const r = await both(outsider);
    expect([r.code, r.attestCode]).toEqual([2, 2]);
    expect(r.report.verdict).toBe('unavailable');
    expect(r.attestationFindings.map((f) => [f.severity, f.pointer])).toEqual([
      ['unavailable', 'entry:attestation.dsse.json'],
    ]);
    expect(r.attestationFindings[0]!.message).toMatch(/is not in the trust store \(RPR-ATTEST-004\)$/);
    expect(r.report.authenticity?.status).toBe('unknown-signer');
    expect(r.report.authenticity?.keyId).toBe(a.keys.outsider.keyId);
    expect(r.report.authenticity?.statement).toMatch(/^Unknown signer: the bundle's attestation is signed by /);
  });

  for (const [name, sig] of [
    ['empty', ''],
    ['junk', 'junk'],
    ['64 zero bytes', Buffer.alloc(64).toString('base64')],
  ] as const)
    it(`its signature ${name}: UNAVAILABLE under a key the store does not hold, FAIL under the reviewer's`, async () => {
      const unknown = await both(
        resigned(outsider, join(a.ex, `outsider-${name}.dsse.json`), (s) => void (s.sig = sig)),
      );
      expect([unknown.code, unknown.attestCode]).toEqual([2, 2]);
      expect(unknown.report.authenticity?.status).toBe('unknown-signer');
      const forged = await both(resigned(genuine, join(a.ex, `reviewer-${name}.dsse.json`), (s) => void (s.sig = sig)));
      expect([forged.code, forged.attestCode]).toEqual([1, 1]);
      expect(forged.attestationFindings.map((f) => f.message)).toContainEqual(expect.stringMatching(/RPR-ATTEST-003/));
      expect(forged.report.authenticity?.status).toBe('bad-signature');
      expect(forged.report.authenticity?.keyId).toBe(a.keys.reviewer.keyId);
    });

  it('signed by a quarantine officer: FAIL, and the origin names that key as untrusted', async () => {
    const r = await both(await attest(a, a.keys.officerPem, 'officer.dsse.json'));
    expect([r.code, r.attestCode]).toEqual([1, 1]);
    expect(r.report.authenticity?.status).toBe('untrusted-signer');
    expect(r.report.authenticity?.keyId).toBe(a.keys.officer.keyId);
    expect(r.report.authenticity?.statement).toContain('quarantine-officer');
  });

  it('about another artifact: FAIL, and the origin is consistency only', async () => {
    const r = await both(await attest(a, a.keys.reviewerPem, 'other.dsse.json', a.other));
    expect([r.code, r.attestCode]).toEqual([1, 1]);
    expect(r.attestationFindings.map((f) => f.message)).toEqual(['the attestation is not about this artifact']);
    expect(r.report.authenticity?.status).toBe('consistency-only');
    expect(r.report.authenticity?.statement).toContain('the attestation is not about this artifact');
  });

  it('signed by a reviewer key retired since: it stands (PASS, as attest --verify says), and the retirement is said', async () => {
    const doc = JSON.parse(readFileSync(a.keys.trustPath, 'utf8')) as { keys: { keyId: string; status: string }[] };
    for (const k of doc.keys) if (k.keyId === a.keys.reviewer.keyId) k.status = 'retired';
    const retired = join(a.ex, 'retired-store.json');
    writeFileSync(retired, JSON.stringify(doc));
    const r = await both(genuine, retired);
    expect([r.code, r.attestCode]).toEqual([0, 0]);
    expect(r.attestationFindings.map((f) => f.severity)).toEqual(['warning']);
    expect(r.attestationFindings[0]!.message).toMatch(/^the attestation is signed by a retired key/);
    expect(r.report.authenticity?.statement).toMatch(
      /^Trusted signer: .*\(retired, still trusted for what it signed\)/,
    );
  });
});
