/**
 * The Compare view has a permalink (renderer/src/lib/compare-link.ts, compare-store.ts): the
 * address names both sides (an example's id or a path under the granted folders, never a
 * key) with how each ran and the options its run took; a link to a comparison runs both
 * sides again with those options and compares them; a side the host refuses is said, naming
 * the side and its option, with nothing compared and the link kept; a picked file's side is
 * said to need picking again, with nothing run. A fake engine API; browser globals stubbed.
 */
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import type { Report } from '../../shared/report';
import { linkFor, linkTrouble, readLink, withoutKey, type LinkState } from '../../renderer/src/lib/deep-link';
import type { CompareLink } from '../../renderer/src/lib/compare-link';

const at = { hash: '' };
stubBrowser(at);

const OPTIONS = ['trustStore', 'providers', 'journal'];
const VIEWS = ['open', 'findings', 'compare', 'case'];
const tick = () => new Promise((r) => setTimeout(r, 5));
const report = (path: string): Report =>
  ({
    schema: 'reprise.report/v1',
    artifact: { path, kind: 'replay-dump', id: 'x', sha256: `sha256:${'a'.repeat(64)}` },
    verdict: 'pass',
    findings: [],
    chain: [],
  }) as unknown as Report;

const COMPARISON: CompareLink = {
  left: {
    target: { type: 'path', name: '/granted/a.dump.json' },
    mode: 'verify',
    whatIf: null,
    options: { trustStore: '/granted/ts.json' },
  },
  right: {
    target: { type: 'example', name: 'dumps/whatif/drift.dump.json' },
    mode: 'replay',
    whatIf: 'model=ref-2',
    options: {},
  },
};

const state = (s: Partial<LinkState>): LinkState => ({
  view: 'compare',
  source: null,
  mode: null,
  whatIf: [],
  name: null,
  ...s,
});

describe("a comparison's link", () => {
  it('names both sides, how each ran and its options, never a key, and reads back as written', () => {
    const withKey = {
      ...COMPARISON,
      left: { ...COMPARISON.left, options: { ...COMPARISON.left.options, key: '/k.pem' } },
    };
    const h = linkFor('#token=t', state({ compare: withKey }), OPTIONS);
    const p = new URLSearchParams(h.slice(1));
    expect(p.get('token')).toBe('t');
    expect(p.get('view')).toBe('compare');
    expect(p.get('left.path')).toBe('/granted/a.dump.json');
    expect(p.get('left.trustStore')).toBe('/granted/ts.json');
    expect(p.get('right.example')).toBe('dumps/whatif/drift.dump.json');
    expect(p.get('right.mode')).toBe('replay');
    expect(p.get('right.whatif')).toBe('model=ref-2');
    expect(h).not.toContain('key');
    expect(linkTrouble(h, OPTIONS, VIEWS)).toBeNull();
    expect(readLink(h, OPTIONS).compare).toEqual(COMPARISON);
  });

  it('names the open artifact instead in any other view, and drops an earlier link’s sides', () => {
    const h = linkFor(
      '#token=t&left.path=/old&right.example=x',
      state({ view: 'findings', compare: COMPARISON, source: { type: 'example', path: 'dumps/intact.dump.json' } }),
      OPTIONS,
    );
    expect(h).toBe('#token=t&view=findings&example=dumps%2Fintact.dump.json');
  });

  it('refuses a comparison that is not one request, naming why', () => {
    const both = 'left.path=/g/a&right.path=/g/b';
    expect(linkTrouble(`#view=compare&${both}&example=x`, OPTIONS, VIEWS)).toMatch(
      /names a comparison .* and "example=x": it is ambiguous/,
    );
    expect(linkTrouble('#view=compare&left.path=/g/a', OPTIONS, VIEWS)).toMatch(/without its right side/);
    expect(linkTrouble(`#view=compare&${both}&left.example=e`, OPTIONS, VIEWS)).toMatch(
      /as the left side of a comparison: it is ambiguous/,
    );
    expect(linkTrouble(`#view=compare&${both}&right.whatif=model%3Dref-2`, OPTIONS, VIEWS)).toMatch(
      /which applies to a replay only/,
    );
    expect(linkTrouble(`#view=compare&${both}&left.trustStore=`, OPTIONS, VIEWS)).toMatch(
      /"left.trustStore=" with no value/,
    );
    expect(linkTrouble(`#view=compare&${both}&left.policy=/p`, OPTIONS, VIEWS)).toMatch(
      /"left.policy" is no part of a link/,
    );
    expect(linkTrouble(`#view=findings&${both}`, OPTIONS, VIEWS)).toMatch(/shown in the Compare view/);
    expect(linkTrouble(`#view=compare&${both}&left.mode=replay&left.mode=verify`, OPTIONS, VIEWS)).toMatch(
      /gives left.mode more than once/,
    );
  });

  it('never keeps a key typed into a side', () => {
    expect(withoutKey('#token=t&left.path=/g/a&left.key=/k.pem&right.key=/k2.pem')).toBe('#token=t&left.path=%2Fg%2Fa');
  });
});

type Listener = (e: unknown) => void;
/** A stand-in engine: each job ends at once with a report of its source, or is refused by `refuse`. */
function fakeApi(refuse?: (req: { source: { path: string }; options?: Record<string, string> }) => string | null) {
  const subs = new Set<Listener>();
  const jobs: {
    source: { type: string; path: string };
    mode: string;
    whatIf?: string[];
    options?: Record<string, string>;
  }[] = [];
  const compared: unknown[] = [];
  const api = {
    onEvent: (f: Listener) => (subs.add(f), () => subs.delete(f)),
    async startJob(req: (typeof jobs)[number]) {
      jobs.push(req);
      const jobId = `j${jobs.length}`;
      const why = refuse?.(req) ?? null;
      setTimeout(() =>
        [...subs].forEach((f) =>
          f(
            why
              ? { type: 'job-failed', jobId, message: why }
              : { type: 'job-done', jobId, report: report(req.source.path) },
          ),
        ),
      );
      return { jobId };
    },
    async compareArtifacts(req: unknown) {
      compared.push(req);
      return {
        result: { identical: true, total: 0, differences: [], lengths: [] },
        left: { name: 'l' },
        right: { name: 'r' },
        kind: 'replay-dump',
      };
    },
  };
  return { api, jobs, compared };
}

async function stores(api: unknown) {
  const { useStore } = await import('../../renderer/src/store');
  const { useCompare } = await import('../../renderer/src/compare-store');
  const options = OPTIONS.map((name) => ({ name, help: `the ${name} option` }));
  useStore.setState({
    api,
    info: { options },
    examples: [],
    artifact: null,
    report: null,
    job: null,
    view: 'open',
  } as never);
  useCompare.getState().close();
  return { useStore, useCompare };
}

async function follow(useStore: Awaited<ReturnType<typeof stores>>['useStore'], hash: string) {
  at.hash = hash;
  await useStore.getState().restoreLink();
  await tick();
}

describe('a link to a comparison, followed', () => {
  const link = linkFor('#token=t', state({ compare: COMPARISON }), OPTIONS);

  it('shows the Compare view and runs both sides as the link names them, then compares them', async () => {
    const { api, jobs, compared } = fakeApi();
    const { useStore, useCompare } = await stores(api);
    await follow(useStore, link);
    expect(useStore.getState().view).toBe('compare');
    expect(jobs).toEqual([
      {
        source: { type: 'path', path: '/granted/a.dump.json' },
        mode: 'verify',
        options: { trustStore: '/granted/ts.json' },
      },
      { source: { type: 'example', path: 'dumps/whatif/drift.dump.json' }, mode: 'replay', whatIf: ['model=ref-2'] },
    ]);
    expect(compared).toHaveLength(1);
    expect(useCompare.getState().compared?.result.identical).toBe(true);
    expect(useCompare.getState().error).toBeNull();
    // The address written back names the same comparison.
    expect(
      readLink(linkFor(at.hash, state({ compare: useCompare.getState().link }), OPTIONS), OPTIONS).compare,
    ).toEqual(COMPARISON);
  });

  it('says which side the host refused and which option, compares nothing, and keeps naming the comparison', async () => {
    const refusal =
      'refused: /granted/ts.json is outside the folders this workbench may read; start reprise serve with --root DIR naming a folder that contains it';
    const { api, compared } = fakeApi((req) => (req.options?.['trustStore'] ? refusal : null));
    const { useStore, useCompare } = await stores(api);
    await follow(useStore, link);
    const error = useCompare.getState().error!;
    expect(error).toMatch(/^The left side, \/granted\/a\.dump\.json, was not run, so nothing was compared: /);
    expect(error).toContain('the option trustStore (the trustStore option) = /granted/ts.json');
    expect(error).toContain(refusal);
    expect(compared).toHaveLength(0);
    expect(useCompare.getState().compared).toBeNull();
    expect(useCompare.getState().link).toEqual(COMPARISON);
  });

  it('runs nothing for a side picked in the window, and says to pick it again', async () => {
    const { api, jobs } = fakeApi();
    const { useStore, useCompare } = await stores(api);
    const picked = {
      ...COMPARISON,
      right: { target: { type: 'picked', name: 'mine.json' }, mode: 'verify', whatIf: null, options: {} },
    } as CompareLink;
    await follow(useStore, linkFor('#token=t', state({ compare: picked }), OPTIONS));
    expect(jobs).toHaveLength(0);
    expect(useCompare.getState().error).toBe(
      "This link compared the right side, mine.json, picked in the window: a link keeps no file's bytes, so nothing was compared. Pick it again and compare.",
    );
    expect(useCompare.getState().right.from).toBe('file');
    expect(useCompare.getState().link).toEqual(picked);
  });

  it('a refused link closes the comparison on screen', async () => {
    const { api } = fakeApi();
    const { useStore, useCompare } = await stores(api);
    await follow(useStore, link);
    await follow(useStore, '#token=t&view=compare&bogus=1');
    expect(useCompare.getState().link).toBeNull();
    expect(useCompare.getState().compared).toBeNull();
  });
});
