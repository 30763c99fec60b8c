/**
 * What runs the ACGP kinds' jobs (declare.ts declares and detects them): `verify` checks
 * form and recomputes each EVAL's arithmetic; `replay` also re-runs the trust-debt provider.
 */
import type { Report } from '../../../shared/report.js';
import { authenticityOf } from '../../core/authenticity.js';
import { openRegular, readFailure } from '../../core/files.js';
import { newHasher } from '../../core/hash.js';
import { Progress } from '../../core/progress.js';
import { buildReport, type KindResult } from '../../core/report.js';
import { UsageError } from '../../core/errors.js';
import type { Sniffed } from '../sniff.js';
import type { EngineOptions, KindCode, KindContext } from '../types.js';
import type { AcgpChecker, AcgpMode } from './checker.js';
import { acgpTraceKind, isJsonLinesTrace } from './declare.js';
import { LineFeeder } from './lines.js';
// What it offers a reviewer's case: small, loaded with the kind's code (no import per artifact).
import { acgpCaseFacts } from './case-facts.js';

/** The checker and its policy (decimal arithmetic) load on first use, not at engine start-up. */
async function checker(mode: AcgpMode, options: EngineOptions, single: boolean, jsonl: boolean): Promise<AcgpChecker> {
  const [{ AcgpChecker }, { loadPolicy }] = await Promise.all([import('./checker.js'), import('./policy.js')]);
  const { policy, ignored } = await loadPolicy(options.policy);
  return new AcgpChecker({ mode, policy, policyNote: ignored, single, jsonl, limits: options.limits });
}

async function checkEval(s: Sniffed, ctx: KindContext, mode: AcgpMode): Promise<KindResult> {
  const c = await checker(mode, ctx.options, true, false);
  const j = s.json();
  if (!j) throw new Error('acgp-eval: not JSON');
  if (!j.ok) c.documentError(j.error.message, j.error.pointer);
  else if (j.warnings.length > 0) c.precision(0, j.warnings);
  c.add(0, j.ok ? j.value : j.loose);
  return c.result();
}

async function checkTrace(s: Sniffed, ctx: KindContext, mode: AcgpMode): Promise<KindResult> {
  if (isJsonLinesTrace(s)) {
    const c = await checker(mode, ctx.options, false, true);
    const bytes = s.bytes;
    const progress = evalProgress(ctx);
    const feeder = new LineFeeder(c, (read) => progress.at(read, bytes.length), ctx.options.limits);
    feeder.push(bytes);
    feeder.end();
    return finished(c.result(), progress);
  }
  const c = await checker(mode, ctx.options, false, false);
  const j = s.json();
  if (!j) throw new Error('acgp-trace: not JSON');
  const v = j.ok ? j.value : j.loose;
  if (!j.ok) c.documentError(j.error.message, j.error.pointer);
  else if (j.warnings.length > 0)
    for (const w of j.warnings) {
      const m = /^\/(\d+)(.*)$/.exec(w.pointer);
      if (m) c.precision(Number(m[1]), [{ ...w, pointer: m[2] ?? '' }]);
    }
  const arr = v as unknown[];
  const progress = evalProgress(ctx);
  for (let i = 0; i < arr.length; i++) {
    c.add(i, arr[i]);
    progress.at(i + 1, arr.length);
  }
  return finished(c.result(), progress);
}

/** Progress through a trace's EVALs, from when the checks start. */
function evalProgress(ctx: KindContext): Progress {
  return new Progress((f, label) => ctx.progress(f, label)).stage(0, 100, 'EVALs');
}

/** The result, once progress has told 1 (when it told anything). */
function finished(result: KindResult, progress: Progress): KindResult {
  progress.done();
  return result;
}

/** What an EVAL or a trace offers a case: its EVALs' times (case-facts.ts). */
const acgpOperations: KindCode['operations'] = {
  caseFacts: async (subject, report, ctx) => acgpCaseFacts(subject, report, ctx.options.limits),
};

export const evalCode: KindCode = {
  verify: (s, ctx) => checkEval(s, ctx, 'verify'),
  replay: (s, ctx) => checkEval(s, ctx, 'replay'),
  operations: acgpOperations,
};

export const traceCode: KindCode = {
  verify: (s, ctx) => checkTrace(s, ctx, 'verify'),
  replay: (s, ctx) => checkTrace(s, ctx, 'replay'),
  operations: acgpOperations,
};

/**
 * Streaming check of a JSON Lines trace file: chunks from a file stream through the same
 * checker, with memory bounded by the longest line and the report limits (acgp-findings,
 * acgp-comparisons, acgp-trajectory), never by the trace length. Used for traces too large
 * to read whole (and by bench/acgp.bench.js).
 */
export async function runTraceFile(path: string, mode: AcgpMode, options: EngineOptions = {}): Promise<Report> {
  const started = Date.now();
  let fh;
  try {
    fh = (await openRegular(path)).fh; // a regular file only: a FIFO would block, /dev/zero never end
  } catch (e) {
    throw new UsageError(`cannot read ${path}: ${readFailure(e)}`, 'path');
  }
  const hasher = newHasher();
  let c;
  try {
    const head = Buffer.alloc(1);
    await fh.read(head, 0, 1, 0);
    if (head[0] !== 0x7b)
      throw new UsageError(`${path} is not a JSON Lines trace (it does not start with "{")`, 'bad-file');
    c = await checker(mode, options, false, true);
    const feeder = new LineFeeder(c, undefined, options.limits);
    for await (const chunk of fh.createReadStream({ start: 0, highWaterMark: 1 << 20, autoClose: false })) {
      hasher.update(chunk as Buffer);
      feeder.push(chunk as Buffer);
    }
    feeder.end();
  } finally {
    await fh.close();
  }
  const result = c.result();
  const origin = authenticityOf('acgp-trace', result, acgpTraceKind.consistencyOnly);
  return buildReport(
    {
      path,
      kind: 'acgp-trace',
      sha256: 'sha256:' + hasher.digest('hex'),
      ...result,
      authenticity: origin,
      replay: mode === 'replay',
      limits: options.limits,
    },
    started,
  );
}
