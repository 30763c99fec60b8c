/**
 * The quarantine workflow's rules are the writer's, not only its commands' (docs/journal.md,
 * "Quarantine cases"): a red team signed a release with a reviewer key and an uphold of a
 * released case through `JournalWriter.append`, and the officer's next release was then signed
 * onto that journal through the sealed state.json. Every quarantine entry an append is asked
 * for now passes the case fold's checks under the lock, and a journal whose quarantine entries
 * fold with a finding is refused, whatever its state.json says.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTrustStore, trustStoreEntry, type Signer } from '../../app/core/keys.js';
import {
  appendEntry,
  JournalWriter,
  openCase,
  releaseCase,
  verifyJournal,
  type AppendInput,
} from '../../app/journal/index.js';
import { resealState } from './forge.helpers.js';
import { trustStoreDigest, verificationContext } from '../../app/journal/trusted-state.js';
import { cliIn } from '../cli/in-process.js';
import { makeKeys, tmp, type Keys, GOOD_RATIONALE, releaseArgs } from './helpers.js';

const opts = { fsync: false };
const GOOD = GOOD_RATIONALE;
const FILES = ['entries.jsonl', 'checkpoints.jsonl', 'notes.jsonl'];
const snapshot = (dir: string) => FILES.map((f) => readFileSync(join(dir, f), 'utf8'));

/** A journal holding case-0, opened by the reviewer under the store. */
async function opened(k: Keys): Promise<{ dir: string; openHash: string }> {
  const dir = join(tmp('reprise-quar-append-'), 'J');
  const o = await openCase(dir, { claimRef: 'claim:A', reason: 'drift seen on the replayed score' }, k.reviewer, {
    ...opts,
    trustStore: k.trust,
  });
  return { dir, openHash: o.case.openHash };
}

const decision = (kind: AppendInput['kind'], openHash: string, rationale: string): AppendInput => ({
  kind,
  subject: { claimRef: 'claim:A' },
  body: { case: openHash, decision: kind.slice('quarantine-'.length), rationale },
});

/** Appends `input` through a writer opened as the red team did: the signer, the store, an existing journal. */
async function appendVia(dir: string, k: Keys, signer: Signer, input: AppendInput): Promise<void> {
  const w = await JournalWriter.open(dir, { ...opts, signer, trustStore: k.trust, create: false });
  try {
    await w.append(input, signer);
  } finally {
    await w.close();
  }
}

async function failing(dir: string, k: Keys): Promise<string[]> {
  return (await verifyJournal(dir, k.trust)).findings.filter((f) => f.severity === 'fail').map((f) => f.rule);
}

describe('the public append holds quarantine entries to the workflow', () => {
  it("a reviewer's release is refused (RPR-QUAR-003) and nothing is appended, by JournalWriter.append or appendEntry", async () => {
    const k = makeKeys(tmp());
    const { dir, openHash } = await opened(k);
    const before = snapshot(dir);
    const release = decision('quarantine-release', openHash, GOOD);
    await expect(appendVia(dir, k, k.reviewer, release)).rejects.toMatchObject({
      code: 'REFUSED',
      message: expect.stringContaining('RPR-QUAR-003'),
    });
    await expect(appendEntry(dir, release, k.reviewer, { ...opts, trustStore: k.trust })).rejects.toMatchObject({
      code: 'REFUSED',
    });
    // Without a trust store no role can be told: no decision is signed, not even an officer's.
    await expect(appendEntry(dir, release, k.officer, opts)).rejects.toMatchObject({
      code: 'REFUSED',
      message: expect.stringContaining('RPR-QUAR-003'),
    });
    expect(snapshot(dir)).toEqual(before);
    expect(await failing(dir, k)).toEqual([]);
  });

  it('an uphold after a release is refused (RPR-QUAR-002), with a blank rationale or a real one', async () => {
    const k = makeKeys(tmp());
    const { dir, openHash } = await opened(k);
    await releaseCase(dir, 'case-0', GOOD, k.officer, k.trust, opts);
    const before = snapshot(dir);
    for (const rationale of ['', GOOD])
      await expect(
        appendVia(dir, k, k.officer, decision('quarantine-uphold', openHash, rationale)),
      ).rejects.toMatchObject({ code: 'REFUSED', message: expect.stringContaining('RPR-QUAR-002') });
    expect(snapshot(dir)).toEqual(before);
    expect(await failing(dir, k)).toEqual([]);
    expect((await verifyJournal(dir, k.trust)).cases.cases.map((c) => c.state)).toEqual(['released']);
  });

  it('a case opened without a reason is refused (RPR-QUAR-005)', async () => {
    const k = makeKeys(tmp());
    const { dir } = await opened(k);
    const before = snapshot(dir);
    const blank: AppendInput = { kind: 'quarantine-open', subject: { claimRef: 'claim:B' }, body: { reason: '  ' } };
    await expect(appendVia(dir, k, k.reviewer, blank)).rejects.toMatchObject({
      message: expect.stringContaining('RPR-QUAR-005'),
    });
    expect(snapshot(dir)).toEqual(before);
  });

  it("after the forgeries were refused, the officer's release is signed and the journal verifies", async () => {
    const k = makeKeys(tmp());
    const { dir, openHash } = await opened(k);
    await expect(appendVia(dir, k, k.reviewer, decision('quarantine-release', openHash, GOOD))).rejects.toThrow();
    await expect(appendVia(dir, k, k.officer, decision('quarantine-release', openHash, ' '))).rejects.toThrow();
    const r = await cliIn(tmp(), ...releaseArgs(dir, k.officerPem, k.trustPath));
    expect([r.code, r.err]).toEqual([0, '']);
    const v = await verifyJournal(dir, k.trust);
    expect(v.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    const c = v.cases.cases[0]!;
    expect([c.state, c.history.map((h) => `${h.decision} ${h.author}`)]).toEqual([
      'released',
      [`open ${k.reviewer.keyId}`, `release ${k.officer.keyId}`],
    ]);
  });
});

/**
 * A journal holding a reviewer's release beside a sealed state.json that the store's writers
 * trust: the release appended under a store that called the reviewer's key an officer's, then
 * the state re-sealed (by that key, which signed the newest checkpoint) as verified under `under`.
 */
async function forgedUnderSealedState(k: Keys, under: string): Promise<string> {
  const { dir, openHash } = await opened(k);
  const doc = {
    type: 'reprise.trust-store/v1',
    keys: [
      trustStoreEntry(k.reviewer, 'quarantine-officer', 'mislabelled'),
      trustStoreEntry(k.officer, 'reviewer', 'mislabelled too'),
    ],
  };
  const wrong = parseTrustStore(Buffer.from(JSON.stringify(doc)), 'wrong.json');
  const w = await JournalWriter.open(dir, { ...opts, signer: k.reviewer, trustStore: wrong, create: false });
  await w.append(decision('quarantine-release', openHash, GOOD), k.reviewer);
  await w.close();
  resealState(dir, k.reviewer, under);
  return dir;
}

describe('a journal holding a transition the fold refuses, with a sealed state.json', () => {
  it("refuses the officer's release (exit 1, RPR-QUAR-003) though the state is trusted, and writes nothing", async () => {
    const k = makeKeys(tmp());
    const dir = await forgedUnderSealedState(k, verificationContext({ trustStore: k.trust }));
    expect(await failing(dir, k)).toEqual(['RPR-QUAR-003']);
    const w = await JournalWriter.open(dir, { ...opts, signer: k.officer, trustStore: k.trust, create: false });
    expect(w.verifiedBy).toBe('trusted-state');
    await w.close();
    const before = snapshot(dir);
    await expect(releaseCase(dir, 'case-0', GOOD, k.officer, k.trust, opts)).rejects.toMatchObject({
      code: 'UNVERIFIED',
      message: expect.stringContaining('RPR-QUAR-003 at line:2'),
    });
    const r = await cliIn(tmp(), ...releaseArgs(dir, k.officerPem, k.trustPath));
    expect(r.code).toBe(1);
    expect(r.err).toContain('RPR-QUAR-003');
    expect(snapshot(dir)).toEqual(before);
  });

  it('a state sealed by a writer that did not check transitions (no case-rules in verifiedUnder) is verified in full, and refused', async () => {
    const k = makeKeys(tmp());
    const dir = await forgedUnderSealedState(k, `trust-store:${trustStoreDigest(k.trust)}`);
    const before = snapshot(dir);
    const review: AppendInput = { kind: 'replay-drift', subject: { claimRef: 'claim:A' }, body: { x: 1 } };
    await expect(appendEntry(dir, review, k.officer, { ...opts, trustStore: k.trust })).rejects.toMatchObject({
      code: 'UNVERIFIED',
      message: expect.stringContaining('RPR-QUAR-003'),
    });
    expect(snapshot(dir)).toEqual(before);
  });
});
