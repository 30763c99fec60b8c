/**
 * The Compare view has a permalink (renderer/src/lib/compare-link.ts, compare-store.ts): the
 * address names both sides (an example's id or a path under the granted folders, never a
 * key) with how each ran and the options its run took; a link to a comparison runs both
 * sides again with those options and compares them; a side the host refuses is said, naming
 * the side and its option, with nothing compared and the link kept; a picked file's side is
 * said to need picking again, with nothing run. Once both sides ran, each side says what its
 * run saw (`left.sha256=`, `left.verdict=`), and a link's comparison whose side reads otherwise
 * says so, naming the side; an older link without them opens with no note. A fake engine
 * API; browser globals stubbed.
 */
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import type { Report } from '../../shared/report';
import {
  linkFor,
  linkOpens,
  linkTrouble,
  readLink,
  withoutKey,
  type LinkSeen,
  type LinkState,
} from '../../renderer/src/lib/deep-link';
import { comparisonChanged, type CompareLink } from '../../renderer/src/lib/compare-link';

const at = { hash: '' };
stubBrowser(at);

const OPTIONS = ['trustStore', 'providers', 'journal'];
const VIEWS = ['open', 'findings', 'compare', 'case'];
const tick = () => new Promise((r) => setTimeout(r, 5));
const sha = (c: string) => `sha256:${c.repeat(64)}`;
const report = (path: string, sha256 = sha('a'), verdict: Report['verdict'] = 'pass'): Report =>
  ({
    schema: 'reprise.report/v1',
    artifact: { path, kind: 'replay-dump', id: 'x', sha256 },
    verdict,
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

  it('says what each side’s run saw once it ran, reads it back, and is the same comparison with or without it', () => {
    const seen = {
      left: { ...COMPARISON.left, seen: { sha256: sha('1'), verdict: 'pass' } },
      right: { ...COMPARISON.right, seen: { sha256: null, verdict: 'fail' } },
    } satisfies CompareLink;
    const h = linkFor('#token=t', state({ compare: seen }), OPTIONS);
    const p = new URLSearchParams(h.slice(1));
    expect(p.get('left.sha256')).toBe(sha('1'));
    expect(p.get('left.verdict')).toBe('pass');
    expect(p.has('right.sha256')).toBe(false);
    expect(p.get('right.verdict')).toBe('fail');
    expect(p.has('sha256') || p.has('verdict')).toBe(false);
    expect(linkTrouble(h, OPTIONS, VIEWS)).toBeNull();
    expect(readLink(h, OPTIONS).compare).toEqual(seen);
    // What a run saw is no other comparison: the history rewrites the entry instead of a step.
    expect(linkOpens(h)).toBe(linkOpens(linkFor('#token=t', state({ compare: COMPARISON }), OPTIONS)));
    // A side picked in the window is no run a link reopens: nothing said of it.
    const picked = { ...seen, left: { ...seen.left, target: { type: 'picked', name: 'mine.json' } } } as CompareLink;
    expect(new URLSearchParams(linkFor('', state({ compare: picked }), OPTIONS).slice(1)).has('left.verdict')).toBe(
      false,
    );
  });

  it('refuses what a side says it saw when it is malformed or of a picked file', () => {
    const both = 'view=compare&left.path=/g/a&right.path=/g/b';
    expect(linkTrouble(`#${both}&left.verdict=green`, OPTIONS, VIEWS)).toMatch(
      /the left side's run read "left.verdict=green"; a verdict is pass, fail or unavailable/,
    );
    expect(linkTrouble(`#${both}&right.sha256=abc&right.verdict=pass`, OPTIONS, VIEWS)).toMatch(
      /"right.sha256=abc", which is no SHA-256/,
    );
    expect(linkTrouble(`#${both}&left.sha256=${sha('1')}`, OPTIONS, VIEWS)).toMatch(
      /the SHA-256 the left side's run saw without that run's verdict/,
    );
    expect(linkTrouble(`#${both}&left.verdict=pass&left.verdict=fail`, OPTIONS, VIEWS)).toMatch(
      /gives left.verdict more than once/,
    );
    expect(linkTrouble('#view=compare&left.picked=m.json&right.path=/g/b&left.verdict=pass', OPTIONS, VIEWS)).toMatch(
      /of a file picked in the window, which no link reopens/,
    );
  });

  it('never keeps a key typed into a side', () => {
    expect(withoutKey('#token=t&left.path=/g/a&left.key=/k.pem&right.key=/k2.pem')).toBe('#token=t&left.path=%2Fg%2Fa');
  });
});

type Listener = (e: unknown) => void;
type Req = { source: { path: string }; options?: Record<string, string> };
/** A stand-in engine: each job ends at once with a report of its source (`reportOf`'s), or is refused by `refuse`. */
function fakeApi(refuse?: (req: Req) => string | null, reportOf: (req: Req) => Report = (r) => report(r.source.path)) {
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
          f(why ? { type: 'job-failed', jobId, message: why } : { type: 'job-done', jobId, report: reportOf(req) }),
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
    // An older link, which says nothing of what its sides saw: no note.
    expect(useCompare.getState().note).toBeNull();
    // The address written back names the same comparison, with what each side's run saw.
    const seen: LinkSeen = { sha256: sha('a'), verdict: 'pass' };
    expect(
      readLink(linkFor(at.hash, state({ compare: useCompare.getState().link }), OPTIONS), OPTIONS).compare,
    ).toEqual({ left: { ...COMPARISON.left, seen }, right: { ...COMPARISON.right, seen } });
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

  it('holds the link’s own run to what its sides saw: a side over other bytes or reading another verdict is named', async () => {
    const linked: CompareLink = {
      left: { ...COMPARISON.left, seen: { sha256: sha('a'), verdict: 'pass' } },
      right: { ...COMPARISON.right, seen: { sha256: sha('b'), verdict: 'pass' } },
    };
    // The left side's file now holds other bytes; the right side reads as the link says.
    const { api } = fakeApi(undefined, (r) =>
      r.source.path === '/granted/a.dump.json'
        ? report(r.source.path, sha('c'), 'fail')
        : report(r.source.path, sha('b')),
    );
    const { useStore, useCompare } = await stores(api);
    await follow(useStore, linkFor('#token=t', state({ compare: linked }), OPTIONS));
    expect(useCompare.getState().compared).not.toBeNull();
    expect(useCompare.getState().note).toBe(
      `The left side: this link was made from a file whose SHA-256 was ${sha('a')} (PASS); the file now at ` +
        `/granted/a.dump.json is ${sha('c')} (FAIL): it is not the file the link was shared from.`,
    );
    // The address then says what this run saw.
    expect(useCompare.getState().link?.left.seen).toEqual({ sha256: sha('c'), verdict: 'fail' });
    // The user's own comparison afterwards is held to nothing.
    await useCompare.getState().run();
    await tick();
    expect(useCompare.getState().compared).not.toBeNull();
    expect(useCompare.getState().note).toBeNull();
  });

  it('no note when both sides read as the link says', async () => {
    const seen: LinkSeen = { sha256: sha('a'), verdict: 'pass' };
    const linked: CompareLink = { left: { ...COMPARISON.left, seen }, right: { ...COMPARISON.right, seen } };
    const { api } = fakeApi();
    const { useStore, useCompare } = await stores(api);
    await follow(useStore, linkFor('#token=t', state({ compare: linked }), OPTIONS));
    expect(useCompare.getState().compared).not.toBeNull();
    expect(useCompare.getState().note).toBeNull();
  });
});

describe('what a comparison’s link saw, against its run', () => {
  const with_ = (l: LinkSeen | undefined, r: LinkSeen | undefined): CompareLink => ({
    left: { ...COMPARISON.left, ...(l ? { seen: l } : {}) },
    right: { ...COMPARISON.right, ...(r ? { seen: r } : {}) },
  });
  const now = (l: LinkSeen, r: LinkSeen) => ({ left: l, right: r });
  const A: LinkSeen = { sha256: sha('a'), verdict: 'pass' };

  it('says nothing when the link says nothing (an older link) or every side reads as it says', () => {
    expect(comparisonChanged(COMPARISON, now({ sha256: sha('f'), verdict: 'fail' }, A))).toBeNull();
    expect(comparisonChanged(with_(A, A), now(A, A))).toBeNull();
    expect(comparisonChanged(with_(undefined, A), now({ sha256: sha('f'), verdict: 'fail' }, A))).toBeNull();
  });

  it('names the side whose same bytes read another verdict, with both verdicts', () => {
    expect(comparisonChanged(with_(A, A), now(A, { sha256: sha('a'), verdict: 'unavailable' }))).toBe(
      'The right side: this link was made when dumps/whatif/drift.dump.json read PASS; the same bytes now read ' +
        "UNAVAILABLE with the link's options: a file one of them names (a trust store, providers, a policy) is not what it was.",
    );
  });

  it('names each side that changed, the left first', () => {
    const note = comparisonChanged(
      with_(A, A),
      now({ sha256: sha('c'), verdict: 'pass' }, { sha256: null, verdict: 'fail' }),
    )!;
    expect(note).toMatch(/^The left side: .* the file now at \/granted\/a\.dump\.json is sha256:c{64} \(PASS\)/);
    expect(note).toMatch(/The right side: .* is of no SHA-256 the engine could take \(FAIL\)/);
  });

  it('a picked side is held to nothing (no link reopens it)', () => {
    const picked = {
      ...with_(A, A),
      left: { ...with_(A, A).left, target: { type: 'picked', name: 'm.json' } },
    } as CompareLink;
    expect(comparisonChanged(picked, now({ sha256: sha('c'), verdict: 'fail' }, A))).toBeNull();
  });
});
