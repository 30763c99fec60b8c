/**
 * `attest --verify --manifest M` derives from M all that the replay takes from it without
 * re-running it (docs/tg-replay.md): the rows (none dropped, none added, in order, each
 * execution's id, output, mode, original and ε), the mode composition counted from the
 * executions, the RECORDED outputs with their artifact hash and anchor (replayable only with
 * an anchor), and the tolerance policy whenever a BANDED output is present. Each forgery
 * below is signed again by a trusted reviewer with every internal relation kept (the
 * composition counts the rows, comparison.hash is H(comparison)), as a red team did: each
 * verified PASS while it contradicted the manifest.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { comparisonArtifact } from '../../app/attest/comparison.js';
import { IN_TOTO_PAYLOAD_TYPE, signEnvelope } from '../../app/attest/dsse.js';
import { ATTESTED_MANIFEST_TYPE } from '../../app/attest/statement.js';
import { hashValue } from '../../app/core/hash.js';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { loadSigner, type Signer } from '../../app/core/keys.js';
import { MANIFEST_TYPE } from '../../app/kinds/tg/constants.js';
import { tmp } from '../journal/helpers.js';
import { cliIn, examplesIn } from '../cli/in-process.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the tests edit parsed statements freely */
let ex = '';
let work = '';
let trust = '';
let key = '';
let signer: Signer;
const genuine = new Map<string, string>();
const manifestOf = (name: string) => join(ex, 'tg', name, 'manifest.json');
const ZERO = `sha256:${'0'.repeat(64)}`;
const UNANCHORED = 'recorded-unanchored';
const MATERIAL = 'banded-drift-material';
const BANDED = 'banded-within-epsilon';
const ANCHORED = 'recorded-anchored';

beforeAll(async () => {
  ex = await examplesIn('reprise-tg-att-ties-ex-');
  work = tmp('reprise-tg-att-ties-');
  trust = join(work, 'trust-store.json');
  copyFileSync(join(ex, 'tg', 'trust-store.json'), trust);
  key = join(work, 'reviewer.pem');
  const k = await cliIn(work, 'keys', 'generate', '--out', key, '--role', 'reviewer', '--trust-store', trust);
  if (k.code !== 0) throw new Error(k.err);
  signer = await loadSigner(key);
  for (const name of [UNANCHORED, MATERIAL, BANDED, ANCHORED]) {
    const out = join(work, `${name}.att.json`);
    const journal = name === ANCHORED ? ['--journal', join(ex, 'tg', 'journal'), '--trust-store', trust] : [];
    // A failed replay is attested all the same (its verdict says fail): the red team edited those.
    // The governed bundle (--policy): the embedded one's ε decides no BANDED pass (RPR-TG-043).
    const policy = ['--policy', join(ex, 'tg', 'bundle.json')];
    const a = await cliIn(work, 'attest', manifestOf(name), '--key', key, '--out', out, ...journal, ...policy);
    if (a.code === 3) throw new Error(`attest ${name}: ${a.err}`);
    genuine.set(name, out);
  }
});

const statementOf = (name: string): any =>
  JSON.parse(Buffer.from(JSON.parse(readFileSync(genuine.get(name)!, 'utf8')).payload, 'base64').toString('utf8'));

/** comparison.hash made H(comparison) again over the edited predicate, as a forger would. */
function rehash(p: any, name: string): void {
  const pc = JSON.parse(readFileSync(manifestOf(name), 'utf8')).policyContext;
  p.comparison.hash = hashValue(
    comparisonArtifact({
      claimRef: p.claimRef,
      manifestHash: p.manifestHash,
      policyContext: { bundleRef: pc.bundleRef, bundleHash: pc.bundleHash },
      modeComposition: p.modeComposition,
      outputs: p.comparison.outputs,
    }),
  );
}

/** The statement signed again by the trusted reviewer: canonical JSON, DSSE PAE, Ed25519, as Reprise signs. */
function resigned(st: any, file: string): string {
  const env = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(canonicalizeValue(st), 'utf8'), signer);
  const path = join(work, file);
  writeFileSync(path, canonicalizeValue(env as never) + '\n');
  return path;
}

async function verify(file: string, manifest: string): Promise<{ code: number; check: any }> {
  const v = await cliIn(work, 'attest', '--verify', file, '--trust-store', trust, '--manifest', manifest, '--json');
  return { code: v.code, check: JSON.parse(v.out) };
}

/** The statement of `name` edited by `edit`, every internal relation kept, signed again, verified against `name`. */
async function forged(name: string, edit: (p: any) => void, file: string): Promise<{ code: number; found: string[] }> {
  const st = statementOf(name);
  edit(st.predicate);
  st.predicate.verdict = 'pass';
  for (const r of st.predicate.comparison.outputs) r.status = 'pass';
  rehash(st.predicate, name);
  const { code, check } = await verify(resigned(st, file), manifestOf(name));
  expect(check.signatureVerified).toBe(true);
  return { code, found: check.findings.map((f: any) => `${f.rule} ${f.severity} ${f.pointer ?? ''}`) };
}

describe('attest --verify --manifest: a statement that contradicts the manifest is not PASS', () => {
  it('(a) an unanchored RECORDED output given an invented anchor, replayable, its row passed: FAIL', async () => {
    const { code, found } = await forged(
      UNANCHORED,
      (p) => {
        const row = p.comparison.outputs.find((r: any) => r.mode === 'RECORDED');
        row.replayed = row.original;
        p.recordedOutputs[0].anchor = { seq: 0, entryHash: ZERO };
        p.recordedOutputs[0].replayable = true;
      },
      'a.att.json',
    );
    expect(code).toBe(1);
    expect(found).toEqual(
      expect.arrayContaining([
        'RPR-ATTEST-009 fail /predicate/recordedOutputs/0/anchor',
        'RPR-ATTEST-008 fail /predicate/recordedOutputs/0/replayable',
        'RPR-ATTEST-008 fail /predicate/comparison/outputs/5',
      ]),
    );
    // The control: a RECORDED output whose anchor the manifest holds, attested as Reprise writes it.
    expect((await verify(genuine.get(ANCHORED)!, manifestOf(ANCHORED))).code).toBe(0);
  });

  it('(b) the BANDED rows dropped, a composition without them, no tolerance policy: FAIL', async () => {
    const { code, found } = await forged(
      MATERIAL,
      (p) => {
        p.comparison.outputs = p.comparison.outputs.filter((r: any) => r.mode !== 'BANDED');
        p.modeComposition = { EXACT: 4, BANDED: 0, RECORDED: 0 };
        p.tolerancePolicy = null;
      },
      'b.att.json',
    );
    expect(code).toBe(1);
    expect(found).toEqual(
      expect.arrayContaining([
        'RPR-ATTEST-009 fail /predicate/modeComposition/BANDED',
        'RPR-ATTEST-009 fail /predicate/comparison/outputs',
        'RPR-ATTEST-007 fail /predicate/tolerancePolicy',
      ]),
    );
    expect(found.filter((f) => f === 'RPR-ATTEST-009 fail /predicate/comparison/outputs')).toHaveLength(2);
  });

  it("(c) every row's original replaced: FAIL at each row", async () => {
    const { code, found } = await forged(
      BANDED,
      (p) => p.comparison.outputs.forEach((r: any) => (r.original = r.replayed === null ? 'x' : r.replayed)),
      'c.att.json',
    );
    expect(code).toBe(1);
    // The rows whose replayed value differs from the original (the BANDED ones, within ε).
    const changed = statementOf(BANDED)
      .predicate.comparison.outputs.map((r: any, i: number) => [r, i])
      .filter(([r]: any) => canonicalizeValue(r.original) !== canonicalizeValue(r.replayed ?? 'x'))
      .map(([, i]: any) => `RPR-ATTEST-009 fail /predicate/comparison/outputs/${i}/original`);
    expect(changed.length).toBeGreaterThan(0);
    expect(found).toEqual(expect.arrayContaining(changed));
  });

  type Forgery = [what: string, name: string, edit: (p: any) => void, finding: string];
  const more: Forgery[] = [
    [
      'a row added',
      BANDED,
      (p) => {
        p.comparison.outputs.push({ ...p.comparison.outputs[0], executionId: 'x9' });
        p.modeComposition.EXACT++;
      },
      'RPR-ATTEST-009 fail /predicate/comparison/outputs/6',
    ],
    [
      'two rows swapped',
      BANDED,
      (p) => p.comparison.outputs.splice(0, 2, p.comparison.outputs[1], p.comparison.outputs[0]),
      'RPR-ATTEST-009 fail /predicate/comparison/outputs',
    ],
    [
      "a row's mode and the composition with it",
      BANDED,
      (p) => {
        p.comparison.outputs[0].mode = 'RECORDED';
        p.modeComposition = { EXACT: 3, BANDED: 2, RECORDED: 1 };
        p.recordedOutputs = [{ executionId: 'x1', output: 'o', artifactHash: ZERO, anchor: null, replayable: false }];
      },
      'RPR-ATTEST-009 fail /predicate/comparison/outputs/0/mode',
    ],
    [
      "a BANDED row's ε widened",
      BANDED,
      (p) => (p.comparison.outputs.find((r: any) => r.mode === 'BANDED').epsilon = 0.5),
      'RPR-ATTEST-009 fail /predicate/comparison/outputs/2/epsilon',
    ],
    [
      "the tolerance policy's ε widened, and the rows' with it",
      BANDED,
      (p) => {
        for (const k of Object.keys(p.tolerancePolicy.epsilon)) p.tolerancePolicy.epsilon[k] = 0.5;
        for (const r of p.comparison.outputs) if (r.mode === 'BANDED') r.epsilon = 0.5;
      },
      'RPR-ATTEST-009 fail /predicate/tolerancePolicy/epsilon',
    ],
    [
      "a RECORDED output's artifact hash",
      UNANCHORED,
      (p) => (p.recordedOutputs[0].artifactHash = ZERO),
      'RPR-ATTEST-009 fail /predicate/recordedOutputs/0/artifactHash',
    ],
  ];
  it.each(more)('%s: FAIL', async (what, name, edit, finding) => {
    const { code, found } = await forged(name, edit, `${what.replace(/\W+/g, '-')}.att.json`);
    expect(code, found.join('\n')).toBe(1);
    expect(found).toContain(finding);
  });
});

describe('attest --verify --manifest with a file that is not a manifest', () => {
  it('says what it found, never "undefined"', async () => {
    expect(ATTESTED_MANIFEST_TYPE).toBe(MANIFEST_TYPE);
    const { code, check } = await verify(genuine.get(BANDED)!, join(ex, 'tg', 'bundle.json'));
    expect(code).toBe(1);
    const said = check.findings.map((f: any) => `${f.message} ${f.expected} ${f.actual}`).join('\n');
    expect(said).not.toContain('undefined');
    expect(check.findings).toContainEqual(
      expect.objectContaining({
        rule: 'RPR-ATTEST-009',
        message: expect.stringContaining('is not a TG replay manifest (of type "comp.FAGF.OUTPUT.WEIGHT-BUNDLE.v1_0")'),
      }),
    );
  });
});

describe('a retired reviewer key', () => {
  it('signs no new attestation (exit 3, nothing written); what it signed while active still verifies', async () => {
    const store = JSON.parse(readFileSync(trust, 'utf8'));
    for (const k of store.keys) if (k.keyId === signer.keyId) k.status = 'retired';
    const retiredStore = join(work, 'retired-store.json');
    writeFileSync(retiredStore, JSON.stringify(store));
    const out = join(work, 'by-retired.att.json');
    const a = await cliIn(
      work,
      'attest',
      manifestOf(BANDED),
      '--key',
      key,
      '--out',
      out,
      '--trust-store',
      retiredStore,
    );
    expect(a.code).toBe(3);
    expect(a.err).toContain(`the signing key ${signer.keyId} is retired`);
    expect(() => readFileSync(out)).toThrow();
    const v = await cliIn(
      work,
      'attest',
      '--verify',
      genuine.get(BANDED)!,
      '--trust-store',
      retiredStore,
      '--manifest',
      manifestOf(BANDED),
    );
    expect(v.code, v.out).toBe(0);
  });
});
