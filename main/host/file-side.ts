/**
 * The engine host's files: what the editor shows of an artifact, a package's members, a
 * replay's attestation and a provider registry's offers, each read through the gate
 * (JobRequests) and, where it parses an artifact, in the journal worker.
 */
import { stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type {
  ArtifactContent,
  AttestationExport,
  CompareResult,
  CompareSide,
  AttestRequest,
  JobSource,
  PackageMembers,
  PackageMembersRequest,
  ProviderOffers,
} from '../../shared/api.js';
import { loadProviderRegistry, ProviderRegistryError } from '../../app/providers/registry.js';
import { shapeKey } from '../../app/providers/types.js';
import { refuseTwoKinds } from '../../app/engine/compare-sides.js';
import { reportShapeProblems } from '../../shared/report-shape.js';
import { ApiError } from './api-error.js';
import type { ExamplesSide } from './examples-side.js';
import type { GrantedGate } from './granted-gate.js';
import type { JobRequests } from './job-requests.js';
import type { JournalWorker } from './journal-client.js';

/** Largest artifact shown in the editor (as journal-ops.ts; kept here so this module does not load it). */
const MAX_EDITOR_BYTES = 8 * 1024 * 1024;

export class FileSide {
  constructor(
    private readonly gate: GrantedGate,
    private readonly requests: JobRequests,
    private readonly examples: ExamplesSide,
    private readonly journal: JournalWorker,
  ) {}

  async artifactContent(req: { source: JobSource }): Promise<ArtifactContent> {
    const { job } = await this.requests.jobOf({ source: req?.source, mode: 'verify' });
    if (job.op === 'runBytes' && job.bytes.length > MAX_EDITOR_BYTES)
      return {
        raw: null,
        canonical: null,
        note: `larger than ${MAX_EDITOR_BYTES / 1048576} MiB: not shown in the editor`,
      };
    return this.journal.run<ArtifactContent>(
      job.op === 'runBytes'
        ? { op: 'content', bytes: job.bytes }
        : { op: 'content', path: job.path, readRoots: job.options.readRoots },
    );
  }

  /**
   * Two artifacts' diff, made in the journal worker (app/engine/compare-sides.ts) from the
   * reports the window holds and each artifact's content read through the gate, to the
   * CLI's limit: only the differences reach the window.
   */
  async compareArtifacts(req: { left: CompareSide; right: CompareSide }): Promise<CompareResult> {
    const [l, r] = [compareSide(req?.left, 'left'), compareSide(req?.right, 'right')];
    try {
      refuseTwoKinds(l, r);
    } catch (e) {
      throw new ApiError((e as Error).message, true);
    }
    const roots = new Set<string>();
    const read = async (s: CompareSide) => {
      const { job } = await this.requests.jobOf({ source: s.source, mode: 'verify' });
      job.options.readRoots?.forEach((d) => roots.add(d));
      const at = job.op === 'runBytes' ? { bytes: job.bytes } : { path: job.path };
      return { name: s.name, report: s.report, ...at };
    };
    const [left, right] = [await read(l), await read(r)];
    return this.journal.run<CompareResult>({ op: 'compare', left, right, readRoots: [...roots] });
  }

  /** A Nemosyne package's members (read by the engine's strict ZIP reader in the journal worker). */
  async packageMembers(req: PackageMembersRequest): Promise<PackageMembers> {
    if (req?.path !== undefined && (typeof req.path !== 'string' || req.path === '' || req.path.length > 1024))
      throw new ApiError('a package member is named by its path in the archive', true);
    const { job } = await this.requests.jobOf({ source: req?.source, mode: 'verify' });
    const member = req.path !== undefined ? { member: req.path } : {};
    return this.journal.run<PackageMembers>(
      job.op === 'runBytes'
        ? { op: 'members', bytes: job.bytes, ...member }
        : { op: 'members', path: job.path, ...member, readRoots: job.options.readRoots },
    );
  }

  async attestReplay(req: AttestRequest): Promise<AttestationExport> {
    const keyFile = await this.gate.keyFile(req?.keyFile, 'reviewer key file that signs the attestation');
    const { job } = await this.requests.jobOf({
      source: req.source,
      mode: 'replay',
      ...(req.options ? { options: req.options } : {}),
    });
    const options = { ...job.options };
    // The replay it signs reads as a job's does: only what lies in the granted folders and keys.
    const readRoots = job.options.readRoots;
    return this.journal.run<AttestationExport>(
      job.op === 'runBytes'
        ? { op: 'attest', name: job.path, bytes: job.bytes, keyFile, options, readRoots }
        : { op: 'attest', name: job.path, path: job.path, keyFile, options, readRoots },
    );
  }

  async providerOffers(req: { providers?: string; example?: string }): Promise<ProviderOffers> {
    let path = typeof req?.providers === 'string' && req.providers !== '' ? req.providers : undefined;
    if (path !== undefined && !isAbsolute(path)) throw new ApiError('providers must be an absolute path', true);
    // Read only under the roots the user chose, like every other option file.
    if (path !== undefined) path = await this.gate.confine(path, 'the provider registry');
    // An example's own registry is named as the example names it, not by the private
    // folder the examples were written to (a path the user never chose).
    let shown: string | undefined;
    if (typeof req?.example === 'string') {
      const { dir, files } = await this.examples.files();
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
}

/** A side of a compare request as the window must send it: a name, and a report of the engine's shape. */
function compareSide(s: unknown, which: string): CompareSide {
  const side = (typeof s === 'object' && s !== null ? s : {}) as Partial<CompareSide>;
  if (typeof side.name !== 'string' || side.name === '' || side.name.length > 4096)
    throw new ApiError(`the ${which} side of a diff is named by a non-empty name`, true);
  const problem = reportShapeProblems(side.report, { runOptional: true })[0];
  if (problem)
    throw new ApiError(
      `the ${which} side's report is not one the engine made: ${problem.pointer} ${problem.message}`,
      true,
    );
  return side as CompareSide;
}
