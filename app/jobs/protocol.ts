/** Messages between a WorkerPool and its engine workers. */
import type { Report } from '../../shared/report.js';
import type { Mode } from '../engine/run.js';
import type { EngineOptions } from '../kinds/types.js';

export type EngineJob =
  /**
   * `shown`: the name the report gives the file, when not its path (an upload's temporary
   * file). `arriving`: the file is still being written and will hold this many bytes
   * (app/engine/arriving.ts).
   */
  | { op: 'runPath'; path: string; mode: Mode; options: EngineOptions; shown?: string; arriving?: number }
  | { op: 'runBytes'; path: string; bytes: Uint8Array; mode: Mode; options: EngineOptions };

export type JobOutcome = { ok: true; report: Report } | { ok: false; usage: boolean; message: string };

export type ToWorker<J = EngineJob> = { id: number; job: J };
export type FromWorker<O = JobOutcome> =
  { id: number; kind: 'done'; outcome: O } | { id: number; kind: 'progress'; fraction: number; label?: string };

/**
 * A CLI batch: several paths in one message, answered with each report already rendered
 * in the worker (the CLI's main thread then only writes text), or with the report object
 * when the CLI must assemble one JSON document.
 */
export type BatchRender = 'jsonl' | 'text' | 'text-quiet' | 'object' | 'none';
export interface BatchJob {
  paths: string[];
  mode: Mode;
  options: EngineOptions;
  render: BatchRender;
  /** Given for a reviewer's case: each path's path in the case, and the item then carries its case part too. */
  rels?: string[];
  /**
   * With `rels`: each report names its artifact by its path in the case, as a case run
   * inline does (the reports a case bundle carries), not by the path as given (the CLI's
   * per-artifact output).
   */
  namedInCase?: boolean;
}
export type BatchItem =
  /**
   * `part`: for a case, the artifact's case part as UTF-8 JSON (partBytes, partFromBytes):
   * one byte array crosses to the main thread, where a structured clone would be thousands
   * of small objects to build there and to copy at every scavenge until the case is
   * assembled (and a string would be copied at each of them too).
   */
  | { ok: true; verdict: Report['verdict']; text: string; report?: Report; part?: Uint8Array }
  | {
      ok: false;
      usage: boolean;
      message: string;
      /** For a case: the failure naming the artifact by its path in the case (its RPR-CASE-002), where `message` names it as given. */
      inCase?: string;
    };
export type BatchOutcome = BatchItem[];
