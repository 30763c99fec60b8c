/**
 * What the Compare view diffs of two artifacts, as `reprise diff` does (docs/compare.md):
 * each side's report and, when the engine's strict parse took the artifact as one JSON
 * document, its content parsed from the artifact's own text (ArtifactContent.raw), with each
 * number its double does not keep held by its literal (shared/number-literals.ts). The
 * canonical text alone would not do: RFC 8785 writes such a number as its double, so
 * `1e21` against `1000000000000000000001` would read as equal.
 */
import type { ArtifactContent } from '../../../shared/api.js';
import { diffJson, NumberLiterals, parseKeepingLiterals, reportSide, type DiffResult } from '../../../shared/diff.js';
import type { DiffSideLabel } from '../../../shared/diff-html.js';
import type { LiteralParse } from '../../../shared/number-literals.js';
import type { Report } from '../../../shared/report.js';

/** One side as read: its name, the engine's report and what the host read of its content (null: nothing). */
export interface SideRead {
  name: string;
  report: Report;
  content: ArtifactContent | null;
}

/**
 * Why the host gave no text, in the Compare view's words: the host reads an artifact's text
 * as the editor shows it, at most 8 MiB, and says so for the editor ("larger than 8 MiB: not
 * shown in the editor"); here that is the most the window compares, where `reprise diff`
 * compares up to 64 MiB of content.
 */
function whyNone(note: string | null | undefined): string {
  const large = note && /^larger than (\d+ MiB)\b/.exec(note);
  if (large)
    return ` (larger than ${large[1]}, the most the window reads of an artifact; reprise diff compares content up to 64 MiB)`;
  return note ? ` (${note})` : '';
}

/** The parsed content of an artifact's text with its lossy numbers in `literals`, or why there is none. */
function contentOf(c: ArtifactContent | null, literals: NumberLiterals): { read?: LiteralParse; note: string } {
  // canonical is there only when the engine's strict parse accepted raw as one I-JSON document.
  if (c?.raw == null || c.canonical == null) return { note: `report compared; content not${whyNone(c?.note)}` };
  const read = parseKeepingLiterals(c.raw, literals) ?? { value: JSON.parse(c.canonical) as LiteralParse['value'] };
  return { read, note: 'report and parsed content compared' };
}

/** The diff of two sides of one kind, with each side's label; two kinds are refused, as the CLI refuses them. */
export function diffSides(
  l: SideRead,
  r: SideRead,
): { result: DiffResult; left: DiffSideLabel; right: DiffSideLabel; kind: string } {
  if (l.report.artifact.kind !== r.report.artifact.kind)
    throw new Error(
      `Cannot compare ${l.name} (${l.report.artifact.kind}) with ${r.name} (${r.report.artifact.kind}): a diff compares two artifacts of one kind.`,
    );
  // One set for both sides, as `reprise diff` keeps one: the diff looks a number up by its container.
  const literals = new NumberLiterals();
  const side = (s: SideRead) => {
    const content = contentOf(s.content, literals);
    const { kind, sha256 } = s.report.artifact;
    const label: DiffSideLabel = { name: s.name, kind, verdict: s.report.verdict, sha256, content: content.note };
    return { label, value: reportSide(s.report, content.read?.value, { literals, literal: content.read?.root }) };
  };
  const [a, b] = [side(l), side(r)];
  return {
    result: diffJson(a.value, b.value, { literals }),
    left: a.label,
    right: b.label,
    kind: l.report.artifact.kind,
  };
}
