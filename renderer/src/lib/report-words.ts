/** Plain-language readings of a report: the decisive finding, the authenticity statement, the words a finding's values are shown in. */
import { sameDigest } from '../../../shared/hash-format.js';
import { carriedOf } from '../../../shared/details/carried.js';
import {
  shownValue,
  type AuthenticityStatus,
  type ChainNode,
  type Finding,
  type JsonValue,
  type Report,
} from '../../../shared/report.js';

export const VERDICT_LABEL = { pass: 'PASS', fail: 'FAIL', unavailable: 'UNAVAILABLE' } as const;

/** The decisive finding: the first fail, else the first unavailable, else none. */
export function decisiveFinding(r: Report): Finding | null {
  return r.findings.find((f) => f.severity === 'fail') ?? r.findings.find((f) => f.severity === 'unavailable') ?? null;
}

/**
 * Whose failure a FAIL is. A file that carries a report (an evidence bundle, an exported
 * report: `details.integrity`) fails either because it is damaged itself, or because the
 * report it carries fails while the file is intact: "the artifact fails" would say neither.
 */
function failureOf(r: Report): string {
  const integrity = carriedOf(r)?.integrity.verdict;
  if (integrity === undefined) return 'The artifact fails';
  return integrity === 'fail' ? 'The file is damaged' : 'The report it carries fails';
}

export function plainVerdict(r: Report): string {
  const d = decisiveFinding(r);
  if (r.verdict === 'pass') return 'Every check passed: the recomputed values agree with the recorded ones.';
  if (!d) return 'The verdict has no decisive finding.';
  const why = r.verdict === 'fail' ? failureOf(r) : 'The check could not be completed';
  return `${why}: ${d.message}${d.pointer ? ` (at ${d.pointer})` : ''}.`;
}

export type AuthenticityReading = {
  level: 'trusted' | 'unknown' | 'bad' | 'consistency';
  status: AuthenticityStatus | 'none';
  text: string;
};

const LEVEL: Record<AuthenticityStatus, AuthenticityReading['level']> = {
  'trusted-signer': 'trusted',
  'untrusted-signer': 'unknown',
  'unknown-signer': 'unknown',
  'revoked-signer': 'bad',
  'bad-signature': 'bad',
  unsigned: 'consistency',
  'consistency-only': 'consistency',
};

/**
 * Who made the artifact: the engine's own statement (`report.authenticity`), shown as
 * stated. Nothing is inferred here from rule ids or kinds.
 */
export function authenticity(r: Report): AuthenticityReading {
  const a = r.authenticity;
  if (!a)
    return {
      level: 'consistency',
      status: 'none',
      text: 'The report makes no authenticity statement: origin not established.',
    };
  return { level: LEVEL[a.status] ?? 'consistency', status: a.status, text: a.statement };
}

/** A value as the report's other views show it (shared/report.ts shownValue). */
export const show = (v: JsonValue | undefined): string => shownValue(v);

/** A value nobody retypes: one token of 20 characters or more (a hash, a key id, a pointer). It is shown whole with a Copy button. */
export const copyable = (v: JsonValue | undefined): v is string =>
  typeof v === 'string' && v.length >= 20 && !/\s/.test(v);

/**
 * The chain node a finding is about: a node that does not match whose recorded and
 * recomputed values are the finding's expected and actual, in either order (rules differ in
 * which they call expected). Digests are compared with or without `sha256:`: Nemosyne's
 * findings carry bare hex where the chain writes the prefix.
 */
export function chainNodeOf(f: Finding, chain: readonly ChainNode[]): ChainNode | null {
  const { expected: e, actual: a } = f;
  if (e === undefined || a === undefined) return null;
  const same = (v: JsonValue, h: string | null): boolean => h !== null && (v === h || sameDigest(v, h));
  return (
    chain.find(
      (n) =>
        n.status !== 'match' &&
        ((same(e, n.recorded) && same(a, n.recomputed)) || (same(a, n.recorded) && same(e, n.recomputed))),
    ) ?? null
  );
}

export type ValueWord = 'recorded' | 'recomputed' | 'expected' | 'actual';

/**
 * A finding's values in the words of the views that show the same comparison: a finding
 * about a chain node as the chain shows it (recorded, then recomputed, the node's own
 * strings), a rule its kind declares a recomputation (`recomputed`: EngineInfo's
 * recomputedRules, e.g. ACGP's value checks) as the Trainer and the comparisons do
 * (recorded, then recomputed); any other finding in the engine's words (expected, then actual).
 */
export function findingValues(
  f: Finding,
  chain: readonly ChainNode[],
  recomputed: readonly string[],
): { word: ValueWord; value: JsonValue }[] {
  const n = chainNodeOf(f, chain);
  if (n)
    return [
      { word: 'recorded', value: n.recorded },
      { word: 'recomputed', value: n.recomputed },
    ];
  if (recomputed.includes(f.rule) && f.expected !== undefined && f.actual !== undefined)
    return [
      { word: 'recorded', value: f.actual },
      { word: 'recomputed', value: f.expected },
    ];
  const out: { word: ValueWord; value: JsonValue }[] = [];
  if (f.expected !== undefined) out.push({ word: 'expected', value: f.expected });
  if (f.actual !== undefined) out.push({ word: 'actual', value: f.actual });
  return out;
}

/**
 * The labels more than one chain node carries (a TG manifest labels each of its artifacts
 * "artifact"): such a node is named with its id beside its label, which tells them apart.
 */
export function repeatedLabels(chain: readonly ChainNode[]): Set<string> {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const n of chain) (seen.has(n.label) ? repeated : seen).add(n.label);
  return repeated;
}
