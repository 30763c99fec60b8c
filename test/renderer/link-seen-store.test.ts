/**
 * The window's store (renderer/src/store.ts) holds a link's record of its run (sha256=,
 * verdict=) to that link's own run only, and the link it writes claims only what the run
 * whose report is shown saw: a cancelled link run, a re-run in another mode, or a second link
 * opened while the first job ends never produce a false note or a verdict nobody saw. A fake
 * engine API; browser globals stubbed to the few the store touches.
 */
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import type { Report } from '../../shared/report';

const at = { hash: '' };
stubBrowser(at);

const sha = (c: string) => `sha256:${c.repeat(64)}`;
const report = (path: string, sha256: string, verdict: Report['verdict']) =>
  ({
    schema: 'reprise.report/v1',
    artifact: { path, kind: 'replay-dump', id: 'x', sha256 },
    verdict,
    findings: [],
    chain: [],
  }) as unknown as Report;
const tick = () => new Promise((r) => setTimeout(r, 5));

type Listener = (e: unknown) => void;
/** A stand-in engine: jobs start, and end when the test says; a cancel ends the job cancelled (or runs `onCancel`). */
function fakeApi(onCancel?: (jobId: string, emit: Listener) => Promise<void>) {
  const subs = new Set<Listener>();
  const jobs: { jobId: string; req: unknown }[] = [];
  const emit: Listener = (e) => [...subs].forEach((f) => f(e));
  const api = {
    onEvent: (f: Listener) => (subs.add(f), () => subs.delete(f)),
    async startJob(req: unknown) {
      const jobId = `j${jobs.length + 1}`;
      jobs.push({ jobId, req });
      return { jobId };
    },
    async cancelJob({ jobId }: { jobId: string }) {
      if (onCancel) await onCancel(jobId, emit);
      else emit({ type: 'job-failed', jobId, message: 'cancelled', cancelled: true });
      return {};
    },
    artifactContent: async () => ({ raw: null, canonical: null, note: '' }),
    recentFiles: async () => [],
  };
  const end = (r: Report) => emit({ type: 'job-done', jobId: jobs.at(-1)!.jobId, report: r });
  return { api, jobs, end };
}

async function store(api: unknown) {
  const { useStore } = await import('../../renderer/src/store');
  useStore.setState({ api, info: { options: [] }, examples: [], artifact: null, report: null, job: null } as never);
  return useStore;
}

async function follow(useStore: Awaited<ReturnType<typeof store>>, hash: string) {
  at.hash = hash;
  await useStore.getState().restoreLink();
  await tick();
}

describe("a link's record of its run", () => {
  it('binds only the link’s own run: cancelled, then the user’s own replay says nothing of the link', async () => {
    const { api, end } = fakeApi();
    const s = await store(api);
    await follow(s, `#view=findings&path=/d/x.json&mode=verify&sha256=${sha('a')}&verdict=unavailable`);
    await s.getState().cancel();
    await tick();
    void s.getState().run('replay');
    await tick();
    end(report('/d/x.json', sha('a'), 'pass'));
    await tick();
    expect(s.getState().report?.verdict).toBe('pass');
    expect(s.getState().lastJobNote).toBeNull();
    expect(s.getState().reportSeen).toEqual({ sha256: sha('a'), verdict: 'pass' });
  });

  it('a re-run in another mode claims no verdict until it ends, and none when it fails', async () => {
    const { api, end } = fakeApi();
    const s = await store(api);
    await follow(s, `#view=findings&path=/d/x.json&mode=verify`);
    end(report('/d/x.json', sha('a'), 'pass'));
    await tick();
    expect(s.getState().reportSeen).toEqual({ sha256: sha('a'), verdict: 'pass' });
    void s.getState().run('replay', ['model=ref-2']);
    await tick();
    // The verify's PASS is still on screen; the link now names the replay, and claims nothing of it.
    expect(s.getState().report?.verdict).toBe('pass');
    expect(s.getState().reportSeen).toBeNull();
    await s.getState().cancel();
    await tick();
    expect(s.getState().reportSeen).toBeNull();
  });

  it('a second link opened as the first job ends: the first report never lands under the second, whose note is said', async () => {
    // The first job's end arrives while the window cancels it for the second link.
    const { api, end } = fakeApi(async (jobId, emit) => {
      emit({ type: 'job-done', jobId, report: report('/d/a.json', sha('a'), 'pass') });
      await tick();
    });
    const s = await store(api);
    await follow(s, `#view=findings&path=/d/a.json&mode=verify&sha256=${sha('a')}&verdict=pass`);
    await follow(s, `#view=findings&path=/d/b.json&mode=verify&sha256=${sha('b')}&verdict=pass`);
    expect(s.getState().artifact?.name).toBe('/d/b.json');
    expect(s.getState().report).toBeNull();
    end(report('/d/b.json', sha('c'), 'fail'));
    await tick();
    expect(s.getState().lastJobNote).toBe(
      `This link was made from a file whose SHA-256 was ${sha('b')} (PASS); the file now at /d/b.json is ${sha('c')}: it is not the file the link was shared from.`,
    );
  });
});
