/**
 * The key the window names as the signing key is the key that signs: the header's choice
 * (judgement-store.ts `keyPath`, which the Journal view's key line shows) and the journal
 * form's `keyFile` (which a case decision sends, store.ts `decide`) move together, so "no
 * key chosen" sends none. A fake engine API; browser globals stubbed to the few the stores touch.
 */
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';

stubBrowser();

const KEY = '/granted/officer.pem';
const JOURNAL = { dir: '/granted/mine', trustStore: '/granted/ts.json' };

/** A stand-in host whose trust store lists the keys given. */
function fakeApi(keys: string[]) {
  return {
    openJudgementJournal: async ({ dir }: { dir: string }) => ({
      dir,
      verdict: 'pass',
      entries: 0,
      cases: [],
      findings: [],
    }),
    signingKeys: async () => keys.map((path) => ({ path, keyId: `ed25519:${path}`, role: 'officer', label: path })),
    listJudgements: async () => ({ judgements: [] }),
  };
}

async function stores(keys: string[]) {
  const { useStore } = await import('../../renderer/src/store');
  const { useJudgement } = await import('../../renderer/src/judgement-store');
  useStore.setState({ api: fakeApi(keys), report: null } as never);
  useJudgement.getState().closeJournal();
  await useJudgement.getState().openJournal(JOURNAL.dir, JOURNAL.trustStore, false);
  const inStep = () => ({ keyPath: useJudgement.getState().keyPath, keyFile: useStore.getState().journal.keyFile });
  return { useJudgement, inStep };
}

describe('the signing key, named and used', () => {
  it('is none for both once the header chooses no key', async () => {
    const { useJudgement, inStep } = await stores([KEY]);
    useJudgement.getState().setKey(KEY);
    expect(inStep()).toEqual({ keyPath: KEY, keyFile: KEY });
    useJudgement.getState().setKey('');
    expect(inStep()).toEqual({ keyPath: '', keyFile: '' });
  });

  it('goes with the journal when it is closed', async () => {
    const { useJudgement, inStep } = await stores([KEY]);
    useJudgement.getState().setKey(KEY);
    useJudgement.getState().closeJournal();
    expect(inStep()).toEqual({ keyPath: '', keyFile: '' });
  });

  it('is dropped from both when another journal’s trust store does not list it', async () => {
    const { useJudgement, inStep } = await stores([KEY]);
    useJudgement.getState().setKey(KEY);
    (await import('../../renderer/src/store')).useStore.setState({ api: fakeApi([]) } as never);
    await useJudgement.getState().openJournal('/granted/next', JOURNAL.trustStore, false);
    expect(inStep()).toEqual({ keyPath: '', keyFile: '' });
  });

  it('is kept in both when the journal opened again lists it', async () => {
    const { useJudgement, inStep } = await stores([KEY]);
    useJudgement.getState().setKey(KEY);
    await useJudgement.getState().openJournal(JOURNAL.dir, JOURNAL.trustStore, false);
    expect(inStep()).toEqual({ keyPath: KEY, keyFile: KEY });
  });
});
