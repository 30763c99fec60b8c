/** A TG replay's bundle carries its attestation: it verifies; any change to it, or one about another artifact, fails the bundle. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { attestCommand } from '../../app/cli/commands/attest.js';
import { printer } from '../../app/cli/output.js';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { hashBytes } from '../../app/core/hash.js';
import { runBytes } from '../../app/engine/run.js';
import { writeExamples } from '../../app/examples/index.js';
import { recordJudgement } from '../../app/journal/index.js';
import { bundleFromJournal, verifyBundle } from '../../app/kinds/evidence-bundle/index.js';
import { readEntries } from '../../app/zip/parallel.js';
import { readStructure } from '../../app/zip/reader.js';
import { resolveLimits } from '../../app/zip/limits.js';
import { writeZip } from '../../app/zip/writer.js';
import type { Report } from '../../shared/report.js';
import { makeKeys, type Keys } from '../journal/helpers.js';

type Files = { name: string; data: Buffer }[];
const ATTESTATION = 'attestation.dsse.json';
const MANIFEST = 'reprise-evidence-bundle.json';

let ex = '';
let keys: Keys;
let journal = '';
let report: Report;

async function attest(manifest: string): Promise<string> {
  let out = '';
  await attestCommand.run(
    [manifest, '--key', keys.reviewerPem],
    printer({ out: (t) => void (out += t), err: () => undefined, stderrIsTTY: false, cwd: ex }),
  );
  return out;
}

async function unzip(bytes: Buffer): Promise<Files> {
  const zs = readStructure(bytes, resolveLimits(undefined));
  const c = await readEntries(bytes, zs.entries, () => true);
  return zs.entries.map((e, i) => ({ name: e.name, data: c[i]!.bytes! }));
}

/** Replaces the attestation and recomputes the manifest's member digests, so only the attestation check can catch it. */
function withAttestation(f: Files, data: Buffer): Buffer {
  const out = f.map((x) => ({ ...x, data: x.name === ATTESTATION ? data : x.data }));
  const m = JSON.parse(out.find((x) => x.name === MANIFEST)!.data.toString('utf8')) as { members: { name: string }[] };
  m.members = m.members.map((x) => {
    const d = out.find((y) => y.name === x.name)!.data;
    return { name: x.name, sha256: hashBytes(d), size: d.length };
  });
  out.find((x) => x.name === MANIFEST)!.data = Buffer.from(canonicalizeValue(m) + '\n');
  return writeZip(out);
}

const failRules = async (bytes: Buffer) =>
  (await verifyBundle(bytes, keys.trust)).findings.filter((x) => x.severity === 'fail').map((x) => x.rule);

beforeAll(async () => {
  ex = mkdtempSync(join(tmpdir(), 'reprise-evb-att-'));
  await writeExamples(ex);
  keys = makeKeys(ex);
  const manifest = join(ex, 'tg', 'exact-intact', 'manifest.json');
  report = await runBytes(manifest, readFileSync(manifest), 'replay', {});
  journal = join(ex, 'journal');
  await recordJudgement(
    journal,
    { report, pointer: '', decision: 'accept', rationale: 'The replay matched every recorded output exactly.' },
    keys.reviewer,
    keys.trust,
    { fsync: false },
  );
});

describe('evidence bundle with a TG attestation', () => {
  it('holds the attestation and passes offline', async () => {
    const env = await attest(join(ex, 'tg', 'exact-intact', 'manifest.json'));
    const b = await bundleFromJournal(journal, report, keys.trust, Buffer.from(env, 'utf8'));
    const f = await unzip(b.bytes);
    expect(f.find((x) => x.name === ATTESTATION)!.data.toString('utf8')).toBe(env);
    const v = await verifyBundle(b.bytes, keys.trust);
    expect(v.findings.filter((x) => x.severity === 'fail' || x.severity === 'unavailable')).toEqual([]);
    expect((v.details as { bundle: { attestation: boolean } }).bundle.attestation).toBe(true);
  });

  it('fails when the attestation is changed, even with the member digests recomputed', async () => {
    const env = await attest(join(ex, 'tg', 'exact-intact', 'manifest.json'));
    const f = await unzip((await bundleFromJournal(journal, report, keys.trust, Buffer.from(env, 'utf8'))).bytes);
    const e = JSON.parse(env) as { payload: string; signatures: { keyid: string; sig: string }[] };
    // A flipped signature byte.
    const sig = Buffer.from(e.signatures[0]!.sig, 'base64');
    sig[0] = sig[0]! ^ 1;
    const badSig = { ...e, signatures: [{ ...e.signatures[0]!, sig: sig.toString('base64') }] };
    expect(await failRules(withAttestation(f, Buffer.from(JSON.stringify(badSig))))).toContain('RPR-EVB-013');
    // A changed statement under the old signature.
    const st = JSON.parse(Buffer.from(e.payload, 'base64').toString('utf8')) as { predicate: Record<string, unknown> };
    st.predicate['verdict'] = 'fail';
    const badPayload = { ...e, payload: Buffer.from(JSON.stringify(st)).toString('base64') };
    expect(await failRules(withAttestation(f, Buffer.from(JSON.stringify(badPayload))))).toContain('RPR-EVB-013');
    // Without the member digests recomputed, the manifest check catches it as well.
    const raw = f.map((x) => (x.name === ATTESTATION ? { ...x, data: Buffer.from(JSON.stringify(badSig)) } : x));
    expect((await failRules(writeZip(raw))).length).toBeGreaterThan(0);
  });

  it('fails when the attestation is about another artifact', async () => {
    // The export refuses such an attestation (attestation-export.test.ts): swapped in after it.
    const env = await attest(join(ex, 'tg', 'exact-intact', 'manifest.json'));
    const other = await attest(join(ex, 'tg', 'banded-within-epsilon', 'manifest.json'));
    const f = await unzip((await bundleFromJournal(journal, report, keys.trust, Buffer.from(env, 'utf8'))).bytes);
    expect(await failRules(withAttestation(f, Buffer.from(other, 'utf8')))).toContain('RPR-EVB-013');
  });
});
