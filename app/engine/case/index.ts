/**
 * The reviewer's case (shared/case.ts, docs/case.md): every artifact of a folder verified,
 * the links their contents make, one timeline, the judgements on them; the report
 * `reprise.case/v1`, byte-identical whatever the worker count and landing order.
 *
 * The entry point that runs a case on the worker pool is `runCase` in app/jobs/case.ts
 * (the pool is the floor above the engine); this module is the engine's part: the walk,
 * one artifact's verification with its facts (verify-one.ts, run in the workers), and the
 * assembly of the report (assemble.ts). `driveCase` runs a case on any executor (the
 * pool's, or inline: `inlineExecutor`).
 */
import type { CaseArtifact, CaseReport } from '../../../shared/case.js';
import type { EngineOptions } from '../../kinds/types.js';
import type { Mode } from '../run.js';
import { FINDINGS_LIMIT } from '../../core/findings.js';
import { assembleCase } from './assemble.js';
import type { CaseOutcome, CasePart, CaseUnreadable } from './part.js';
import { caseFiles, type CaseFile } from './walk.js';
import { verifyForCase } from './verify-one.js';

export { assembleCase } from './assemble.js';
export { caseFiles, type CaseFile } from './walk.js';
export { verifyForCase } from './verify-one.js';
export { partBytes, partFromBytes } from './part-bytes.js';
export { casePart, normalisedUtc, type CaseOutcome, type CasePart, type CaseUnreadable } from './part.js';

/** The case's progress: `done` of `total` artifacts have their verdict. */
export interface CaseProgress {
  done: number;
  total: number;
  /** The one that just landed (none for the first call, before any has). */
  artifact?: CaseArtifact;
}

export interface CaseRunOptions {
  mode?: Mode;
  options?: EngineOptions;
  /** Each artifact's outcome as it lands (its report and case entry, or why it could not be read). */
  onArtifact?: (outcome: CaseOutcome) => void;
  onProgress?: (p: CaseProgress) => void;
  /** Aborting stops the case: nothing more is started, what runs is cancelled, the promise rejects. */
  signal?: AbortSignal;
}

/**
 * Runs the files of a case and calls `land` with each outcome, in any order. It must never
 * reject for one artifact (a failure is an outcome); it rejects when the signal aborts.
 */
export type CaseExecutor = (
  files: readonly CaseFile[],
  mode: Mode,
  options: EngineOptions,
  land: (outcome: CaseOutcome) => void,
  signal: AbortSignal | undefined,
) => Promise<void>;

/** One artifact after the other on this thread. */
export const inlineExecutor: CaseExecutor = async (files, mode, options, land, signal) => {
  for (const f of files) {
    signal?.throwIfAborted();
    land(await verifyForCase(f.path, f.rel, mode, options));
  }
};

/** Walks the folder, runs every artifact on `execute`, and assembles the case report. */
export async function driveCase(dir: string, execute: CaseExecutor, run: CaseRunOptions = {}): Promise<CaseReport> {
  const files = await caseFiles(dir);
  const parts: CasePart[] = [];
  const unreadable: CaseUnreadable[] = [];
  const total = files.length;
  run.onProgress?.({ done: 0, total });
  await execute(
    files,
    run.mode ?? 'verify',
    run.options ?? {},
    (o) => {
      if (o.ok) parts.push(o.part);
      else unreadable.push(o.unreadable);
      run.onArtifact?.(o);
      run.onProgress?.({
        done: parts.length + unreadable.length,
        total,
        ...(o.ok ? { artifact: o.part.artifact } : {}),
      });
    },
    run.signal,
  );
  run.signal?.throwIfAborted();
  return assembleCase(parts, unreadable, run.mode ?? 'verify', run.options?.limits?.[FINDINGS_LIMIT]);
}
