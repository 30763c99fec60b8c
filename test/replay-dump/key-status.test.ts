/**
 * The signing key's status in the trust store (spec replay-dump.md step 7: active or retired
 * is trusted, revoked fails; RDS-007), in both encodings, for verify and for replay.
 * A revoked key's signature never authenticates a dump, even when the dump's own recorded
 * trustDecision agrees that the key is revoked. A retired key's dump stays trusted, and the
 * report says the key is retired with a warning (as the journal's RPR-JOURNAL-010 and the
 * evidence bundle do): neither the dump nor the trust store says when the key was retired.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { runBytes } from '../../app/engine/run.js';
import { trustStoreEntry, type KeyStatus } from '../../app/core/keys.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { encodeRom } from '../../app/kinds/replay-dump/rom-encoding.js';
import { sampleSpec } from '../../app/kinds/replay-dump/examples.js';
import type { DumpModel } from '../../app/kinds/replay-dump/model.js';

const signer = sampleSigner('active');
let dir: string;
const stores = new Map<KeyStatus, string>();
let recordedTrusted: DumpModel;
let recordedRevoked: DumpModel;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reprise-key-status-'));
  for (const status of ['active', 'retired', 'revoked'] as const) {
    const p = join(dir, `${status}.json`);
    await writeFile(
      p,
      JSON.stringify({ type: 'reprise.trust-store/v1', keys: [trustStoreEntry(signer, 'reviewer', 'k', status)] }),
    );
    stores.set(status, p);
  }
  recordedTrusted = await buildDump(sampleSpec(), signer);
  recordedRevoked = await buildDump(
    sampleSpec({ trust: { decision: 'revoked', evaluatedAtUtc: '2026-05-04T10:00:01Z' } }),
    signer,
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ENCODINGS = [
  ['dump.json', encodeJson],
  ['rom.md', encodeRom],
] as const;

async function run(
  m: DumpModel,
  ext: string,
  encode: (m: DumpModel) => string,
  mode: 'verify' | 'replay',
  status: KeyStatus,
): Promise<Report> {
  return runBytes(`k.${ext}`, Buffer.from(encode(m), 'utf8'), mode, { trustStore: stores.get(status)! });
}

const rds007 = (r: Report) => r.findings.filter((f) => f.rule === 'RDS-007');

describe('a retired signing key: trusted, and said with a warning (RDS-007)', () => {
  for (const [ext, encode] of ENCODINGS)
    for (const mode of ['verify', 'replay'] as const)
      it(`${ext}, ${mode}`, async () => {
        const r = await run(recordedTrusted, ext, encode, mode, 'retired');
        expect(r.verdict).toBe('pass');
        const f = rds007(r);
        expect(f).toHaveLength(1);
        expect(f[0]).toMatchObject({ severity: 'warning', pointer: '/keyId', expected: 'active', actual: 'retired' });
        expect(f[0]!.message).toBe(
          `the signing key ${signer.keyId} is retired in the trust store: a retired key vouches only for what it signed before it was retired, and neither the dump (its createdAtUtc is the signer's own word) nor the trust store says when that was`,
        );
        expect(r.authenticity?.status).toBe('trusted-signer');
        expect(r.authenticity?.statement).toMatch(/\(retired, still trusted for what it signed\)/);
      });
});

describe('a revoked signing key never authenticates a dump (RDS-007 fail)', () => {
  for (const [ext, encode] of ENCODINGS)
    for (const mode of ['verify', 'replay'] as const)
      it(`${ext}, ${mode}, whatever the dump records`, async () => {
        for (const m of [recordedTrusted, recordedRevoked]) {
          const r = await run(m, ext, encode, mode, 'revoked');
          expect(r.verdict).toBe('fail');
          expect(rds007(r).find((f) => f.pointer === '/keyId')).toMatchObject({
            severity: 'fail',
            expected: 'active or retired',
            actual: 'revoked',
          });
          expect(r.authenticity?.status).toBe('revoked-signer');
          // Replay runs nothing on a failed integrity check.
          if (mode === 'replay')
            expect(r.findings.some((f) => f.rule === 'RDS-F001' && f.severity === 'info')).toBe(true);
        }
        // The recorded decision agreeing is no disagreement, and still no pass.
        const agreed = await run(recordedRevoked, ext, encode, mode, 'revoked');
        expect(rds007(agreed).map((f) => f.pointer)).toEqual(['/keyId']);
      });
});

describe('an active signing key: no RDS-007 finding', () => {
  for (const [ext, encode] of ENCODINGS)
    it(ext, async () => {
      const r = await run(recordedTrusted, ext, encode, 'verify', 'active');
      expect(r.verdict).toBe('pass');
      expect(rds007(r)).toEqual([]);
      expect(r.authenticity?.statement).not.toMatch(/retired/);
    });
});
