/**
 * `attest --verify` holds the statement to the relations Reprise writes it with
 * (app/kinds/tg/attest.ts): the mode composition counts the rows, a BANDED row brings the
 * tolerance policy, comparison.hash is H(comparison) of the rows, the verdict is never
 * milder than a row, and with `--manifest` manifestHash and claimRef are that manifest's.
 * Each forgery below is signed by the trusted reviewer, exactly as Reprise would sign it,
 * and contradicts one of them: a red team's envelope of failed rows and zero hashes, under
 * a verdict of pass, verified PASS before these checks.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { IN_TOTO_PAYLOAD_TYPE, signEnvelope } from '../../app/attest/dsse.js';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { loadSigner, type Signer } from '../../app/core/keys.js';
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

beforeAll(async () => {
  ex = await examplesIn('reprise-tg-att-cons-ex-');
  work = tmp('reprise-tg-att-cons-');
  trust = join(work, 'trust-store.json');
  copyFileSync(join(ex, 'tg', 'trust-store.json'), trust);
  key = join(work, 'reviewer.pem');
  const k = await cliIn(work, 'keys', 'generate', '--out', key, '--role', 'reviewer', '--trust-store', trust);
  if (k.code !== 0) throw new Error(k.err);
  signer = await loadSigner(key);
  for (const name of ['banded-within-epsilon', 'exact-intact']) {
    const out = join(work, `${name}.att.json`);
    // The governed bundle (--policy): the embedded one's ε decides no BANDED pass (RPR-TG-043).
    const policy = ['--policy', join(ex, 'tg', 'bundle.json')];
    const a = await cliIn(work, 'attest', manifestOf(name), '--key', key, '--out', out, ...policy);
    if (a.code !== 0) throw new Error(`attest ${name}: exit ${a.code} ${a.err}`);
    genuine.set(name, out);
  }
});

const statementOf = (name: string): any =>
  JSON.parse(Buffer.from(JSON.parse(readFileSync(genuine.get(name)!, 'utf8')).payload, 'base64').toString('utf8'));

/** The statement signed again by the trusted reviewer: canonical JSON, DSSE PAE, Ed25519, as Reprise signs. */
function resigned(st: any, file: string): string {
  const env = signEnvelope(IN_TOTO_PAYLOAD_TYPE, Buffer.from(canonicalizeValue(st), 'utf8'), signer);
  const path = join(work, file);
  writeFileSync(path, canonicalizeValue(env as never) + '\n');
  return path;
}

async function verify(file: string, name: string): Promise<{ code: number; check: any }> {
  const v = await cliIn(
    work,
    'attest',
    '--verify',
    file,
    '--trust-store',
    trust,
    '--manifest',
    manifestOf(name),
    '--json',
  );
  return { code: v.code, check: JSON.parse(v.out) };
}

type Forgery = [what: string, manifest: string, edit: (p: any) => void, rule: string, pointer: string];

const BANDED = 'banded-within-epsilon';
const forgeries: Forgery[] = [
  [
    'every row failed, the verdict says pass',
    BANDED,
    (p) => p.comparison.outputs.forEach((r: any) => (r.status = 'fail')),
    'RPR-ATTEST-011',
    '/predicate/verdict',
  ],
  [
    'a row not decided, the verdict says pass',
    BANDED,
    (p) => (p.comparison.outputs[2].status = 'unavailable'),
    'RPR-ATTEST-011',
    '/predicate/verdict',
  ],
  [
    'a row failed, the verdict says unavailable (not fail)',
    BANDED,
    (p) => ((p.comparison.outputs[0].status = 'fail'), (p.verdict = 'unavailable')),
    'RPR-ATTEST-011',
    '/predicate/verdict',
  ],
  [
    'no row at all, the verdict says pass',
    BANDED,
    (p) => {
      p.comparison.outputs = [];
      p.modeComposition = { BANDED: 0, EXACT: 0, RECORDED: 0 };
      p.tolerancePolicy = null;
    },
    'RPR-ATTEST-011',
    '/predicate/verdict',
  ],
  [
    'comparison.hash all zeros (BANDED)',
    BANDED,
    (p) => (p.comparison.hash = ZERO),
    'RPR-ATTEST-011',
    '/predicate/comparison/hash',
  ],
  [
    'comparison.hash all zeros (no BANDED output: the manifest names the bundle)',
    'exact-intact',
    (p) => (p.comparison.hash = ZERO),
    'RPR-ATTEST-011',
    '/predicate/comparison/hash',
  ],
  [
    "a row's value changed under the same comparison.hash",
    BANDED,
    (p) => (p.comparison.outputs[2].replayed = p.comparison.outputs[2].original),
    'RPR-ATTEST-011',
    '/predicate/comparison/hash',
  ],
  [
    'manifestHash of no manifest given',
    BANDED,
    (p) => (p.manifestHash = `sha256:${'1'.repeat(64)}`),
    'RPR-ATTEST-009',
    '/predicate/manifestHash',
  ],
  [
    'manifestHash of no manifest given (no BANDED output)',
    'exact-intact',
    (p) => (p.manifestHash = ZERO),
    'RPR-ATTEST-009',
    '/predicate/manifestHash',
  ],
  [
    'a tolerance policy naming another bundle',
    BANDED,
    (p) => (p.tolerancePolicy.bundleHash = ZERO),
    'RPR-ATTEST-009',
    '/predicate/tolerancePolicy/bundleHash',
  ],
  [
    'a composition that hides the BANDED rows, with no tolerance policy',
    BANDED,
    (p) => ((p.modeComposition = { EXACT: 6, BANDED: 0, RECORDED: 0 }), (p.tolerancePolicy = null)),
    'RPR-ATTEST-007',
    '/predicate/tolerancePolicy',
  ],
  [
    'a composition of the right total but the wrong modes',
    BANDED,
    (p) => (p.modeComposition = { EXACT: 5, BANDED: 1, RECORDED: 0 }),
    'RPR-ATTEST-007',
    '/predicate/modeComposition/BANDED',
  ],
];

describe('attest --verify: a statement that contradicts itself or the manifest is not PASS', () => {
  it('the genuine attestations, and the same statements signed again, PASS (the control)', async () => {
    for (const name of genuine.keys()) {
      expect((await verify(genuine.get(name)!, name)).code).toBe(0);
      expect((await verify(resigned(statementOf(name), `${name}.again.att.json`), name)).code).toBe(0);
    }
  });

  it.each(forgeries)('%s: FAIL (exit 1)', async (what, name, edit, rule, pointer) => {
    const st = statementOf(name);
    edit(st.predicate);
    const { code, check } = await verify(resigned(st, `${what.replace(/\W+/g, '-')}.att.json`), name);
    expect(code, JSON.stringify(check.findings)).toBe(1);
    expect(check.signatureVerified).toBe(true);
    expect(check.findings).toContainEqual(expect.objectContaining({ rule, pointer, severity: 'fail' }));
  });

  it('a claimRef of another claim, its subject renamed to match: FAIL at /predicate/claimRef (RPR-ATTEST-009)', async () => {
    const st = statementOf(BANDED);
    st.predicate.claimRef = st.subject[0].name = 'claim:someone-else';
    const { code, check } = await verify(resigned(st, 'claim.att.json'), BANDED);
    expect(code).toBe(1);
    expect(check.findings).toContainEqual(
      expect.objectContaining({ rule: 'RPR-ATTEST-009', pointer: '/predicate/claimRef', severity: 'fail' }),
    );
  });

  it("the red team's envelope: failed rows under pass, zero hash, another manifestHash, BANDED hidden", async () => {
    const st = statementOf(BANDED);
    const p = st.predicate;
    p.comparison.outputs.forEach((r: any) => (r.status = 'fail'));
    p.comparison.hash = ZERO;
    p.manifestHash = `sha256:${'1'.repeat(64)}`;
    p.modeComposition = { EXACT: 6, BANDED: 0, RECORDED: 0 };
    p.tolerancePolicy = null;
    const { code, check } = await verify(resigned(st, 'red-team.att.json'), BANDED);
    expect(code).toBe(1);
    expect(check.verdict).toBe('fail');
    const found = check.findings.map((f: any) => `${f.rule} ${f.pointer}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'RPR-ATTEST-011 /predicate/verdict',
        'RPR-ATTEST-011 /predicate/comparison/hash',
        'RPR-ATTEST-009 /predicate/manifestHash',
        'RPR-ATTEST-007 /predicate/modeComposition/BANDED',
        'RPR-ATTEST-007 /predicate/tolerancePolicy',
      ]),
    );
  });
});
