/**
 * The artifacts of a case to run a second time, with another artifact of the case: one
 * whose kind names that other through an option (CaseReference.option; an exported report
 * names the artifact it is about, which its `--artifact` takes) is decided against the
 * artifact beside it, as `reprise verify REPORT --artifact FILE` decides it, rather than
 * left undecided as when it is read alone. The case report holds the second outcome; the
 * per-artifact outcome that landed first (each artifact alone, as `verify DIR` prints it)
 * stays what it was.
 */
import type { EngineOptions } from '../../kinds/types.js';
import { byText } from './assemble.js';
import type { CaseOutcome, CasePart, CaseUnreadable } from './part.js';
import type { CaseFile } from './walk.js';

export interface CaseRecheck {
  file: CaseFile;
  options: EngineOptions;
}

/**
 * Each artifact to run again and the options to run it with: the case's, and its kind's
 * option set to the path of the artifact it names (the first by path of those holding
 * those bytes). None when the user set that option for the whole case, or the case holds
 * no other artifact of those bytes. In path order, whatever order the parts landed in.
 */
export function caseRechecks(
  parts: readonly CasePart[],
  files: readonly CaseFile[],
  options: EngineOptions,
): CaseRecheck[] {
  const byRel = new Map(files.map((f) => [f.rel, f]));
  const sorted = [...parts].sort((a, b) => byText(a.artifact.path, b.artifact.path));
  const holder = new Map<string, CaseFile>();
  for (const p of sorted) {
    const f = byRel.get(p.artifact.path);
    if (f && p.artifact.sha256 !== null && !holder.has(p.artifact.sha256)) holder.set(p.artifact.sha256, f);
  }
  const given = options as Record<string, unknown>;
  const out: CaseRecheck[] = [];
  for (const p of sorted) {
    const self = byRel.get(p.artifact.path);
    const r = p.references.find((x) => x.option !== undefined && given[x.option] === undefined);
    const target = r && holder.get(r.value);
    if (self && r && target && target.rel !== self.rel)
      out.push({ file: self, options: { ...options, [r.option!]: target.path } as EngineOptions });
  }
  return out;
}

/** Each part whose artifact has a second outcome (by its path in the case) replaced by it: its part, or why it could not be read. */
export function replaceOutcomes(
  parts: CasePart[],
  unreadable: CaseUnreadable[],
  second: ReadonlyMap<string, CaseOutcome>,
): void {
  for (let i = parts.length - 1; i >= 0; i--) {
    const o = second.get(parts[i]!.artifact.path);
    if (!o) continue;
    if (o.ok) parts[i] = o.part;
    else {
      parts.splice(i, 1);
      unreadable.push(o.unreadable);
    }
  }
}
