/**
 * The window says, beside the verdict, which options it sent were not read for the
 * artifact's kind (the host's job-done `unread`): the store keeps them with the report of
 * that run only (a saved report has none), and the banner's note says them in plain words,
 * as a note (role="note"), naming the kind and that the verdict was made without them. A
 * fake engine API; browser globals stubbed to the few the store touches.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import type { UnreadOption } from '../../shared/api';
import type { Report } from '../../shared/report';
import { UnreadNote } from '../../renderer/src/components/VerdictBanner';

stubBrowser();

const PROVIDERS: UnreadOption = { name: 'providers', help: 'the provider registry replays re-execute against' };
const PROFILES: UnreadOption = {
  name: 'profiles',
  help: "the kernel profile registry a package's profile is checked against",
};
const bundle = {
  schema: 'reprise.report/v1',
  artifact: { path: '/d/bundle.json', kind: 'tg-policy-bundle', id: 'b', sha256: `sha256:${'a'.repeat(64)}` },
  verdict: 'pass',
  findings: [],
  chain: [],
} as unknown as Report;
const tick = () => new Promise((r) => setTimeout(r, 5));

type Listener = (e: unknown) => void;
function fakeApi() {
  const subs = new Set<Listener>();
  const jobs: string[] = [];
  const api = {
    onEvent: (f: Listener) => (subs.add(f), () => subs.delete(f)),
    async startJob() {
      jobs.push(`j${jobs.length + 1}`);
      return { jobId: jobs.at(-1)! };
    },
    async cancelJob() {
      return {};
    },
    artifactContent: async () => ({ raw: null, canonical: null, note: '' }),
    recentFiles: async () => [],
  };
  const end = (unread?: UnreadOption[]) =>
    [...subs].forEach((f) =>
      f({ type: 'job-done', jobId: jobs.at(-1)!, report: bundle, ...(unread ? { unread } : {}) }),
    );
  return { api, end };
}

describe('options not read for the open artifact', () => {
  it('are kept with the report of the run the host said them of, and go with it', async () => {
    const { useStore } = await import('../../renderer/src/store');
    const { api, end } = fakeApi();
    useStore.setState({ api, info: { options: [] }, examples: [], artifact: null, report: null, job: null } as never);
    await useStore.getState().openPath('/d/bundle.json', 'verify');
    end([PROVIDERS]);
    await tick();
    expect(useStore.getState().report).toBe(bundle);
    expect(useStore.getState().reportUnread).toEqual([PROVIDERS]);
    // A later run whose host listed nothing (or an older host that says nothing) shows no note.
    await useStore.getState().run('verify');
    end();
    await tick();
    expect(useStore.getState().reportUnread).toEqual([]);
    await useStore.getState().run('verify');
    end([PROVIDERS]);
    await tick();
    // A saved report was run by nobody here: no note carried over from the run before.
    useStore.getState().showReport(bundle, 'saved.json');
    expect(useStore.getState().reportUnread).toEqual([]);
  });

  it('are said as a note naming the kind, each option in its declaration’s words, and the verdict made without them', () => {
    const one = renderToStaticMarkup(createElement(UnreadNote, { kind: 'tg-policy-bundle', unread: [PROVIDERS] }));
    expect(one).toContain('role="note"');
    const text = one.replace(/<[^>]+>/g, '');
    expect(text).toBe(
      'Not read for this artifact (kind tg-policy-bundle): the option providers (the provider registry replays re-execute against). This verdict was made without it.',
    );
    const two = renderToStaticMarkup(
      createElement(UnreadNote, { kind: 'replay-dump', unread: [PROVIDERS, PROFILES] }),
    ).replace(/<[^>]+>/g, '');
    expect(two).toContain('providers (the provider registry replays re-execute against); the option profiles');
    expect(two).toContain('This verdict was made without them.');
    expect(renderToStaticMarkup(createElement(UnreadNote, { kind: 'replay-dump', unread: [] }))).toBe('');
  });
});
