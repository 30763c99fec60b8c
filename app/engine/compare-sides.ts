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
 * I-JSON document.
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
  let text: string;
  let value: JsonValue;
  try {
    text = decodeJsonBytes(bytes);
    value = parseCanonical(text).value as JsonValue;
  } catch (e) {
    return notCompared(`not one I-JSON document${e instanceof JcsError ? `: ${e.message}` : ''}`);
  }
  return parseKeepingLiterals(text, literals) ?? { value };
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
