/**
 * A judgement is known by the member it was read from: a member whose name disagrees with
 * the seq of the entry it carries fails RPR-EVB-006, and that failure is its own (it binds
 * nothing, is shown unverified, and the origin never says every judgement verifies), found
 * by a red team where it was looked up under the member its seq names. The origin also says
 * why a signature is not accepted, and what fails outside the signed parts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseTrustStore, type TrustStore } from '../../app/core/keys.js';
import type { KindResult } from '../../app/core/report.js';
import { verifyEvidence, writeEvidenceBundle } from '../../app/kinds/evidence-bundle/index.js';
import { writeZip } from '../../app/zip/writer.js';
import { bundleOf, caseBundleOf, fixManifest, json, judged, put, unzip, type Files, type Judged } from './helpers.js';

const MANIFEST = 'reprise-evidence-bundle.json';
const ACCEPT = 'judgements/000000000000.json';
const NOTE = 'judgements/000000000002.json';

let j: Judged;
let good: Files;

beforeAll(async () => {
  j = await judged();
  good = await unzip(await bundleOf(j));
}, 60_000);

const copy = (f: Files): Files => f.map((x) => ({ name: x.name, data: Buffer.from(x.data) }));

/** `f` with member `from` renamed `to` (kept in name order), the manifest's list and digests rebuilt. */
function renamed(f: Files, from: string, to: string): Files {
  const out = copy(f);
  out.find((x) => x.name === from)!.name = to;
  const m = json(out, MANIFEST);
  for (const x of m['members'] as { name: string }[]) if (x.name === from) x.name = to;
  put(out, MANIFEST, m);
  fixManifest(out);
  return out;
}

/** `f` with a member `name` holding `data` added in name order, listed in the manifest. */
function added(f: Files, name: string, data: string): Files {
  const out = copy(f);
  const at = out.findIndex((x, i) => i > 0 && x.name > name);
  out.splice(at < 0 ? out.length : at, 0, { name, data: Buffer.from(data) });
  const m = json(out, MANIFEST);
  const listed = m['members'] as { name: string; sha256: string; size: number }[];
  listed.push({ name, sha256: '', size: 0 });
  listed.sort((a, b) => (a.name < b.name ? -1 : 1));
  put(out, MANIFEST, m);
  fixManifest(out);
  return out;
}

const verify = (f: Files, trust: TrustStore = j.keys.trust) => verifyEvidence(writeZip(f), trust);

type Shown = { seq: number; member: string; proof: { verified: boolean; problems: string[] } };
const shown = (r: KindResult) => (r.details as unknown as { judgements: Shown[] }).judgements;
const on = (r: KindResult, rule: string) => r.findings.filter((f) => f.rule === rule).map((f) => f.pointer);

describe('a judgement member whose name is not its entry seq', () => {
  it('is shown unverified under the member it was read from, and the origin does not say every judgement verifies', async () => {
    const r = await verify(renamed(good, NOTE, 'judgements/000000000003.json'));
    expect(on(r, 'RPR-EVB-006')).toEqual(['entry:judgements/000000000003.json']);
    const note = shown(r).find((x) => x.seq === 2)!;
    expect(note.member).toBe('judgements/000000000003.json');
    expect(note.proof.verified).toBe(false);
    expect(note.proof.problems.join('\n')).toMatch(/^RPR-EVB-006: .*leafIndex is 2, not 3/);
    // The accept under its own name still verifies and binds the report.
    expect(shown(r).find((x) => x.seq === 0)!.proof.verified).toBe(true);
    expect(on(r, 'RPR-EVB-015')).toEqual([]);
    const said = r.authenticity!.statement;
    expect(said).not.toMatch(/every judgement/);
    expect(said).toMatch(/1 of its 2 judgement\(s\)/);
    expect(said).toContain('judgements/000000000003.json fails its checks (RPR-EVB-006');
  });

  it('binds nothing: the only judgement naming the report, renamed, leaves it unbound (RPR-EVB-015)', async () => {
    const one = writeEvidenceBundle({
      report: json(good, 'report.json') as never,
      proofs: [json(good, ACCEPT) as never],
      checkpoint: json(good, 'checkpoint.json') as never,
    });
    expect((await verifyEvidence(one, j.keys.trust)).authenticity?.status).toBe('trusted-signer');
    const r = await verify(renamed(await unzip(one), ACCEPT, 'judgements/000000000001.json'));
    expect(on(r, 'RPR-EVB-015')).toEqual(['entry:report.json']);
    expect(r.findings.find((f) => f.rule === 'RPR-EVB-015')!.message).toContain(
      'no judgement in the bundle that passes its checks names',
    );
    expect(r.authenticity?.status).toBe('consistency-only');
    expect(r.authenticity?.statement).toContain('judgements/000000000001.json fails its checks');
    expect(shown(r)[0]!.proof.verified).toBe(false);
  });

  it('in a case bundle: the origin counts the judgements that verify', async () => {
    const f = await unzip(await caseBundleOf(j, join(j.dir, 'case-renamed')));
    const r = await verify(renamed(f, NOTE, 'judgements/000000000003.json'));
    expect(on(r, 'RPR-EVB-006')).toEqual(['entry:judgements/000000000003.json']);
    expect(r.authenticity?.statement).toMatch(/checkpoint and 1 of its 2 judgement\(s\) \(which bind 1 of 1 report/);
    expect(shown(r).find((x) => x.seq === 2)!.proof.verified).toBe(false);
  });
});

describe('a judgement member that fails only its proof', () => {
  it('a junk judgements/000000000009.json: the origin names it, never "every judgement verifies"', async () => {
    const r = await verify(added(good, 'judgements/000000000009.json', 'not json\n'));
    expect(on(r, 'RPR-EVB-006')).toEqual(['entry:judgements/000000000009.json']);
    expect(r.authenticity?.statement).not.toMatch(/every judgement/);
    expect(r.authenticity?.statement).toMatch(/2 of its 3 judgement\(s\).*judgements\/000000000009\.json fails/);
  });
});

describe('what the origin says fails outside the signed parts', () => {
  it('an edited report.html: "Trusted signer" qualified, naming what no signature covers', async () => {
    const f = copy(good);
    const h = f.find((x) => x.name === 'report.html')!;
    h.data = Buffer.from(h.data.toString('utf8').replace('FAIL', 'PASS'));
    fixManifest(f);
    const r = await verify(f);
    // Intact, the same bundle's origin is unqualified.
    expect((await verify(good)).authenticity?.statement).not.toMatch(/; but /);
    expect(r.authenticity?.status).toBe('trusted-signer');
    expect(r.authenticity?.statement).toMatch(
      /; but what no signature covers fails \(RPR-EVB-014 at report\.html: .*\): the signatures vouch only for the signed parts\.$/,
    );
  });

  it('an unknown member: qualified alike', async () => {
    const r = await verify(added(good, 'zzz.txt', 'anything\n'));
    expect(on(r, 'RPR-EVB-002')).toEqual(['entry:zzz.txt']);
    expect(r.authenticity?.statement).toMatch(/but what no signature covers fails \(RPR-EVB-002 at zzz\.txt: /);
  });
});

describe("the checkpoint's signer refused", () => {
  const store = (edit: (keys: { keyId: string; status: string }[]) => { keyId: string; status: string }[]) => {
    const doc = JSON.parse(readFileSync(j.keys.trustPath, 'utf8')) as { keys: { keyId: string; status: string }[] };
    doc.keys = edit(doc.keys);
    return parseTrustStore(Buffer.from(JSON.stringify(doc)), 'edited.json');
  };
  const signer = () => String(json(good, 'checkpoint.json')['signer']);

  it('by a key not in the trust store: the origin says so, not that the signature does not verify', async () => {
    const r = await verify(
      good,
      store((keys) => keys.filter((k) => k.keyId !== signer())),
    );
    expect(r.findings.find((f) => f.rule === 'RPR-EVB-005')!.message).toMatch(/not in the trust store/);
    expect(r.authenticity?.keyId).toBe(signer());
    expect(r.authenticity?.statement).toContain(
      `the bundle's checkpoint is signed by ${signer()}, a key that is not in the trust store`,
    );
    expect(r.authenticity?.statement).not.toMatch(/does not verify/);
  });

  it('by a revoked key: the origin says it is revoked', async () => {
    const r = await verify(
      good,
      store((keys) => keys.map((k) => (k.keyId === signer() ? { ...k, status: 'revoked' } : k))),
    );
    expect(r.authenticity?.status).toBe('bad-signature');
    expect(r.authenticity?.statement).toContain('a key the trust store revokes');
    expect(r.authenticity?.statement).not.toMatch(/does not verify/);
  });
});
