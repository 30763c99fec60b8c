/**
 * A bundle signed by a key the trust store lists as retired says so (found by a red team: a
 * judgement and a checkpoint signed by a retired key, written without the trust store, gave a
 * bare "Trusted signer" PASS with no finding, where `journal verify` warns RPR-JOURNAL-010).
 * A retired key still vouches for what it signed before, but a bundle cannot date a signature.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseTrustStore, type TrustStore } from '../../app/core/keys.js';
import { verifyEvidence } from '../../app/kinds/evidence-bundle/index.js';
import { bundleOf, caseBundleOf, judged, type Judged } from './helpers.js';

let j: Judged;
let retired: TrustStore;
let revoked: TrustStore;

/** The judged bundle's trust store with the reviewer's key (its judgements' and checkpoint's signer) given `status`. */
function withReviewer(status: string): TrustStore {
  const doc = JSON.parse(readFileSync(j.keys.trustPath, 'utf8')) as { keys: { keyId: string; status?: string }[] };
  for (const k of doc.keys) if (k.keyId === j.keys.reviewer.keyId) k.status = status;
  return parseTrustStore(Buffer.from(JSON.stringify(doc)), `${status}.json`);
}

beforeAll(async () => {
  j = await judged();
  retired = withReviewer('retired');
  revoked = withReviewer('revoked');
}, 60_000);

const said = (r: { findings: { rule: string; severity: string; pointer?: string; message: string }[] }) =>
  r.findings.filter((f) => f.message.includes('signed by a retired key')).map((f) => [f.rule, f.severity, f.pointer]);

describe('a bundle signed by a retired key', () => {
  it('warns on the checkpoint and each judgement, and the origin says the key is retired', async () => {
    const r = await verifyEvidence(await bundleOf(j), retired);
    expect(said(r)).toEqual([
      ['RPR-EVB-005', 'warning', 'entry:checkpoint.json'],
      ['RPR-EVB-008', 'warning', 'entry:judgements/000000000000.json'],
      ['RPR-EVB-008', 'warning', 'entry:judgements/000000000002.json'],
    ]);
    // The one fail is the bundled report's own FAIL (RPR-EVB-016: the artifact is of no kind).
    expect(r.findings.filter((f) => f.severity === 'fail').map((f) => f.rule)).toEqual(['RPR-EVB-016']);
    expect(r.authenticity?.statement).toMatch(/^Trusted signer: .*\(retired, still trusted for what it signed\)\.$/);
    expect(r.chain.find((n) => n.id === 'checkpoint')?.status).toBe('match');
  });

  it('in a case bundle alike', async () => {
    const r = await verifyEvidence(await caseBundleOf(j, join(j.dir, 'case')), retired);
    expect(said(r).map(([rule, severity]) => [rule, severity])).toEqual([
      ['RPR-EVB-005', 'warning'],
      ['RPR-EVB-008', 'warning'],
      ['RPR-EVB-008', 'warning'],
    ]);
    expect(r.authenticity?.statement).toContain('(retired, still trusted for what it signed)');
  });

  it('an active key: nothing is said', async () => {
    const r = await verifyEvidence(await bundleOf(j), j.keys.trust);
    expect(said(r)).toEqual([]);
    expect(r.authenticity?.statement).not.toContain('retired');
  });

  it("a revoked signer's note is said to be revoked, not signed by a key not known here", async () => {
    const r = await verifyEvidence(await bundleOf(j), revoked);
    const notes = r.findings.filter((f) => f.rule === 'RPR-EVB-006').map((f) => f.message);
    expect(notes.length).toBeGreaterThan(0);
    for (const m of notes) {
      expect(m).toContain(
        `signed by a key the trust store has revoked (${j.keys.reviewer.keyId}), and by no key it trusts`,
      );
      expect(m).not.toContain('not known here');
    }
  });
});
