/**
 * The engine host: implements the shared RepriseApi on top of worker threads, so that the
 * process talking to the window (Electron main, or the web host's event loop) never
 * parses, hashes or verifies an artifact. Used by both transports.
 *
 * Jobs: `startJob` returns a job id at once; progress, the report or the failure arrive
 * as events (API_EVENTS) to every subscriber; `cancelJob` terminates the worker running
 * the job (the pool replaces it). Journal and quarantine operations run in their own
 * worker thread (journal-worker.ts), reached through journal-client.ts.
 */
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import type { ResourceLimits } from 'node:worker_threads';
import type {
  ApiEvent,
  ArtifactContent,
  AttestationExport,
  AttestRequest,
  JobSource,
  CheckMode,
  DemoJournal,
  EngineInfo,
  ExampleSummary,
  JobStarted,
  PackageMembers,
  PackageMembersRequest,
  PickRequest,
  ProviderOffers,
  RecentFile,
  RepriseApi,
  StartJobRequest,
  UploadChunkRequest,
} from '../../shared/api.js';
import { writeExamples, type ExampleFile } from '../../app/examples/index.js';
import {
  declaredOptions,
  kindNames,
  kindsOffering,
  kindsTaking,
  recomputedRules,
  workbenchOptionNames,
} from '../../app/kinds/registry.js';
import { loadProviderRegistry, ProviderRegistryError } from '../../app/providers/registry.js';
import { shapeKey } from '../../app/providers/types.js';
import type { EngineOptions } from '../../app/kinds/types.js';
import { WorkerPool } from '../../app/jobs/pool.js';
import type { EngineJob } from '../../app/jobs/protocol.js';
import { VERSION } from '../../app/version.js';
import { JournalWorker } from './journal-client.js';
import type { PathGateHints } from './path-gate.js';
import { GrantedGate, type Grant } from './granted-gate.js';
import { JournalSide } from './journal-side.js';
import { CaseSide, type RunCase } from './case-side.js';

/** Largest artifact shown in the editor (as journal-ops.ts; kept here so this module does not load it). */
const MAX_EDITOR_BYTES = 8 * 1024 * 1024;

import { ApiError } from './api-error.js';
import type { UploadFile } from './engine-remote.js';
import { abandonedWords, MAX_API_BYTES, MAX_UPLOADS, Uploads } from './uploads.js';

export { MAX_API_BYTES, MAX_UPLOADS };

export { ApiError };

/** The options the workbench may send: the paths the kinds declare as workbench options. */
const optionNames = (): readonly string[] => workbenchOptionNames();
const MAX_WHAT_IF = 8;
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

interface RunningJob {
  cancel: () => void;
  cancelled: boolean;
}

export class EngineHost implements RepriseApi {
  private readonly pool: WorkerPool;
  private readonly journal: JournalWorker;
  private examplesDir: Promise<{ dir: string; files: ExampleFile[] }> | null = null;
  private readonly listeners = new Set<(e: ApiEvent) => void>();
  private readonly jobs = new Map<string, RunningJob>();
  private nextJob = 1;
  private readonly uploads = new Uploads();
  private readonly gate: GrantedGate;
  private readonly journals: JournalSide;
  private readonly cases: CaseSide;

  constructor(private readonly opts: EngineHostOptions) {
    const limits = opts.workerLimits ?? WORKER_LIMITS;
    this.pool = new WorkerPool(opts.workers ?? 2, opts.workerUrl, { pipeline: 1, resourceLimits: limits });
    this.journal = new JournalWorker(opts.journalWorkerUrl, limits);
    this.gate = new GrantedGate(HINTS[opts.transport]);
    this.journals = new JournalSide(this.gate, this.journal);
    this.cases = new CaseSide({
      run: runCase,
      workers: opts.workers ?? 2,
      uploads: this.uploads,
      emit: (e) => this.emit(e),
      grant: (g) => this.grant(g),
      prepare: (req) => this.jobOf(req),
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

  private decode(name: unknown, dataBase64: unknown): Uint8Array {
    if (typeof name !== 'string' || typeof dataBase64 !== 'string')
      throw new ApiError('a file needs {name, dataBase64}', true);
    if (dataBase64.length > Math.ceil(MAX_API_BYTES / 3) * 4)
      throw new ApiError(`the file is larger than ${MAX_API_BYTES} bytes`, true);
    return Buffer.from(dataBase64, 'base64');
  }

  private static mode(m: unknown): CheckMode {
    if (m !== 'verify' && m !== 'replay') throw new ApiError('mode is "verify" or "replay"', true);
    return m;
  }

  /**
   * Turns a request into an engine job (reading nothing but an example's bytes). Only a job
   * may `follow` an upload still arriving (it reads the file as it grows); anything else
   * that reads the upload (the editor's content, a package's members, an attestation)
   * waits until it is whole, and must never see part of it.
   */
  private async jobOf(req: StartJobRequest, follow = false): Promise<{ job: EngineJob }> {
    if (!follow && req?.source?.type === 'upload') await this.uploads.get(req.source.uploadId)?.settled;
    if (typeof req !== 'object' || req === null || typeof req.source !== 'object' || req.source === null)
      throw new ApiError('startJob needs {source, mode}', true);
    const mode = EngineHost.mode(req.mode);
    // Messages name the workbench's controls, not the CLI's flags (the Open view's engine options).
    const options: EngineOptions = {
      optionWords: {
        profiles: 'the Profile registry field (Open view, Engine options)',
        kernelAdapter: 'the Kernel adapter field (Open view, Engine options)',
      },
    };
    const opt = options as Record<string, unknown>;
    for (const [k, v] of Object.entries(req.options ?? {})) {
      if (!optionNames().includes(k) || typeof v !== 'string' || v === '')
        throw new ApiError(`unknown or empty option ${JSON.stringify(k)}`, true);
      // A kernel adapter is code the engine runs: allowed only as the user named it.
      opt[k] = k === 'kernelAdapter' ? await this.gate.adapterFile(v) : await this.gate.confine(v, `option ${k}`);
    }
    // A signing key only as the user picked it (a replay with a journal anchors with it).
    if (req.key !== undefined)
      options.key = await this.gate.keyFile(req.key, 'reviewer key file that anchors the replay');
    if (req.whatIf !== undefined) {
      if (
        !Array.isArray(req.whatIf) ||
        req.whatIf.length > MAX_WHAT_IF ||
        !req.whatIf.every((w) => typeof w === 'string' && /^[a-zA-Z]+=\S{1,200}$/.test(w))
      ) {
        throw new ApiError('whatIf is a list of NAME=VALUE substitutions', true);
      }
      if (req.whatIf.length > 0) options.whatIf = [...req.whatIf];
    }
    const src = req.source;
    if (src.type === 'bytes') {
      return { job: { op: 'runBytes', path: src.name, bytes: this.decode(src.name, src.dataBase64), mode, options } };
    }
    if (src.type === 'example') {
      const { dir, files } = await this.examples();
      const file = files.find((f) => f.path === src.path);
      if (!file) throw new ApiError(`no built-in example ${JSON.stringify(src.path)}`, true);
      const abs = resolve(dir, ...file.path.split('/'));
      if (!abs.startsWith(dir + sep)) throw new ApiError('bad example path', true);
      for (const [k, v] of Object.entries(file.options ?? {})) opt[k] ??= resolve(dir, ...v.split('/'));
      // A file the host itself wrote into its own examples folder (checked under it above).
      return { job: { op: 'runBytes', path: file.path, bytes: await readFile(abs), mode, options } };
    }
    if (src.type === 'upload') {
      const u = typeof src.uploadId === 'string' ? this.uploads.get(src.uploadId) : undefined;
      if (!u) throw new ApiError('unknown upload (it may have been replaced by a newer one)', true);
      const failed = abandonedWords(u);
      if (failed) throw new ApiError(failed, true);
      if (follow && u.file !== undefined && u.arriving)
        return { job: { op: 'runPath', path: u.file, shown: u.name, mode, options, arriving: u.size } };
      if (u.received !== u.size)
        throw new ApiError(`the upload of ${u.name} is incomplete (${u.received} of ${u.size} bytes)`, true);
      if (u.file !== undefined) return { job: { op: 'runPath', path: u.file, shown: u.name, mode, options } };
      if (u.chunks.length > 1) u.chunks = [Buffer.concat(u.chunks)];
      return { job: { op: 'runBytes', path: u.name, bytes: u.chunks[0] ?? Buffer.alloc(0), mode, options } };
    }
    if (src.type === 'path') {
      if (typeof src.path !== 'string' || !isAbsolute(src.path))
        throw new ApiError('open a file by its absolute path', true);
      const real = await this.gate.confine(src.path, 'the file');
      try {
        await stat(real);
      } catch {
        throw new ApiError(`cannot open ${src.path}: no such file or directory`, true);
      }
      return { job: { op: 'runPath', path: real, mode, options } };
    }
    throw new ApiError('unknown source type', true);
  }

  async startJob(req: StartJobRequest): Promise<JobStarted> {
    const { job } = await this.jobOf(req, true);
    const jobId = `job-${this.nextJob++}`;
    const handle = this.pool.run(job, (fraction, label) =>
      this.emit({ type: 'job-progress', jobId, fraction, ...(label !== undefined ? { label } : {}) }),
    );
    const running: RunningJob = { cancel: handle.cancel, cancelled: false };
    this.jobs.set(jobId, running);
    void handle.promise.then((o) => {
      this.jobs.delete(jobId);
      if (o.ok) this.emit({ type: 'job-done', jobId, report: o.report });
      else {
        // A job that followed an upload whose sending failed says why it failed, not only that its bytes stopped.
        const upload = req.source?.type === 'upload' ? abandonedWords(this.uploads.get(req.source.uploadId)) : null;
        this.emit({
          type: 'job-failed',
          jobId,
          message: running.cancelled ? 'cancelled' : (upload ?? o.message),
          cancelled: running.cancelled,
        });
      }
    });
    return { jobId };
  }

  async cancelJob(req: { jobId: string }): Promise<boolean> {
    const j = typeof req?.jobId === 'string' ? this.jobs.get(req.jobId) : undefined;
    if (!j) return false;
    j.cancelled = true;
    j.cancel();
    return true;
  }

  private examples(): Promise<{ dir: string; files: ExampleFile[] }> {
    if (!this.examplesDir) {
      this.examplesDir = (async () => {
        const dir = await mkdtemp(join(tmpdir(), 'reprise-examples-'));
        const files = await writeExamples(dir);
        await this.gate.grant({ roots: [dir] });
        return { dir, files };
      })();
    }
    return this.examplesDir;
  }

  async listExamples(): Promise<ExampleSummary[]> {
    const { files } = await this.examples();
    return files.map((f) => ({
      path: f.path,
      note: f.note,
      ...(f.expect ? { expect: f.expect } : {}),
      ...(f.options ? { options: { ...f.options } } : {}),
    }));
  }

  // The shell keeps the recent files and owns the native dialogs (engine-remote.ts answers
  // both itself, where the windows are): the engine's process has neither.
  async recentFiles(): Promise<RecentFile[]> {
    return [];
  }

  async pickPath(_req: PickRequest): Promise<string | null> {
    return null;
  }

  async createDemoJournal(): Promise<DemoJournal> {
    const demo = await this.journal.run<DemoJournal>({ op: 'demo' });
    // The host made this journal and its key: the user may open and sign with them.
    await this.grant({ roots: [dirname(demo.dir)], keys: [demo.keyFile] });
    return demo;
  }

  async artifactContent(req: { source: JobSource }): Promise<ArtifactContent> {
    const { job } = await this.jobOf({ source: req?.source, mode: 'verify' });
    if (job.op === 'runBytes' && job.bytes.length > MAX_EDITOR_BYTES)
      return {
        raw: null,
        canonical: null,
        note: `larger than ${MAX_EDITOR_BYTES / 1048576} MiB: not shown in the editor`,
      };
    return this.journal.run<ArtifactContent>(
      job.op === 'runBytes' ? { op: 'content', bytes: job.bytes } : { op: 'content', path: job.path },
    );
  }

  /** A Nemosyne package's members (read by the engine's strict ZIP reader in the journal worker). */
  async packageMembers(req: PackageMembersRequest): Promise<PackageMembers> {
    if (req?.path !== undefined && (typeof req.path !== 'string' || req.path === '' || req.path.length > 1024))
      throw new ApiError('a package member is named by its path in the archive', true);
    const { job } = await this.jobOf({ source: req?.source, mode: 'verify' });
    const member = req.path !== undefined ? { member: req.path } : {};
    return this.journal.run<PackageMembers>(
      job.op === 'runBytes'
        ? { op: 'members', bytes: job.bytes, ...member }
        : { op: 'members', path: job.path, ...member },
    );
  }

  async attestReplay(req: AttestRequest): Promise<AttestationExport> {
    const keyFile = await this.gate.keyFile(req?.keyFile, 'reviewer key file that signs the attestation');
    const { job } = await this.jobOf({
      source: req.source,
      mode: 'replay',
      ...(req.options ? { options: req.options } : {}),
    });
    const options = { ...job.options };
    return this.journal.run<AttestationExport>(
      job.op === 'runBytes'
        ? { op: 'attest', name: job.path, bytes: job.bytes, keyFile, options }
        : { op: 'attest', name: job.path, path: job.path, keyFile, options },
    );
  }

  journalStatus: RepriseApi['journalStatus'] = (req) => this.journals.journalStatus(req);
  decideCase: RepriseApi['decideCase'] = (req) => this.journals.decideCase(req);
  openJudgementJournal: RepriseApi['openJudgementJournal'] = (req) => this.journals.openJudgementJournal(req);
  recordJudgement: RepriseApi['recordJudgement'] = (req) => this.journals.recordJudgement(req);
  listJudgements: RepriseApi['listJudgements'] = (req) => this.journals.listJudgements(req);
  exportBundle: RepriseApi['exportBundle'] = (req) => this.journals.exportBundle(req);
  judgementRules: RepriseApi['judgementRules'] = () => this.journals.judgementRules();
  signingKeys: RepriseApi['signingKeys'] = (req) => this.journals.signingKeys(req);

  startCase: RepriseApi['startCase'] = (req) => this.cases.start(req);
  cancelCase: RepriseApi['cancelCase'] = (req) => this.cases.cancel(req);
  addCaseUpload: RepriseApi['addCaseUpload'] = (req) => this.cases.addUpload(req);

  async providerOffers(req: { providers?: string; example?: string }): Promise<ProviderOffers> {
    let path = typeof req?.providers === 'string' && req.providers !== '' ? req.providers : undefined;
    if (path !== undefined && !isAbsolute(path)) throw new ApiError('providers must be an absolute path', true);
    // Read only under the roots the user chose, like every other option file.
    if (path !== undefined) path = await this.gate.confine(path, 'the provider registry');
    // An example's own registry is named as the example names it, not by the private
    // folder the examples were written to (a path the user never chose).
    let shown: string | undefined;
    if (typeof req?.example === 'string') {
      const { dir, files } = await this.examples();
      const own = files.find((f) => f.path === req.example)?.options?.providers;
      if (own) {
        path = resolve(dir, ...own.split('/'));
        shown = `${own} (the built-in example's)`;
      }
    }
    // A registry is a small document; a huge file is refused before it is read here.
    const size = path !== undefined ? ((await stat(path).catch(() => null))?.size ?? 0) : 0;
    if (size > 4 * 1024 * 1024) throw new ApiError(`provider registry ${path} is larger than 4 MiB`, true);
    try {
      const reg = await loadProviderRegistry(path);
      return {
        source: shown ?? reg.source,
        providers: reg.entries.map((e) => ({
          providerId: e.providerId,
          models: e.models.map((m) => m.modelId),
          computeShapes: e.computeShapes.map(shapeKey),
        })),
      };
    } catch (e) {
      if (e instanceof ProviderRegistryError) throw new ApiError(e.message, true);
      throw e;
    }
  }

  async beginUpload(req: { name: string; size: number }): Promise<{ uploadId: string }> {
    return this.uploads.begin(req);
  }

  async uploadChunk(req: UploadChunkRequest): Promise<{ received: number }> {
    return this.uploads.chunk(req);
  }

  /** Called by the shell only (engine-serve.ts), never through the API: uploads.ts says why. */
  adoptUpload(req: UploadFile): Promise<{ received: number }> {
    return this.uploads.adopt(req);
  }

  async close(): Promise<void> {
    for (const j of this.jobs.values()) j.cancel();
    await Promise.all([this.pool.close(), this.journal.close(), this.cases.close()]);
  }
}
