/**
 * `reprise diff A B` and `reprise diff A --replay` (docs/compare.md): the structured diff
 * (shared/diff.ts) of two artifacts of one kind (their reports and, when JSON, their parsed
 * content), of two saved reports, of the replays of two artifacts, or of one replay's
 * originals against its replayed values. Exit 0 identical, 1 different, 3 bad usage (two
 * kinds, an unreadable path, an unknown flag, an option that would have no effect); with
 * --replay, never 0 over a replay that failed, was unavailable or compared nothing.
 */
import {
  DEFAULT_DIFF_LIMIT,
  diffJson,
  jsonText,
  literalNote,
  NumberLiterals,
  replaySides,
  tieReplayLiterals,
  reportSide,
  spanCodePoints,
  spanParts,
  type DiffEntry,
} from '../../../shared/diff.js';
import {
  artifactsWords,
  comparableKinds,
  shownEntryCut,
  shownMarkedParts,
  shownPlace,
  type DiffResult,
} from '../../../shared/diff.js';
import { diffPage, PAGE_MAX_DIFFERENCES, type DiffSideLabel } from '../../../shared/diff-html.js';
import { spanStartWords } from '../../../shared/diff-words.js';
import { carriedVerdictOf } from '../../../shared/details/carried.js';
import {
  EXIT,
  exitOfVerdict,
  REPORT_SCHEMA,
  worstExit,
  type ExitCode,
  type JsonValue,
  type Report,
  type Verdict,
} from '../../../shared/report.js';
import { isPlainObject } from '../../core/closed.js';
import { UsageError } from '../../core/errors.js';
import { checkOutputFile, writeOutputFile } from '../../core/files.js';
import { declaredOptions } from '../../kinds/registry.js';
import { safeText } from '../../engine/report-text.js';
import { safeJsonText } from '../../core/text.js';
import { readContent } from '../../engine/compare-sides.js';
import { runPath } from '../../engine/run.js';
import { intFlag, parse, type Flags } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { engineOptions } from './check.js';
import { refuseOutputsOnInputs } from './outputs-on-inputs.js';
import { INFO } from './info.js';

/** How a saved report's kind is named (so two reports of one kind compare, a report and its artifact do not). */
const SAVED = 'report of ';

type Obj = { [k: string]: JsonValue };

/** One side: what it is, and the value compared. */
interface Side {
  label: DiffSideLabel & { content: string };
  kind: string;
  report: Omit<Report, 'run'>;
  content: JsonValue | undefined;
  /** A saved report, compared as saved (no engine ran). */
  saved: boolean;
  /** The content's own literal, when the whole content is a number its double does not keep. */
  rootLiteral?: string;
  /** Why its content was not read as JSON (so it was verified as an artifact, whatever it looks like). */
  unread?: string;
}

function diffFlags(): Flags {
  const flags: Flags = {
    json: { type: 'boolean' },
    replay: { type: 'boolean' },
    html: { type: 'string' },
    'max-differences': { type: 'string' },
  };
  for (const o of declaredOptions())
    flags[o.flag] = o.multiple ? { type: 'string', multiple: true } : { type: 'string' };
  flags['limit'] = { type: 'string', multiple: true };
  return flags;
}

const VERDICTS: readonly unknown[] = ['pass', 'fail', 'unavailable'] satisfies Verdict[];
const isFinding = (f: unknown): boolean =>
  isPlainObject(f) && ['rule', 'severity', 'message'].every((k) => typeof f[k] === 'string');
const isComparison = (c: unknown): boolean =>
  isPlainObject(c) && typeof c['output'] === 'string' && Object.hasOwn(c, 'original') && Object.hasOwn(c, 'replayed');
const arrayOf = (v: unknown, each: (x: unknown) => boolean): boolean => Array.isArray(v) && v.every(each);

/**
 * What is wrong with what the diff reads of a saved report (a pointer and the fault), or
 * null. Only that: the schema's whole check (shared/report-shape.ts) would refuse a report
 * without its chain, and showing such a report against a whole one is what a diff is for.
 */
function savedReportProblem(v: Obj): string | null {
  const a = v['artifact'];
  const art = isPlainObject(a) ? a : {};
  const optional = (k: string, ok: (x: unknown) => boolean): boolean => !Object.hasOwn(v, k) || ok(v[k]);
  const checks: [boolean, string][] = [
    [isPlainObject(a), '/artifact must be a JSON object'],
    [typeof art['kind'] === 'string', '/artifact/kind must be a string'],
    [
      [art['id'], art['sha256']].every((x) => x == null || typeof x === 'string'),
      '/artifact/id and /artifact/sha256 must be strings or null',
    ],
    [VERDICTS.includes(v['verdict']), '/verdict must be "pass", "fail" or "unavailable"'],
    [arrayOf(v['findings'], isFinding), '/findings must be an array of findings (rule, severity, message)'],
    [optional('chain', Array.isArray) && optional('events', Array.isArray), '/chain and /events must be arrays'],
    [
      optional('comparisons', (c) => arrayOf(c, isComparison)),
      '/comparisons must be an array of comparisons (output, original, replayed)',
    ],
    [
      optional('details', isPlainObject) && optional('authenticity', isPlainObject),
      '/details and /authenticity must be JSON objects',
    ],
  ];
  return checks.find(([ok]) => !ok)?.[1] ?? null;
}

/** A saved report as one side, compared as saved; refused (exit 3) when the diff cannot read it. */
function savedSide(path: string, report: Obj): Side {
  const problem = savedReportProblem(report);
  if (problem) throw new UsageError(`cannot compare ${safeText(path)} as a saved report: ${problem}`, 'bad-file');
  const r = report as unknown as Report;
  const kind = `${SAVED}${r.artifact.kind}`;
  const label = { name: path, kind, verdict: r.verdict, sha256: r.artifact.sha256, content: 'a saved report' };
  return { label, kind, report: r, content: undefined, saved: true };
}

/** Reads one side: a saved report as it is, any other artifact verified (or replayed) by the engine. */
async function readSide(
  path: string,
  replay: boolean,
  values: Record<string, unknown>,
  literals: NumberLiterals,
): Promise<Side> {
  const read = await readContent({ path }, literals);
  const content = 'value' in read ? read.value : undefined;
  if (isPlainObject(content) && content['schema'] === REPORT_SCHEMA) return savedSide(path, content);
  const report = await runPath(path, replay ? 'replay' : 'verify', engineOptions(values));
  const kind = report.artifact.kind;
  const label = {
    name: path,
    kind,
    verdict: report.verdict,
    sha256: report.artifact.sha256,
    content: 'value' in read ? 'report and parsed content compared' : read.why,
  };
  const side: Side = { label, kind, report, content, saved: false };
  if ('root' in read && read.root !== undefined) side.rootLiteral = read.root;
  if ('reason' in read) side.unread = read.reason;
  return side;
}

/** The flags given that would change what the engine makes: none has an effect on a saved report. */
const engineFlagsGiven = (values: Record<string, unknown>): string[] =>
  [...declaredOptions().map((o) => o.flag), 'limit'].filter((f) => values[f] !== undefined).map((f) => `--${f}`);

/** Refuses options that would have no effect: a replay's own without --replay, the engine's on saved reports. */
function refuseIneffective(values: Record<string, unknown>, sides: readonly Side[]): void {
  // A diff compares: it never writes evidence. With a key, its replays anchored their drift
  // in --journal (and opened quarantine cases) on every diff, a record nobody asked for twice.
  if (values['key'] !== undefined)
    throw new UsageError(
      "--key signs what a replay anchors in its journal; reprise diff only compares and writes nothing there: anchor a replay with 'reprise replay --journal DIR --key FILE'",
    );
  const replayOnly = declaredOptions().filter((o) => o.replayOnly);
  if (values['replay'] !== true && replayOnly.some((o) => values[o.flag] !== undefined))
    throw new UsageError(`${replayOnly.map((o) => `--${o.flag}`).join(' and ')} belong to replay: give --replay`);
  if (!sides.some((s) => s.saved)) return;
  const given = engineFlagsGiven(values);
  if (values['replay'] === true) given.unshift('--replay');
  const saved = sides.length > 1 ? 'saved reports are compared as saved' : 'a saved report is compared as saved';
  if (given.length > 0)
    throw new UsageError(
      `${given.join(' and ')} ${given.length > 1 ? 'have' : 'has'} no effect: ${saved}, the engine does not run on ${sides.length > 1 ? 'them' : 'it'}`,
    );
}

/**
 * The changed string as a line shows it: context, then the span in [-…-] or {+…+}, the
 * markers in its text escaped (shownMarkedParts: `[\-`), so the span's own are the only ones.
 */
function spanText(s: string, e: DiffEntry, side: 'left' | 'right'): string {
  const p = spanParts(s, e.span!, side, 20, 80, shownMarkedParts);
  const [open, close] = side === 'left' ? ['[-', '-]'] : ['{+', '+}'];
  const more = p.cutChanged > 0 ? `… ${p.cutChanged} more` : '';
  return `${p.cutBefore ? '…' : ''}${p.before}${open}${p.changed}${more}${close}${p.after}${p.cutAfter ? '…' : ''}`;
}

/** A changed string shown as its span with some context (a short one reads best whole). */
const spanned = (e: DiffEntry): boolean =>
  e.span !== undefined &&
  typeof e.left === 'string' &&
  typeof e.right === 'string' &&
  e.left.length + e.right.length > 120;

function valueText(e: DiffEntry, side: 'left' | 'right'): string {
  const v = e[side];
  if (v === undefined) return '(absent)';
  // spanText and shownEntryCut have escaped every control already (shared/diff.ts): escaping again would double it.
  if (spanned(e) && typeof v === 'string') return spanText(v, e, side);
  const literal = side === 'left' ? e.leftLiteral : e.rightLiteral;
  if (literal !== undefined) return safeJsonText(literal.length > 120 ? `${literal.slice(0, 117)}...` : literal);
  // Cut before escaping (shownEntryCut): never inside an escape, and what is left out counted
  // in characters of the value; a number beyond double precision inside it as written. Whole up
  // to 120 characters, else its first 117: only those are made, however large the value.
  return safeJsonText(shownEntryCut(e, side, undefined, 120, 117));
}

/**
 * Where a spanned string's change starts and both lengths, in UTF-16 code units, as the page
 * and the window say them for a string longer than 80: its context alone does not say where.
 */
function spanPlace(e: DiffEntry): string {
  if (!spanned(e)) return '';
  const [l, r] = [(e.left as string).length, (e.right as string).length];
  if (Math.max(l, r) <= 80) return '';
  const n = (x: number) => x.toLocaleString('en');
  return `  (${spanStartWords(e.span!.prefix)}; ${n(l)} → ${n(r)} characters)`;
}

function entryLine(e: DiffEntry): string {
  const where = shownPlace(e);
  const diff = e.difference !== undefined ? `  (right − left = ${e.difference})` : '';
  // A number shown as written (LITERAL_NOTE), or a value whose numbers are (LITERALS_NOTE): each said once.
  const notes = new Set([literalNote(e, 'left'), literalNote(e, 'right')].filter((n) => n !== null));
  const literal = [...notes].map((n) => `  (${n})`).join('');
  const points = spanCodePoints(e);
  const said = `${spanPlace(e)}${diff}${literal}${points === null ? '' : `  (${points})`}`;
  return `  ${e.op.padEnd(8)} ${where}  ${valueText(e, 'left')} → ${valueText(e, 'right')}${said}\n`;
}

const sideLine = (s: Side['label']): string =>
  `${safeText(s.name)} (${[s.kind, s.verdict?.toUpperCase(), s.sha256].filter(Boolean).map(String).map(safeText).join(', ')}; ${safeText(s.content)})`;

/** What a replay that did not pass, or compared nothing, adds to its diff, and the exit it owes. */
interface ReplayNote {
  line: string;
  code: ExitCode;
  /** Nothing was replayed: there is no diff to list. */
  nothing: boolean;
  /** Recorded numbers were compared as doubles where their literals could not be told (withUndecided): never identical. */
  undecided?: true;
}

/** Why fewer were listed, as the count line says it: the count's limit, or the pointers' total length. */
function cutReason(r: DiffResult): string {
  if (r.truncatedBy !== 'pointers') return `--max-differences ${r.limit}`;
  return `their pointers reached ${r.pointerBudget.toLocaleString('en')} characters, the most a listing holds`;
}

function printText(io: CliIO, c: Compared, r: DiffResult): void {
  io.out(`${safeText(c.what)}\nleft:  ${sideLine(c.left)}\nright: ${sideLine(c.right)}\n`);
  if (c.note?.nothing) io.out(`${c.note.line}\n`);
  else if (r.identical) io.out('identical: no difference\n');
  else if (c.note?.undecided && r.total === 0) io.out('no difference between their doubles\n');
  else
    io.out(
      `${r.total} difference(s)${r.truncated ? `, the first ${r.differences.length} listed (${cutReason(r)})` : ''}\n`,
    );
  for (const e of r.differences) io.out(entryLine(e));
  for (const l of r.lengths) io.out(`  length   ${shownPlace(l)}  ${l.left} → ${l.right} items\n`);
  if (c.note && !c.note.nothing) io.out(`${c.note.line}\n`);
}

/** A replay's verdict with its decisive finding (the first fail, else the first unavailable). */
function verdictText(r: Side['report']): string {
  const d = carriedVerdictOf(r).decisive;
  return safeText(`${r.verdict.toUpperCase()}${d ? `: ${d.rule} ${d.message}` : ''}`);
}

/**
 * The note on a diff of replays: one replay that compared nothing (nothing was replayed:
 * its verdict's exit, UNAVAILABLE when it passed, as there was nothing to compare), or
 * replays that did not pass (their worst verdict's exit, when the diff alone would be 0).
 */
function replayNote(sides: readonly Side[]): ReplayNote | null {
  const one = sides.length === 1 ? sides[0]!.report : null;
  if (one && !one.comparisons?.length) {
    const code = one.verdict === 'pass' ? EXIT.unavailable : exitOfVerdict(one.verdict);
    const why = one.verdict === 'pass' ? 'its replay compares no output (PASS)' : `the replay is ${verdictText(one)}`;
    return { line: `nothing was replayed: ${why}`, code, nothing: true };
  }
  const failed = sides.filter((s) => s.report.verdict !== 'pass');
  if (failed.length === 0) return null;
  const line = failed.map((s) => `the replay of ${safeText(s.label.name)} is ${verdictText(s.report)}`).join('\n');
  return { line, code: worstExit(failed.map((s) => exitOfVerdict(s.report.verdict))), nothing: false };
}

/** What is compared: in words, the two sides' labels and values, the lossy numbers' literals, the replay's note. */
interface Compared {
  what: string;
  left: Side['label'];
  right: Side['label'];
  a: JsonValue;
  b: JsonValue;
  literals: NumberLiterals;
  note: ReplayNote | null;
}

/** One artifact's replay: its originals against its replayed values. */
async function comparedReplay(path: string, values: Record<string, unknown>): Promise<Compared> {
  const literals = new NumberLiterals();
  const s = await readSide(path, true, values, literals);
  refuseIneffective(values, [s]);
  const undecided = s.content === undefined ? 0 : tieReplayLiterals(s.report, s.content, literals);
  const { left, right, content } = replaySides(s.report, literals);
  const name = (n: string) => ({ ...s.label, name: `${s.label.name} (${n})`, content });
  const [l, r] = [name('original'), name('replayed')];
  const note = withUndecided(replayNote([s]), undecided);
  return { what: 'original against replayed', left: l, right: r, a: left, b: right, literals, note };
}

/**
 * A replay whose recorded numbers could not all be tied to their literals (tieReplayLiterals)
 * is compared as doubles there, so it is never called identical: UNAVAILABLE, with why.
 */
function withUndecided(note: ReplayNote | null, undecided: number): ReplayNote | null {
  if (undecided === 0 || note?.nothing) return note;
  const line =
    `${undecided} recorded number(s) equal a number the artifact writes both beyond double precision and as its double: ` +
    'which one a comparison holds cannot be told, so it is compared as a double and the replay is not called identical';
  const code = worstExit([note?.code ?? EXIT.pass, EXIT.unavailable]);
  return { line: note ? `${note.line}\n${line}` : line, code, nothing: false, undecided: true };
}

/** A side's compared value: its report and content (whose own literal, if any, `literals` takes over). */
function sideValue(s: Side, literals: NumberLiterals): JsonValue {
  return reportSide(s.report, s.content, { literals, literal: s.rootLiteral });
}

/** What is compared, from the positionals and --replay. */
async function compared(positionals: string[], values: Record<string, unknown>): Promise<Compared> {
  const replay = values['replay'] === true;
  if (positionals.length === 1 && replay) return comparedReplay(positionals[0]!, values);
  if (positionals.length !== 2)
    throw new UsageError(`give two artifacts, or one with --replay\nusage: ${INFO.diff.usage}`);
  const literals = new NumberLiterals();
  const read = (p: string) => readSide(p, replay, values, literals);
  const [l, r] = [await read(positionals[0]!), await read(positionals[1]!)];
  // Saved reports are compared as the artifacts they are of would be (an unknown one with any kind).
  const of = (s: Side): string => (s.saved ? s.kind.slice(SAVED.length) : s.kind);
  if (!comparableKinds(of(l), of(r)) || l.saved !== r.saved) {
    // A side whose content could not be read as JSON (a saved report with a duplicate member)
    // is verified as an artifact, and so of another kind: say why it was not read as it looks.
    const unread = [l, r]
      .filter((s) => s.unread !== undefined)
      .map((s) => `${safeText(s.label.name)} was not read as JSON: ${safeText(s.unread!)}`);
    throw new UsageError(
      `cannot compare ${safeText(positionals[0]!)} (${safeText(l.kind)}) with ${safeText(positionals[1]!)} (${safeText(r.kind)}): diff compares two artifacts of one kind${unread.length > 0 ? ` (${unread.join('; ')})` : ''}`,
      'refused',
    );
  }
  refuseIneffective(values, [l, r]);
  const what = l.saved
    ? of(l) === of(r)
      ? `two saved reports of ${of(l)} artifacts`
      : `saved reports of ${artifactsWords(of(l), of(r))}`
    : replay
      ? `the replays of ${artifactsWords(l.kind, r.kind)}`
      : artifactsWords(l.kind, r.kind);
  const [a, b] = [sideValue(l, literals), sideValue(r, literals)];
  return { what, left: l.label, right: r.label, a, b, literals, note: replay ? replayNote([l, r]) : null };
}

/**
 * The diff's result as every output gives it: when nothing was replayed nothing was compared,
 * so nothing is called identical (`identical` false with no difference; the note says why).
 */
const resultOf = (c: Compared, r: DiffResult): DiffResult =>
  c.note?.nothing || c.note?.undecided ? { ...r, identical: false } : r;

/** The exit: the diff's (0 identical, 1 different), but never 0 over a replay that did not pass or compared nothing. */
function exitOf(c: Compared, r: DiffResult): ExitCode {
  if (c.note?.nothing || (c.note?.undecided && r.total === 0)) return c.note.code;
  if (!r.identical) return EXIT.fail;
  return c.note ? c.note.code : EXIT.pass;
}

/**
 * Levels of `--json` laid out a line per member: the result, its lists, each entry (and a
 * side's label). Below them (an entry's values, its span) compact: laid out whole, a value
 * nested 500 deep was 1,000 spaces a line, 20 MB of output for a 41 KB input, and a 1.2 MB
 * input made more than the longest string V8 holds. Compact, the output is the input's size.
 */
const JSON_LAID_OUT = 3;

/**
 * The result as `--json` gives it: each changed string whose change does not read as what it
 * is (a lookalike, another normalization form) with its `codePoints`, as the terminal, the
 * page and the window say it (spanCodePoints).
 */
function withCodePoints(r: DiffResult): DiffResult {
  const differences = r.differences.map((e) => {
    const codePoints = spanCodePoints(e);
    return codePoints === null ? e : { ...e, codePoints };
  });
  return { ...r, differences };
}

/**
 * The most differences a page lists (shared/diff-html.ts): about 250 bytes each, so some 25 MB,
 * which a browser still opens; ten million made a page longer than V8's longest string.
 */
const HTML_MAX_DIFFERENCES = PAGE_MAX_DIFFERENCES;

export const diffCommand: Command = {
  ...INFO.diff,
  async run(args: string[], io: CliIO): Promise<ExitCode> {
    const { values, positionals } = parse(args, diffFlags(), INFO.diff.usage);
    const limit = intFlag(values['max-differences'], 'max-differences', 0, 10_000_000) ?? DEFAULT_DIFF_LIMIT;
    refuseIneffective(values, []);
    const html = values['html'];
    if (typeof html === 'string' && limit > HTML_MAX_DIFFERENCES)
      throw new UsageError(
        `--html lists at most ${HTML_MAX_DIFFERENCES.toLocaleString('en')} differences (a page of more is past what a browser opens and what one string holds); give --max-differences ${HTML_MAX_DIFFERENCES} or less, or --json for more`,
      );
    await refuseOutputsOnInputs(values, positionals);
    if (typeof html === 'string') await checkOutputFile(html, '--html');
    const c = await compared(positionals, values);
    const result = resultOf(c, diffJson(c.a, c.b, { limit, literals: c.literals }));
    const note = c.note?.line.replace(/\n/g, '; ');
    const page = { title: `Reprise diff: ${c.what}`, what: c.what, left: c.left, right: c.right, result };
    const nothing = c.note?.nothing && { nothingCompared: true as const };
    if (typeof html === 'string') await writeOutputFile(html, diffPage({ ...page, ...(note && { note }), ...nothing }));
    if (values['json']) {
      const replay = c.note && { replayed: !c.note.nothing, note };
      const out = {
        ...withCodePoints(result),
        compared: c.what,
        left: c.left,
        right: c.right,
        ...(replay && { replay }),
      };
      io.out(`${jsonText(out as unknown as JsonValue, 2, JSON_LAID_OUT)}\n`);
    } else printText(io, c, result);
    return exitOf(c, result);
  },
};
