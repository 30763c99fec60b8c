/**
 * A link that names nothing to open (a view alone, a bare token), followed in the same tab,
 * leaves what is open as it is, and the window writes the open artifact back into the
 * address (store.ts namesNothing, App.tsx useLinkWriter): copied or reloaded, the address
 * then opens what the window shows, never nothing under a verdict still on screen. A link
 * held because it could not be opened goes, with its note. A fake engine API; browser
 * globals stubbed.
 */
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import { fakeEngine } from './fake-engine';
import { linkFor, readLink } from '../../renderer/src/lib/deep-link';
import type { Report } from '../../shared/report';

const at = { hash: '' };
stubBrowser(at);

const tick = () => new Promise((r) => setTimeout(r, 5));
const SHA = `sha256:${'a'.repeat(64)}`;
const passing = {
  schema: 'reprise.report/v1',
  artifact: { path: '/granted/a.dump.json', kind: 'replay-dump', id: 'x', sha256: SHA },
  verdict: 'pass',
  findings: [],
  chain: [],
} as unknown as Report;

async function store(api: unknown) {
  const { useStore } = await import('../../renderer/src/store');
  const options = [{ name: 'trustStore', help: 'trust store' }];
  useStore.setState({ api, info: { options }, examples: [], artifact: null, report: null, job: null } as never);
  return useStore;
}

async function follow(useStore: Awaited<ReturnType<typeof store>>, hash: string) {
  at.hash = hash;
  await useStore.getState().restoreLink();
  await tick();
}

/** The address the window writes for what its store holds now, as App.tsx's writer does. */
function written(useStore: Awaited<ReturnType<typeof store>>): string {
  const s = useStore.getState();
  const a = s.artifact;
  return linkFor(
    at.hash,
    {
      view: s.view,
      source: a?.source ?? null,
      mode: a?.mode ?? null,
      whatIf: a?.whatIf ?? [],
      name: a?.name ?? null,
      options: a?.options ?? {},
      heldLink: a?.heldLink ?? null,
      seen: a?.source ? s.reportSeen : null,
    },
    ['trustStore'],
  );
}

describe('a link that names nothing to open', () => {
  for (const bare of ['#token=t&view=findings', '#token=t']) {
    it(`(${bare}) keeps the PASS on screen and asks for the address to be written again, naming it`, async () => {
      const { api, end } = fakeEngine();
      const s = await store(api);
      await follow(s, '#token=t&view=findings&path=/granted/a.dump.json&trustStore=/granted/ts.json');
      end(passing);
      await tick();
      const before = s.getState().linksNamingNothing;
      await follow(s, bare);
      expect(s.getState().report?.verdict).toBe('pass');
      expect(s.getState().artifact?.name).toBe('/granted/a.dump.json');
      // The writer runs again (it depends on this count) and names the artifact shown.
      expect(s.getState().linksNamingNothing).toBe(before + 1);
      const link = readLink(written(s), ['trustStore']);
      expect(link.path).toBe('/granted/a.dump.json');
      expect(link.options).toEqual({ trustStore: '/granted/ts.json' });
      expect(link.seen).toEqual({ sha256: SHA, verdict: 'pass' });
    });
  }

  it('lets go of a link held because it could not be opened, and of its note', async () => {
    const { api } = fakeEngine();
    const s = await store(api);
    await follow(s, '#token=t&view=findings&picked=mine.json');
    expect(s.getState().lastJobNote).toContain('mine.json, a file picked in this window');
    await follow(s, '#token=t&view=chain');
    expect(s.getState().artifact).toBeNull();
    expect(s.getState().lastJobNote).toBeNull();
    expect(written(s)).toBe('#token=t&view=chain');
  });
});
