/**
 * Each artifact's `needs` in a case bundle's case.json against its bundled report
 * (docs/evidence-bundle.md, "The case bundle"). What the case says would decide an
 * artifact's UNAVAILABLE findings must be true of the report the bundle holds, read with the
 * table and the reading the case wrote it with (app/kinds/types.ts neededOptions): each
 * option one the report's kind declares to decide findings, by that option's flag, each rule
 * that of an UNAVAILABLE finding of the report the option decides (its pointer suffix
 * included), rules and needs sorted and each once; and none at all where no option decides
 * any. That every such finding is listed cannot be checked: the options the case was given
 * are recorded nowhere. A disagreement is the case report's (017).
 */
import type { CaseArtifact, CaseNeed, CaseReport } from '../../../shared/case.js';
import { findingsOn } from '../../core/findings.js';
import { neededOptions, type Decider, type DecidersOf } from '../types.js';
import { inCase, type Bundled } from './case-check.js';
import { CASE_MEMBER, caseReportMember } from './format.js';
import { EVIDENCE_BUNDLE_RULES } from './rule-ids.js';
import { R, type State } from './verify.js';

const { fail, unavailable } = findingsOn(EVIDENCE_BUNDLE_RULES);

/**
 * The needs of every artifact whose report the bundle holds (one it does not has its own
 * finding). Without the table (an in-process caller that gives none; the engine always
 * does) they cannot be checked, and are said to be unchecked: UNAVAILABLE, never PASS.
 */
export function checkNeeds(
  st: State,
  c: CaseReport,
  bundled: readonly (Bundled | null)[],
  decidersOf: DecidersOf | undefined,
): void {
  const listing = c.artifacts.flatMap((a, i) => (a.needs !== undefined && bundled[i] ? [i] : []));
  if (listing.length === 0) return;
  if (!decidersOf)
    return void st.findings.push(
      unavailable(
        R.case,
        `${CASE_MEMBER} says which options ${listing.length} artifact(s) need, which this verifier cannot check: it was given no table of the options each kind declares to decide its findings`,
        { pointer: inCase(`/artifacts/${listing[0]}/needs`) },
      ),
    );
  for (const i of listing) checkArtifactNeeds(st, c.artifacts[i]!, i, bundled[i]!, decidersOf);
}

/** One artifact's needs against its bundled report, under the table of the report's kind. */
function checkArtifactNeeds(st: State, a: CaseArtifact, i: number, b: Bundled, decidersOf: DecidersOf): void {
  const needs = a.needs ?? [];
  const member = caseReportMember(i);
  const kind = b.report.artifact.kind;
  const byRule = decidersOf(kind);
  const decidable = byRule && neededOptions(b.report.findings, byRule);
  if (!byRule || !decidable)
    return void st.findings.push(
      fail(
        R.case,
        `${CASE_MEMBER} says ${a.path} needs ${needs.map((n) => `--${n.flag}`).join(', ')}, but its bundled report (${member}) holds no UNAVAILABLE finding any option decides`,
        { pointer: inCase(`/artifacts/${i}/needs`) },
      ),
    );
  const declared = flagsOf(byRule);
  needs.forEach((n, j) => {
    const at = `/artifacts/${i}/needs/${j}`;
    if (j > 0 && !(needs[j - 1]!.flag < n.flag))
      st.findings.push(
        fail(
          R.case,
          `${CASE_MEMBER} lists what ${a.path} needs out of flag order or an option twice (sorted by flag, each once)`,
          { pointer: inCase(`${at}/flag`) },
        ),
      );
    const said = { path: a.path, kind, member, at };
    checkNeed(
      st,
      n,
      said,
      declared.get(n.option),
      decidable.find((d) => d.option === n.option),
    );
  });
}

/** Each option of a kind's table with its flag. */
function flagsOf(byRule: ReadonlyMap<string, readonly Decider[]>): Map<string, string> {
  const flags = new Map<string, string>();
  for (const list of byRule.values()) for (const d of list) flags.set(d.name, d.flag);
  return flags;
}

interface Said {
  path: string;
  kind: string;
  member: string;
  /** The need's pointer in case.json. */
  at: string;
}

/** A need: an option the kind declares (`flag`), by that flag, each rule one it decides in the report (`decided`). */
function checkNeed(st: State, n: CaseNeed, s: Said, flag: string | undefined, decided: CaseNeed | undefined): void {
  if (flag === undefined)
    return void st.findings.push(
      fail(
        R.case,
        `${CASE_MEMBER} says ${s.path} needs ${n.option} (--${n.flag}), which its kind ${s.kind} does not declare to decide any of its findings`,
        { pointer: inCase(`${s.at}/option`), actual: n.option },
      ),
    );
  if (n.flag !== flag)
    st.findings.push(
      fail(
        R.case,
        `${CASE_MEMBER} says ${s.path} needs ${n.option} by the flag --${n.flag}, which is not that option's flag (--${flag})`,
        { pointer: inCase(`${s.at}/flag`), expected: flag, actual: n.flag },
      ),
    );
  n.rules.forEach((rule, k) => {
    const pointer = inCase(`${s.at}/rules/${k}`);
    if (k > 0 && !(n.rules[k - 1]! < rule))
      st.findings.push(
        fail(
          R.case,
          `${CASE_MEMBER} lists the rules --${n.flag} would decide in ${s.path} out of order or twice (sorted, each once)`,
          { pointer },
        ),
      );
    if (!decided?.rules.includes(rule))
      st.findings.push(
        fail(
          R.case,
          `${CASE_MEMBER} says --${n.flag} would decide ${rule} in ${s.path}, but its bundled report (${s.member}) holds no UNAVAILABLE finding of ${rule} that option decides`,
          { pointer, actual: rule },
        ),
      );
  });
}
