/**
 * The journal names its signers: a case's history and a decision's receipt carry the role
 * and label the journal's trust store gives each key (null, not guessed, when it names
 * none), and the training journal's officer is one key for the host, so creating another
 * training journal lists that key once, as its trust store names it. The host's worker
 * runs from dist/ (npm test builds it first).
 */
import { realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decide, demoJournal, journalStatus } from '../../main/host/journal-ops.js';
import { signingKeys } from '../../main/host/judgement-ops.js';
import type { EngineHost } from '../../main/host/engine-host.js';
import { distHost } from '../helpers/dist-host.js';
import { asShown } from '../helpers/shown.js';

const RATIONALE = 'Replayed twice; the drift is within the reviewer tolerance for this claim.';
const KEY = /^ed25519:[0-9a-f]{64}$/;

describe('the training officer (journal-ops, in this process)', () => {
  it('is one key and one trust store for every training journal, each journal new', async () => {
    const a = await demoJournal();
    const b = await demoJournal();
    expect(b.keyFile).toBe(a.keyFile);
    expect(b.trustStore).toBe(a.trustStore);
    expect(b.dir).not.toBe(a.dir);
    // Real paths: the host grants keys by real path, and the window matches its chosen key against them.
    expect(await realpath(a.keyFile)).toBe(a.keyFile);
    expect(
      (await journalStatus({ dir: b.dir, trustStore: b.trustStore })).cases.map((c) => [c.caseId, c.state]),
    ).toEqual([
      ['case-0', 'open'],
      ['case-1', 'open'],
    ]);
    const keys = await signingKeys([a.keyFile], a.trustStore);
    expect(keys).toEqual([
      {
        path: a.keyFile,
        keyId: expect.stringMatching(KEY),
        role: 'quarantine-officer',
        label: 'training officer',
        status: 'active',
      },
    ]);
  });

  it('calls made at once share one officer', async () => {
    const [a, b] = await Promise.all([demoJournal(), demoJournal()]);
    expect(a.keyFile).toBe(b.keyFile);
  });

  it('is made again when its folder is gone (a cleaned temp folder), not left failing', async () => {
    const a = await demoJournal();
    await rm(dirname(a.keyFile), { recursive: true, force: true });
    const b = await demoJournal();
    expect(b.keyFile).not.toBe(a.keyFile);
    expect((await signingKeys([b.keyFile], b.trustStore))[0]).toMatchObject({ role: 'quarantine-officer' });
  });
});

describe('signers named in the case history and the decision receipt', () => {
  it('with the trust store: role and label of every author, and of the decision signer', async () => {
    const d = await demoJournal();
    const r = await decide({
      ...d,
      ...(await asShown({ ...d, caseId: 'case-0' })),
      caseId: 'case-0',
      decision: 'release',
      rationale: RATIONALE,
    });
    expect(r).toMatchObject({
      keyId: expect.stringMatching(KEY),
      role: 'quarantine-officer',
      label: 'training officer',
    });
    const st = await journalStatus({ dir: d.dir, trustStore: d.trustStore });
    const history = st.cases[0]!.history;
    expect(history.map((h) => h.decision)).toEqual(['open', 'release']);
    for (const h of history)
      expect(h).toMatchObject({ author: r.keyId, role: 'quarantine-officer', label: 'training officer' });
  });

  it('without a trust store: the author is kept, role and label are null (unknown, not invented)', async () => {
    const d = await demoJournal();
    const st = await journalStatus({ dir: d.dir });
    expect(st.rolesChecked).toBe(false);
    expect(st.cases[0]!.history[0]).toMatchObject({ author: expect.stringMatching(KEY), role: null, label: null });
  });
});

describe('the host: creating the training journal twice', () => {
  let host: EngineHost;
  beforeAll(() => {
    host = distHost({ roots: [tmpdir()] });
  });
  afterAll(async () => host.close());

  it('lists its officer key once, named by the training trust store', async () => {
    await host.createDemoJournal();
    const d = await host.createDemoJournal();
    const keys = await host.signingKeys({ trustStore: d.trustStore });
    expect(keys).toEqual([
      {
        path: d.keyFile,
        keyId: expect.stringMatching(KEY),
        role: 'quarantine-officer',
        label: 'training officer',
        status: 'active',
      },
    ]);
  });
});
