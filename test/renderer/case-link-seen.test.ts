/**
 * A case's link carries what its case saw (lib/deep-link.ts CaseSeen: the case's verdict and
 * `content`, the SHA-256 of its artifacts' paths and SHA-256s), and a case a link reopens is
 * held to it, as a path link is: the same files reading another verdict (a key revoked in the
 * link's trust store) or other files in the folder are said in the case's note. Only once the
 * case has ended does its link claim anything. A fake engine API; browser globals stubbed.
 */
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import { caseArtifact as artifact, sha } from '../helpers/case-view';
import type { CaseArtifact, CaseReport } from '../../shared/case';
import { caseChanged, linkFor, linkTrouble, readLink, type LinkState } from '../../renderer/src/lib/deep-link';

const at = { hash: '' };
stubBrowser(at);

const VIEWS = ['findings', 'case'];
const tick = () => new Promise((r) => setTimeout(r, 5));
const caseReport = (verdict: CaseReport['verdict'], artifacts: CaseArtifact[]): CaseReport =>
  ({ schema: 'reprise.case/v1', verdict, artifacts, links: [], timeline: [], judgements: [], findings: [] }) as never;

type Listener = (e: unknown) => void;
function fakeApi() {
  const subs = new Set<Listener>();
  let n = 0;
  const api = {
    onEvent: (f: Listener) => (subs.add(f), () => subs.delete(f)),
    startCase: async () => ({ caseId: `c${++n}`, dir: '/granted/mini' }),
    cancelCase: async () => ({}),
  };
  const done = (report: CaseReport) => [...subs].forEach((f) => f({ type: 'case-done', caseId: `c${n}`, report }));
  return { api, done };
}

async function stores(api: unknown) {
  const { useStore } = await import('../../renderer/src/store');
  const { useCase, caseContent } = await import('../../renderer/src/case-store');
  useStore.setState({ api, info: { options: [{ name: 'trustStore', help: 'trust store' }] }, examples: [] } as never);
  return { useStore, useCase, caseContent };
}

const caseState = (s: Partial<LinkState>): LinkState => ({
  view: 'case',
  source: null,
  mode: null,
  whatIf: [],
  name: null,
  caseFolder: '/granted/mini',
  caseOptions: { trustStore: '/granted/mini-ts.json' },
  ...s,
});

describe("a case link's record of its case", () => {
  it('is written once the case has ended, and read back', async () => {
    const seen = { content: sha('c'), verdict: 'pass' as const };
    const h = linkFor('#token=t', caseState({ caseSeen: seen }), ['trustStore']);
    const p = new URLSearchParams(h.slice(1));
    expect(p.get('verdict')).toBe('pass');
    expect(p.get('content')).toBe(sha('c'));
    expect(p.has('sha256')).toBe(false);
    expect(linkTrouble(h, ['trustStore'], VIEWS)).toBeNull();
    expect(readLink(h, ['trustStore']).caseSeen).toEqual(seen);
    expect(readLink(h, ['trustStore']).seen).toBeNull();
    // Still running (nothing seen yet): the link claims nothing.
    expect(linkFor('#token=t', caseState({ caseSeen: null }), ['trustStore'])).not.toMatch(/verdict|content/);
  });

  it('refuses a record that is malformed or not a case’s', () => {
    expect(linkTrouble(`#view=case&case=/r/c&verdict=pass&content=abc`, [], VIEWS)).toMatch(
      /"content=abc", which is no SHA-256/,
    );
    expect(linkTrouble(`#view=case&case=/r/c&verdict=pass&sha256=${sha('a')}`, [], VIEWS)).toMatch(
      /for a case, whose link says what it saw with content=/,
    );
    expect(linkTrouble(`#path=/r/a&verdict=pass&content=${sha('a')}`, [], VIEWS)).toMatch(
      /which only a case's link carries/,
    );
    expect(linkTrouble(`#view=case&case=/r/c&content=${sha('a')}`, [], VIEWS)).toMatch(/without that run's verdict/);
  });

  it('says when the same files now read another verdict, or when the folder holds other files', () => {
    const was = { content: sha('c'), verdict: 'pass' as const };
    expect(caseChanged(was, was, '/r/c')).toBeNull();
    expect(caseChanged(null, { ...was, verdict: 'fail' }, '/r/c')).toBeNull();
    expect(caseChanged(was, { ...was, verdict: 'fail' }, '/r/c')).toBe(
      "This link was made when the case /r/c read PASS; the same files now read FAIL with the link's options: a file one of them names (a trust store, providers, a policy) is not what it was.",
    );
    expect(caseChanged(was, { content: sha('d'), verdict: 'pass' }, '/r/c')).toBe(
      `This link was made when the case /r/c held other files (content ${sha('c')}, PASS); it now holds content ${sha('d')}, which reads PASS: it is not the case the link was shared from.`,
    );
  });

  it('a case reopened from its link over a revoked key says the verdict changed; the link then names the new run', async () => {
    const { api, done } = fakeApi();
    const { useStore, useCase, caseContent } = await stores(api);
    const files = [artifact('intact.dump.json', 'a')];
    const content = caseContent(files);
    expect(content).toMatch(/^sha256:[0-9a-f]{64}$/);
    // The same list in another order is the same content; another file's bytes is not.
    expect(caseContent([artifact('b.json', 'b'), ...files])).toBe(caseContent([...files, artifact('b.json', 'b')]));
    expect(caseContent([artifact('intact.dump.json', 'e')])).not.toBe(content);

    at.hash = `#token=t&view=case&case=/granted/mini&trustStore=/granted/mini-ts.json&verdict=pass&content=${content}`;
    await useStore.getState().restoreLink();
    await tick();
    expect(useCase.getState().seen).toBeNull();
    done(caseReport('fail', files));
    await tick();
    expect(useCase.getState().note).toBe(
      "This link was made when the case /granted/mini read PASS; the same files now read FAIL with the link's options: a file one of them names (a trust store, providers, a policy) is not what it was.",
    );
    expect(useCase.getState().seen).toEqual({ content, verdict: 'fail' });

    // The user's own open of the same folder is held to nothing.
    await useCase.getState().openFolder('/granted/mini', { trustStore: '/granted/mini-ts.json' }, 'verify');
    done(caseReport('pass', files));
    await tick();
    expect(useCase.getState().note).toBeNull();
  });
});
