/**
 * The reviewer's working journal (zustand, beside the main store): the journal judgements
 * are recorded in, its trust store and signing key, the judgements on the open artifact,
 * and the Nemosyne options (profile registry, kernel adapter). The choice is remembered in
 * localStorage and verified again on every load: a remembered journal is never trusted
 * without the engine checking it.
 */
import { create } from 'zustand';
import type {
  AttestationExport,
  BundleExport,
  JournalStatus,
  JudgementDecision,
  JudgementList,
  JudgementReceipt,
  JudgementRules,
  SigningKey,
} from '../../shared/api';
import type { Report } from '../../shared/report';
import { optionsFor, useStore, type JobExtras } from './store';

export interface WorkJournal {
  dir: string;
  trustStore: string;
}

/** What the reviewer is judging: a pointer into the open report and its words. */
export interface Judging {
  pointer: string;
  label: string;
}

/** Engine options a Nemosyne package needs to reach PASS (kept until changed). */
export interface PackageOptions {
  profiles: string;
  kernelAdapter: string;
}

interface JudgementState {
  work: WorkJournal | null;
  status: JournalStatus | null;
  busy: boolean;
  error: string | null;
  keys: SigningKey[];
  keyPath: string;
  rules: JudgementRules | null;
  list: JudgementList | null;
  judging: Judging | null;
  receipt: JudgementReceipt | null;
  bundle: BundleExport | null;
  /** The TG attestation the last bundle holds (signed with the chosen key), if any. */
  bundleAttestation: AttestationExport | null;
  pkg: PackageOptions;
  /** Whether the header's journal form is shown (the Journal view opens it too). */
  formOpen: boolean;
  setFormOpen(open: boolean): void;
  openJournal(dir: string, trustStore: string, create: boolean): Promise<boolean>;
  closeJournal(): void;
  /** Creates a training journal (the host makes it and its officer key) and works in it. */
  openDemoJournal(): Promise<void>;
  /** The native dialog (desktop app): the file picked there is granted, as a key too (EngineHost.grant). */
  pickKey(): Promise<void>;
  setKey(path: string): void;
  /**
   * The key files read again (each file's key id, and its role and status in the journal's
   * trust store), as a confirmation opens: it shows the key the file holds now, not the one
   * it held when the journal was opened. Answers the chosen key (null when none is chosen); throws when the host cannot list them.
   */
  refreshKeys(): Promise<SigningKey | null>;
  setPackageOptions(o: Partial<PackageOptions>): void;
  refreshList(): Promise<void>;
  startJudging(j: Judging | null): void;
  /** Signs with the chosen key file, refused by the engine unless it still holds `keyId` (the one the confirmation showed). */
  record(pointer: string, decision: JudgementDecision, rationale: string, keyId: string): Promise<boolean>;
  exportBundle(): Promise<BundleExport | null>;
}

const WORK_KEY = 'reprise.workJournal';
const SIGN_KEY = 'reprise.workKey';
const PKG_KEY = 'reprise.packageOptions';

function remembered<T>(key: string, ok: (v: unknown) => v is T): T | null {
  try {
    const v: unknown = JSON.parse(localStorage.getItem(key) ?? 'null');
    return ok(v) ? v : null;
  } catch {
    return null;
  }
}

function remember(key: string, v: unknown): void {
  try {
    if (v === null) localStorage.removeItem(key);
    else localStorage.setItem(key, JSON.stringify(v));
  } catch {
    /* storage unavailable: the choice lasts until the window closes */
  }
}

const isWork = (v: unknown): v is WorkJournal =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as WorkJournal).dir === 'string' &&
  typeof (v as WorkJournal).trustStore === 'string';
const isPkg = (v: unknown): v is PackageOptions =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as PackageOptions).profiles === 'string' &&
  typeof (v as PackageOptions).kernelAdapter === 'string';
const isStr = (v: unknown): v is string => typeof v === 'string';

/** The artifact hash judgements are recorded on: the report's, when it names one. */
export function artifactOf(report: Report | null): string | null {
  const h = report?.artifact?.sha256;
  return typeof h === 'string' && h.startsWith('sha256:') ? h : null;
}

/** One part of the store: the members it names, made from the store's own set and get. */
type Slice<K extends keyof JudgementState> = (
  set: (p: Partial<JudgementState>) => void,
  get: () => JudgementState,
) => Pick<JudgementState, K>;

/**
 * The key that signs, set in both stores at once: the header's choice (`keyPath`) and the
 * journal form's `keyFile`, which a case decision signs with (store.ts `decide`). So what the
 * window names as the signing key is always the one that signs, and none chosen is none sent.
 */
function keyInStep(set: (p: Partial<JudgementState>) => void, keyPath: string): void {
  set({ keyPath });
  useStore.getState().setJournal({ keyFile: keyPath });
}

/** The journal of the window and the key that signs in it. */
const journalSlice: Slice<'openJournal' | 'closeJournal' | 'openDemoJournal' | 'pickKey' | 'setKey' | 'refreshKeys'> = (
  set,
  get,
) => ({
  async openJournal(dir, trustStore, create) {
    const api = useStore.getState().api;
    if (!api) return false;
    set({ busy: true, error: null });
    try {
      const status = await api.openJudgementJournal({ dir, trustStore, ...(create ? { create: true } : {}) });
      const keys = await api.signingKeys({ trustStore });
      const keep = keys.find((k) => k.path === get().keyPath);
      set({ work: { dir, trustStore }, status, keys, busy: false });
      remember(WORK_KEY, { dir, trustStore });
      // One journal in the window: the Journal view shows this one's cases (drift routed by a replay).
      useStore.getState().setJournal({ dir, trustStore });
      keyInStep(set, keep ? keep.path : '');
      useStore.setState({ journalStatus: status, receipt: null });
      await get().refreshList();
      return true;
    } catch (e) {
      set({ error: (e as Error).message, busy: false });
      return false;
    }
  },
  closeJournal() {
    // The key was chosen among those the journal's trust store names: it goes with the journal.
    remember(WORK_KEY, null);
    remember(SIGN_KEY, null);
    set({ work: null, status: null, list: null, keys: [], keyPath: '', judging: null, receipt: null, bundle: null });
    useStore.setState({ journal: { dir: '', trustStore: '', keyFile: '' }, journalStatus: null, receipt: null });
  },
  async openDemoJournal() {
    const api = useStore.getState().api;
    if (!api) return;
    set({ busy: true, error: null });
    try {
      const d = await api.createDemoJournal();
      if (await get().openJournal(d.dir, d.trustStore, false)) get().setKey(d.keyFile);
    } catch (e) {
      set({ error: (e as Error).message, busy: false });
    }
  },
  async pickKey() {
    const api = useStore.getState().api;
    const work = get().work;
    if (!api) return;
    const path = await api.pickPath({ kind: 'file', title: 'Choose the key that signs (PKCS#8 PEM)', use: 'key' });
    if (!path) return;
    const keys = await api.signingKeys(work ? { trustStore: work.trustStore } : {});
    set({ keys });
    get().setKey(path);
  },
  async refreshKeys() {
    const api = useStore.getState().api;
    const { work } = get();
    if (!api) return null;
    const keys = await api.signingKeys(work ? { trustStore: work.trustStore } : {});
    set({ keys });
    return keys.find((k) => k.path === get().keyPath) ?? null;
  },
  setKey(keyPath) {
    remember(SIGN_KEY, keyPath || null);
    keyInStep(set, keyPath);
  },
});

/** The Nemosyne options, the judgements on the open report, recording one, and the bundle. */
const judgingSlice: Slice<'setPackageOptions' | 'refreshList' | 'startJudging' | 'record' | 'exportBundle'> = (
  set,
  get,
) => ({
  setPackageOptions(o) {
    const pkg = { ...get().pkg, ...o };
    remember(PKG_KEY, pkg);
    set({ pkg });
  },
  async refreshList() {
    const { api, report } = useStore.getState();
    const { work } = get();
    const artifact = artifactOf(report);
    if (!api || !work || !artifact || !report) {
      set({ list: null });
      return;
    }
    try {
      const list = await api.listJudgements({ dir: work.dir, trustStore: work.trustStore, artifact, report });
      // A newer report may have arrived meanwhile: keep only the answer about the shown one.
      if (useStore.getState().report === report) set({ list });
    } catch (e) {
      set({ error: (e as Error).message, list: null });
    }
  },
  startJudging(judging) {
    set({ judging, receipt: null, error: null });
  },
  async record(pointer, decision, rationale, keyId) {
    const { api, report } = useStore.getState();
    const { work, keyPath } = get();
    if (!api || !work || !report || !keyPath) return false;
    set({ busy: true, error: null, receipt: null });
    try {
      const receipt = await api.recordJudgement({
        dir: work.dir,
        trustStore: work.trustStore,
        keyFile: keyPath,
        keyId,
        report,
        pointer,
        decision,
        rationale,
      });
      set({ receipt, busy: false });
      const status = await api.openJudgementJournal({ dir: work.dir, trustStore: work.trustStore });
      set({ status });
      useStore.setState({ journalStatus: status });
      await get().refreshList();
      return true;
    } catch (e) {
      set({ error: (e as Error).message });
      // As for a case decision (store.ts decide): verify again, so a journal changed on disk disables signing.
      const status = await api.journalStatus({ dir: work.dir, trustStore: work.trustStore }).catch(() => get().status);
      set({ status, busy: false });
      useStore.setState({ journalStatus: status });
      return false;
    }
  },
  async exportBundle() {
    const { api, report } = useStore.getState();
    const { work } = get();
    if (!api || !work || !report) return null;
    set({ busy: true, error: null, bundle: null, bundleAttestation: null });
    try {
      const attestation = await attestationFor(report, get().keyPath);
      const bundle = await api.exportBundle({
        dir: work.dir,
        trustStore: work.trustStore,
        report,
        ...(attestation ? { attestation: attestation.envelope } : {}),
      });
      set({ bundle, bundleAttestation: attestation, busy: false });
      return bundle;
    } catch (e) {
      set({ error: (e as Error).message, busy: false });
      return null;
    }
  },
});

export const useJudgement = create<JudgementState>((set, get) => ({
  work: null,
  status: null,
  busy: false,
  error: null,
  keys: [],
  keyPath: '',
  rules: null,
  list: null,
  judging: null,
  receipt: null,
  bundle: null,
  bundleAttestation: null,
  pkg: remembered(PKG_KEY, isPkg) ?? { profiles: '', kernelAdapter: '' },
  formOpen: false,
  setFormOpen(formOpen) {
    set({ formOpen });
  },

  ...journalSlice(set, get),
  ...judgingSlice(set, get),
}));

/**
 * For a TG replay, the bundle carries the attestation (issue: "for TG replays the
 * attestation"): the engine replays the manifest read-only and signs it with the reviewer
 * key chosen for judgements, as `reprise attest` does. Other reports carry none.
 */
async function attestationFor(report: Report, keyPath: string): Promise<AttestationExport | null> {
  const { api, artifact, openOptions, info } = useStore.getState();
  // The kinds that offer attestation (EngineInfo.offers, from their declarations): TG replay manifests.
  if (
    !info?.offers.attest.includes(report.artifact.kind) ||
    report.comparisons === undefined ||
    !api ||
    !artifact?.source
  )
    return null;
  if (!keyPath)
    throw new Error(
      "choose the reviewer key (journal header): a TG replay's bundle holds its attestation, signed with that key",
    );
  const options = optionsFor(artifact.source, openOptions);
  return api.attestReplay({
    source: artifact.source,
    keyFile: keyPath,
    ...(Object.keys(options).length ? { options } : {}),
  });
}

/**
 * Options every job on a user's file takes from here: the Nemosyne registry and adapter;
 * and for a replay, the open journal and the chosen key, so drift is anchored and its cases
 * open as `replay --journal DIR --key KEY` does. An example keeps the options it sets itself
 * (its own journal, anchors to prove, among them). A link's job takes none of these
 * (store.ts `run`, `linked`): it runs read-only. The key signs only into this journal: a
 * replay on an artifact a link pinned another journal to is refused (store.ts `signsElsewhere`).
 */
const jobExtras: JobExtras = (mode, source) => {
  const { work, keyPath, pkg } = useJudgement.getState();
  const options: Record<string, string> = {};
  const example =
    source.type === 'example' ? useStore.getState().examples.find((x) => x.path === source.path) : undefined;
  // An option the example sets itself stays its own (the host refuses a job that names another).
  if (pkg.profiles.trim() && !example?.options?.['profiles']) options['profiles'] = pkg.profiles.trim();
  if (pkg.kernelAdapter.trim() && !example?.options?.['kernelAdapter'])
    options['kernelAdapter'] = pkg.kernelAdapter.trim();
  if (mode === 'replay' && work && keyPath && !example?.options?.journal) {
    options['journal'] = work.dir;
    if (!example?.options?.trustStore) options['trustStore'] ??= work.trustStore;
    return { options, key: keyPath };
  }
  return { options };
};

/** Loads the rule, re-opens (and so re-verifies) the remembered journal once connected; follows the open report. */
function follow(): void {
  let started = false;
  useStore.subscribe((s, prev) => {
    if (s.api && s.info && !started) {
      started = true;
      void s.api.judgementRules().then(
        (rules) => useJudgement.setState({ rules }),
        () => undefined,
      );
      const work = remembered(WORK_KEY, isWork);
      const keyPath = remembered(SIGN_KEY, isStr) ?? '';
      keyInStep(useJudgement.setState, keyPath);
      if (work)
        void useJudgement
          .getState()
          .openJournal(work.dir, work.trustStore, false)
          .then((ok) => ok && keyPath && useJudgement.getState().setKey(useJudgement.getState().keyPath));
    }
    // A decision in the Journal view re-verifies the journal: the header shows the same status.
    const work = useJudgement.getState().work;
    if (s.journalStatus !== prev.journalStatus && s.journalStatus && work && s.journalStatus.dir === work.dir)
      useJudgement.setState({ status: s.journalStatus });
    if (s.report !== prev.report) {
      useJudgement.setState({ judging: null, receipt: null, bundle: null, list: null });
      void useJudgement.getState().refreshList();
    }
  });
}

/**
 * Connects the judgement store to the window's store: jobs take its options (jobExtras) and
 * it follows the open report. Called once by the composition root (main.tsx), not on import.
 */
export function connectJudgement(): void {
  useStore.setState({ jobExtras });
  follow();
}
