/**
 * An artifact opened from a case runs as the case ran it: its first run takes the case's
 * options alone, read-only (the case signed nothing), and is held to what the case saw of it;
 * the user's own replay afterwards signs only into the journal the case ran with. Nothing
 * the header chose since (a journal, a key, a kernel adapter) decides or signs it unasked.
 * A fake engine API; browser globals stubbed.
 */
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import { fakeEngine } from './fake-engine';
import type { Report } from '../../shared/report';

const at = { hash: '' };
stubBrowser(at);

const HEADER = { dir: '/granted/j', trustStore: '/granted/ts.json' };
const KEY = '/granted/reviewer.pem';
const SHA = `sha256:${'a'.repeat(64)}`;
const OTHER_SHA = `sha256:${'b'.repeat(64)}`;
const tick = () => new Promise((r) => setTimeout(r, 5));

const reportOf = (sha256: string, verdict: string) =>
  ({
    schema: 'reprise.report/v1',
    artifact: { path: '/granted/case/m.json', kind: 'tg-replay-manifest', id: 'm', sha256 },
    verdict,
    findings: [],
    chain: [],
    comparisons: [],
  }) as unknown as Report;

let connected = false;
/** Both stores as the window connects them; the header has `HEADER` open, `KEY` chosen and a kernel adapter typed. */
async function stores(api: unknown) {
  const { useStore } = await import('../../renderer/src/store');
  const { useJudgement, connectJudgement } = await import('../../renderer/src/judgement-store');
  if (!connected) connectJudgement();
  connected = true;
  const options = ['trustStore', 'providers', 'journal', 'kernelAdapter'].map((name) => ({ name, help: name }));
  useStore.setState({ api, info: { options }, examples: [], artifact: null, report: null, job: null } as never);
  useJudgement.setState({
    work: HEADER,
    keyPath: KEY,
    pkg: { profiles: '', kernelAdapter: '/granted/adapter.mjs' },
  } as never);
  return { useStore };
}

const CASE_RAN = { trustStore: '/granted/case-ts.json' };

describe('an artifact opened from a case', () => {
  it('first runs read-only with the case’s options alone', async () => {
    const { api, jobs, end } = fakeEngine();
    const { useStore } = await stores(api);
    const opened = useStore.getState().openPath('/granted/case/m.json', 'replay', [], CASE_RAN, { seen: null });
    await tick();
    expect(jobs[0]!.req.key).toBeUndefined();
    expect(jobs[0]!.req.options).toEqual(CASE_RAN);
    end(reportOf(SHA, 'pass'));
    await opened;
    await tick();
    expect(useStore.getState().lastJobNote).toContain('Opened from a case, this replay ran read-only');
    expect(useStore.getState().lastJobNote).toContain('The case ran with no journal');
  });

  it('refuses the user’s signing replay when the case ran with no journal, and runs nothing', async () => {
    const { api, jobs, end } = fakeEngine();
    const { useStore } = await stores(api);
    void useStore.getState().openPath('/granted/case/m.json', 'replay', [], CASE_RAN, { seen: null });
    await tick();
    end(reportOf(SHA, 'pass'));
    await tick();
    await useStore.getState().run('replay');
    expect(jobs).toHaveLength(1);
    expect(useStore.getState().error).toContain('opened from a case that ran with no journal');
    expect(useStore.getState().error).toContain(`into the journal ${HEADER.dir} chosen in the header`);
  });

  it('signs the user’s replay into the journal the case ran with, taking the case’s options alone', async () => {
    const { api, jobs, end } = fakeEngine();
    const { useStore } = await stores(api);
    const ran = { journal: HEADER.dir, trustStore: HEADER.trustStore };
    void useStore.getState().openPath('/granted/case/m.json', 'replay', [], ran, { seen: null });
    await tick();
    expect(jobs[0]!.req.key).toBeUndefined();
    end(reportOf(SHA, 'pass'));
    await tick();
    await useStore.getState().run('replay');
    expect(jobs).toHaveLength(2);
    expect(jobs[1]!.req).toEqual(expect.objectContaining({ key: KEY, options: ran }));
  });

  it('says when the file at the path is not the one the case verified, or reads another verdict', async () => {
    const { api, end } = fakeEngine();
    const { useStore } = await stores(api);
    const seen = { sha256: SHA, verdict: 'pass' as const };
    void useStore.getState().openPath('/granted/case/m.json', 'verify', [], CASE_RAN, { seen });
    await tick();
    end(reportOf(OTHER_SHA, 'pass'));
    await tick();
    expect(useStore.getState().lastJobNote).toContain(`The case verified a file whose SHA-256 was ${SHA} (PASS)`);
    void useStore.getState().openPath('/granted/case/m.json', 'verify', [], CASE_RAN, { seen });
    await tick();
    end(reportOf(SHA, 'unavailable'));
    await tick();
    expect(useStore.getState().lastJobNote).toContain('In the case, /granted/case/m.json read PASS');
    void useStore.getState().openPath('/granted/case/m.json', 'verify', [], CASE_RAN, { seen });
    await tick();
    end(reportOf(SHA, 'pass'));
    await tick();
    expect(useStore.getState().lastJobNote).toBeNull();
  });
});
