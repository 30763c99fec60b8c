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
import type { EnterFolder } from '../paths.js';
import { assembleCase } from './assemble.js';
import type { CaseOutcome, CasePart, CaseUnreadable } from './part.js';
import { caseFiles, type CaseFile } from './walk.js';
import { verifyForCase } from './verify-one.js';
import { caseRechecks, replaceOutcomes } from './rechecks.js';

export { assembleCase } from './assemble.js';
export { caseFiles, type CaseFile } from './walk.js';
export { verifyForCase } from './verify-one.js';
export { caseRechecks, replaceOutcomes, type CaseRecheck } from './rechecks.js';
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
  /**
   * Each file the walk found, before anything reads it: the file to run (its path may change,
   * to the real path a gate resolved) or why it may not be read, which lands as an artifact
   * that could not be verified (a finding of the case, never a silent drop). The workbench's
   * host confines a case to the folders it was granted: the walk follows links, and a link
   * inside a granted folder may point anywhere.
   */
  admit?: (file: CaseFile) => Promise<CaseFile | string>;
  /**
   * Whether the walk may enter a folder (engine/paths.ts EnterFolder), asked of every folder
   * it opens by the real path of what was opened: the host's gate, so a folder outside every
   * granted one (a link, or a folder swapped for one mid-walk) is one refused entry (admit
   * then says why), never a walk of what lies there.
   */
  enter?: EnterFolder;
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
  const walked = await caseFiles(dir, run.enter);
  const { admit } = run;
  const admitted = admit ? await Promise.all(walked.map((f) => admit(f))) : walked;
  const parts: CasePart[] = [];
  const unreadable: CaseUnreadable[] = [];
  const total = walked.length;
  const land = (o: CaseOutcome): void => {
    if (o.ok) parts.push(o.part);
    else unreadable.push(o.unreadable);
    run.onArtifact?.(o);
    run.onProgress?.({
      done: parts.length + unreadable.length,
      total,
      ...(o.ok ? { artifact: o.part.artifact } : {}),
    });
  };
  run.onProgress?.({ done: 0, total });
  const files: CaseFile[] = [];
  admitted.forEach((a, i) => {
    if (typeof a !== 'string') files.push(a);
    else land({ ok: false, unreadable: { path: walked[i]!.rel, message: a, usage: true } });
  });
  await execute(files, run.mode ?? 'verify', run.options ?? {}, land, run.signal);
  run.signal?.throwIfAborted();
  await recheck(parts, unreadable, files, execute, run);
  return assembleCase(parts, unreadable, run.mode ?? 'verify', run.options?.limits);
}

/**
 * Runs again what names another artifact of the case through an option (rechecks.ts), all
 * at once on the executor, and puts each second outcome in place of the first; `onArtifact`
 * hears it (a case bundle carries the report the case names), the progress, already whole,
 * does not.
 */
async function recheck(
  parts: CasePart[],
  unreadable: CaseUnreadable[],
  files: readonly CaseFile[],
  execute: CaseExecutor,
  run: CaseRunOptions,
): Promise<void> {
  const second = new Map<string, CaseOutcome>();
  await Promise.all(
    caseRechecks(parts, files, run.options ?? {}, run.mode ?? 'verify').map((r) =>
      execute(
        [r.file],
        run.mode ?? 'verify',
        r.options,
        (o) => {
          second.set(r.file.rel, o);
          run.onArtifact?.(o);
        },
        run.signal,
      ),
    ),
  );
  run.signal?.throwIfAborted();
  replaceOutcomes(parts, unreadable, second);
}
