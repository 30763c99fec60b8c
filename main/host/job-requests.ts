/**
 * Turns what the window asks for (a source, a mode, options, a key, what-if substitutions)
 * into an engine job, every path through the gate first: the one place that decides what a
 * job may read. Used by the jobs, the files and the cases alike.
 */
import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, resolve, sep } from 'node:path';
import type { CheckMode, StartJobRequest } from '../../shared/api.js';
import { workbenchOptionNames } from '../../app/kinds/registry.js';
import type { EngineOptions } from '../../app/kinds/types.js';
import type { EngineJob } from '../../app/jobs/protocol.js';
import { ApiError } from './api-error.js';
import type { ExamplesSide } from './examples-side.js';
import type { GrantedGate } from './granted-gate.js';
import { abandonedWords, MAX_API_BYTES, untilSettled, type Uploads } from './uploads.js';

/** The options the workbench may send: the paths the kinds declare as workbench options. */
const optionNames = (): readonly string[] => workbenchOptionNames();
const MAX_WHAT_IF = 8;

export class JobRequests {
  constructor(
    private readonly gate: GrantedGate,
    private readonly uploads: Uploads,
    private readonly examples: ExamplesSide,
  ) {}

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

  /** A built-in example's own options (absolute paths), or null for any other source. */
  private async exampleOwn(src: StartJobRequest['source'] | undefined): Promise<Record<string, string> | null> {
    if (src?.type !== 'example') return null;
    const { dir, files } = await this.examples.files();
    const file = files.find((f) => f.path === src.path);
    return Object.fromEntries(Object.entries(file?.options ?? {}).map(([k, v]) => [k, resolve(dir, ...v.split('/'))]));
  }

  /**
   * The engine options of a request: the window's words for its fields, each option under a
   * granted root (an example's own kept as they are), the key the user picked, and what-if
   * substitutions on a replay only.
   */
  private async requestOptions(req: StartJobRequest, mode: CheckMode): Promise<EngineOptions> {
    // Refusals name the workbench's words, not the CLI's flags (findings name both: a report's bytes never depend on the host).
    const options: EngineOptions = {
      optionWords: { artifact: "the link's artifact option" },
      // One artifact opened on its own: an option only another kind reads (a link's artifact=
      // on a dump) is refused rather than run without, as the CLI refuses it for one file.
      alone: true,
    };
    const opt = options as Record<string, unknown>;
    const own = await this.exampleOwn(req.source);
    for (const [k, v] of Object.entries(req.options ?? {})) {
      if (!optionNames().includes(k) || typeof v !== 'string' || v === '')
        throw new ApiError(`unknown or empty option ${JSON.stringify(k)}`, true);
      if (own && k in own) {
        // An example's own option is part of the example: the request may name the same file, never another.
        if (resolve(v) === own[k]) continue;
        throw new ApiError(
          `the built-in example ${JSON.stringify((req.source as { path: string }).path)} sets its own option ${k}, ` +
            `which the request's ${k}=${v} may not replace: nothing was run`,
          true,
        );
      }
      // A kernel adapter is code the engine runs: allowed only as the user named it.
      opt[k] = k === 'kernelAdapter' ? await this.gate.adapterFile(v) : await this.gate.confine(v, `option ${k}`);
    }
    // The example's own options, always (a request naming another was refused above).
    if (own) Object.assign(opt, own);
    // A signing key only as the user picked it (a replay with a journal anchors with it).
    if (req.key !== undefined)
      options.key = await this.gate.keyFile(req.key, 'reviewer key file that anchors the replay');
    if (req.whatIf !== undefined) {
      // What-if substitutions are a replay's: a verify would drop them without a word (the CLI refuses them too).
      if (mode !== 'replay' && Array.isArray(req.whatIf) && req.whatIf.length > 0)
        throw new ApiError('whatIf substitutions apply to a replay only (mode "replay"), never to a verify', true);
      if (
        !Array.isArray(req.whatIf) ||
        req.whatIf.length > MAX_WHAT_IF ||
        !req.whatIf.every((w) => typeof w === 'string' && /^[a-zA-Z]+=\S{1,200}$/.test(w))
      ) {
        throw new ApiError('whatIf is a list of NAME=VALUE substitutions', true);
      }
      if (req.whatIf.length > 0) options.whatIf = [...req.whatIf];
    }
    return options;
  }

  /**
   * Turns a request into an engine job (reading nothing but an example's bytes). Only a job
   * may `follow` an upload still arriving (it reads the file as it grows); anything else
   * that reads the upload (the editor's content, a package's members, an attestation)
   * waits until it is whole, and must never see part of it.
   */
  async jobOf(req: StartJobRequest, follow = false): Promise<{ job: EngineJob }> {
    const { job } = await this.unconfinedJobOf(req, follow);
    job.options.readRoots = await this.readRoots(req.source, job);
    return { job };
  }

  /**
   * What the job may open (EngineOptions.readRoots, checked on each open descriptor): the
   * granted folders and key files, and the host's own folder the job's source lies in (the examples it
   * wrote, the file an upload arrives in), by real path.
   */
  private async readRoots(src: StartJobRequest['source'], job: EngineJob): Promise<string[]> {
    const own =
      src.type === 'example' ? (await this.examples.files()).dir : src.type === 'upload' ? dirname(job.path) : null;
    const roots = await this.gate.readable();
    return own === null ? roots : [...roots, await realpath(own)];
  }

  private async unconfinedJobOf(req: StartJobRequest, follow: boolean): Promise<{ job: EngineJob }> {
    const upload = !follow && req?.source?.type === 'upload' ? this.uploads.get(req.source.uploadId) : undefined;
    if (upload) await untilSettled(upload);
    if (typeof req !== 'object' || req === null || typeof req.source !== 'object' || req.source === null)
      throw new ApiError('startJob needs {source, mode}', true);
    const mode = JobRequests.mode(req.mode);
    const options = await this.requestOptions(req, mode);
    const src = req.source;
    if (src.type === 'bytes') {
      return { job: { op: 'runBytes', path: src.name, bytes: this.decode(src.name, src.dataBase64), mode, options } };
    }
    if (src.type === 'example') {
      const { dir, files } = await this.examples.files();
      const file = files.find((f) => f.path === src.path);
      if (!file) throw new ApiError(`no built-in example ${JSON.stringify(src.path)}`, true);
      const abs = resolve(dir, ...file.path.split('/'));
      if (!abs.startsWith(dir + sep)) throw new ApiError('bad example path', true);
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
}
