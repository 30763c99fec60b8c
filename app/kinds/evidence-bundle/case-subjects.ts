/**
 * What a judgement in a case bundle may be about (docs/evidence-bundle.md, "The case
 * bundle"), as the case report says: an artifact of the case, by the SHA-256 of its bytes, or
 * a part of one (a manifest's embedded artifact) by a value the case places in it: the value
 * a found link matched in its target, or the subject of a judgement it lists. The bundler
 * takes the judgements on these values and the verifier accepts them, from one map, so the
 * two never disagree on what belongs to the case.
 *
 * And the case itself, by its digest (the manifest's `case.digest`, SHA-256 of case.json's
 * canonical JSON): a judgement on the case as a whole, which no artifact holds (an empty
 * list). It is what signs case.json: its links, timeline and verdict, and through the report
 * digests case.json lists, every bundled report.
 */
import type { CaseReport } from '../../../shared/case.js';

/**
 * Each value a judgement may name, with the indices (into `c.artifacts`) of the artifacts that
 * hold it, in path order; `digest` (the case's own) with none.
 */
export function caseSubjects(c: CaseReport, digest: string): Map<string, number[]> {
  const index = new Map(c.artifacts.map((a, i) => [a.path, i]));
  const out = new Map<string, number[]>([[digest, []]]);
  c.artifacts.forEach((a, i) => a.sha256 !== null && out.set(a.sha256, [...(out.get(a.sha256) ?? []), i]));
  // The artifacts whose bytes a value is hold it; a part is only looked for when none does (as the case lists judgements).
  const own = new Set(out.keys());
  const part = (value: string, path: string | null): void => {
    const i = path === null ? undefined : index.get(path);
    if (i === undefined || own.has(value)) return;
    const held = out.get(value) ?? [];
    if (!held.includes(i))
      out.set(
        value,
        [...held, i].sort((x, y) => x - y),
      );
  };
  for (const l of c.links) if (l.status === 'found') part(l.value, l.to.artifact);
  for (const j of c.judgements) part(j.subject, j.artifact);
  return out;
}
