/**
 * Runs one artifact through detection and its kind's verify or replay, and turns the
 * result into a report. Used by the CLI (inline or in workers) and by the workbench.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { Finding, Report } from '../../shared/report.js';
import { UsageError } from '../core/errors.js';
import {
  cannotOpen,
  FileReadError,
  MAX_WHOLE_FILE_BYTES,
  openRegular,
  READ_FLAGS,
  readOpened,
  type OpenedFile,
  checkOpenedInside,
} from '../core/files.js';
import { cutShort, fail, info } from '../core/findings.js';
import { refusedAsCutShort } from '../core/jcs.js';
import { memoFile } from '../core/closed.js';
import { hashBytes, hashFile } from '../core/hash.js';
import { loadTrustStore } from '../core/keys.js';
import { authenticityOf, withSigner } from '../core/authenticity.js';
import { buildReport, type KindResult } from '../core/report.js';
import { DIRECTORY_KINDS, KINDS, canonicalStripWanted, decidersOf, unreadOptions } from '../kinds/registry.js';
import { Sniffed } from '../kinds/sniff.js';
import type { EngineOptions, KindContext, KindDeclarations } from '../kinds/types.js';
import type { CaseSubject, KindOperations } from '../kinds/operations.js';
import { startsWithLocalHeader } from '../zip/sniff.js';
import { CASE_SCHEMA } from '../../shared/case.js';
import type { Arrived } from './arriving.js';

export type Mode = 'verify' | 'replay';

/** Bad usage or an unreadable path: the CLI exits 3 with this one-line message. */
export { UsageError };

/** Files larger than this are refused before reading (a documented limit). */
export const MAX_ARTIFACT_BYTES = MAX_WHOLE_FILE_BYTES;

const trustStores = memoFile(loadTrustStore);

export function makeContext(
  path: string,
  options: EngineOptions,
  onProgress?: (f: number, label?: string) => void,
): KindContext {
  return {
    options,
    path,
    trustStore() {
      const p = options.trustStore;
      if (!p) return Promise.resolve(null);
      return trustStores(p);
    },
    progress(fraction, label) {
      onProgress?.(fraction, label);
    },
    rerun: (p, mode, o) => runPath(p, mode, o),
    decidersOf,
  };
}

/**
 * RPR-KIND-001, with what the content looked like as `actual`: a truncated or mangled
 * artifact (a copy cut short, a byte-order mark added by an editor) is then told apart
 * from a file of another sort, which a reviewer cannot do from "unknown" alone.
 */
function unknownKind(s: Sniffed): KindResult {
  const actual = describeUnknown(s);
  // A copy cut short is most likely an artifact of a known kind: say that first, not "unknown";
  // so is a document refused for its size before it was parsed, whose kind was never read.
  const j = s.json(); // null, without a parse, for anything but JSON
  const message = actual.startsWith(cutShort('not well-formed JSON'))
    ? 'the file looks cut short (truncated), so its kind cannot be read; Reprise does not guess from file names'
    : j && !j.ok && j.error.code === 'ERR_LIMIT'
      ? 'the document is larger than Reprise parses (a limit checked before parsing), so its kind was not read; Reprise does not guess from file names'
      : 'the content is not an artifact kind Reprise knows; Reprise does not guess from file names';
  return { id: null, findings: [fail('RPR-KIND-001', message, { actual })], chain: [] };
}

/** What unclaimed content looks like; reads no more than detection already did. */
function describeUnknown(s: Sniffed): string {
  if (s.size === 0) return 'an empty file';
  if (s.startsWith([0xef, 0xbb, 0xbf]))
    return 'text that begins with a byte-order mark (U+FEFF), which no Reprise format allows';
  const c = s.firstChar();
  if (c === '{' || c === '[') {
    // Detection has parsed it already (every JSON kind asks): this costs nothing more.
    const j = s.json();
    if (j && !j.ok) {
      if (j.loose !== undefined) return `JSON the strict parse refuses: ${j.error.message}`;
      if (j.error.code === 'ERR_LIMIT') return `JSON refused before it was parsed: ${j.error.message}`;
      // Truncation only where the text stops inside a value it began well (not data after one).
      return `${refusedAsCutShort(j.error, s.text() ?? s.bytes) ? cutShort('not well-formed JSON') : 'not well-formed JSON'}: ${j.error.message}`;
    }
    if (j?.ok) {
      const v = j.value;
      if (Array.isArray(v)) return 'a JSON array, which no kind claims';
      // In a folder: said what it is, not "no type any kind claims" (named alone, it is refused).
      if (isCaseReport(s)) return `${CASE_REPORT}, which is not an artifact: ${CHECK_A_CASE}`;
      const type = (v as Record<string, unknown>)['type'];
      return typeof type === 'string'
        ? `a JSON object whose "type" is ${JSON.stringify(type)}, which no kind claims`
        : 'a JSON object without a "type" any kind claims';
    }
  }
  if (s.startsWith([0x2d, 0x2d, 0x2d, 0x0a]) || s.startsWith([0x2d, 0x2d, 0x2d, 0x0d, 0x0a]))
    return 'text with YAML front matter whose "type" no kind claims';
  if (s.loaded && s.text() === null) return `${s.size} bytes that are neither UTF-8 text nor a ZIP package`;
  return `${s.size} bytes that no kind claims`;
}

/** Verifies (or replays) artifact bytes; `path` is only what the report shows. */
export async function runBytes(
  path: string,
  bytes: Buffer,
  mode: Mode,
  options: EngineOptions,
  onProgress?: (f: number, label?: string) => void,
  after?: AfterRun,
): Promise<Report> {
  return runSniffed(new Sniffed(path, bytes), mode, options, onProgress, () => hashBytes(bytes), after);
}

/**
 * A large document is parsed while another thread strips it: a kind may declare work it
 * would otherwise do after the parse (KindHandler.beforeParse), handed to that thread.
 */
export async function handDeclaredWork(sniffed: Sniffed, ctx: KindContext): Promise<void> {
  for (const k of KINDS) {
    if (!k.beforeParse) continue;
    const work = await k.beforeParse(sniffed, ctx).catch(() => null);
    if (work) sniffed.handStrippingThread(work);
  }
}

/** `artifactHash` is asked for after the kind ran (a lazily loaded artifact is loaded by then). */
async function runSniffed(
  sniffed: Sniffed,
  mode: Mode,
  options: EngineOptions,
  onProgress: ((f: number, label?: string) => void) | undefined,
  artifactHash: () => string | Promise<string>,
  after?: AfterRun,
): Promise<Report> {
  const started = Date.now();
  const path = sniffed.path;
  const ctx = makeContext(path, options, onProgress);
  sniffed.limits = options.limits;
  sniffed.stripCanonical = canonicalStripWanted(sniffed.start);
  if (sniffed.stripsInWorker) await handDeclaredWork(sniffed, ctx);
  const handler = KINDS.find((k) => k.detect(sniffed));
  if (!handler) {
    refuseArtifactFlag(path, null, options, sniffed);
    return withAfter(
      buildReport(
        {
          path,
          kind: 'unknown',
          sha256: await artifactHash(),
          ...unknownKind(sniffed),
          replay: mode === 'replay',
          limits: options.limits,
        },
        started,
      ),
      after && ((r) => after(r, { sniffed }, undefined, ctx)),
    );
  }
  let result: KindResult;
  // A flag that would be silently ignored is bad usage: the user expects a file.
  if (mode === 'replay' && options.out !== undefined && !handler.writesOut) {
    throw new UsageError(
      `--out writes a TG replay comparison; ${path} is a ${handler.kind}, whose replay writes no file`,
      'refused',
    );
  }
  refuseArtifactFlag(path, handler, options);
  const code = await handler.load();
  if (mode === 'replay') {
    if (!code.replay) {
      result = await code.verify(sniffed, ctx);
      result = { ...result, findings: [...result.findings, nothingToReplay(handler.kind, options)] };
    } else result = await code.replay(sniffed, ctx);
  } else result = await code.verify(sniffed, ctx);
  const report = await namedSigner(
    buildReport(
      {
        path,
        kind: handler.kind,
        sha256: await artifactHash(),
        ...result,
        authenticity: authenticityOf(handler.kind, result, handler.consistencyOnly),
        replay: mode === 'replay',
        limits: options.limits,
      },
      started,
    ),
    ctx,
  );
  return withAfter(report, after && ((r) => after(r, { sniffed }, code.operations, ctx)));
}

/**
 * `--artifact` for a file named alone whose kind does not read it (EngineOptions.alone),
 * whatever that kind is, unknown included: refused, since a report about it was meant to
 * be checked, and an artifact verified with the flag ignored would read as that check.
 * A case report (`reprise.case/v1`) named alone is no artifact of any kind: it is refused
 * too (`kind` null), saying how a case is checked, rather than failed as unknown content.
 */
function refuseArtifactFlag(
  path: string,
  kind: KindDeclarations | null,
  options: EngineOptions,
  sniffed?: Sniffed,
): void {
  if (!options.alone) return;
  if (kind === null && sniffed && isCaseReport(sniffed))
    throw new UsageError(`${path} is ${CASE_REPORT}, not an artifact: ${CHECK_A_CASE}`, 'refused');
  if (options.artifact !== undefined && !kind?.options?.some((o) => o.name === 'artifact'))
    throw new UsageError(
      `${options.optionWords?.artifact ?? '--artifact'} applies to exported reports; ${path} is of kind ${kind?.kind ?? 'unknown'}`,
      'refused',
    );
  if (!options.flagsTyped || kind === null) return;
  const unread = unreadOptions(kind, options);
  if (unread.length > 0)
    throw new UsageError(
      `${unread.map((o) => `--${o.flag}`).join(' and ')} ${unread.length === 1 ? 'is' : 'are'} not read for ` +
        `${path} (kind ${kind.kind}): refused rather than run without${unread.length === 1 ? ' it' : ' them'}`,
      'refused',
    );
}

const CASE_REPORT = `a Reprise case report (${CASE_SCHEMA})`;
const CHECK_A_CASE =
  'a case is checked by verifying its folder again (reprise verify DIR --case FILE) or its exported case bundle (reprise verify case.zip)';

/** Whether unclaimed content is Reprise's own case report (its `schema` member; detection has parsed it already). */
function isCaseReport(s: Sniffed): boolean {
  return s.jsonObject()?.['schema'] === CASE_SCHEMA;
}

/** What a replay of a kind with nothing to re-execute adds to its verification: a failure, or in a case a note. */
function nothingToReplay(kind: string, options: EngineOptions): Finding {
  return options.verifyWhatCannotReplay
    ? info('RPR-REPLAY-002', `artifacts of kind ${kind} have nothing to re-execute: verified only`)
    : fail('RPR-REPLAY-001', `artifacts of kind ${kind} have nothing to re-execute; use verify`);
}

/** The report, once `after` (RunHow.after) has read what it needs of the artifact. */
async function withAfter(report: Report, after: ((r: Report) => Promise<void>) | undefined): Promise<Report> {
  if (after) await after(report);
  return report;
}

/** The signer's role and label from the trust store given (a store that cannot be read names no one: its kind says why). */
async function namedSigner(report: Report, ctx: KindContext): Promise<Report> {
  if (!report.authenticity?.keyId) return report;
  const store = await ctx.trustStore().catch(() => null);
  report.authenticity = withSigner(report.authenticity, store);
  return report;
}

/**
 * Files larger than this are opened, not read whole: detection sees their first
 * HEAD_BYTES, a kind that can read by position (a ZIP package) does so through the
 * descriptor, and the artifact's SHA-256 streams from the file alongside.
 */
export const LAZY_MIN = 8 * 1024 * 1024;
const HEAD_BYTES = 64 * 1024;

/** How a run is watched and named, besides what it checks (runPath). */
export interface RunHow {
  /** Progress (0..1) of long work. */
  onProgress?: (f: number, label?: string) => void;
  /**
   * The name the report and its messages give the artifact (an upload's own file name,
   * not the private file the web host wrote it to); the path when absent.
   */
  shown?: string;
  /** What was read and decoded while the file arrived (engine/arriving.ts). */
  arrived?: Arrived | null;
  /**
   * Called with the report while the artifact is still open and parsed, with the code of the
   * kind that claimed it (none for unknown content): the case reads its facts here
   * (engine/case/facts.ts) without reading or parsing the file a second time.
   */
  after?: AfterRun;
}

/** RunHow.after. */
export type AfterRun = (
  report: Report,
  subject: CaseSubject,
  operations: Pick<KindOperations, 'caseFacts'> | undefined,
  ctx: KindContext,
) => Promise<void>;

/** Verifies (or replays) the artifact at a path: a file, or a directory kind (journal). */
export async function runPath(path: string, mode: Mode, options: EngineOptions, how: RunHow = {}): Promise<Report> {
  const { onProgress, shown = path, arrived, after } = how;
  // Every failure names the artifact as shown (in a case, its path in the case), said of the path read.
  const cannot = (e: unknown) => {
    if (e instanceof FileReadError && e.code === undefined) return e.named(shown); // a FIFO, a device: its own words
    return cannotOpen(path, e).named(shown);
  };
  // A small regular file (nearly every artifact of a batch) is read with blocking calls:
  // open, fstat, one read, close. Engine jobs run on worker threads, where this costs less
  // than four round trips through libuv's thread pool; larger files take the path below.
  const small = readSmallSync(path, cannot);
  if (small) return runBytes(shown, small, mode, options, onProgress, after);
  // Anything but a regular file or a directory (a FIFO, /dev/zero, a socket) is refused
  // by openRegular before a byte is read.
  let opened: OpenedFile;
  try {
    opened = await openRegular(path, { allowDirectory: true });
  } catch (e) {
    throw cannot(e);
  }
  const { fh, stat: st } = opened;
  try {
    if (st.isDirectory()) return await runDirectory(path, shown, options, onProgress, after);
    if (st.size > MAX_ARTIFACT_BYTES)
      throw new FileReadError(shown, `larger than ${MAX_ARTIFACT_BYTES} bytes, the limit for an artifact`);
    if (st.size <= LAZY_MIN)
      return await runBytes(
        shown,
        await readOpened(shown, opened, MAX_ARTIFACT_BYTES).catch((e: unknown) => Promise.reject(cannot(e))),
        mode,
        options,
        onProgress,
        after,
      );
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await fh.read(head, 0, HEAD_BYTES, 0).catch((e: unknown) => Promise.reject(cannot(e)));
    // Bytes read (and text decoded) while the file arrived are the file's if it is that long.
    const sniffed = new Sniffed(
      shown,
      head.subarray(0, bytesRead),
      { fd: fh.fd, size: st.size },
      arrived?.bytes.length === st.size ? arrived : undefined,
    );
    // The report's SHA-256 must be that of the bytes verified. A ZIP package is read by
    // position and never loaded, so its hash streams from the file alongside; anything else
    // is hashed from the bytes the kind loaded (no second read that could see other bytes).
    if (!startsWithLocalHeader(head.subarray(0, bytesRead)))
      return await runSniffed(sniffed, mode, options, onProgress, () => sniffed.sha256(), after);
    const artifactHash = hashFile(path).catch((e: unknown) => Promise.reject(cannot(e)));
    artifactHash.catch(() => undefined); // awaited by runSniffed; never an unhandled rejection meanwhile
    return await runSniffed(sniffed, mode, options, onProgress, () => artifactHash, after);
  } finally {
    await fh.close();
  }
}

/** Scratch space for small reads, one per thread (module state). */
const SCRATCH_BYTES = 64 * 1024;
let scratch: Buffer | undefined;

/** The bytes of a regular file of at most LAZY_MIN bytes, or null for anything else. */
function readSmallSync(path: string, cannot: (e: unknown) => UsageError): Buffer | null {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below).
    fd = openSync(path, READ_FLAGS);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EISDIR' || code === 'ENXIO') return null; // a socket: the path below says what it is
    throw cannot(e);
  }
  try {
    // The descriptor is stat'ed before a byte is read: a device that answers end of file at
    // once (/dev/null) would otherwise read as an empty file. Anything but a regular file
    // takes the path below, which refuses it in the words /dev/zero gets.
    checkOpenedInside(fd, path);
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > LAZY_MIN) return null;
    return readSmallFd(fd, st.size);
  } catch (e) {
    throw cannot(e);
  } finally {
    closeSync(fd);
  }
}

/**
 * An open regular file of about `size` bytes (fstat's word), read to its end. Most
 * artifacts of a batch are a few KiB: a short read into the scratch followed by end of
 * file is the whole file, whatever size was reported (a /proc file reports 0).
 */
function readSmallFd(fd: number, size: number): Buffer {
  scratch ??= Buffer.allocUnsafe(SCRATCH_BYTES);
  let n = readSync(fd, scratch, 0, SCRATCH_BYTES, 0);
  if (n < SCRATCH_BYTES && readSync(fd, scratch, n, SCRATCH_BYTES - n, n) === 0) {
    const b = Buffer.allocUnsafe(n);
    scratch.copy(b, 0, 0, n);
    return b;
  }
  const b = Buffer.allocUnsafe(size);
  let r = 1;
  for (n = 0; n < size && r > 0; n += r) r = readSync(fd, b, n, size - n, n);
  return n === size ? b : b.subarray(0, n);
}

async function runDirectory(
  path: string,
  shown: string,
  options: EngineOptions,
  onProgress?: (f: number, label?: string) => void,
  after?: AfterRun,
): Promise<Report> {
  const started = Date.now();
  for (const d of DIRECTORY_KINDS) {
    if (await d.detectDir(path)) {
      refuseArtifactFlag(path, d, options);
      const ctx = makeContext(path, options, onProgress);
      const code = await d.load();
      const result = await code.verifyDir(path, ctx);
      const report = await namedSigner(
        buildReport(
          {
            path: shown,
            kind: d.kind,
            sha256: null,
            ...result,
            authenticity: authenticityOf(d.kind, result, d.consistencyOnly),
            limits: options.limits,
          },
          started,
        ),
        ctx,
      );
      return withAfter(report, after && ((r) => after(r, { dir: path }, code.operations, ctx)));
    }
  }
  throw new FileReadError(shown, 'a directory that holds no artifact of a known kind');
}

/** Directory walking lives in paths.ts (no kind imports, so the CLI can walk while workers load). */
export { expandPaths } from './paths.js';
