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
 * those bytes, or for an option that takes a holder, declaring that identity). None when the
 * user set that option for the whole case, when the case holds no other artifact so named,
 * when the artifact's references through that option name two (one option holds one path:
 * the other would be decided against the wrong one), or in a replayed case for an option a
 * replay writes through. In path order, whatever order the parts landed in.
 */
export function caseRechecks(
  parts: readonly CasePart[],
  files: readonly CaseFile[],
  options: EngineOptions,
  mode: 'verify' | 'replay' = 'verify',
): CaseRecheck[] {
  const byRel = new Map(files.map((f) => [f.rel, f]));
  const sorted = [...parts].sort((a, b) => byText(a.artifact.path, b.artifact.path));
  const { bytes, declared } = holders(sorted, byRel);
  const given = options as Record<string, unknown>;
  const out: CaseRecheck[] = [];
  for (const p of sorted) {
    const self = byRel.get(p.artifact.path);
    const r = p.references.find(
      (x) => x.option !== undefined && given[x.option] === undefined && !(x.optionInVerifyOnly && mode === 'replay'),
    );
    if (!self || !r) continue;
    const targets = new Set(
      p.references
        .filter((x) => x.option === r.option)
        .map((x) => bytes.get(x.value) ?? (x.optionTakesHolder ? declared.get(x.value) : undefined)),
    );
    const [target] = targets;
    if (targets.size === 1 && target && target.rel !== self.rel)
      out.push({ file: self, options: { ...options, [r.option!]: target.path } as EngineOptions });
  }
  return out;
}

/** The first artifact (by path) whose bytes are each value, and the first declaring each identity that is not a copy. */
function holders(
  sorted: readonly CasePart[],
  byRel: ReadonlyMap<string, CaseFile>,
): { bytes: Map<string, CaseFile>; declared: Map<string, CaseFile> } {
  const bytes = new Map<string, CaseFile>();
  const declared = new Map<string, CaseFile>();
  for (const p of sorted) {
    const f = byRel.get(p.artifact.path);
    if (!f) continue;
    if (p.artifact.sha256 !== null && !bytes.has(p.artifact.sha256)) bytes.set(p.artifact.sha256, f);
    // An option takes the holder of content (a journal's entry), never of a claim by the same text.
    for (const id of p.identities)
      if (id.copy !== true && id.space === undefined && !declared.has(id.value)) declared.set(id.value, f);
  }
  return { bytes, declared };
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
