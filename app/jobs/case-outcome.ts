/**
 * A batch item of a case as the case's outcome for its artifact. A module of its own, light
 * (the part's decoding and types), so that the CLI's main thread, which assembles a case
 * from its workers' items, loads none of the engine that runCase (case.ts) drives.
 */
import { partFromBytes } from '../engine/case/part-bytes.js';
import type { CaseOutcome } from '../engine/case/part.js';
import type { CaseFile } from '../engine/case/walk.js';
import type { BatchItem } from './protocol.js';

/** The item's part, or why there is none (a crashed worker's item is the artifact's failure). */
export function outcomeOf(file: CaseFile, item: BatchItem): CaseOutcome {
  if (item.ok && item.part !== undefined) {
    const part = partFromBytes(item.part);
    return item.report ? { ok: true, part, report: item.report } : { ok: true, part };
  }
  const message = item.ok ? 'internal error: the worker returned no case part' : (item.inCase ?? item.message);
  return { ok: false, unreadable: { path: file.rel, message, usage: !item.ok && item.usage } };
}
