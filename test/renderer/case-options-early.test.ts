/**
 * An artifact opened from a case runs with the options the case ran with. The address (the
 * link a reviewer copies) must name them from the moment the artifact is open, not from the
 * moment the engine has accepted its job: a link copied while the job is starting would
 * otherwise lack the trust store, and reopen as UNAVAILABLE what the case read as PASS.
 * A fake engine whose jobs start only when the test says; browser globals stubbed.
 */
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';

const at = { hash: '' };
stubBrowser(at);

const CASE_RAN = { trustStore: '/granted/ts.json', providers: '/granted/providers.json' };

/** A stand-in engine whose startJob answers only when `accept` is called. */
function slowApi() {
  let accept: () => void = () => undefined;
  const sent: { options?: Record<string, string> }[] = [];
  const api = {
    onEvent: () => () => undefined,
    startJob(req: { options?: Record<string, string> }) {
      sent.push(req);
      return new Promise<{ jobId: string }>((resolve) => (accept = () => resolve({ jobId: 'j1' })));
    },
    cancelJob: async () => ({}),
    artifactContent: async () => ({ raw: null, canonical: null, note: '' }),
    recentFiles: async () => [],
  };
  return { api, sent, accept: () => accept() };
}

describe('an artifact opened from a case', () => {
  it('names the options it runs with before its job is accepted, and the same ones after', async () => {
    const { useStore } = await import('../../renderer/src/store');
    const { api, sent, accept } = slowApi();
    const options = ['trustStore', 'providers', 'journal'].map((name) => ({ name, help: name }));
    useStore.setState({ api, info: { options }, artifact: null, report: null, job: null } as never);
    const opened = useStore.getState().openPath('/granted/case/m.json', 'verify', [], CASE_RAN, { seen: null });
    await new Promise((r) => setTimeout(r, 5));
    // The job is on its way to the engine, not yet accepted.
    expect(sent).toHaveLength(1);
    expect(useStore.getState().job).toBeNull();
    expect(useStore.getState().artifact?.options).toEqual(CASE_RAN);
    accept();
    await opened;
    expect(useStore.getState().job?.options).toEqual(CASE_RAN);
    expect(useStore.getState().artifact?.options).toEqual(CASE_RAN);
  });
});
