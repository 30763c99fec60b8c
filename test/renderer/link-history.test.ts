/**
 * The window's history (lib/link-history.ts): a change of view, or another artifact, case or
 * comparison opened, is a step of its own, so Back returns to the view before it; what is
 * no navigation (a verdict arriving, a case opened where none was) rewrites the entry.
 * Returning to an entry that names what is open shows its view and runs nothing; an entry
 * naming what is no longer open is followed as a link (run again, read-only, its options
 * refused in words when they no longer can be granted). Pure functions, then the store
 * with a fake engine and a stand-in history.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from './browser-stubs';
import { fakeEngine } from './fake-engine';
import type { LinkState } from '../../renderer/src/lib/deep-link';
import { entryOf, historyStep, revisits, writeLink } from '../../renderer/src/lib/link-history';
import type { Report } from '../../shared/report';

const NAMES = ['trustStore'];
const A = '/granted/a.dump.json';
const B = '/granted/b.dump.json';
const TS = '/granted/ts.json';
const SHA = `sha256:${'a'.repeat(64)}`;
const entry = (hash: string, upload: string | null = null) => ({ hash, upload });

const state = (s: Partial<LinkState>): LinkState => ({
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

  it("an entry the window did not write (the page's load, a link followed) is written over", () => {
    expect(historyStep(null, entry('#view=chain'))).toBe('replace');
    expect(entryOf(null, '#view=chain')).toBeNull();
    expect(entryOf({ 'reprise.link': entry('#view=open') }, '#view=chain')).toBeNull();
    expect(entryOf({ 'reprise.link': entry('#view=chain', 'u1') }, '#view=chain')).toEqual(entry('#view=chain', 'u1'));
  });
});

describe('what returning to an entry shows again', () => {
  it('the same artifact in another view, however it ran since; not another artifact', () => {
    const chain = entry(`#view=chain&path=${encodeURIComponent(A)}&mode=verify&verdict=pass&sha256=${SHA}`);
    expect(revisits(chain, state({ mode: 'replay' }), NAMES)).toBe(true);
    expect(revisits(chain, state({ source: { type: 'path', path: B }, name: B }), NAMES)).toBe(false);
  });

  it('a picked file only while that very upload is open', () => {
    const picked = entry('#view=chain&picked=mine.json', 'u1');
    const upload = (uploadId: string) => state({ source: { type: 'upload', uploadId }, name: 'mine.json' });
    expect(revisits(picked, upload('u1'), NAMES)).toBe(true);
    expect(revisits(picked, upload('u2'), NAMES)).toBe(false);
  });

  it('the case open in the Case view; the Case view before a case was opened', () => {
    const open = state({ caseFolder: '/granted/c1', caseOptions: {} });
    expect(revisits(entry('#view=case&case=%2Fgranted%2Fc1'), open, NAMES)).toBe(true);
    expect(revisits(entry('#view=case&case=%2Fgranted%2Fc2'), open, NAMES)).toBe(false);
    expect(revisits(entry(`#view=case&path=${encodeURIComponent(A)}`), open, NAMES)).toBe(true);
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

async function store(api: unknown) {
  const { useStore } = await import('../../renderer/src/store');
  const options = [{ name: 'trustStore', help: 'trust store' }];
  useStore.setState({ api, info: { options }, examples: [], artifact: null, report: null, job: null } as never);
  return useStore;
}
type Store = Awaited<ReturnType<typeof store>>;

/** Writes the address for what the store holds, as App.tsx's writer does. */
function write(s: Store): void {
  const { view, artifact: a, reportSeen } = s.getState();
  writeLink(
    {
      view,
      source: a?.source ?? null,
      mode: a?.mode ?? null,
      whatIf: a?.whatIf ?? [],
      name: a?.name ?? null,
      options: a?.options ?? {},
      heldLink: a?.heldLink ?? null,
      seen: a?.source ? reportSeen : null,
    },
    NAMES,
  );
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
});
