/**
 * The case store (renderer/src/case-store.ts) keeps nothing of one case in the next: verdicts
 * of a superseded case still waiting for a frame never land in the next case's table, the
 * notes panel closes when another case opens, a saved report that cannot be read closes the
 * case shown before it, and a drop is a request of its own from the moment it lands (a link
 * followed while it is read is the later one; a drop that cannot be read says so). A fake
 * engine API; browser globals stubbed, frames drawn when the test says.
 */
import { describe, expect, it, vi } from 'vitest';
import { stubBrowser } from './browser-stubs';
import { caseArtifact as artifact } from '../helpers/case-view';
import type { CaseArtifact, CaseReport } from '../../shared/case';

stubBrowser();

const tick = () => new Promise((r) => setTimeout(r, 5));

type Listener = (e: unknown) => void;
/** A stand-in engine: each startCase answers a new case id; events are sent when the test says. */
function fakeApi() {
  const subs = new Set<Listener>();
  const started: string[] = [];
  const uploads: unknown[] = [];
  const api = {
    onEvent: (f: Listener) => (subs.add(f), () => subs.delete(f)),
    async startCase() {
      started.push(`c${started.length + 1}`);
      return { caseId: started.at(-1)!, dir: `/host/${started.at(-1)}` };
    },
    cancelCase: async () => ({}),
    async beginUpload(req: unknown) {
      uploads.push(req);
      throw new Error('no upload in this test');
    },
  };
  const progress = (caseId: string, a: CaseArtifact) =>
    [...subs].forEach((f) => f({ type: 'case-progress', caseId, done: 1, total: 2, artifact: a }));
  return { api, started, uploads, progress };
}

/** Frames drawn only when `draw` is called. */
function frames() {
  const queued: FrameRequestCallback[] = [];
  vi.stubGlobal('requestAnimationFrame', (f: FrameRequestCallback) => queued.push(f));
  return () => queued.splice(0).forEach((f) => f(0));
}

async function stores(api: unknown) {
  const { useStore } = await import('../../renderer/src/store');
  const { useCase } = await import('../../renderer/src/case-store');
  useStore.setState({ api, info: { options: [] } } as never);
  return useCase;
}

describe('the case store between cases', () => {
  it('drops the verdicts of a superseded case still waiting for a frame', async () => {
    const draw = frames();
    const { api, progress } = fakeApi();
    const useCase = await stores(api);
    await useCase.getState().openFolder('/cases/one');
    progress('c1', artifact('one.json'));
    await useCase.getState().openFolder('/cases/two');
    progress('c2', artifact('two.json'));
    draw();
    expect(useCase.getState().landed.map((a) => a.path)).toEqual(['two.json']);

    // Closed (a link the window refused) with a verdict waiting: the next case starts empty too.
    progress('c2', artifact('late.json'));
    useCase.getState().close();
    await useCase.getState().openFolder('/cases/three');
    progress('c3', artifact('three.json'));
    draw();
    expect(useCase.getState().landed.map((a) => a.path)).toEqual(['three.json']);
  });

  it('closes the notes panel when another case opens', async () => {
    frames();
    const { api } = fakeApi();
    const useCase = await stores(api);
    useCase.getState().showNotes('dump.json');
    expect(useCase.getState().notesOn).toBe('dump.json');
    await useCase.getState().openFolder('/cases/other');
    expect(useCase.getState().notesOn).toBeNull();
    useCase.getState().showNotes('dump.json');
    useCase.getState().close();
    expect(useCase.getState().notesOn).toBeNull();
  });

  it('a saved case report that cannot be read leaves no verdict of the case before it', async () => {
    frames();
    const { api } = fakeApi();
    const useCase = await stores(api);
    const report = { verdict: 'pass', artifacts: [artifact('a.json')] } as unknown as CaseReport;
    useCase.setState({ name: 'before', report, landed: report.artifacts, notesOn: 'a.json' });
    await useCase.getState().openSaved({ name: 'bad.json', text: async () => '{"schema":"other"}' } as File);
    const s = useCase.getState();
    expect(s.error).toMatch(/^Cannot read the saved case report: /);
    expect([s.report, s.landed, s.name, s.notesOn]).toEqual([null, [], null, null]);
  });

  it('a drop is superseded by a link followed while it is read', async () => {
    frames();
    const { api, started, uploads } = fakeApi();
    const useCase = await stores(api);
    let read: (v: { files: never[] }) => void = () => undefined;
    const dropped = useCase.getState().openDropped(() => new Promise((r) => (read = r)));
    await useCase.getState().openFolder('/cases/linked');
    read({ files: [] });
    await dropped;
    await tick();
    const s = useCase.getState();
    expect([s.name, s.error, s.running?.caseId]).toEqual(['/cases/linked', null, 'c1']);
    expect([started, uploads]).toEqual([['c1'], []]);
  });

  it('a drop read while nothing newer came goes on; one that cannot be read says so', async () => {
    frames();
    const { api } = fakeApi();
    const useCase = await stores(api);
    await useCase.getState().openDropped(async () => ({ files: [] }));
    expect(useCase.getState().error).toBe('What was dropped holds no file: there is nothing in it to check.');
    await useCase.getState().openDropped(() => Promise.reject(new Error('NotFoundError: gone')));
    expect(useCase.getState().error).toBe(
      'Nothing was opened from what was dropped: it could not be read (NotFoundError: gone).',
    );
  });
});
