/**
 * What a bundle's verification names when a judgement fails: the key whose signature failed
 * (not the checkpoint's signer, when that one verifies), expected/actual in the terms of the
 * message (a revoked key's status, not its role), and a bundled value as it is in the JSON.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateSigner, parseTrustStore, type Signer, type TrustStore } from '../../app/core/keys.js';
import { runBytes } from '../../app/engine/run.js';
import { recordJudgement } from '../../app/journal/index.js';
import { bundleFromJournal, verifyEvidence } from '../../app/kinds/evidence-bundle/index.js';
import { writeZip } from '../../app/zip/writer.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';
import { ARTIFACT, fixManifest, json, put, unzip } from './helpers.js';

const clock = () => Date.parse('2026-11-02T09:30:00Z');
let keys: Keys;
let second: Signer;
let bundle: Buffer;

/** The trust store of `keys` with `second`'s key given `status`. */
function storeWith(status: string): TrustStore {
  const doc = JSON.parse(readFileSync(keys.trustPath, 'utf8')) as { keys: { keyId: string; status: string }[] };
  for (const k of doc.keys) if (k.keyId === second.keyId) k.status = status;
  return parseTrustStore(Buffer.from(JSON.stringify(doc)), 'edited.json');
}

/** A judgement by a second reviewer, then one by the first: the newest checkpoint is the first reviewer's. */
beforeAll(async () => {
  const dir = tmp('reprise-evb-msg-');
  second = generateSigner();
  keys = makeKeys(dir, [{ signer: second, role: 'reviewer', status: 'active' }]);
  const artifactPath = join(dir, 'artifact.json');
  writeFileSync(artifactPath, ARTIFACT);
  const report = await runBytes(artifactPath, ARTIFACT, 'verify', {});
  const journal = join(dir, 'journal');
  const judge = (signer: Signer, rationale: string) =>
    recordJudgement(journal, { report, pointer: '', decision: 'accept', rationale }, signer, keys.trust, {
      clock,
      fsync: false,
    });
  await judge(second, 'The second reviewer read the report and accepts it.');
  await judge(keys.reviewer, 'The first reviewer read the report and accepts it.');
  bundle = (await bundleFromJournal(journal, report, keys.trust)).bytes;
}, 60_000);

describe('a judgement signed by a revoked key, under a checkpoint whose signer is valid', () => {
  it("names the judgement's author as the key whose signature is not accepted", async () => {
    const r = await verifyEvidence(bundle, storeWith('revoked'));
    expect(r.authenticity?.status).toBe('bad-signature');
    expect(r.authenticity?.keyId).toBe(second.keyId);
    expect(r.authenticity?.statement).toContain(second.keyId);
    expect(r.authenticity?.statement).toContain('judgements/000000000000.json');
    expect(r.authenticity?.statement).not.toContain(keys.reviewer.keyId);
  });

  it('RPR-EVB-008 says the status expected and found, as its message does', async () => {
    const r = await verifyEvidence(bundle, storeWith('revoked'));
    const role = r.findings.filter((f) => f.rule === 'RPR-EVB-008');
    expect(role).toHaveLength(1);
    expect(role[0]!.message).toContain('revoked');
    expect([role[0]!.expected, role[0]!.actual]).toEqual(['active', 'revoked']);
  });

  it('a key not in the store: that key is named, not the checkpoint signer', async () => {
    const doc = JSON.parse(readFileSync(keys.trustPath, 'utf8')) as { keys: { keyId: string }[] };
    doc.keys = doc.keys.filter((k) => k.keyId !== second.keyId);
    const r = await verifyEvidence(bundle, parseTrustStore(Buffer.from(JSON.stringify(doc)), 'without.json'));
    expect(r.authenticity?.status).toBe('bad-signature');
    expect(r.authenticity?.keyId).toBe(second.keyId);
  });

  it('a bad checkpoint signer is still the key named', async () => {
    const doc = JSON.parse(readFileSync(keys.trustPath, 'utf8')) as { keys: { keyId: string; status: string }[] };
    for (const k of doc.keys) if (k.keyId === keys.reviewer.keyId) k.status = 'revoked';
    const r = await verifyEvidence(bundle, parseTrustStore(Buffer.from(JSON.stringify(doc)), 'rev1.json'));
    expect(r.authenticity?.status).toBe('bad-signature');
    expect(r.authenticity?.keyId).toBe(keys.reviewer.keyId);
  });
});

describe("a proof's leafIndex that is not the number of its member", () => {
  it('shows the JSON value, so "6" (a string) is not said as 6', async () => {
    const files = await unzip(bundle);
    const name = 'judgements/000000000001.json';
    const proof = json(files, name);
    put(files, name, { ...proof, leafIndex: '1' });
    fixManifest(files);
    const r = await verifyEvidence(writeZip(files), keys.trust);
    const f = r.findings.find((x) => x.rule === 'RPR-EVB-006' && x.message.endsWith(', not 1'));
    expect(f?.message).toContain('"1" (a string)');
    expect(f?.message).not.toMatch(/entry 1, not 1/);
    expect([f?.expected, f?.actual]).toEqual([1, '1']);
  });
});
