/**
 * The trusted state is trusted only under the trust store it was verified under
 * (docs/journal.md, "The trusted state"). A state recorded by a writer without a store, or with
 * a store whose content was different (a key revoked since), says nothing about whether the
 * journal verifies under the store given now: the writer then verifies in full, and refuses
 * (UNVERIFIED) exactly as it refuses a copy of the journal without its state.json. The same
 * store, read from any path, still gives the O(1) append.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTrustStore, trustStoreEntry, type TrustStore } from '../../app/core/keys.js';
import { appendEntry, JournalWriter, openCase, releaseCase, verifyJournal } from '../../app/journal/index.js';
import { cosignJournal } from '../../app/journal/witness.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { makeKeys, tmp, writeJson, type Keys } from './helpers.js';

const opts = { fsync: false };
const RAT = 'Model owner confirmed recalibration v2.3 reproduces exactly.';
const drift = { kind: 'replay-drift' as const, subject: { claimRef: 'claim:X' }, body: { x: 1 } };
const FILES = ['entries.jsonl', 'checkpoints.jsonl', 'notes.jsonl'];

/** The trust store of `k` with the reviewer's key revoked (the officer's unchanged). */
function withReviewerRevoked(k: Keys): { trust: TrustStore; path: string } {
  const doc = {
    type: 'reprise.trust-store/v1',
    keys: [
      trustStoreEntry(k.reviewer, 'reviewer', 'test reviewer', 'revoked'),
      trustStoreEntry(k.officer, 'quarantine-officer', 'test officer'),
    ],
  };
  const path = writeJson(join(tmp(), 'trust-store-b.json'), doc);
  return { trust: parseTrustStore(readFileSync(path), path), path };
}

const snapshot = (dir: string) => FILES.map((f) => readFileSync(join(dir, f), 'utf8'));

async function failsUnder(dir: string, trust: TrustStore): Promise<string[]> {
  const v = await verifyJournal(dir, trust);
  return v.findings.filter((f) => f.severity === 'fail').map((f) => f.rule);
}

describe('a state recorded under no trust store or another one is not trusted under this one', () => {
  it('a case opened by a key the store does not know (no store given): a release with the store is refused, as on a copy without state.json', async () => {
    const k = makeKeys(tmp());
    const dir = join(tmp(), 'j');
    await appendEntry(dir, drift, k.reviewer, { ...opts, trustStore: k.trust });
    // Without a trust store the writer cannot know the signer (documented): recorded.
    await openCase(dir, { claimRef: 'claim:Y', reason: 'opened by an outsider' }, k.outsider, opts);
    expect(await failsUnder(dir, k.trust)).toContain('RPR-JOURNAL-008');

    const copy = join(tmp(), 'jc');
    cpSync(dir, copy, { recursive: true });
    rmSync(join(copy, 'state.json'));
    await expect(releaseCase(copy, 'case-1', RAT, k.officer, k.trust, opts)).rejects.toThrow(
      /does not verify.*RPR-JOURNAL-008/,
    );

    const before = snapshot(dir);
    await expect(releaseCase(dir, 'case-1', RAT, k.officer, k.trust, opts)).rejects.toMatchObject({
      code: 'UNVERIFIED',
      message: expect.stringMatching(/does not verify.*RPR-JOURNAL-008.*Nothing was written/) as unknown,
    });
    expect(snapshot(dir)).toEqual(before);
    // any append with the store, not only a case decision
    await expect(appendEntry(dir, drift, k.reviewer, { ...opts, trustStore: k.trust })).rejects.toThrow(
      /does not verify.*RPR-JOURNAL-008/,
    );
    expect(snapshot(dir)).toEqual(before);
  });

  it('a key revoked in the store since the state was recorded: a release and a cosignature under the new store are refused', async () => {
    const k = makeKeys(tmp());
    const dir = join(tmp(), 'j');
    await appendEntry(dir, drift, k.reviewer, { ...opts, trustStore: k.trust });
    await openCase(dir, { claimRef: 'claim:Y', reason: 'drift seen on the replayed score' }, k.officer, {
      ...opts,
      trustStore: k.trust,
    });
    const b = withReviewerRevoked(k);
    expect(await failsUnder(dir, b.trust)).toContain('RPR-JOURNAL-009');

    const before = snapshot(dir);
    await expect(releaseCase(dir, 'case-1', RAT, k.officer, b.trust, opts)).rejects.toMatchObject({
      code: 'UNVERIFIED',
    });
    const witness = makeKeys(tmp()).reviewer;
    await expect(cosignJournal(dir, 'witness.example/w1', witness, b.trust, 1_800_000_000)).rejects.toMatchObject({
      code: 'UNVERIFIED',
    });
    expect(snapshot(dir)).toEqual(before);
    expect(readFileSync(join(dir, 'entries.jsonl'), 'utf8').split('\n')).toHaveLength(3);

    // Under the store it was made with, the journal verifies and the release goes through.
    const r = await releaseCase(dir, 'case-1', RAT, k.officer, k.trust, opts);
    expect(r.case.state).toBe('released');
  });

  it('the same store (same keys, roles and statuses), read from another path and spelled otherwise, keeps the O(1) open', async () => {
    const k = makeKeys(tmp());
    const dir = join(tmp(), 'j');
    for (let i = 0; i < 3; i++) await appendEntry(dir, drift, k.reviewer, { ...opts, trustStore: k.trust });
    const doc = JSON.parse(readFileSync(k.trustPath, 'utf8')) as { keys: unknown[] };
    const other = join(tmp(), 'elsewhere.json');
    // the keys in another order, another layout, another label: the same keys, roles and statuses
    writeFileSync(
      other,
      JSON.stringify({
        type: 'reprise.trust-store/v1',
        keys: [...doc.keys].reverse().map((e) => ({ ...(e as object), label: 'renamed' })),
      }),
    );
    const same = parseTrustStore(readFileSync(other), other);
    const w = await JournalWriter.open(dir, { ...opts, trustStore: same, signer: k.officer });
    expect(w.verifiedBy).toBe('trusted-state');
    await w.append(drift, k.officer);
    await w.close();
    const again = await JournalWriter.open(dir, { ...opts, trustStore: k.trust, signer: k.reviewer });
    expect(again.verifiedBy).toBe('trusted-state');
    await again.close();

    // Another store: verified in full once (it verifies), then the state is trusted under it.
    const b = withReviewerRevoked(k);
    const bigger = makeKeys(tmp());
    const wider = parseTrustStore(
      Buffer.from(
        JSON.stringify({
          type: 'reprise.trust-store/v1',
          keys: [
            trustStoreEntry(k.reviewer, 'reviewer', 'r'),
            trustStoreEntry(k.officer, 'quarantine-officer', 'o'),
            trustStoreEntry(bigger.reviewer, 'reviewer', 'new'),
          ],
        }),
      ),
      'wider',
    );
    const w1 = await JournalWriter.open(dir, { ...opts, trustStore: wider, signer: k.reviewer });
    expect(w1.verifiedBy).toBe('full-verification');
    // Its append makes it the newest checkpoint's signer, whose seal the next writer takes.
    await w1.append({ kind: 'replay-drift', subject: { claimRef: 'claim:w' }, body: { x: 1 } }, k.reviewer);
    await w1.close();
    const w2 = await JournalWriter.open(dir, { ...opts, trustStore: wider, signer: k.reviewer });
    expect(w2.verifiedBy).toBe('trusted-state');
    await w2.close();
    // and a store under which it fails is still refused
    await expect(JournalWriter.open(dir, { ...opts, trustStore: b.trust, signer: k.officer })).rejects.toMatchObject({
      code: 'UNVERIFIED',
    });
  });

  it('a state made without a store is not trusted once a store is given', async () => {
    const k = makeKeys(tmp());
    const dir = join(tmp(), 'j');
    await appendEntry(dir, drift, k.reviewer, opts);
    await appendEntry(dir, drift, k.reviewer, opts);
    const plain = await JournalWriter.open(dir, { ...opts, signer: k.reviewer });
    expect(plain.verifiedBy).toBe('trusted-state');
    await plain.close();
    const w = await JournalWriter.open(dir, { ...opts, trustStore: k.trust, signer: k.reviewer });
    expect(w.verifiedBy).toBe('full-verification');
    await w.close();
  });
});

describe.skipIf(!cliBuilt())('the CLI (the reproduction)', () => {
  it('quarantine release and journal cosign under a store the journal fails are refused (exit 1, UNVERIFIED)', async () => {
    const k = makeKeys(tmp());
    const base = tmp();
    const dir = join(base, 'J');
    const release = (journal: string, store: string) =>
      runCli([
        'quarantine',
        'release',
        journal,
        'case-1',
        '--rationale',
        RAT,
        '--key',
        k.officerPem,
        '--trust-store',
        store,
      ]);
    const bodyFile = writeJson(join(base, 'b.json'), { x: 1 });
    const rec = await runCli([
      'journal',
      'record',
      dir,
      '--kind',
      'replay-drift',
      '--claim',
      'claim:X',
      '--body-file',
      bodyFile,
      '--key',
      k.reviewerPem,
      '--trust-store',
      k.trustPath,
    ]);
    expect(rec.code, rec.stderr).toBe(0);
    const open = await runCli([
      'quarantine',
      'open',
      dir,
      '--claim',
      'claim:Y',
      '--reason',
      'opened by an outsider',
      '--key',
      k.outsiderPem,
    ]);
    expect(open.code, open.stderr).toBe(0);
    const rel = await release(dir, k.trustPath);
    expect(rel.code, rel.stdout).toBe(1);
    expect(rel.stderr).toMatch(/does not verify.*RPR-JOURNAL-008/);

    // revoked since: a second journal, recorded and opened under the store, then the reviewer revoked
    const dir2 = join(base, 'J2');
    await appendEntry(dir2, drift, k.reviewer, { ...opts, trustStore: k.trust });
    await openCase(dir2, { claimRef: 'claim:Y', reason: 'drift seen on the replayed score' }, k.officer, {
      ...opts,
      trustStore: k.trust,
    });
    const b = withReviewerRevoked(k);
    const rel2 = await release(dir2, b.path);
    expect(rel2.code, rel2.stdout).toBe(1);
    expect(rel2.stderr).toMatch(/does not verify.*RPR-JOURNAL-009/);
    const witnessPem = makeKeys(tmp()).reviewerPem;
    const cos = await runCli([
      'journal',
      'cosign',
      dir2,
      '--key',
      witnessPem,
      '--name',
      'witness.example/w1',
      '--trust-store',
      b.path,
    ]);
    expect(cos.code, cos.stdout).not.toBe(0);
    expect(cos.stderr).toMatch(/does not verify/);
  });
});
