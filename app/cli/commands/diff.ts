/**
 * `reprise diff A B` and `reprise diff A --replay` (docs/compare.md): the structured diff
 * (shared/diff.ts) of two artifacts of one kind (their reports and, when JSON, their parsed
 * content), of two saved reports, of the replays of two artifacts, or of one replay's
 * originals against its replayed values. Exit 0 identical, 1 different, 3 bad usage (two
 * kinds, an unreadable path, an unknown flag).
 */
import { resolve } from 'node:path';
import {
  DEFAULT_DIFF_LIMIT,
  diffJson,
  replaySides,
  reportSide,
  spanParts,
  type DiffEntry,
} from '../../../shared/diff.js';
import { shownPlace, type DiffResult } from '../../../shared/diff.js';
import { diffPage, type DiffSideLabel } from '../../../shared/diff-html.js';
import { EXIT, REPORT_SCHEMA, shownValue, type ExitCode, type JsonValue, type Report } from '../../../shared/report.js';
import { isPlainObject } from '../../core/closed.js';
import { UsageError } from '../../core/errors.js';
import { checkOutputFile, readFailure, readRegularText, writeOutputFile } from '../../core/files.js';
import { parseCanonical } from '../../core/jcs.js';
import { declaredOptions } from '../../kinds/registry.js';
import { safeText } from '../../engine/report-text.js';
import { runPath } from '../../engine/run.js';
import { intFlag, parse, type Flags } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { engineOptions } from './check.js';
import { INFO } from './info.js';

/** Content larger than this is not parsed for the diff (the reports are still compared). */
const MAX_CONTENT_BYTES = 64 * 1024 * 1024;

/** How a saved report's kind is named (so two reports of one kind compare, a report and its artifact do not). */
const SAVED = 'report of ';

/** One side: what it is, and the value compared. */
interface Side {
  label: DiffSideLabel & { content: string };
  kind: string;
  report: Omit<Report, 'run'>;
  content: JsonValue | undefined;
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

/** The file's strict JSON parse, or why it has none (not JSON, too large, a directory). */
async function readContent(path: string): Promise<{ value: JsonValue } | { why: string }> {
  let text: string;
  try {
    text = await readRegularText(path, MAX_CONTENT_BYTES);
  } catch (e) {
    return { why: `report compared; content not (${readFailure(e)})` };
  }
  try {
    return { value: parseCanonical(text).value as JsonValue };
  } catch {
    return { why: 'report compared; content not (not one I-JSON document)' };
  }
}

const isSavedReport = (v: JsonValue | undefined): v is JsonValue & Report =>
  isPlainObject(v) && v['schema'] === REPORT_SCHEMA && isPlainObject(v['artifact']) && Array.isArray(v['findings']);

/** Reads one side: a saved report as it is, any other artifact verified (or replayed) by the engine. */
async function readSide(path: string, replay: boolean, values: Record<string, unknown>): Promise<Side> {
  const read = await readContent(path);
  const content = 'value' in read ? read.value : undefined;
  if (isSavedReport(content)) {
    const kind = `${SAVED}${content.artifact.kind}`;
    const label = {
      name: path,
      kind,
      verdict: content.verdict,
      sha256: content.artifact.sha256,
      content: 'a saved report',
    };
    return { label, kind, report: content, content: undefined };
  }
  const report = await runPath(path, replay ? 'replay' : 'verify', engineOptions(values));
  const kind = report.artifact.kind;
  const label = {
    name: path,
    kind,
    verdict: report.verdict,
    sha256: report.artifact.sha256,
    content: 'value' in read ? 'report and parsed content compared' : read.why,
  };
  return { label, kind, report, content };
}

/** The changed string as a line shows it: context, then the span in [-…-] or {+…+}. */
function spanText(s: string, e: DiffEntry, side: 'left' | 'right'): string {
  const p = spanParts(s, e.span!, side, 20, 80);
  const [open, close] = side === 'left' ? ['[-', '-]'] : ['{+', '+}'];
  const more = p.cutChanged > 0 ? `… ${p.cutChanged} more` : '';
  return `${p.cutBefore ? '…' : ''}${p.before}${open}${p.changed}${more}${close}${p.after}${p.cutAfter ? '…' : ''}`;
}

function valueText(e: DiffEntry, side: 'left' | 'right'): string {
  const v = e[side];
  if (v === undefined) return '(absent)';
  // A short string reads best whole; a long one as its changed span with some context.
  const long = typeof e.left === 'string' && typeof e.right === 'string' && e.left.length + e.right.length > 120;
  if (e.span && long && typeof v === 'string') return safeText(spanText(v, e, side));
  const s = shownValue(v);
  return safeText(s.length > 120 ? `${s.slice(0, 117)}...` : s);
}

function entryLine(e: DiffEntry): string {
  const where = safeText(shownPlace(e));
  const diff = e.difference !== undefined ? `  (right − left = ${e.difference})` : '';
  return `  ${e.op.padEnd(8)} ${where}  ${valueText(e, 'left')} → ${valueText(e, 'right')}${diff}\n`;
}

const sideLine = (s: Side['label']): string =>
  `${safeText(s.name)} (${[s.kind, s.verdict?.toUpperCase(), s.sha256].filter(Boolean).map(String).map(safeText).join(', ')}; ${s.content})`;

function printText(io: CliIO, what: string, left: Side['label'], right: Side['label'], r: DiffResult): void {
  io.out(`${what}\nleft:  ${sideLine(left)}\nright: ${sideLine(right)}\n`);
  if (r.identical) {
    io.out('identical: no difference\n');
    return;
  }
  io.out(
    `${r.total} difference(s)${r.truncated ? `, the first ${r.differences.length} listed (--max-differences ${r.limit})` : ''}\n`,
  );
  for (const e of r.differences) io.out(entryLine(e));
  for (const l of r.lengths) io.out(`  length   ${safeText(shownPlace(l))}  ${l.left} → ${l.right} items\n`);
}

/** What is compared, from the positionals and --replay. */
async function compared(
  positionals: string[],
  values: Record<string, unknown>,
): Promise<{ what: string; left: Side['label']; right: Side['label']; a: JsonValue; b: JsonValue }> {
  const replay = values['replay'] === true;
  if (positionals.length === 1 && replay) {
    const s = await readSide(positionals[0]!, true, values);
    const { left, right } = replaySides(s.report);
    const name = (n: string) => ({
      ...s.label,
      name: `${s.label.name} (${n})`,
      content: 'its comparisons and expression',
    });
    return { what: 'original against replayed', left: name('original'), right: name('replayed'), a: left, b: right };
  }
  if (positionals.length !== 2)
    throw new UsageError(`give two artifacts, or one with --replay\nusage: ${INFO.diff.usage}`);
  const [l, r] = [await readSide(positionals[0]!, replay, values), await readSide(positionals[1]!, replay, values)];
  if (l.kind !== r.kind)
    throw new UsageError(
      `cannot compare ${safeText(positionals[0]!)} (${safeText(l.kind)}) with ${safeText(positionals[1]!)} (${safeText(r.kind)}): diff compares two artifacts of one kind`,
      'refused',
    );
  const what = l.kind.startsWith(SAVED)
    ? `two saved reports of ${l.kind.slice(SAVED.length)} artifacts`
    : replay
      ? `the replays of two ${l.kind} artifacts`
      : `two ${l.kind} artifacts`;
  return {
    what,
    left: l.label,
    right: r.label,
    a: reportSide(l.report, l.content),
    b: reportSide(r.report, r.content),
  };
}

export const diffCommand: Command = {
  ...INFO.diff,
  async run(args: string[], io: CliIO): Promise<ExitCode> {
    const { values, positionals } = parse(args, diffFlags(), INFO.diff.usage);
    const limit = intFlag(values['max-differences'], '--max-differences', 0, 10_000_000) ?? DEFAULT_DIFF_LIMIT;
    const html = values['html'];
    if (typeof html === 'string' && positionals.some((p) => resolve(p) === resolve(html)))
      throw new UsageError(`--html ${html} is one of the artifacts compared; Reprise never overwrites its input`);
    if (typeof html === 'string') await checkOutputFile(html, '--html');
    const c = await compared(positionals, values);
    const result = diffJson(c.a, c.b, { limit });
    if (typeof html === 'string')
      await writeOutputFile(html, diffPage({ title: `Reprise diff: ${c.what}`, ...c, result }));
    if (values['json'])
      io.out(`${JSON.stringify({ ...result, compared: c.what, left: c.left, right: c.right }, null, 2)}\n`);
    else printText(io, c.what, c.left, c.right, result);
    return result.identical ? EXIT.pass : EXIT.fail;
  },
};
