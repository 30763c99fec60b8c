import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { CaseView } from './components/CaseView';
import { DiffPanel } from './components/DiffPanel';
import { ChainView } from './components/ChainView';
import { ExportView } from './components/ExportView';
import { FindingsView } from './components/FindingsView';
import { JobBar } from './components/JobBar';
import { JournalView } from './components/JournalView';
import { JournalHeader } from './components/JournalHeader';
import { JudgementPanel } from './components/JudgementPanel';
import { OpenPanel } from './components/OpenPanel';
import { PackageMembers } from './components/PackageMembers';
import { ReplayView } from './components/ReplayView';
import { Shown } from './components/Shown';
import { TrainerView } from './components/TrainerView';
import { VerdictBanner } from './components/VerdictBanner';
import { useStore, VIEWS, type View } from './store';
import { useCase } from './case-store';
import { useCompare } from './compare-store';
import { useShallow } from 'zustand/react/shallow';
import { pickTransport, TransportError } from './transport';
import { linkOptionNames } from './lib/deep-link';
import { writeLink } from './lib/link-history';
import { linkStateOf } from './lib/link-state';
import type { Report } from '../../shared/report';

/** Views that need a report; the others work without one. */
const NEEDS_REPORT: View[] = ['chain', 'findings', 'export'];
type State = ReturnType<typeof useStore.getState>;

/**
 * The Replay view stays mounted once visited (hidden when another view is shown): its
 * 100,000-row table, filters and scroll position survive switching views. While hidden it
 * keeps the report it showed and lets go of it when another arrives; the new one reaches it
 * when it is shown. Building a 45,000-row table no one sees (its row model and the
 * virtualizer's measurements) was the longest task of a big report's arrival.
 */
function useKeptReplay(view: View, report: Report | null) {
  const [keepReplay, setKeepReplay] = useState(false);
  const [replayReport, setReplayReport] = useState<Report | null>(null);
  useEffect(() => {
    if (view === 'replay') setKeepReplay(true);
    setReplayReport((shown) => (view === 'replay' || shown === report ? report : null));
  }, [view, report]);
  return { keepReplay, replayReport };
}

function useConnect(connect: State['connect']): void {
  useEffect(() => {
    try {
      void connect(pickTransport());
    } catch (e) {
      useStore.setState({ error: e instanceof TransportError ? e.message : String(e) });
    }
  }, [connect]);
}

/**
 * The address names the view and what it shows once connected: the open artifact, or the
 * case or the comparison in their views (before that it is the link being restored, read by
 * the store's restoreLink); its history entry also says what those two views show, nothing
 * included (lib/link-state.ts linkStateOf). A change of view or of what is open is a step
 * of the history, anything else rewrites the entry (lib/link-history.ts). Written in a task
 * of its own, once for what changed together: history.replaceState took ~50 ms of this
 * thread on a loaded machine, on top of the render that a report's arrival commits.
 */
function useLinkWriter(info: State['info'], view: View, artifact: State['artifact']): void {
  const reportSeen = useStore((s) => s.reportSeen);
  // A link that named nothing to open is answered by writing the address again (store.ts namesNothing).
  const linksNamingNothing = useStore((s) => s.linksNamingNothing);
  const shownCase = useCase(
    useShallow((s) => ({
      name: s.name,
      folder: s.folder,
      runOptions: s.runOptions,
      runMode: s.runMode,
      sent: s.sent,
      seen: s.seen,
      savedSha256: s.savedSha256,
    })),
  );
  const compare = useCompare((s) => s.link);
  useEffect(() => {
    if (!info) return;
    const t = setTimeout(
      () => writeLink(linkStateOf({ view, artifact, reportSeen }, shownCase, compare), linkOptionNames(info.options)),
      0,
    );
    return () => clearTimeout(t);
  }, [info, view, artifact, reportSeen, linksNamingNothing, shownCase, compare]);
}

/**
 * Back, Forward, or a link pasted or followed in this tab change only the fragment: show
 * again what an entry the window wrote names, or open what a link names (store.ts arrive).
 * A move heard twice (popstate, then hashchange) is taken once.
 */
function useLinkFollower(info: State['info'], arrive: State['arrive']): void {
  useEffect(() => {
    if (!info) return;
    const onMove = (): void => void arrive();
    window.addEventListener('popstate', onMove);
    window.addEventListener('hashchange', onMove);
    return () => {
      window.removeEventListener('popstate', onMove);
      window.removeEventListener('hashchange', onMove);
    };
  }, [info, arrive]);
}

/** Alt+1…9 switch views (the menu's shortcuts in Electron; the same keys in a browser). */
function useViewKeys(setView: (v: View) => void, tabs: RefObject<(HTMLButtonElement | null)[]>): void {
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent): void => {
      if (e.altKey && !e.ctrlKey && !e.metaKey && /^[1-9]$/.test(e.key)) {
        const v = VIEWS[Number(e.key) - 1];
        if (v) {
          e.preventDefault();
          setView(v.id);
          tabs.current[Number(e.key) - 1]?.focus();
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setView, tabs]);
}

function TopBar() {
  const { info, theme, setTheme } = useStore(
    useShallow((s) => ({ info: s.info, theme: s.theme, setTheme: s.setTheme })),
  );
  return (
    <header className="topbar">
      <h1>Reprise</h1>
      <span className="subtitle">forensic replay workbench</span>
      <JournalHeader />
      <button
        type="button"
        className="theme"
        onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
        aria-label={`Switch to the ${theme === 'dark' ? 'light' : 'dark'} theme`}
        data-testid="theme"
      >
        {theme === 'dark' ? '☀ Light' : '☾ Dark'}
      </button>
      <span className="engine" data-testid="engine">
        {info ? `engine ${info.version} · ${info.transport}` : 'connecting…'}
      </span>
    </header>
  );
}

/** The view tabs; arrows, Home and End move between them. */
function ViewTabs({
  view,
  setView,
  tabs,
}: {
  view: View;
  setView: (v: View) => void;
  tabs: RefObject<(HTMLButtonElement | null)[]>;
}) {
  const onTabKey = (e: KeyboardEvent, i: number): void => {
    const n = VIEWS.length;
    const to =
      e.key === 'ArrowRight'
        ? (i + 1) % n
        : e.key === 'ArrowLeft'
          ? (i + n - 1) % n
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? n - 1
              : -1;
    if (to < 0) return;
    e.preventDefault();
    setView(VIEWS[to]!.id);
    tabs.current[to]?.focus();
  };
  return (
    <div role="tablist" aria-label="Views" className="tabs">
      {VIEWS.map((v, i) => (
        <button
          key={v.id}
          ref={(el) => {
            tabs.current[i] = el;
          }}
          role="tab"
          id={`tab-${v.id}`}
          aria-selected={view === v.id}
          aria-controls={`panel-${v.id}`}
          tabIndex={view === v.id ? 0 : -1}
          onClick={() => setView(v.id)}
          onKeyDown={(e) => onTabKey(e, i)}
          data-testid={`tab-${v.id}`}
          title={`Alt+${i + 1}`}
        >
          {v.label}
        </button>
      ))}
    </div>
  );
}

/** The shown view other than Replay. */
function ViewPanel({ view, report }: { view: View; report: Report | null }) {
  // The kinds whose members the engine lists (their declarations, EngineInfo.offers): Nemosyne packages.
  const membersOf = useStore((s) => s.info?.offers.members);
  return (
    <div role="tabpanel" id={`panel-${view}`} aria-labelledby={`tab-${view}`} className="tabpanel">
      {view === 'open' && <OpenPanel />}
      {NEEDS_REPORT.includes(view) && !report && (
        <p className="muted panel">Open an artifact first (the Open view, or drop a file).</p>
      )}
      {view === 'chain' && report && <ChainView report={report} />}
      {view === 'chain' && report && membersOf?.includes(report.artifact.kind) && <PackageMembers report={report} />}
      {view === 'findings' && report && <FindingsView report={report} />}
      {view === 'trainer' && <TrainerView report={report} />}
      {view === 'journal' && <JournalView />}
      {view === 'export' && report && <ExportView report={report} />}
      {view === 'case' && <CaseView />}
      {view === 'compare' && <DiffPanel />}
    </div>
  );
}

export function App() {
  const { connect, info, report, artifact, error, view, setView, theme, arrive } = useStore(
    useShallow((s) => ({
      connect: s.connect,
      arrive: s.arrive,
      info: s.info,
      report: s.report,
      artifact: s.artifact,
      error: s.error,
      view: s.view,
      setView: s.setView,
      theme: s.theme,
    })),
  );
  const reportUnread = useStore((s) => s.reportUnread);
  // A comparison on screen is what the address names (and each side's verdict is in its label).
  const comparing = useCompare((s) => s.link !== null) && view === 'compare';
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const { keepReplay, replayReport } = useKeptReplay(view, report);
  useConnect(connect);
  useLinkWriter(info, view, artifact);
  useLinkFollower(info, arrive);
  useEffect(() => {
    document.documentElement.dataset['theme'] = theme;
  }, [theme]);
  useViewKeys(setView, tabs);

  return (
    <div className="app">
      <TopBar />
      <main>
        {/* The Case view shows its own verdict, a comparison its sides': the open artifact's above either would read as theirs. */}
        {report && view !== 'case' && !comparing && (
          <VerdictBanner report={report} artifact={artifact} unread={reportUnread} />
        )}
        <JobBar />
        {error && (
          <p role="alert" className="error" data-testid="error" id="error" tabIndex={-1}>
            {/* It may quote a link or name a file: a bidi control in either is shown escaped. */}
            <Shown text={error} />
          </p>
        )}
        <JudgementPanel />
        <ViewTabs view={view} setView={setView} tabs={tabs} />
        {(keepReplay || view === 'replay') && (
          <div
            role="tabpanel"
            id="panel-replay"
            aria-labelledby="tab-replay"
            className="tabpanel"
            hidden={view !== 'replay'}
          >
            <ReplayView report={view === 'replay' ? report : replayReport} />
          </div>
        )}
        {view !== 'replay' && <ViewPanel view={view} report={report} />}
      </main>
    </div>
  );
}
