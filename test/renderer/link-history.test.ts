/**
 * The window's history (lib/link-history.ts): a change of view, or another artifact, case or
 * comparison opened, is a step of its own, so Back returns to the view before it; what is
 * no navigation (a verdict arriving, a case opened where none was) rewrites the entry.
 * Returning to an entry that names what is open shows its view and runs nothing; a Case
 * entry from before any case was opened shows the Case view empty, never the later case; an
 * entry naming what is no longer open is followed as a link (run again, read-only, its
 * options refused in words when they no longer can be granted). Pure functions, then the
 * store with a fake engine and a stand-in history, its address written by App.tsx's own
 * mapping (lib/link-state.ts linkStateOf).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from './browser-stubs';
import { fakeEngine } from './fake-engine';
import { readLink } from '../../renderer/src/lib/deep-link';
import { entryOf, historyStep, returnTo, viewsShown, writeLink } from '../../renderer/src/lib/link-history';
import { linkStateOf, type ShownState } from '../../renderer/src/lib/link-state';
import type { Report } from '../../shared/report';

const NAMES = ['trustStore'];
const A = '/granted/a.dump.json';
const B = '/granted/b.dump.json';
const TS = '/granted/ts.json';
const SHA = `sha256:${'a'.repeat(64)}`;
const entry = (hash: string, upload: string | null = null) => ({ hash, upload });
const NOTHING = { case: '', compare: '' };
/** A saved case report shown in the Case view: its name and the SHA-256 of its text. */
const savedReport = (name: string, digit = 'c') => ({ name, sha256: `sha256:${digit.repeat(64)}` });

const state = (s: Partial<ShownState>): ShownState => ({
  view: 'findings',
  source: { type: 'path', path: A },
  mode: 'verify',
  whatIf: [],
  name: A,
  options: { trustStore: TS },
  ...s,
});

describe('what is a step of the history', () => {
  const at = entry(`#token=t&view=findings&path=${encodeURIComponent(A)}&mode=verify&trustStore=x`);

  it('another view is a step; the same view with its run again or its verdict is not', () => {
    expect(historyStep(at, entry(at.hash.replace('findings', 'chain')))).toBe('push');
    expect(historyStep(at, entry(`${at.hash}&verdict=pass`))).toBe('replace');
    expect(historyStep(at, entry(at.hash.replace('verify', 'replay')))).toBe('replace');
    expect(historyStep(at, entry(at.hash))).toBe('none');
  });

  it('another artifact opened is a step, so is another picked file of the same name', () => {
    expect(historyStep(at, entry(at.hash.replace('a.dump', 'b.dump')))).toBe('push');
    const picked = entry('#view=findings&picked=mine.json', 'u1');
    expect(historyStep(picked, entry(picked.hash, 'u2'))).toBe('push');
  });

  it('a case opened in the Case view where none was is no step; another case is', () => {
    const noCase = entry(`#view=case&path=${encodeURIComponent(A)}`);
    expect(historyStep(noCase, entry('#view=case&case=%2Fgranted%2Fc1'))).toBe('replace');
    expect(historyStep(entry('#view=case&case=%2Fgranted%2Fc1'), entry('#view=case&case=%2Fgranted%2Fc2'))).toBe(
      'push',
    );
  });

  it('a saved case report shown where none was is no step; a case opened over it is, and so is one it shows again', () => {
    const noCase = `#view=case&path=${encodeURIComponent(A)}`;
    const saved = { hash: noCase, upload: null, shows: { case: `report=case.json\nsha256=${SHA}`, compare: '' } };
    expect(historyStep({ hash: noCase, upload: null, shows: NOTHING }, saved)).toBe('replace');
    expect(historyStep(saved, { hash: '#view=case&case=%2Fgranted%2Fc1', upload: null })).toBe('push');
    // The same address with another view's contents changed: the entry is written again to say so.
    const findings = `#view=findings&path=${encodeURIComponent(A)}`;
    expect(historyStep({ hash: findings, upload: null, shows: NOTHING }, { ...saved, hash: findings })).toBe('replace');
    expect(
      historyStep({ hash: findings, upload: null, shows: NOTHING }, { hash: findings, upload: null, shows: NOTHING }),
    ).toBe('none');
  });

  it("an entry the window did not write (the page's load, a link followed) is written over", () => {
    expect(historyStep(null, entry('#view=chain'))).toBe('replace');
    expect(entryOf(null, '#view=chain')).toBeNull();
    expect(entryOf({ 'reprise.link': entry('#view=open') }, '#view=chain')).toBeNull();
    expect(entryOf({ 'reprise.link': entry('#view=chain', 'u1') }, '#view=chain')).toEqual(entry('#view=chain', 'u1'));
    const shows = { case: 'case=/granted/c1', compare: '' };
    expect(entryOf({ 'reprise.link': { ...entry('#view=case'), shows } }, '#view=case')).toEqual({
      ...entry('#view=case'),
      shows,
    });
  });
});

describe('what returning to an entry shows again', () => {
  it('the same artifact in another view, however it ran since; not another artifact', () => {
    const chain = entry(`#view=chain&path=${encodeURIComponent(A)}&mode=verify&verdict=pass&sha256=${SHA}`);
    expect(returnTo(chain, state({ mode: 'replay' }), NAMES)).toBe('show');
    expect(returnTo(chain, state({ source: { type: 'path', path: B }, name: B }), NAMES)).toBe('follow');
  });

  it('a picked file only while that very upload is open', () => {
    const picked = entry('#view=chain&picked=mine.json', 'u1');
    const upload = (uploadId: string) => state({ source: { type: 'upload', uploadId }, name: 'mine.json' });
    expect(returnTo(picked, upload('u1'), NAMES)).toBe('show');
    expect(returnTo(picked, upload('u2'), NAMES)).toBe('follow');
  });

  it('the case open in the Case view; the Case view before a case was opened, without the case opened since', () => {
    const open = state({ caseFolder: '/granted/c1', caseOptions: {} });
    expect(returnTo(entry('#view=case&case=%2Fgranted%2Fc1'), open, NAMES)).toBe('show');
    expect(returnTo(entry('#view=case&case=%2Fgranted%2Fc2'), open, NAMES)).toBe('follow');
    const noCase = { ...entry(`#view=case&path=${encodeURIComponent(A)}`), shows: NOTHING };
    expect(returnTo(noCase, open, NAMES)).toBe('empty');
    expect(returnTo(noCase, state({ caseReport: savedReport('case.json') }), NAMES)).toBe('empty');
    expect(returnTo(noCase, state({ view: 'case' }), NAMES)).toBe('show');
    // An entry that does not say what its Case view showed names nothing there: never the case open now.
    expect(returnTo(entry(noCase.hash), open, NAMES)).toBe('empty');
  });

  it('a saved case report: shown again while it is open; no link reopens it, so the Case view is emptied', () => {
    const saved = state({ caseReport: savedReport('case.json') });
    const entrySaved = { ...entry(`#view=case&path=${encodeURIComponent(A)}`), shows: viewsShown(saved, NAMES) };
    expect(entrySaved.shows).toEqual({ case: `report=case.json\nsha256=sha256:${'c'.repeat(64)}`, compare: '' });
    expect(returnTo(entrySaved, saved, NAMES)).toBe('show');
    expect(returnTo(entrySaved, state({ caseReport: savedReport('other.json') }), NAMES)).toBe('empty');
    expect(returnTo(entrySaved, state({ caseFolder: '/granted/c1' }), NAMES)).toBe('empty');
  });

  it('two saved case reports of one file name are two things shown: the second a step, Back to the first empties the view', () => {
    const first = state({ view: 'case', caseReport: savedReport('case.json', 'c') });
    const second = state({ view: 'case', caseReport: savedReport('case.json', 'd') });
    const hash = `#view=case&path=${encodeURIComponent(A)}`;
    const entryOf = (s: ShownState) => ({ ...entry(hash), shows: viewsShown(s, NAMES) });
    expect(entryOf(first).shows.case).not.toBe(entryOf(second).shows.case);
    // Opened over the first, at the same address: a step of its own.
    expect(historyStep(entryOf(first), entryOf(second))).toBe('push');
    // Back to the first while the second is shown: no link reopens it, so the view is emptied, never the second shown as it.
    expect(returnTo(entryOf(first), second, NAMES)).toBe('empty');
    expect(returnTo(entryOf(first), first, NAMES)).toBe('show');
    // The emptied entry is then written over, not a step: Forward still reaches the second.
    expect(historyStep(entryOf(first), { ...entry(hash), shows: NOTHING })).toBe('replace');
  });

  it('the Compare view before a comparison was made, without the comparison made since', () => {
    const side = { target: { type: 'path' as const, name: A }, mode: 'verify' as const, whatIf: null, options: {} };
    const comparing = state({ compare: { left: side, right: { ...side, target: { type: 'path', name: B } } } });
    const none = { ...entry(`#view=compare&path=${encodeURIComponent(A)}`), shows: NOTHING };
    expect(returnTo(none, comparing, NAMES)).toBe('empty');
    expect(returnTo(none, state({}), NAMES)).toBe('show');
    const made = { ...entry(`#view=compare`), shows: viewsShown(comparing, NAMES) };
    expect(made.shows.compare).toContain(`left.path=${A}`);
    expect(returnTo({ ...made, hash: `#view=compare&left.path=${encodeURIComponent(A)}` }, state({}), NAMES)).toBe(
      'follow',
    );
  });
});

/** A stand-in for the tab's history: entries with their state, Back and Forward, a link typed in. */
const at = { hash: '' };
const entries: { state: unknown; hash: string }[] = [{ state: null, hash: '' }];
let index = 0;
const tab = {
  get state(): unknown {
    return entries[index]!.state;
  },
  pushState(state: unknown, _t: string, hash: string) {
    entries.splice(index + 1, entries.length, { state, hash });
    index += 1;
    at.hash = hash;
  },
  replaceState(state: unknown, _t: string, hash: string) {
    entries[index] = { state, hash };
    at.hash = hash;
  },
  go(n: number) {
    index += n;
    at.hash = entries[index]!.hash;
  },
  /** A link typed or followed in the tab: an entry of its own, which the window did not write. */
  follow(hash: string) {
    entries.splice(index + 1, entries.length, { state: null, hash });
    index += 1;
    at.hash = hash;
  },
};
stubBrowser(at);
beforeAll(() => vi.stubGlobal('history', tab));

const tick = () => new Promise((r) => setTimeout(r, 5));
const report = (path: string): Report =>
  ({
    schema: 'reprise.report/v1',
    artifact: { path, kind: 'replay-dump', id: 'x', sha256: SHA },
    verdict: 'pass',
    findings: [],
    chain: [],
  }) as unknown as Report;

type CaseStore = typeof import('../../renderer/src/case-store').useCase;
type CompareStore = typeof import('../../renderer/src/compare-store').useCompare;
/** The Case and Compare views' stores, loaded with the window's (after the browser stubs). */
let views: { useCase: CaseStore; useCompare: CompareStore };

async function store(api: unknown) {
  const { useStore } = await import('../../renderer/src/store');
  const [{ useCase }, { useCompare }] = await Promise.all([
    import('../../renderer/src/case-store'),
    import('../../renderer/src/compare-store'),
  ]);
  views = { useCase, useCompare };
  const options = [{ name: 'trustStore', help: 'trust store' }];
  useStore.setState({ api, info: { options }, examples: [], artifact: null, report: null, job: null } as never);
  return useStore;
}
type Store = Awaited<ReturnType<typeof store>>;

/** Writes the address for what the stores hold, as App.tsx's writer does (its own mapping). */
function write(s: Store): void {
  writeLink(linkStateOf(s.getState(), views.useCase.getState(), views.useCompare.getState().link), NAMES);
}

/** A move in the tab as the window hears it: twice (popstate, then hashchange), then the address written. */
async function moved(s: Store): Promise<void> {
  await s.getState().arrive();
  await s.getState().arrive();
  await tick();
  write(s);
}

const link = (path: string) => `#token=t&view=findings&path=${encodeURIComponent(path)}&trustStore=${TS}`;

describe('Back and Forward in the window', () => {
  it('return to the views of the artifact open without running it again; another one runs as its link says', async () => {
    const { api, jobs, end } = fakeEngine();
    const s = await store(api);
    tab.follow(link(A));
    await moved(s);
    end(report(A));
    await tick();
    write(s);
    expect(jobs).toHaveLength(1);
    const start = index;
    for (const v of ['chain', 'replay'] as const) {
      s.getState().setView(v);
      write(s);
    }
    expect(index).toBe(start + 2);

    tab.go(-1);
    await moved(s);
    expect(s.getState().view).toBe('chain');
    tab.go(-1);
    await moved(s);
    expect(s.getState().view).toBe('findings');
    tab.go(1);
    await moved(s);
    expect(s.getState().view).toBe('chain');
    expect(jobs).toHaveLength(1);
    expect(s.getState().report?.verdict).toBe('pass');

    // Another artifact opened by a link in the tab: Back to the first one runs it again, read-only, with its options.
    tab.follow(link(B));
    await moved(s);
    end(report(B));
    await tick();
    write(s);
    expect(jobs).toHaveLength(2);
    tab.go(-1);
    await moved(s);
    expect(jobs).toHaveLength(3);
    expect(jobs[2]!.req.options).toEqual({ trustStore: TS });
    expect(jobs[2]!.req.key).toBeUndefined();
    expect(s.getState().artifact?.name).toBe(A);
    expect(s.getState().view).toBe('chain');
  });

  it('say so when the entry returned to names an option the host no longer grants', async () => {
    const { api, end } = fakeEngine();
    const s = await store(api);
    tab.follow(link(A));
    await moved(s);
    end(report(A));
    await tick();
    write(s);
    tab.follow(link(B));
    await moved(s);
    end(report(B));
    await tick();
    write(s);
    const refused = `the trust store ${TS} is not under the folders this workbench was granted`;
    api.startJob = () => Promise.reject(new Error(refused));
    tab.go(-1);
    await moved(s);
    expect(s.getState().error).toContain(`This artifact is opened with the option trustStore (trust store) = ${TS}`);
    expect(s.getState().report).toBeNull();
  });

  it('Back to the Case view from before a case was opened shows it empty, never the case opened later', async () => {
    const { api, jobs, end } = fakeEngine();
    const cases: string[] = [];
    const withCases = {
      ...api,
      startCase: async (req: { source: { path: string } }) => {
        cases.push(req.source.path);
        return { caseId: `c${cases.length}`, dir: req.source.path };
      },
      cancelCase: async () => ({}),
    };
    const s = await store(withCases);
    views.useCase.getState().close();
    tab.follow(link(A));
    await moved(s);
    end(report(A));
    await tick();
    write(s);
    // The Case view with no case, the Findings view, the Case view again, where a case is then opened.
    for (const v of ['case', 'findings', 'case'] as const) {
      s.getState().setView(v);
      write(s);
    }
    const noCase = index - 2;
    await views.useCase.getState().openFolder('/granted/c1');
    write(s);
    expect(readLink(at.hash).caseFolder).toBe('/granted/c1');
    const entriesNow = entries.length;

    tab.go(-2);
    expect(index).toBe(noCase);
    await moved(s);
    expect(s.getState().view).toBe('case');
    expect(views.useCase.getState()).toMatchObject({ name: null, folder: null, running: null });
    // Its entry still says no case was open: the address names none, and no entry was added or lost.
    expect(readLink(at.hash).caseFolder).toBeNull();
    expect(readLink(entries[noCase]!.hash).caseFolder).toBeNull();
    expect(entries).toHaveLength(entriesNow);
    expect({ cases, jobs: jobs.length }).toEqual({ cases: ['/granted/c1'], jobs: 1 });

    // Forward to the case's own entry: no longer open, it is opened again as its link says.
    tab.go(2);
    await moved(s);
    expect(s.getState().view).toBe('case');
    expect(views.useCase.getState().folder).toBe('/granted/c1');
    expect(cases).toEqual(['/granted/c1', '/granted/c1']);
  });

  it('Back from a saved case report to another of the same file name empties the Case view, never shows the later one as it', async () => {
    const { api } = fakeEngine();
    const s = await store({ ...api, cancelCase: async () => ({}) });
    views.useCase.getState().close();
    s.getState().setView('case');
    tab.follow('#token=t&view=case');
    await moved(s);
    const saved = (verdict: string) =>
      ({
        name: 'case.json',
        text: async () =>
          JSON.stringify({ schema: 'reprise.case/v1', verdict, artifacts: [], timeline: [], links: [] }),
      }) as unknown as File;
    await views.useCase.getState().openSaved(saved('pass'));
    write(s);
    const first = index;
    await views.useCase.getState().openSaved(saved('fail'));
    write(s);
    // The second report of the same name is a step of its own, at the same address.
    expect(index).toBe(first + 1);
    expect(entries[first]!.hash).toBe(entries[index]!.hash);
    expect(views.useCase.getState().report?.verdict).toBe('fail');

    tab.go(-1);
    await moved(s);
    expect(s.getState().view).toBe('case');
    expect(views.useCase.getState()).toMatchObject({ name: null, report: null, savedSha256: null });
    // Its entry now says the view shows nothing, and the second one's entry is kept for Forward.
    expect(entries).toHaveLength(first + 2);
    tab.go(1);
    await moved(s);
    expect(views.useCase.getState().report).toBeNull();
  });
});
