/** Messages between a WorkerPool and its engine workers. */
import type { Report } from '../../shared/report.js';
import type { Mode } from '../engine/run.js';
import type { EngineOptions } from '../kinds/types.js';

export type EngineJob =
  | { op: 'runPath'; path: string; mode: Mode; options: EngineOptions }
  | { op: 'runBytes'; path: string; bytes: Uint8Array; mode: Mode; options: EngineOptions };

export type JobOutcome = { ok: true; report: Report } | { ok: false; usage: boolean; message: string };

export type ToWorker = { id: number; job: EngineJob };
export type FromWorker =
  | { id: number; kind: 'done'; outcome: JobOutcome }
  | { id: number; kind: 'progress'; fraction: number; label?: string };
