/**
 * The engine host: implements the shared RepriseApi on top of a worker pool, so that the
 * process talking to the window (Electron main, or the web host's event loop) never
 * parses or hashes an artifact. Used by both transports.
 */
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import type { CheckBytesRequest, CheckMode, EngineInfo, ExampleSummary, RepriseApi } from '../../shared/api.js';
import type { Report } from '../../shared/report.js';
import { writeExamples, type ExampleFile } from '../../app/examples/index.js';
import { KINDS, DIRECTORY_KINDS } from '../../app/kinds/registry.js';
import type { EngineOptions } from '../../app/kinds/types.js';
import { WorkerPool } from '../../app/workers/pool.js';
import type { JobOutcome } from '../../app/workers/protocol.js';
import { VERSION } from '../../app/version.js';

/** An error the user caused (bad input); shown as is, never with a stack. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly usage: boolean,
  ) {
    super(message);
  }
}

/** Largest artifact accepted over the API (the base64 text is ~4/3 of this). */
export const MAX_API_BYTES = 512 * 1024 * 1024;

export interface EngineHostOptions {
  workerUrl: URL;
  workers?: number;
  transport: EngineInfo['transport'];
}

export class EngineHost implements RepriseApi {
  private readonly pool: WorkerPool;
  private examplesDir: Promise<{ dir: string; files: ExampleFile[] }> | null = null;

  constructor(private readonly opts: EngineHostOptions) {
    this.pool = new WorkerPool(opts.workers ?? 2, opts.workerUrl, { pipeline: 1 });
  }

  async engineInfo(): Promise<EngineInfo> {
    return { version: VERSION, kinds: [...KINDS.map((k) => k.kind), ...DIRECTORY_KINDS.map((k) => k.kind)], transport: this.opts.transport };
  }

  async checkBytes(req: CheckBytesRequest): Promise<Report> {
    if (typeof req?.name !== 'string' || typeof req.dataBase64 !== 'string' || (req.mode !== 'verify' && req.mode !== 'replay')) {
      throw new ApiError('checkBytes needs {name, dataBase64, mode}', true);
    }
    if (req.dataBase64.length > Math.ceil(MAX_API_BYTES / 3) * 4) throw new ApiError(`the file is larger than ${MAX_API_BYTES} bytes`, true);
    const bytes = Buffer.from(req.dataBase64, 'base64');
    return unwrap(await this.pool.run({ op: 'runBytes', path: req.name, bytes, mode: req.mode, options: {} }).promise);
  }

  private examples(): Promise<{ dir: string; files: ExampleFile[] }> {
    if (!this.examplesDir) {
      this.examplesDir = (async () => {
        const dir = await mkdtemp(join(tmpdir(), 'reprise-examples-'));
        const files = await writeExamples(dir);
        return { dir, files };
      })();
    }
    return this.examplesDir;
  }

  async listExamples(): Promise<ExampleSummary[]> {
    const { files } = await this.examples();
    return files.map((f) => ({ path: f.path, note: f.note, ...(f.expect ? { expect: f.expect } : {}) }));
  }

  async checkExample(req: { path: string; mode: CheckMode }): Promise<Report> {
    const { dir, files } = await this.examples();
    const file = files.find((f) => f.path === req?.path);
    if (!file) throw new ApiError(`no built-in example ${JSON.stringify(req?.path)}`, true);
    const abs = resolve(dir, ...file.path.split('/'));
    if (!abs.startsWith(dir + sep)) throw new ApiError('bad example path', true);
    const options: EngineOptions = {};
    for (const [k, v] of Object.entries(file.options ?? {})) {
      (options as Record<string, string>)[k] = resolve(dir, ...v.split('/'));
    }
    const bytes = await readFile(abs);
    return unwrap(await this.pool.run({ op: 'runBytes', path: file.path, bytes, mode: req.mode === 'replay' ? 'replay' : 'verify', options }).promise);
  }

  async close(): Promise<void> {
    await this.pool.close();
  }
}

function unwrap(o: JobOutcome): Report {
  if (o.ok) return o.report;
  throw new ApiError(o.message, o.usage);
}
