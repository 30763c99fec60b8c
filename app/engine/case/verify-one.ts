/**
 * Verifies one artifact of a case and reads what it offers the case (its kind's caseFacts)
 * while it is still open and parsed. Never throws: an artifact that cannot be read is an
 * outcome of its own, so one bad file never stops the others.
 */
import type { Report } from '../../../shared/report.js';
import { ChangedWhileReadError, UsageError } from '../../core/errors.js';
import { FileReadError } from '../../core/files.js';
import type { CaseFacts } from '../../kinds/operations.js';
import type { EngineOptions } from '../../kinds/types.js';
import { runPath, type AfterRun, type Mode } from '../run.js';
import { casePart, NO_FACTS, type CaseOutcome } from './part.js';

/** How one artifact of a case is watched and named. */
export interface CaseRunHow {
  onProgress?: (f: number, label?: string) => void;
  /** The name its report gives it (the CLI's path as typed); `rel` when absent. */
  shown?: string;
}

/**
 * `path` is where the artifact is, `rel` its path in the case (`/` separators), which is
 * what the case names it by.
 */
export async function verifyForCase(
  path: string,
  rel: string,
  mode: Mode,
  options: EngineOptions,
  how: CaseRunHow = {},
): Promise<CaseOutcome> {
  let facts: CaseFacts = NO_FACTS;
  let factsProblem: string | null = null;
  let changed: ChangedWhileReadError | null = null;
  const after: AfterRun = async (report, subject, operations, ctx) => {
    if (!operations?.caseFacts) return;
    try {
      facts = await operations.caseFacts(subject, report, ctx);
    } catch (e) {
      if (e instanceof ChangedWhileReadError) changed = e;
      // Reading a verified artifact's facts should not fail; if it does, the case says so.
      else factsProblem = e instanceof Error ? e.message : String(e);
    }
  };
  let report: Report;
  // A case replays what can be replayed and verifies the rest (RPR-REPLAY-002).
  const opts = mode === 'replay' ? { ...options, verifyWhatCannotReplay: true } : options;
  try {
    report = await runPath(path, mode, opts, { onProgress: how.onProgress, shown: how.shown ?? rel, after });
  } catch (e) {
    const usage = e instanceof UsageError;
    const message = usage ? e.message : `internal error: ${e instanceof Error ? e.message : String(e)}`;
    // The case report names a file by its path in the case only, so that it is the same
    // bytes however the folder was typed; the error line of the run names it as shown.
    const inCase = inCaseWords(e, message, [path, how.shown ?? rel], rel);
    return { ok: false, unreadable: { path: rel, message: inCase, usage }, said: message };
  }
  // Its report is of bytes that are no longer there: not verified, as a file that vanished is not.
  if (changed !== null) {
    const said = (changed as ChangedWhileReadError).named(how.shown ?? rel).message;
    return {
      ok: false,
      unreadable: { path: rel, message: (changed as ChangedWhileReadError).named(rel).message, usage: true },
      said,
    };
  }
  const part = casePart(rel, report, facts, options);
  if (factsProblem !== null) part.factsProblem = factsProblem;
  return { ok: true, part, report };
}

/**
 * A failure's words with the artifact named by its path in the case. A directory kind's
 * failure names a file inside it (a journal's checkpoints file) as it was read, under the
 * folder as typed: that prefix is what is replaced, so the case report's bytes do not
 * depend on how the folder was typed while the file at fault stays named.
 */
function inCaseWords(e: unknown, message: string, spellings: readonly string[], rel: string): string {
  const rename = (p: string): string => {
    for (const s of spellings) {
      if (p === s) return rel;
      if (p.startsWith(s + '/')) return rel + p.slice(s.length);
    }
    return p;
  };
  if (e instanceof FileReadError) return e.named(rename(e.path)).message;
  let out = message;
  for (const s of spellings) out = out.split(s + '/').join(rel + '/');
  return out;
}
