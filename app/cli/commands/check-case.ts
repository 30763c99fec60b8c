/**
 * `reprise verify DIR --case FILE` (and `replay`): the folder as a reviewer's case
 * (docs/case.md). The per-artifact output and exit code stay what they are; the case report
 * (`reprise.case/v1`) is written to FILE, or to stdout instead of the per-artifact output
 * with `--case -`. Only the walk and the assembly run here: each artifact's case part is
 * read where it is verified (a batch worker with --workers), so the main thread loads no
 * engine code for it.
 */
import { realpathSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { CaseMode, CaseReport } from '../../../shared/case.js';
import { optionsNeeded } from '../../../shared/case-needs.js';
import { UsageError } from '../../core/errors.js';
import { checkOutputFile, writeOutputFile } from '../../core/files.js';
import { jsonPieces } from '../../core/json-pieces.js';
import { assembleCase } from '../../engine/case/assemble.js';
import { partFromBytes } from '../../engine/case/part-bytes.js';
import type { CaseOutcome, CaseUnreadable } from '../../engine/case/part.js';
import { caseWalk, type CaseFile } from '../../engine/case/walk.js';
import { caseRechecks, replaceOutcomes } from '../../engine/case/rechecks.js';
import { outcomeOf } from '../../jobs/case-outcome.js';
import type { EngineOptions } from '../../kinds/types.js';
import type { BatchItem } from '../../jobs/protocol.js';
import type { CliIO } from '../io.js';

/** Where the case report goes: a file (checked writable before the run), `-` for stdout, or nowhere (no --case). */
export async function caseTarget(
  values: Record<string, unknown>,
  positionals: readonly string[],
): Promise<string | null> {
  const out = values['case'];
  if (typeof out !== 'string') return null;
  if (positionals.length !== 1)
    throw new UsageError(`--case takes one case folder (${positionals.length} paths were given)`);
  if (out === '-' && (values['json'] || values['jsonl']))
    throw new UsageError('--case - prints the case report on stdout: it excludes --json and --jsonl');
  if (out !== '-' && inside(out, positionals[0]!))
    throw new UsageError(`--case ${out} is inside the case folder, ${NEXT_RUN}`);
  if (out !== '-') await checkOutputFile(out, '--case');
  return out;
}

const NEXT_RUN = 'where the next run would take it for an artifact';

/** Whether `file` lies in `dir` (both through their real paths, so a link cannot hide it). */
export function inside(file: string, dir: string): boolean {
  const rel = relative(real(dir), realTarget(file));
  return rel !== '' && rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel);
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return resolve(p);
  }
}

/** Where a write to `file` lands, as a real path: through a link (core/files.ts writeTarget), else in its real folder. */
function realTarget(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return join(real(dirname(resolve(file))), basename(file));
  }
}

/**
 * Where what a run writes at `path` lies in the case, in words (`is inside the case folder`),
 * or null when it does not: inside its folder, or in any folder its walk visited (`dirs`,
 * caseWalk), a folder linked from inside it too, which a check of the folder's path alone
 * misses and the next run walks. That one is named by its real path: the path typed lies
 * outside the case folder, and the refusal must say why it is in the case all the same.
 */
export async function whereInCase(path: string, dir: string, dirs: ReadonlySet<string>): Promise<string | null> {
  if (inside(path, dir)) return 'is inside the case folder';
  const target = realTarget(path);
  for (const p of [target, dirname(target)]) {
    const st = await stat(p).catch(() => null);
    if (st && dirs.has(`${st.dev}:${st.ino}`))
      return `is in ${st.isDirectory() ? p : dirname(p)}, a folder the case folder links to, so inside the case`;
  }
  return null;
}

/**
 * Refuses, once the case is walked and before any artifact runs, what the run would write
 * where the case reads: the case report and a replay's comparison (`--out`), which the next
 * run would take for artifacts, and the journal a replay appends to (`--journal` with
 * `--key`), which the case would read while it grows: its timeline would depend on the
 * worker count.
 */
export async function refuseWritesInCase(
  values: Record<string, unknown>,
  mode: CaseMode,
  dir: string,
  dirs: ReadonlySet<string>,
): Promise<void> {
  for (const [flag, path, why] of caseWrites(values, mode)) {
    const where = await whereInCase(path, dir, dirs);
    if (where !== null) throw new UsageError(`${flag} ${path} ${where}, ${why}`);
  }
}

function caseWrites(values: Record<string, unknown>, mode: CaseMode): [string, string, string][] {
  const writes: [string, string, string][] = [];
  const [out, journal] = [values['case'], values['journal']];
  if (typeof out === 'string' && out !== '-') writes.push(['--case', out, NEXT_RUN]);
  if (mode !== 'replay') return writes;
  if (typeof values['out'] === 'string') writes.push(['--out', values['out'], NEXT_RUN]);
  if (typeof journal === 'string' && typeof values['key'] === 'string')
    writes.push(['--journal', journal, 'which the replay would append to while the case reads it']);
  return writes;
}

/**
 * The case's artifacts and, as their items land, their parts: kept as the bytes they came in
 * (BatchItem.part) until the assembly, so that this thread's heap holds neither thousands of
 * objects nor megabytes of text that its collector would copy at every scavenge of the run.
 */
export class CaseCollector {
  private readonly parts: Uint8Array[] = [];
  private readonly unreadable: CaseUnreadable[] = [];
  private constructor(
    readonly files: readonly CaseFile[],
    /** The folders the walk visited (caseWalk). */
    readonly dirs: ReadonlySet<string>,
    readonly mode: CaseMode,
  ) {}

  static async of(dir: string, mode: CaseMode): Promise<CaseCollector> {
    const { files, dirs } = await caseWalk(dir);
    return new CaseCollector(files, dirs, mode);
  }

  get paths(): string[] {
    return this.files.map((f) => f.path);
  }

  get rels(): string[] {
    return this.files.map((f) => f.rel);
  }

  add(index: number, item: BatchItem): void {
    const rel = this.files[index]!.rel;
    if (item.ok && item.part !== undefined) this.parts.push(item.part);
    else if (!item.ok) this.unreadable.push({ path: rel, message: item.inCase ?? item.message, usage: item.usage });
    else this.unreadable.push({ path: rel, message: 'internal error: no case part', usage: false });
  }

  /**
   * The case report, once what names another artifact of the case through an option has
   * run again with it (engine/case/rechecks.ts) on `rerun` (the batch's pool, each item as
   * `verify DIR` would run it, printed nowhere: the per-artifact output stays each
   * artifact's alone). `--limit findings-per-rule` bounds its findings, as for every report,
   * and `--limit case-links-per-reference` the links of each reference.
   */
  async report(options: EngineOptions, rerun: CaseRerun): Promise<CaseReport> {
    const parts = this.parts.map(partFromBytes);
    const unreadable = [...this.unreadable];
    const second = new Map<string, CaseOutcome>();
    await Promise.all(
      caseRechecks(parts, this.files, options, this.mode).map(async (r) =>
        second.set(r.file.rel, outcomeOf(r.file, await rerun(r.file, r.options))),
      ),
    );
    replaceOutcomes(parts, unreadable, second);
    return assembleCase(parts, unreadable, this.mode, options.limits);
  }
}

/** Runs one artifact of the case again with these options, as the batch ran it (its item, with its case part). */
export type CaseRerun = (file: CaseFile, options: EngineOptions) => Promise<BatchItem>;

/** The UTF-16 code units of the case report's text written at a time. */
const CASE_PIECE = 64 * 1024;

/**
 * Writes the case report: to stdout (`-`) or atomically to the file. One line: a case of
 * thousands of events is megabytes, which indentation would make half again. Written in
 * pieces (its artifacts, links and events in runs of about a piece): the whole text, and
 * its UTF-8, would each be as large as the report again, in fresh memory (a hundred
 * thousand events are tens of megabytes).
 */
export async function writeCase(io: CliIO, target: string, report: CaseReport): Promise<void> {
  const text = (function* () {
    yield* jsonPieces(report, CASE_PIECE);
    yield '\n';
  })();
  if (target === '-') return printCase(io, text);
  await writeOutputFile(target, text);
}

/**
 * Prints the case report's pieces on stdout. The report is whole before the first (the
 * assembly is done), so only its writing can fail; once a piece is out, the document there
 * is cut short, and the error says so rather than leave a script to parse half of it. A
 * file is written atomically instead: a failure leaves no part of it.
 */
function printCase(io: CliIO, pieces: Iterable<string>): void {
  let written = 0;
  try {
    for (const piece of pieces) {
      io.out(piece);
      written += piece.length;
    }
  } catch (e) {
    if (written === 0) throw e;
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(
      `the case report on stdout is cut short after ${written} characters, not a whole document: ${why}`,
      {
        cause: e,
      },
    );
  }
}

/**
 * What the terminal is told after a case, one line per option the case ran without that would
 * decide findings of its UNAVAILABLE artifacts (CaseArtifact.needs): how many it would decide,
 * the rules, and how to give it. The case report holds each artifact's; this says it where a
 * reviewer reading the terminal looks, as the Case view does.
 */
export function needsLines(report: CaseReport): string[] {
  return optionsNeeded(report.artifacts).map(
    (o) =>
      `case: --${o.flag} would decide findings (${o.rules.join(', ')}) of ${o.artifacts.length} UNAVAILABLE artifact(s), e.g. ${o.artifacts[0]}: run the case again with --${o.flag}`,
  );
}
