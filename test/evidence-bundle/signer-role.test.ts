/**
 * A judgement whose signer is not a reviewer (RPR-EVB-008) binds nothing, and the origin is
 * never "Trusted signer" on its strength (docs/evidence-bundle.md, "What binds a case's
 * reports"). The bundles are written with the judgements signed by a reviewer's key, then
 * verified under a trust store that gives that key the role of a quarantine officer: the
 * signatures all verify, only the role fails.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseTrustStore, type TrustStore } from '../../app/core/keys.js';
import { verifyEvidence } from '../../app/kinds/evidence-bundle/index.js';
import { bundleOf, caseBundleOf, judged, type Judged } from './helpers.js';

let j: Judged;
let officerOnly: TrustStore;

beforeAll(async () => {
  j = await judged();
  const doc = JSON.parse(readFileSync(j.keys.trustPath, 'utf8')) as { keys: { keyId: string; role: string }[] };
  for (const k of doc.keys) if (k.keyId === j.keys.reviewer.keyId) k.role = 'quarantine-officer';
  officerOnly = parseTrustStore(Buffer.from(JSON.stringify(doc)), 'officer-only.json');
}, 60_000);

const rulesOf = (r: { findings: { rule: string; severity: string; pointer?: string }[] }, rule: string) =>
  r.findings.filter((f) => f.rule === rule).map((f) => [f.severity, f.pointer]);

describe("a judgement signed by a key that is not a reviewer's", () => {
  it('in a bundle of one artifact: binds nothing, and the origin is not "Trusted signer"', async () => {
    const r = await verifyEvidence(await bundleOf(j), officerOnly);
    expect(rulesOf(r, 'RPR-EVB-008')).toEqual([
      ['fail', 'entry:judgements/000000000000.json'],
      ['fail', 'entry:judgements/000000000002.json'],
    ]);
    // The accept names the report's digest, but its signer is no reviewer: nothing binds the report.
    expect(rulesOf(r, 'RPR-EVB-015')).toEqual([['warning', 'entry:report.json']]);
    expect(r.authenticity?.status).toBe('untrusted-signer');
    expect(r.authenticity?.statement).not.toMatch(/Trusted signer|every judgement/);
    expect(r.authenticity?.statement).toContain('judgements/000000000000.json');
    expect(r.authenticity?.statement).toContain('quarantine-officer');
    expect(r.authenticity?.keyId).toBe(j.keys.reviewer.keyId);
  });

  it('in a case bundle: binds none of its reports, and the origin is not "Trusted signer"', async () => {
    const r = await verifyEvidence(await caseBundleOf(j, join(j.dir, 'case')), officerOnly);
    expect(rulesOf(r, 'RPR-EVB-008').map(([s]) => s)).toEqual(['fail', 'fail']);
    expect(rulesOf(r, 'RPR-EVB-015')).toEqual([['warning', 'entry:reports/000000.json']]);
    expect(r.authenticity?.status).toBe('untrusted-signer');
    expect(r.authenticity?.statement).not.toMatch(/Trusted signer|which bind 1/);
    const reports = (r.details as { caseBundle: { reports: { bound: boolean }[] } }).caseBundle.reports;
    expect(reports.map((x) => x.bound)).toEqual([false]);
  });

  it('signed by a reviewer, the same bundles bind their report and their origin is the trusted checkpoint', async () => {
    const one = await verifyEvidence(await bundleOf(j), j.keys.trust);
    expect(one.authenticity?.status).toBe('trusted-signer');
    expect(rulesOf(one, 'RPR-EVB-015')).toEqual([]);
    const c = await verifyEvidence(await caseBundleOf(j, join(j.dir, 'case-2')), j.keys.trust);
    expect(c.authenticity?.statement).toMatch(/^Trusted signer: .*which bind 1 of 1 report/);
  });

  it("signed by a reviewer whose key was retired since: the judgement stands and binds (only a revoked key's falls)", async () => {
    const doc = JSON.parse(readFileSync(j.keys.trustPath, 'utf8')) as { keys: { keyId: string; status: string }[] };
    for (const k of doc.keys) if (k.keyId === j.keys.reviewer.keyId) k.status = 'retired';
    const retired = parseTrustStore(Buffer.from(JSON.stringify(doc)), 'retired.json');
    const one = await verifyEvidence(await bundleOf(j), retired);
    expect(one.findings.filter((f) => f.severity === 'fail' && f.rule !== 'RPR-EVB-016')).toEqual([]);
    // It stands and binds; that its key is retired is said (a warning each, retired-signer.test.ts), not a fail.
    expect(rulesOf(one, 'RPR-EVB-008').map(([severity]) => severity)).toEqual(['warning', 'warning']);
    expect(rulesOf(one, 'RPR-EVB-015')).toEqual([]);
    expect(one.authenticity?.status).toBe('trusted-signer');
  });
});
