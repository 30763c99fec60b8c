/**
 * The engine host: implements the shared RepriseApi on top of worker threads, so that the
 * process talking to the window (Electron main, or the web host's event loop) never
 * parses, hashes or verifies an artifact. Used by both transports.
 *
 * It is a facade over one side per concern, each in its own module: jobs (job-side.ts, over
 * job-requests.ts, the one place a request becomes a job), files (file-side.ts: the
 * editor's content, members, attestations, provider offers), the built-in examples
 * (examples-side.ts), journals and judgements (journal-side.ts, run in their own worker
 * thread through journal-client.ts), cases (case-side.ts) and uploads (uploads.ts). Events
 * (API_EVENTS) go to every subscriber.
 */
import type { ResourceLimits } from 'node:worker_threads';
import type { ApiEvent, EngineInfo, PickRequest, RecentFile, RepriseApi } from '../../shared/api.js';
import { declaredOptions, kindNames, kindsOffering, kindsTaking, recomputedRules } from '../../app/kinds/registry.js';
import { VERSION } from '../../app/version.js';
import { JournalWorker } from './journal-client.js';
import type { PathGateHints } from './path-gate.js';
import { GrantedGate, type Grant } from './granted-gate.js';
import { JournalSide } from './journal-side.js';
import { CaseSide, type RunCase } from './case-side.js';
import { ApiError } from './api-error.js';
import type { UploadFile } from './engine-remote.js';
import { MAX_API_BYTES, MAX_UPLOADS, Uploads } from './uploads.js';
import { ExamplesSide } from './examples-side.js';
import { JobRequests } from './job-requests.js';
import { JobSide } from './job-side.js';
import { FileSide } from './file-side.js';
import { EmittedReports } from './emitted-reports.js';

export { MAX_API_BYTES, MAX_UPLOADS };

export { ApiError };

export interface EngineHostOptions {
  workerUrl: URL;
  journalWorkerUrl: URL;
  workers?: number;
  transport: EngineInfo['transport'];
  /** Folders the user chose (`reprise serve --root`): files may be opened by path under them. */
  roots?: string[];
  /** Key files the user picked for signing (`reprise serve --key`). */
  keys?: string[];
  /** Kernel adapters the user allowed the engine to run (`reprise serve --kernel-adapter`). */
  adapters?: string[];
  /** Resource limits of each engine and journal worker (defaults: WORKER_LIMITS). */
  workerLimits?: ResourceLimits;
}

/**
 * Each worker's V8 heap is capped, so that a job that allocates without bound ends as a
 * failed job (ERR_WORKER_OUT_OF_MEMORY) instead of taking the host's process down. 3 GiB
 * leaves room for a legal 512 MiB artifact (MAX_API_BYTES) and its parse: a 200 MiB
 * signed dump peaks near 1.3 GiB of heap.
 */
export const WORKER_LIMITS: ResourceLimits = {
  maxOldGenerationSizeMb: 3072,
  maxYoungGenerationSizeMb: 64,
  stackSizeMb: 8,
};

const HINTS: Record<EngineInfo['transport'], PathGateHints> = {
  web: {
    root: 'start reprise serve with --root DIR naming a folder that contains it',
    key: 'start reprise serve with --key FILE naming it',
    adapter: 'start reprise serve with --kernel-adapter FILE naming it',
  },
  electron: {
    root: 'open it with File > Open or a Choose... button',
    key: 'choose it with the Choose... button next to the key field',
    adapter: 'choose it with the Choose... button next to the Kernel adapter field',
  },
};

/** The case engine (app/jobs/case.ts), loaded when the first case starts: the host's start-up never loads it. */
const runCase: RunCase = async (dir, o) => (await import('../../app/jobs/case.js')).runCase(dir, o);

export class EngineHost implements RepriseApi {
  private readonly listeners = new Set<(e: ApiEvent) => void>();
  private readonly journal: JournalWorker;
  private readonly uploads = new Uploads();
  private readonly gate: GrantedGate;
  private readonly examples: ExamplesSide;
  private readonly jobs: JobSide;
  private readonly files: FileSide;
  private readonly journals: JournalSide;
  private readonly cases: CaseSide;
  /** The reports and artifacts this engine showed the window: the only ones it signs on (emitted-reports.ts). */
  private readonly emitted = new EmittedReports();

  constructor(private readonly opts: EngineHostOptions) {
    const limits = opts.workerLimits ?? WORKER_LIMITS;
    this.journal = new JournalWorker(opts.journalWorkerUrl, limits);
    this.gate = new GrantedGate(HINTS[opts.transport]);
    this.examples = new ExamplesSide(this.gate);
    const requests = new JobRequests(this.gate, this.uploads, this.examples);
    const emit = (e: ApiEvent) => this.emit(e);
    this.jobs = new JobSide(
      { workers: opts.workers ?? 2, workerUrl: opts.workerUrl, limits },
      requests,
      this.uploads,
      emit,
    );
    this.files = new FileSide(this.gate, requests, this.examples, this.journal);
    this.journals = new JournalSide(this.gate, this.journal, this.emitted);
    this.cases = new CaseSide({
      run: runCase,
      workers: opts.workers ?? 2,
      uploads: this.uploads,
      emit,
      grant: (g) => this.grant(g),
      prepare: (req) => requests.jobOf(req),
      confine: (path, what) => this.gate.confine(path, what),
    });
    // A bad root or key is left out (a later path under it is refused), never an unhandled rejection.
    this.grant({ roots: opts.roots ?? [], keys: opts.keys ?? [], adapters: opts.adapters ?? [] }).catch(
      () => undefined,
    );
  }

  /**
   * Widens what the API may reach (GrantedGate.grant): called by the shells only (the
   * native dialog, the command line), never through the API.
   */
  grant(g: Grant): Promise<void> {
    return this.gate.grant(g);
  }

  /** Subscribes to pushed events (each transport forwards them to its window). */
  subscribe(listener: (e: ApiEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(e: ApiEvent): void {
    this.emitted.see(e);
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        /* one broken subscriber must not stop the others */
      }
    }
  }

  async engineInfo(): Promise<EngineInfo> {
    const options = declaredOptions()
      .filter((o) => o.workbench)
      .map((o) => ({ name: o.name, help: o.help }));
    return {
      version: VERSION,
      kinds: kindNames(),
      options,
      transport: this.opts.transport,
      recomputedRules: recomputedRules(),
      whatIfKinds: kindsTaking('whatIf'),
      offers: { attest: kindsOffering('attest'), members: kindsOffering('members') },
      nativeDialogs: false,
    };
  }

  startJob: RepriseApi['startJob'] = (req) => this.jobs.startJob(req);
  cancelJob: RepriseApi['cancelJob'] = (req) => this.jobs.cancelJob(req);

  listExamples: RepriseApi['listExamples'] = () => this.examples.listExamples();

  // The shell keeps the recent files and owns the native dialogs (engine-remote.ts answers
  // both itself, where the windows are): the engine's process has neither.
  async recentFiles(): Promise<RecentFile[]> {
    return [];
  }

  async pickPath(_req: PickRequest): Promise<string | null> {
    return null;
  }

  createDemoJournal: RepriseApi['createDemoJournal'] = () => this.journals.createDemoJournal((g) => this.grant(g));

  artifactContent: RepriseApi['artifactContent'] = (req) => this.files.artifactContent(req);
  compareArtifacts: RepriseApi['compareArtifacts'] = (req) => this.files.compareArtifacts(req);
  packageMembers: RepriseApi['packageMembers'] = (req) => this.files.packageMembers(req);
  attestReplay: RepriseApi['attestReplay'] = (req) => this.files.attestReplay(req);
  providerOffers: RepriseApi['providerOffers'] = (req) => this.files.providerOffers(req);

  journalStatus: RepriseApi['journalStatus'] = (req) => this.journals.journalStatus(req);
  decideCase: RepriseApi['decideCase'] = (req) => this.journals.decideCase(req);
  openJudgementJournal: RepriseApi['openJudgementJournal'] = (req) => this.journals.openJudgementJournal(req);
  recordJudgement: RepriseApi['recordJudgement'] = (req) => this.journals.recordJudgement(req);
  listJudgements: RepriseApi['listJudgements'] = (req) => this.journals.listJudgements(req);
  recordNote: RepriseApi['recordNote'] = (req) => this.journals.recordNote(req);
  exportBundle: RepriseApi['exportBundle'] = (req) => this.journals.exportBundle(req);
  judgementRules: RepriseApi['judgementRules'] = () => this.journals.judgementRules();
  signingKeys: RepriseApi['signingKeys'] = (req) => this.journals.signingKeys(req);

  startCase: RepriseApi['startCase'] = (req) => this.cases.start(req);
  cancelCase: RepriseApi['cancelCase'] = (req) => this.cases.cancel(req);
  addCaseUpload: RepriseApi['addCaseUpload'] = (req) => this.cases.addUpload(req);

  beginUpload: RepriseApi['beginUpload'] = async (req) => this.uploads.begin(req);
  uploadChunk: RepriseApi['uploadChunk'] = async (req) => this.uploads.chunk(req);

  /** Called by the shell only (engine-serve.ts), never through the API: uploads.ts says why. */
  adoptUpload(req: UploadFile): Promise<{ received: number }> {
    return this.uploads.adopt(req);
  }

  async close(): Promise<void> {
    await Promise.all([this.jobs.close(), this.journal.close(), this.cases.close()]);
  }
}
