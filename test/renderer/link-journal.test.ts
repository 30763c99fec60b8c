/**
 * A link pins its options to the artifact it opens, a `journal` among them; the header's
 * journal and key are the reviewer's. Anything that signs signs into the header's journal
 * only: the user's own replay on an artifact a link pinned another journal to is refused
 * before it runs, naming both (store.ts `signsElsewhere`), and a replay without a key still
 * reads the link's journal. The Replay view names the journal a run was sent with, never
 * the header's of the moment, and shows the options a link pinned. A fake engine API;
 * browser globals stubbed to the few the stores touch.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import { fakeEngine } from './fake-engine';
import type { Report } from '../../shared/report';

const at = { hash: '' };
stubBrowser(at);

const HEADER = { dir: '/granted/mine', trustStore: '/granted/ts.json' };
const KEY = '/granted/officer.pem';
const OTHER = '/granted/other';

/** A TG replay's report whose run anchored one drift event and opened a case. */
const anchoredReport = {
  schema: 'reprise.report/v1',
  artifact: { path: '/granted/m.json', kind: 'tg-replay-manifest', id: 'm', sha256: `sha256:${'a'.repeat(64)}` },
  verdict: 'pass',
  findings: [],
  chain: [],
  comparisons: [],
  events: [
    { type: 'REPLAY-DRIFT', decisionMaterial: true, anchor: { seq: 4, entryHash: 'sha256:e' } },
    { type: 'ROUTING', claimRef: 'claim:1', case: { caseId: 'case-2' }, alreadyOpen: false, anchored: true },
  ],
} as unknown as Report;
const tick = () => new Promise((r) => setTimeout(r, 5));

let connected = false;
/** Both stores, connected as the window connects them, with the header's journal open and `key` chosen. */
async function stores(api: unknown, key: string) {
  const { useStore } = await import('../../renderer/src/store');
  const { useJudgement, connectJudgement } = await import('../../renderer/src/judgement-store');
  if (!connected) connectJudgement();
  connected = true;
  // The engine's workbench options a link may name (EngineInfo.options).
  const options = ['trustStore', 'providers', 'journal'].map((name) => ({ name, help: name }));
  useStore.setState({ api, info: { options }, examples: [], artifact: null, report: null, job: null } as never);
  useJudgement.setState({ work: HEADER, keyPath: key });
  return { useStore, useJudgement };
}

async function follow(useStore: Awaited<ReturnType<typeof stores>>['useStore'], hash: string) {
  at.hash = hash;
  await useStore.getState().restoreLink();
  await tick();
}

describe("a link's journal and the header's key", () => {
  it("refuses the user's signed replay on an artifact a link pinned another journal to, naming both", async () => {
    const { api, jobs, end } = fakeEngine();
    const { useStore } = await stores(api, KEY);
    await follow(useStore, `#view=replay&path=/granted/m.json&mode=replay&journal=${OTHER}`);
    // The link's own run: read-only, in the link's journal.
    expect(jobs[0]!.req.options?.['journal']).toBe(OTHER);
    expect(jobs[0]!.req.key).toBeUndefined();
    end(anchoredReport);
    await tick();
    // Its note says how to anchor: not by running it again here, which would be refused.
    expect(useStore.getState().lastJobNote).toContain(
      `nothing was anchored in the journal ${HEADER.dir} (no drift entry signed, no case opened). It read the journal ${OTHER} the link names: to anchor there, open that journal in the header`,
    );
    await useStore.getState().run('replay');
    await tick();
    // Nothing reached the engine: no key was sent with the link's journal, nor any run without it.
    expect(jobs).toHaveLength(1);
    expect(jobs.some((j) => j.req.key !== undefined)).toBe(false);
    const error = useStore.getState().error ?? '';
    expect(error).toContain(`opened from a link with the journal ${OTHER}`);
    expect(error).toContain(`into the journal ${HEADER.dir} chosen in the header`);
    expect(error).toContain('nothing was run or signed');
  });

  it('lets a replay without a key read the link’s journal (the link reproduces its verdict)', async () => {
    const { api, jobs, end } = fakeEngine();
    const { useStore } = await stores(api, '');
    await follow(useStore, `#view=replay&path=/granted/m.json&mode=replay&journal=${OTHER}`);
    end(anchoredReport);
    await tick();
    await useStore.getState().run('replay');
    expect(useStore.getState().error).toBeNull();
    expect(jobs).toHaveLength(2);
    expect(jobs[1]!.req.options?.['journal']).toBe(OTHER);
    expect(jobs[1]!.req.key).toBeUndefined();
  });

  it('signs when the link’s journal is the header’s, and names the journal the run was sent with', async () => {
    const { api, jobs, end } = fakeEngine();
    const { useStore, useJudgement } = await stores(api, KEY);
    const { AnchoredWords, anchoring } = await import('../../renderer/src/components/ReplayNotes');
    await follow(useStore, `#view=replay&path=/granted/m.json&mode=replay&journal=${HEADER.dir}`);
    end(anchoredReport);
    await tick();
    await useStore.getState().run('replay');
    expect(jobs[1]!.req).toMatchObject({ key: KEY, options: { journal: HEADER.dir } });
    end(anchoredReport);
    await tick();
    // The header now shows another journal: the note still names the one the run wrote to.
    useJudgement.setState({ work: { dir: OTHER, trustStore: HEADER.trustStore } });
    const a = anchoring(useStore.getState().report!)!;
    const journal = useStore.getState().reportOptions['journal'];
    const words = renderToStaticMarkup(createElement(AnchoredWords, { a, journal })).replace(/<[^>]*>/g, '');
    expect(words).toBe(
      `Anchored in the journal ${HEADER.dir}: 1 drift event(s); Human Review case case-2 opened for claim:1.`,
    );
  });

  it('says the options a link pinned, which no field shows, and that a signing replay needs them in the header', async () => {
    const { PinnedOptions } = await import('../../renderer/src/components/ReplayNotes');
    const html = renderToStaticMarkup(createElement(PinnedOptions, { pinned: { journal: OTHER } }));
    expect(html).toContain('Opened from a link with');
    expect(html).toContain(`journal <span class="mono"><bdi>${OTHER}</bdi></span>`);
    expect(html).toContain('A replay that signs runs only when this journal is also the one open in the header.');
    expect(renderToStaticMarkup(createElement(PinnedOptions, {}))).toBe('');
  });
});
