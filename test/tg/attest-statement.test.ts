/**
 * What `attest --verify` may call PASS (docs/rules/tg.md, RPR-ATTEST-*): an authentic
 * envelope, in the one base64 spelling its bytes have, over a statement exactly as Reprise
 * writes it (signed by the reviewer it names), about the manifest given, stating a replay
 * that passed. A trusted reviewer's signature over anything less is not a PASS.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { IN_TOTO_PAYLOAD_TYPE, signEnvelope } from '../../app/attest/dsse.js';
import { verifyAttestation } from '../../app/attest/verify.js';
import {
  generateSigner,
  loadSigner,
  loadTrustStore,
  signBytes,
  verifyBytes,
  type Signer,
} from '../../app/core/keys.js';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { tmp } from '../journal/helpers.js';
import { cliIn } from '../cli/in-process.js';
import { journalCopy, writeExamples } from './helpers.js';

/** The CLI in this process (the source, not a build). */
async function runCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const r = await cliIn(work, ...args);
  return { code: r.code, stdout: r.out, stderr: r.err };
}

/* eslint-disable @typescript-eslint/no-explicit-any -- the tests edit parsed statements freely */
let ex = '';
let j: { dir: string; trust: string; key: string };
let work = '';
let signer: Signer;
const manifestOf = (name: string) => join(ex, 'tg', name, 'manifest.json');

beforeAll(async () => {
  ex = await writeExamples();
  j = await journalCopy(ex);
  work = tmp('reprise-tg-att-st-');
  signer = await loadSigner(j.key);
});

async function attest(name: string): Promise<string> {
  const out = join(work, `${name}.att.json`);
  await runCli(['attest', manifestOf(name), '--key', j.key, '--out', out]);
  return out;
}

const statementOf = (file: string): any =>
  JSON.parse(Buffer.from(JSON.parse(readFileSync(file, 'utf8')).payload, 'base64').toString('utf8'));

/** The statement, edited, signed again by the trusted reviewer: authentic, but not what Reprise writes. */
function resigned(st: any, by: Signer = signer): Buffer {
  const env = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(canonicalizeValue(st), 'utf8'), by);
  return Buffer.from(canonicalizeValue(env as never) + '\n');
}

const verifyArgs = (file: string, name = 'exact-intact') => [
  'attest',
  '--verify',
  file,
  '--trust-store',
  j.trust,
  '--manifest',
  manifestOf(name),
];

describe('attest --verify: the attested replay and the manifest decide too', () => {
  it("an attestation of a replay that failed is never PASS: it fails with the replay's verdict (RPR-ATTEST-010)", async () => {
    const file = await attest('banded-drift-material');
    const v = await runCli([...verifyArgs(file, 'banded-drift-material'), '--json']);
    expect(v.code).toBe(1);
    const check = JSON.parse(v.stdout);
    expect(check.verdict).toBe('fail');
    expect(check.signatureVerified).toBe(true);
    expect(check.findings).toEqual([
      expect.objectContaining({ rule: 'RPR-ATTEST-010', severity: 'fail', pointer: '/predicate/verdict' }),
    ]);
  });

  it('without --manifest nothing ties the statement to bytes: UNAVAILABLE (RPR-ATTEST-009), never PASS', async () => {
    const file = await attest('exact-intact');
    const alone = await runCli(['attest', '--verify', file, '--trust-store', j.trust]);
    expect(alone.code).toBe(2);
    expect(alone.stdout).toContain('RPR-ATTEST-009');
    expect((await runCli(verifyArgs(file))).code).toBe(0);
  });

  it('"signed by" only when the signature verified; a relabelled key id is named as claimed', async () => {
    const file = await attest('exact-intact');
    const env = JSON.parse(readFileSync(file, 'utf8'));
    const forger = generateSigner();
    env.signatures[0].sig = signBytes(forger, Buffer.from('anything'));
    const forged = join(work, 'forged.att.json');
    writeFileSync(forged, canonicalizeValue(env) + '\n');
    const v = await runCli(verifyArgs(forged));
    expect(v.code).toBe(1);
    expect(v.stdout).toContain(`naming key ${signer.keyId}, signature not verified`);
    expect(v.stdout).not.toContain(`signed by ${signer.keyId}`);
    expect((await runCli(verifyArgs(file))).stdout).toContain(`signed by ${signer.keyId}`);
  });
});

describe('the statement, signed by the trusted reviewer, must be exactly what Reprise writes', () => {
  const edits: [string, (st: any) => void, string][] = [
    [
      'a reviewer other than the signer',
      (st) => (st.predicate.reviewer = `ed25519:${'1'.repeat(64)}`),
      'RPR-ATTEST-006',
    ],
    ['a verdict that is none', (st) => (st.predicate.verdict = 'totally-fine'), 'RPR-ATTEST-006'],
    ['a negative count', (st) => (st.predicate.modeComposition.EXACT = -5), 'RPR-ATTEST-007'],
    ['counts that are not the outputs', (st) => (st.predicate.modeComposition.EXACT = 9), 'RPR-ATTEST-007'],
    ['a second subject', (st) => st.subject.push({ name: 'x', digest: { sha256: '0'.repeat(64) } }), 'RPR-ATTEST-006'],
    ['a subject named for another claim', (st) => (st.subject[0].name = 'claim:other'), 'RPR-ATTEST-006'],
    [
      'a predicate without its claim, hashes and comparison',
      (st) => {
        for (const k of ['claimRef', 'manifestHash', 'verdict', 'comparison', 'tool']) delete st.predicate[k];
      },
      'RPR-ATTEST-006',
    ],
    ['a member Reprise never writes', (st) => (st.predicate.approvedBy = 'the board'), 'RPR-ATTEST-006'],
    [
      'a tolerance policy with no BANDED output',
      (st) => (st.predicate.tolerancePolicy = { bundleHash: 'x' }),
      'RPR-ATTEST-006',
    ],
    ['a RECORDED output left out', (st) => (st.predicate.modeComposition.RECORDED = 1), 'RPR-ATTEST-007'],
  ];
  it.each(edits)('%s: FAIL', async (_what, edit, rule) => {
    const st = statementOf(await attest('exact-intact'));
    edit(st);
    const file = join(work, `edited-${rule}-${Math.random().toString(36).slice(2)}.att.json`);
    writeFileSync(file, resigned(st));
    const v = await runCli([...verifyArgs(file), '--json']);
    expect(v.code, v.stdout).toBe(1);
    expect(JSON.parse(v.stdout).findings.map((f: { rule: string }) => f.rule)).toContain(rule);
  });

  it('the statement as written passes these checks (the edits above are what fails)', async () => {
    const file = join(work, 'resigned.att.json');
    writeFileSync(file, resigned(statementOf(await attest('exact-intact'))));
    expect((await runCli(verifyArgs(file))).code).toBe(0);
  });
});

describe('one base64 spelling for the bytes an envelope signs', () => {
  it('a payload whose unused low bits are set is refused, though it decodes to the signed bytes', async () => {
    const trust = await loadTrustStore(j.trust);
    const st = statementOf(await attest('exact-intact'));
    // A tool version of the length that leaves the base64 a padded last group, so it has unused bits.
    for (const pad of ['', 'x', 'xx']) {
      st.predicate.tool.version = `0.1.0${pad}`;
      if (Buffer.byteLength(canonicalizeValue(st)) % 3 !== 0) break;
    }
    const env = JSON.parse(resigned(st).toString('utf8'));
    expect(verifyAttestation(Buffer.from(canonicalizeValue(env) + '\n'), trust).findings).toEqual([]);
    const last = env.payload.replace(/=+$/, '').length - 1;
    env.payload =
      env.payload.slice(0, last) + String.fromCharCode(env.payload.charCodeAt(last) + 1) + env.payload.slice(last + 1);
    const rules = verifyAttestation(Buffer.from(canonicalizeValue(env) + '\n'), trust).findings.map((f) => f.rule);
    expect(rules).toEqual(['RPR-ATTEST-002']);
  });

  it('a signature whose unused low bits are set does not verify (the journal, attestations, records, checkpoints alike)', () => {
    const s = generateSigner();
    const data = Buffer.from('signed bytes');
    const sig = signBytes(s, data);
    expect(verifyBytes(s.publicKey, data, sig)).toBe(true);
    const base = 'AQgw'.indexOf(sig[85]!);
    const other = `${sig.slice(0, 85)}${String.fromCharCode(sig.charCodeAt(85) + 1)}==`;
    expect(base).toBeGreaterThanOrEqual(0);
    expect(Buffer.from(other, 'base64').equals(Buffer.from(sig, 'base64'))).toBe(true);
    expect(verifyBytes(s.publicKey, data, other)).toBe(false);
  });
});

describe('reprise attest refuses a key the trust store says cannot sign an attestation', () => {
  it('a trainer key and a revoked reviewer key: exit 3, nothing written', async () => {
    for (const [role, status] of [
      ['trainer', 'active'],
      ['reviewer', 'revoked'],
    ] as const) {
      const key = join(work, `${role}-${status}.pem`);
      expect((await runCli(['keys', 'generate', '--out', key, '--role', role, '--trust-store', j.trust])).code).toBe(0);
      const store = JSON.parse(readFileSync(j.trust, 'utf8'));
      const id = (await loadSigner(key)).keyId;
      for (const k of store.keys) if (k.keyId === id) k.status = status;
      writeFileSync(j.trust, JSON.stringify(store));
      const out = join(work, `${role}-${status}.att.json`);
      const a = await runCli([
        'attest',
        manifestOf('exact-intact'),
        '--key',
        key,
        '--trust-store',
        j.trust,
        '--out',
        out,
      ]);
      expect(a.code).toBe(3);
      expect(a.stderr).toMatch(
        status === 'revoked' ? /is revoked: nothing was signed/ : /is a trainer key: nothing was signed/,
      );
      expect(() => readFileSync(out)).toThrow();
    }
  });
});
