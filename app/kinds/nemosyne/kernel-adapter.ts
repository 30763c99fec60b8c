/**
 * The kernel-adapter port. The investigation digest commits to a semantic state that is
 * not in the package: it is restored by replaying `investigation/commands.log` through
 * Nemosyne's analytical kernel. Reprise has no kernel of its own; an adapter supplies the
 * restored state, and Reprise builds and hashes the digest root itself.
 *
 * An adapter (`--kernel-adapter PATH`, EngineOptions.kernelAdapter) is either
 *  - a module (PATH ends in .js or .mjs) exporting `restore(input)` (named or on the
 *    default export), returning a RestoredState or a promise of one; or
 *  - a command, run as `PATH PACKAGE` with a JSON KernelRestoreRequest (without entry
 *    bytes) on stdin, printing one RestoredState as JSON on stdout, exiting 0. It runs in a
 *    process group of its own, killed whole when it ends, when its job is cancelled and
 *    when the engine's process ends (threads/owned-commands.ts).
 * Anything else (a throw, a timeout, a non-zero exit, output of the wrong shape) leaves
 * the digest `unavailable`: an adapter failure never passes and never fails a package.
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { decodeJsonBytes, parseCanonical } from '../../core/jcs.js';
import { isPlainObject as isObj } from '../../core/closed.js';
import { runCommand as runOwned } from '../../threads/owned-commands.js';

export interface KernelRestoreRequest {
  formatVersion: 1 | 2 | 3 | 4;
  /** The kernel whose replay the digest needs: analyticalKernelVersion (V3+) or kernelVersion. */
  kernelVersion: string;
  manifest: Record<string, unknown>;
  packagePath: string;
  /** The verified, inflated entries (module adapters only). */
  entries?: Record<string, Uint8Array>;
}

/** Members of the digest root that come from the restored state (all but schemaVersion, algorithm, governedEvidence). */
export const STATE_MEMBERS = {
  datasetFingerprint: 'string',
  immutableDatasetFingerprint: 'string',
  kernelVersion: 'string',
  analyticalState: 'any',
  eventHashes: 'strings',
  resultHashes: 'strings',
  structureHashes: 'strings',
  observationHashes: 'strings',
  findingHashes: 'strings',
  annotationHashes: 'strings',
  representationStateHash: 'string?',
  discoveryEpisodeHashes: 'strings',
  nilOutcomeHashes: 'strings',
  researchContextHash: 'string?',
} as const;

export interface RestoredState {
  /** The kernel version that actually restored the state. */
  kernelVersion: string;
  /** The analytical dataset fingerprint the replay reconstructed (V3+). */
  analyticalDatasetFingerprint?: string;
  /** The semantic state: exactly the STATE_MEMBERS. */
  state: Record<string, unknown>;
}

export interface KernelAdapter {
  restore(input: KernelRestoreRequest): Promise<unknown> | unknown;
}

export class AdapterError extends Error {}

const COMMAND_TIMEOUT_MS = 120_000;
const MAX_STDOUT = 64 * 1024 * 1024;

export async function runAdapter(spec: string, req: KernelRestoreRequest): Promise<RestoredState> {
  const raw = /\.(m?js)$/.test(spec) ? await runModule(spec, req) : await runCommand(spec, req);
  return checkRestored(raw);
}

/** What was thrown, in words: a module may throw anything (null, a string, an object). */
function thrown(e: unknown): string {
  if (e instanceof Error) return e.message;
  try {
    return `it threw ${typeof e === 'string' ? JSON.stringify(e) : String(e)}`;
  } catch {
    return 'it threw a value that cannot be shown';
  }
}

/**
 * A module's answer as the JSON a command would have printed: a live value may hold what JSON
 * does not (NaN, a BigInt, undefined, a cycle, a getter that throws), which would otherwise
 * fail later, in the digest, as an internal error rather than an unavailable digest.
 */
function asPrinted(spec: string, v: unknown): Uint8Array {
  let text: string | undefined;
  try {
    text = JSON.stringify(v, (k, x: unknown) => {
      if (typeof x === 'number' && !Number.isFinite(x)) throw new AdapterError(`${k || '(root)'} is ${x}`);
      if (x === undefined || typeof x === 'function' || typeof x === 'symbol' || typeof x === 'bigint')
        throw new AdapterError(`${k || '(root)'} is ${typeof x}, no JSON value`);
      return x;
    });
  } catch (e) {
    throw new AdapterError(`kernel adapter ${spec} returned no JSON data: ${thrown(e)}`);
  }
  return Buffer.from(text ?? '', 'utf8');
}

async function runModule(spec: string, req: KernelRestoreRequest): Promise<unknown> {
  let mod: { restore?: unknown; default?: { restore?: unknown } };
  try {
    mod = (await import(pathToFileURL(isAbsolute(spec) ? spec : resolve(spec)).href)) as typeof mod;
  } catch (e) {
    throw new AdapterError(`cannot load kernel adapter module ${spec}: ${thrown(e)}`);
  }
  const restore =
    typeof mod.restore === 'function'
      ? mod.restore
      : typeof mod.default?.restore === 'function'
        ? mod.default.restore
        : null;
  if (!restore) throw new AdapterError(`kernel adapter module ${spec} exports no restore() function`);
  let answer: unknown;
  try {
    answer = await settled(Promise.resolve((restore as KernelAdapter['restore'])(req)), spec);
  } catch (e) {
    if (e instanceof AdapterError) throw e;
    throw new AdapterError(`kernel adapter ${spec} failed: ${thrown(e)}`);
  }
  return parsedAnswer(spec, asPrinted(spec, answer));
}

/**
 * A module's restore() within the command's time. One that waits on nothing (a promise that
 * nothing settles) would leave the process with an empty event loop, and Node would exit 13
 * with no word: `beforeExit` catches that moment (the timer is unref'd so as not to hold the
 * loop open itself), and the artifact is unavailable like any adapter that fails.
 */
function settled<T>(p: Promise<T>, spec: string): Promise<T> {
  return new Promise<T>((resolveIt, rejectIt) => {
    const stuck = (): void =>
      rejectIt(new AdapterError(`kernel adapter ${spec}: restore() never settles (it waits on nothing)`));
    const timer = setTimeout(
      () => rejectIt(new AdapterError(`kernel adapter ${spec} timed out after ${COMMAND_TIMEOUT_MS} ms`)),
      COMMAND_TIMEOUT_MS,
    );
    timer.unref();
    process.once('beforeExit', stuck);
    p.then(resolveIt, rejectIt).finally(() => {
      clearTimeout(timer);
      process.off('beforeExit', stuck);
    });
  });
}

async function runCommand(spec: string, req: KernelRestoreRequest): Promise<unknown> {
  const { entries: _entries, ...wire } = req;
  const end = await runOwned({
    // The file its option digest names: a bare name is under the working folder, as for a
    // module, never a program of that name on PATH.
    file: isAbsolute(spec) ? spec : resolve(spec),
    args: [req.packagePath],
    input: JSON.stringify(wire),
    timeoutMs: COMMAND_TIMEOUT_MS,
    maxOutput: MAX_STDOUT,
  });
  if (!end.ok) throw new AdapterError(`kernel adapter ${spec} ${end.why}`);
  if (end.code !== 0) throw new AdapterError(`kernel adapter ${spec} exited with ${end.code ?? 'a signal'}`);
  return parsedAnswer(spec, end.output);
}

/** An adapter's answer as JSON bytes (a command's output, a module's value as printed), parsed strictly. */
function parsedAnswer(spec: string, bytes: Uint8Array): unknown {
  let p;
  try {
    p = parseCanonical(decodeJsonBytes(bytes));
  } catch (e) {
    throw new AdapterError(`kernel adapter ${spec} printed no valid JSON: ${thrown(e)}`);
  }
  // An answer whose numbers the parse changed is not the answer the adapter gave.
  const changed = p.warnings[0];
  if (changed)
    throw new AdapterError(
      `kernel adapter ${spec} printed JSON that is not I-JSON: ${changed.message} at ${changed.pointer || '(root)'}`,
    );
  return p.value;
}

function checkRestored(v: unknown): RestoredState {
  if (!isObj(v)) throw new AdapterError('the kernel adapter returned no object');
  if (typeof v['kernelVersion'] !== 'string') throw new AdapterError('the kernel adapter returned no kernelVersion');
  if (v['analyticalDatasetFingerprint'] !== undefined && typeof v['analyticalDatasetFingerprint'] !== 'string')
    throw new AdapterError('analyticalDatasetFingerprint must be a string');
  const state = v['state'];
  if (!isObj(state)) throw new AdapterError('the kernel adapter returned no state object');
  for (const k of Object.keys(state))
    if (!Object.hasOwn(STATE_MEMBERS, k))
      throw new AdapterError(`the restored state has a member "${k}" that the digest root does not have`);
  for (const [k, t] of Object.entries(STATE_MEMBERS)) {
    const x = state[k];
    if (x === undefined) {
      if (t.endsWith('?')) continue;
      throw new AdapterError(`the restored state lacks "${k}"`);
    }
    if ((t === 'string' || t === 'string?') && typeof x !== 'string')
      throw new AdapterError(`the restored state's "${k}" must be a string`);
    if (t === 'strings' && !(Array.isArray(x) && x.every((s) => typeof s === 'string')))
      throw new AdapterError(`the restored state's "${k}" must be an array of strings`);
  }
  const out: RestoredState = { kernelVersion: v['kernelVersion'], state };
  if (typeof v['analyticalDatasetFingerprint'] === 'string')
    out.analyticalDatasetFingerprint = v['analyticalDatasetFingerprint'];
  return out;
}
