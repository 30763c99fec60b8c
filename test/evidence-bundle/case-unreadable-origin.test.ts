/**
 * A case bundle whose case.json cannot be read (not an object, or not a case report) binds
 * nothing: it fails (RPR-EVB-017), and its origin is "Consistency only", never "Trusted signer"
 * over "0 of 0 report(s)" (docs/evidence-bundle.md, "What binds a case's reports").
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashValue } from '../../app/core/hash.js';
import { verifyEvidence } from '../../app/kinds/evidence-bundle/index.js';
import { writeZip } from '../../app/zip/writer.js';
import { caseBundleOf, fixManifest, judged, put, unzip, type Judged } from './helpers.js';

let j: Judged;
let bytes: Buffer;

beforeAll(async () => {
  j = await judged();
  bytes = await caseBundleOf(j, join(j.dir, 'case'));
}, 60_000);

async function withCase(value: unknown): Promise<Buffer> {
  const f = await unzip(bytes);
  put(f, 'case.json', value);
  fixManifest(f, (m) => ((m['case'] as Record<string, unknown>)['digest'] = hashValue(value)));
  return writeZip(f);
}

describe('a case bundle whose case.json cannot be read', () => {
  it('the intact bundle binds its report: "Trusted signer"', async () => {
    const r = await verifyEvidence(bytes, j.keys.trust);
    expect(r.authenticity?.statement).toMatch(/^Trusted signer: .*which bind 1 of 1 report/);
  });

  for (const [what, value] of [
    ['an array', []],
    ['an object that is no case report', { schema: 'reprise.case/v1' }],
  ] as const)
    it(`case.json ${what}: FAIL, and the origin is not "Trusted signer"`, async () => {
      const r = await verifyEvidence(await withCase(value), j.keys.trust);
      expect(r.findings.filter((f) => f.severity === 'fail').map((f) => f.rule)).toContain('RPR-EVB-017');
      expect(r.authenticity?.status).toBe('consistency-only');
      expect(r.authenticity?.statement).not.toMatch(/Trusted signer|bind 0 of 0/);
      expect(r.authenticity?.statement).toMatch(/^Consistency only, origin not established/);
      expect(r.authenticity?.statement).toContain('case.json');
      const integrity = (r.details as { integrity: { verdict: string; statement: string } }).integrity;
      expect(integrity.verdict).toBe('fail');
      expect(integrity.statement).not.toMatch(/Trusted signer|bind 0 of 0/);
    });
});
