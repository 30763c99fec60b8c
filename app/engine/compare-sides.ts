/**
 * What a diff compares of an artifact besides its report: its content, parsed strictly, with
 * each number its double does not keep held by its literal (shared/number-literals.ts). One
 * module for `reprise diff` and the window's Compare view (the engine host runs it in its
 * journal worker), so both read the same content to the same limit and call the same files
 * identical (docs/compare.md). The canonical text alone would not do: RFC 8785 writes such a
 * number as its double, so `1e21` against `1000000000000000000001` would read as equal.
 */
import {
  comparableKinds,
  diffJson,
  NumberLiterals,
  parseKeepingLiterals,
  reportSide,
  type DiffResult,
} from '../../shared/diff.js';
import type { DiffSideLabel } from '../../shared/diff-html.js';
import type { LiteralParse } from '../../shared/number-literals.js';
import type { JsonValue, Report } from '../../shared/report.js';
import { UsageError } from '../core/errors.js';
import { readFailure, readRegularFile } from '../core/files.js';
import { decodeJsonBytes, JcsError, parseCanonical } from '../core/jcs.js';
import { KINDS } from '../kinds/registry.js';
import { Sniffed } from '../kinds/sniff.js';

/** Content larger than this is not parsed for a diff (the reports are still compared). */
export const MAX_CONTENT_BYTES = 64 * 1024 * 1024;

/** An artifact's parsed content, or why it has none, in the words a side's label shows. */
export type ContentRead = LiteralParse | { why: string; reason: string };

/** `why` in a side's label's words; `reason` alone, for a sentence of its own. */
const notCompared = (reason: string): { why: string; reason: string } => ({
  why: `report compared; content not (${reason})`,
  reason,
});

/**
 * The artifact's strict JSON parse (its lossy numbers in `literals`), or why it has none: not
 * a regular file (a journal's folder), larger than MAX_CONTENT_BYTES, not UTF-8 (decoded
 * leniently, two files differing only in invalid bytes would compare identical), not one
 * I-JSON document. Content its kind declares as several documents (a JSON Lines trace:
 * KindDeclarations.contentDocuments) is the array of their values.
 */
export async function readContent(
  from: { path: string } | { bytes: Uint8Array },
  literals: NumberLiterals,
): Promise<ContentRead> {
  let bytes: Uint8Array;
  if ('bytes' in from) {
    if (from.bytes.length > MAX_CONTENT_BYTES) return notCompared(`larger than ${MAX_CONTENT_BYTES / 1048576} MiB`);
    bytes = from.bytes;
  } else
    try {
      bytes = await readRegularFile(from.path, MAX_CONTENT_BYTES);
    } catch (e) {
      return notCompared(readFailure(e));
    }
  const notOne = (e: unknown) => notCompared(`not one I-JSON document${e instanceof JcsError ? `: ${e.message}` : ''}`);
  let text: string;
  try {
    text = decodeJsonBytes(bytes);
  } catch (e) {
    return notOne(e);
  }
  let value: JsonValue;
  try {
    value = parseCanonical(text).value as JsonValue;
  } catch (e) {
    return readDocuments(bytes, text, literals) ?? notOne(e);
  }
  return parseKeepingLiterals(text, literals) ?? { value };
}

/**
 * The kind of content that is not one JSON document, told as the engine tells it (the first
 * kind in registry order that claims it), with how that kind splits it into documents; null
 * when no kind claims it or the one that does declares no split. Told here, by content,
 * because `reprise diff` reads a side's content before its report.
 */
function documentsKind(bytes: Uint8Array): { kind: string; unit: string; split(text: string): string[] } | null {
  const sniffed = new Sniffed('', Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  try {
    const k = KINDS.find((h) => h.detect(sniffed));
    return k?.contentDocuments ? { kind: k.kind, ...k.contentDocuments } : null;
  } catch {
    return null; // a detection that cannot read the content: no kind's documents, one document refused
  }
}

/**
 * Why document `i` is not I-JSON, placed in the content: the parser read it alone, so its
 * "(line 1, column 4)" is of that document, not of the file.
 */
function documentError(e: unknown, unit: string, i: number): string {
  const head = `${unit} ${i + 1} is not I-JSON`;
  if (!(e instanceof JcsError)) return head;
  const own = ` (line ${e.line}, column ${e.column})`;
  if (e.line !== 1 || !e.message.endsWith(own)) return `${head}: ${e.message}`;
  return `${head}: ${e.message.slice(0, -own.length)} (column ${e.column} of that ${unit})`;
}

/**
 * Content its kind declares as several JSON documents (an ACGP JSON Lines trace), as the
 * array of their values, each parsed strictly with its lossy numbers in `literals`, as one
 * document is; or why it has none, naming the document ("line 3") that is not I-JSON. Null
 * when its kind declares no documents. Comparing it as one document compared nothing of it:
 * the diff showed only its digest changed, beside a label that read as if it were invalid.
 */
function readDocuments(bytes: Uint8Array, text: string, literals: NumberLiterals): ContentRead | null {
  const kind = documentsKind(bytes);
  if (kind === null) return null;
  const values: JsonValue[] = [];
  const roots: [number, string][] = [];
  const texts = kind.split(text);
  for (let i = 0; i < texts.length; i++) {
    try {
      const one = parseCanonical(texts[i]!).value as JsonValue;
      const kept = parseKeepingLiterals(texts[i]!, literals);
      values.push(kept?.value ?? one);
      if (kept?.root !== undefined) roots.push([i, kept.root]);
    } catch (e) {
      return notCompared(`${kind.kind} content read ${kind.unit} by ${kind.unit}: ${documentError(e, kind.unit, i)}`);
    }
  }
  for (const [i, root] of roots) literals.set(values, String(i), root);
  if (values.some((v) => typeof v === 'object' && v !== null && literals.holds(v))) literals.mark(values);
  return { value: values };
}

/**
 * Two sides of different kinds are not compared (UsageError, the window's and the terminal's
 * refusal), but for content no kind claims (comparableKinds): the host asks before it reads
 * any content.
 */
export function refuseTwoKinds(l: Pick<SideRead, 'name' | 'report'>, r: Pick<SideRead, 'name' | 'report'>): void {
  if (!comparableKinds(l.report.artifact.kind, r.report.artifact.kind))
    throw new UsageError(
      `Cannot compare ${l.name} (${l.report.artifact.kind}) with ${r.name} (${r.report.artifact.kind}): a diff compares two artifacts of one kind.`,
      'refused',
    );
}

/** One side as read: its name, the engine's report and its content (or why none). */
export interface SideRead {
  name: string;
  report: Report;
  content: ContentRead;
}

/** Two sides compared, with each side's label. */
export interface SidesDiff {
  result: DiffResult;
  left: DiffSideLabel;
  right: DiffSideLabel;
  kind: string;
}

/**
 * The diff of two sides of one kind (or one of them unknown); two kinds are refused, as
 * `reprise diff` refuses them.
 * `literals` is the set their content was read into: one for both sides, as the diff looks
 * a number up by its container.
 */
export function diffSides(l: SideRead, r: SideRead, literals: NumberLiterals): SidesDiff {
  refuseTwoKinds(l, r);
  const side = (s: SideRead) => {
    const { kind, sha256 } = s.report.artifact;
    const parsed = 'value' in s.content ? s.content : undefined;
    const content = parsed ? 'report and parsed content compared' : (s.content as { why: string }).why;
    const label: DiffSideLabel = { name: s.name, kind, verdict: s.report.verdict, sha256, content };
    return { label, value: reportSide(s.report, parsed?.value, { literals, literal: parsed?.root }) };
  };
  const [a, b] = [side(l), side(r)];
  return {
    result: diffJson(a.value, b.value, { literals }),
    left: a.label,
    right: b.label,
    kind: l.report.artifact.kind,
  };
}
