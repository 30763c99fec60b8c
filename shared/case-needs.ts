/**
 * The options a case ran without that would decide findings of its UNAVAILABLE artifacts,
 * gathered from each artifact's CaseArtifact.needs (which each kind declares: app/kinds/types.ts
 * KindOption.decides): what the CLI says after a case and the Case view lists. Pure.
 */
import type { CaseArtifact, CaseNeed } from './case.js';

/** One option and the UNAVAILABLE artifacts (by path) with findings it would decide. */
export interface OptionNeeded {
  option: string;
  flag: string;
  /** The rules of those findings, sorted, each once. */
  rules: string[];
  artifacts: string[];
}

/** A need as the case writes it: a saved case report is read without its schema (the renderer's case-store.ts parseSaved). */
const wellFormed = (n: unknown): n is CaseNeed =>
  typeof n === 'object' &&
  n !== null &&
  typeof (n as CaseNeed).option === 'string' &&
  typeof (n as CaseNeed).flag === 'string' &&
  Array.isArray((n as CaseNeed).rules) &&
  (n as CaseNeed).rules.every((r) => typeof r === 'string');

/** The options UNAVAILABLE artifacts need: the one deciding most artifacts first, then by flag. */
export function optionsNeeded(artifacts: readonly CaseArtifact[]): OptionNeeded[] {
  const by = new Map<string, OptionNeeded>();
  for (const a of artifacts) {
    if (a.verdict !== 'unavailable' || !Array.isArray(a.needs)) continue;
    for (const n of a.needs.filter(wellFormed)) {
      const o = by.get(n.option) ?? { option: n.option, flag: n.flag, rules: [], artifacts: [] };
      o.artifacts.push(a.path);
      for (const r of n.rules) if (!o.rules.includes(r)) o.rules.push(r);
      by.set(n.option, o);
    }
  }
  for (const o of by.values()) o.rules.sort();
  return [...by.values()].sort(
    (x, y) => y.artifacts.length - x.artifacts.length || (x.flag < y.flag ? -1 : x.flag > y.flag ? 1 : 0),
  );
}
