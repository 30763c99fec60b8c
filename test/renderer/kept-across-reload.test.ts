/**
 * What the tab keeps across a reload (lib/tab-keep.ts, lib/kept-receipt.ts,
 * lib/kept-sweep.ts, docs/workbench.md "Kept across a reload"): the officer's last receipt
 * with the journal it was signed into, and the trainer's last sweep with what it swept and
 * over which bytes. Written and read back whole; anything malformed or too large dropped
 * without a throw; the receipt shown only for its own journal holding its entry, the sweep
 * only over the artifact it swept; both said to be what was done before the reload. A
 * reload is the window's store loaded again over the same sessionStorage.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from './browser-stubs';
import { fakeEngine } from './fake-engine';
import type { AnchorReceipt, CaseView, JournalStatus } from '../../shared/api';
import type { Report } from '../../shared/report';
import type { Sweep } from '../../renderer/src/lib/sweep';
import { earlierReceiptShown, keepReceipt, keptReceipt, type KeptReceipt } from '../../renderer/src/lib/kept-receipt';
import { earlierSweepShown, keepSweep, keptSweep, MAX_SWEEP_CHARS } from '../../renderer/src/lib/kept-sweep';

/** The tab's sessionStorage: kept across the store's reloads below, as a tab keeps it across its own. */
const tab = new Map<string, string>();
const sessionStub = {
  getItem: (k: string) => tab.get(k) ?? null,
  setItem: (k: string, v: string) => void tab.set(k, v),
  removeItem: (k: string) => void tab.delete(k),
};
stubBrowser();
beforeAll(() => vi.stubGlobal('sessionStorage', sessionStub));
afterEach(() => tab.clear());

const H = (c: string) => `sha256:${c.repeat(64)}`;
const JOURNAL = '/granted/journal';

const receipt: AnchorReceipt = {
  caseId: 'case-0',
  state: 'released',
  seq: 2,
  entryHash: H('e'),
  keyId: `ed25519:${'a'.repeat(64)}`,
  role: 'quarantine-officer',
  label: 'duty officer',
  checkpoint: { size: 3, root: H('f'), keyId: null },
  proofVerified: true,
  proofFindings: [],
};

/** The journal's verification: case-0 with its entries (the decision's, `entryHash` at seq 2, unless changed). */
function status(dir = JOURNAL, entryHash = H('e')): JournalStatus {
  const event = (seq: number, hash: string, decision: string) => ({
    seq,
    entryHash: hash,
    decision,
    author: receipt.keyId,
    role: null,
    label: null,
    atUtc: '2026-01-01T00:00:00Z',
    text: 'why',
  });
  const c = {
    caseId: 'case-0',
    state: 'released',
    claimRef: 'claim:1',
    history: [event(0, H('0'), 'open'), event(2, entryHash, 'release')],
  } as unknown as CaseView;
  return {
    dir,
    verdict: 'pass',
    findings: [],
    entries: 3,
    checkpointSize: 3,
    root: H('f'),
    rolesChecked: true,
    cases: [c],
  };
}

describe("the officer's receipt kept across a reload", () => {
  it('is read back as it was kept, with the journal it was signed into', () => {
    expect(keepReceipt(JOURNAL, receipt)).toBe(true);
    expect(keptReceipt()).toEqual({ journal: JOURNAL, receipt });
  });

  it('is dropped, never thrown, when malformed or too large', () => {
    const kept = { journal: JOURNAL, receipt };
    const bad: unknown[] = [
      'not json {',
      { journal: '', receipt },
      { journal: JOURNAL, receipt: { ...receipt, seq: -1 } },
      { journal: JOURNAL, receipt: { ...receipt, state: 'closed' } },
      { journal: JOURNAL, receipt: { ...receipt, entryHash: 'sha256:zz' } },
      { journal: JOURNAL, receipt: { ...receipt, checkpoint: { size: '3', root: H('f'), keyId: null } } },
      { journal: JOURNAL, receipt: { ...receipt, proofFindings: [1] } },
      { ...kept, receipt: { ...receipt, proofFindings: ['x'.repeat(70_000)] } },
    ];
    for (const v of bad) {
      tab.set('reprise.receipt', typeof v === 'string' ? v : JSON.stringify(v));
      expect(keptReceipt()).toBeNull();
      expect(tab.has('reprise.receipt')).toBe(false);
    }
    // Too large to keep: not written, and what was kept before goes.
    keepReceipt(JOURNAL, receipt);
    expect(keepReceipt(JOURNAL, { ...receipt, proofFindings: ['x'.repeat(70_000)] })).toBe(false);
    expect(keptReceipt()).toBeNull();
  });

  it('is shown only while its own journal is open and its verification holds the entry it names', () => {
    const kept: KeptReceipt = { journal: JOURNAL, receipt };
    expect(earlierReceiptShown(kept, JOURNAL, status())).toEqual(receipt);
    expect(earlierReceiptShown(kept, '/granted/other', status('/granted/other'))).toBeNull();
    // The header's journal is this one but the status on screen is another's (still loading): not shown.
    expect(earlierReceiptShown(kept, JOURNAL, status('/granted/other'))).toBeNull();
    expect(earlierReceiptShown(kept, JOURNAL, null)).toBeNull();
    // Another journal put in its folder's place: the entry at that seq is not the one signed.
    expect(earlierReceiptShown(kept, JOURNAL, status(JOURNAL, H('9')))).toBeNull();
    expect(earlierReceiptShown(null, JOURNAL, status())).toBeNull();
  });
});

/** A report of the sweep's artifact: its SHA-256, one BANDED output 0.03 against ε 0.05. */
function report(sha256 = H('a')): Report {
  return {
    schema: 'reprise.report/v1',
    artifact: { path: 'tg/manifest.json', kind: 'tg-replay-manifest', id: null, sha256 },
    verdict: 'unavailable',
    findings: [],
    chain: [],
    comparisons: [
      { output: 'score', mode: 'BANDED', original: 1, replayed: 1.03, delta: 0.03, epsilon: 0.05, status: 'pass' },
    ],
  } as unknown as Report;
}

function sweep(over: Partial<Sweep> = {}): Sweep {
  const plan = ['model=ref-1', 'model=ref-2'];
  const runs = plan.flatMap((whatIf) =>
    [0, 1].map((repeat) => ({ whatIf, repeat, report: report(), error: null, cancelled: false })),
  );
  return { plan, repeats: 2, runs, done: 4, planned: 4, running: false, cancelled: false, ...over };
}

const EXAMPLE = { type: 'example' as const, path: 'tg/manifest.json' };
const OPTIONS = { providers: '/granted/providers.json' };

describe("the trainer's sweep kept across a reload", () => {
  it('is read back as it ended, with its parameters and the artifact it swept', () => {
    expect(keepSweep('tg/manifest.json', EXAMPLE, H('a'), OPTIONS, sweep())).toBe(true);
    expect(keptSweep()).toEqual({
      artifact: { name: 'tg/manifest.json', source: EXAMPLE, sha256: H('a') },
      options: OPTIONS,
      sweep: sweep(),
    });
  });

  it('is not kept while running, over a picked file, without a SHA-256, or too large', () => {
    expect(keepSweep('x', EXAMPLE, H('a'), {}, sweep({ running: true }))).toBe(false);
    expect(keepSweep('x', { type: 'upload', uploadId: 'u1' }, H('a'), {}, sweep())).toBe(false);
    expect(keepSweep('x', EXAMPLE, null, {}, sweep())).toBe(false);
    keepSweep('x', EXAMPLE, H('a'), {}, sweep());
    const big = sweep();
    big.runs[0]!.report!.findings.push({ rule: 'X', severity: 'info', message: 'y'.repeat(MAX_SWEEP_CHARS) });
    expect(keepSweep('x', EXAMPLE, H('a'), {}, big)).toBe(false);
    // The one kept before goes with it: a reload never shows an older sweep as the last one.
    expect(keptSweep()).toBeNull();
  });

  it('is dropped, never thrown, when malformed', () => {
    const good = { artifact: { name: 'x', source: EXAMPLE, sha256: H('a') }, options: {}, sweep: sweep() };
    const s = sweep();
    const bad: unknown[] = [
      '{',
      { ...good, artifact: { ...good.artifact, source: { type: 'upload', uploadId: 'u1' } } },
      { ...good, artifact: { ...good.artifact, sha256: 'abc' } },
      { ...good, options: { providers: 1 } },
      { ...good, sweep: { ...s, running: true } },
      { ...good, sweep: { ...s, done: 3 } },
      { ...good, sweep: { ...s, planned: 5 } },
      { ...good, sweep: { ...s, runs: [...s.runs.slice(1), s.runs[1]] } },
      { ...good, sweep: { ...s, runs: [{ ...s.runs[0], whatIf: 'model=ref-9' }, ...s.runs.slice(1)] } },
      { ...good, sweep: { ...s, runs: [{ ...s.runs[0], repeat: 2 }, ...s.runs.slice(1)] } },
      { ...good, sweep: { ...s, runs: [{ ...s.runs[0], report: { verdict: 'pass' } }, ...s.runs.slice(1)] } },
      { ...good, sweep: { ...s, runs: [{ ...s.runs[0], report: null, error: null }, ...s.runs.slice(1)] } },
    ];
    for (const v of bad) {
      tab.set('reprise.sweep', typeof v === 'string' ? v : JSON.stringify(v));
      expect(keptSweep()).toBeNull();
      expect(tab.has('reprise.sweep')).toBe(false);
    }
    tab.set('reprise.sweep', 'x'.repeat(MAX_SWEEP_CHARS + 1));
    expect(keptSweep()).toBeNull();
  });

  it('is shown only over the artifact it swept, opened the same way, once its report names the same bytes', () => {
    keepSweep('tg/manifest.json', EXAMPLE, H('a'), OPTIONS, sweep());
    const kept = keptSweep();
    expect(earlierSweepShown(kept, EXAMPLE, report())).toBe(kept);
    expect(earlierSweepShown(kept, EXAMPLE, null)).toBeNull();
    expect(earlierSweepShown(kept, EXAMPLE, report(H('b')))).toBeNull();
    expect(earlierSweepShown(kept, { type: 'path', path: 'tg/manifest.json' }, report())).toBeNull();
    expect(earlierSweepShown(kept, { type: 'example', path: 'tg/other.json' }, report())).toBeNull();
  });
});

/** The window's store, loaded afresh over the same sessionStorage: what a reload of the tab gives. */
async function reloaded() {
  vi.resetModules();
  const { useStore } = await import('../../renderer/src/store');
  return useStore;
}

describe('a reload of the tab', () => {
  it("shows the officer's receipt as an earlier signing's, for the journal it was signed into only", async () => {
    const s = await reloaded();
    const api = {
      decideCase: async () => receipt,
      journalStatus: async () => status(),
    };
    s.setState({ api, journal: { dir: JOURNAL, trustStore: '/granted/ts.json', keyFile: '/granted/k.pem' } } as never);
    const c = { caseId: 'case-0', openHash: H('0'), history: [{ entryHash: H('0') }] } as unknown as CaseView;
    expect(await s.getState().decide(c, 'release', 'a rationale long enough', receipt.keyId)).toBe(true);

    const again = await reloaded();
    expect(again.getState().receipt).toBeNull();
    expect(again.getState().earlierReceipt).toEqual({ journal: JOURNAL, receipt });
    // The journal opened again by the reload (remembered by the header): the receipt is shown, said to be an earlier signing's.
    again.setState({ journal: { dir: JOURNAL, trustStore: '', keyFile: '' }, journalStatus: status() });
    const st = again.getState();
    const shown = earlierReceiptShown(st.earlierReceipt, st.journal.dir, st.journalStatus);
    expect(shown).toEqual(receipt);
    const { AnchorReceiptView } = await import('../../renderer/src/components/JournalView');
    const html = renderToStaticMarkup(createElement(AnchorReceiptView, { r: shown!, checked: true, earlier: true }));
    expect(html).toContain('Anchor receipt of an earlier signing');
    expect(html).toContain('signed in this tab before the page was reloaded');
    expect(html).toContain('case-0 is now <strong>released</strong>');
    // Another journal opened: the receipt is not shown for it, and is no longer kept.
    again.setState({ journal: { dir: '/granted/other', trustStore: '', keyFile: '' } });
    expect(again.getState().earlierReceipt).toBeNull();
    expect((await reloaded()).getState().earlierReceipt).toBeNull();
  });

  it("shows the trainer's sweep as the sweep that was run, with its parameters, over the artifact it swept", async () => {
    const s = await reloaded();
    const { api, jobs, end } = fakeEngine();
    s.setState({
      api,
      artifact: { name: 'tg/manifest.json', source: EXAMPLE, mode: 'verify' },
      report: report(),
      openOptions: { trustStore: '', providers: '' },
    } as never);
    const ran = s.getState().runSweep(['model=ref-2'], 1);
    await vi.waitFor(() => expect(jobs).toHaveLength(1));
    end(report());
    await ran;
    expect(s.getState().sweep?.running).toBe(false);

    const again = await reloaded();
    expect(again.getState().sweep).toBeNull();
    const kept = again.getState().earlierSweep;
    expect(kept?.sweep.plan).toEqual(['model=ref-2']);
    expect(kept?.artifact).toEqual({ name: 'tg/manifest.json', source: EXAMPLE, sha256: H('a') });
    const { SweepResult } = await import('../../renderer/src/components/TrainerView');
    const html = renderToStaticMarkup(createElement(SweepResult, { sweep: kept!.sweep, earlier: kept }));
    expect(html).toContain('The result of the sweep run in this tab before the page was reloaded');
    expect(html).toContain('not run again');
    expect(html).toContain('model=ref-2');
    expect(html).toContain('1 run of each');
    expect(html).toContain('1 of 1 runs replayed');
    // The same example opened again by the reload's link, its report the same bytes: shown; another artifact: gone.
    again.setState({ artifact: { name: 'tg/manifest.json', source: { ...EXAMPLE }, mode: 'verify' } } as never);
    expect(again.getState().earlierSweep).toBe(kept);
    again.setState({ artifact: { name: 'b', source: { type: 'example', path: 'b.json' }, mode: 'verify' } } as never);
    expect(again.getState().earlierSweep).toBeNull();
    expect((await reloaded()).getState().earlierSweep).toBeNull();
  });
});
