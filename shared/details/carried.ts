/**
 * A document that carries another artifact's report (an evidence bundle, an exported
 * report) has two verdicts: its own (is the document what it claims to be?) and the
 * carried report's. Its kind writes both into its details (`integrity`, `carried`), and
 * the window shows them apart (docs/evidence-bundle.md, "What the report says"; docs/
 * report-kind.md). Pure: the engine's kinds build these, the window reads them.
 */
import type { Finding, JsonValue, Report, Verdict } from '../report.js';
import { VERDICT_RANK, verdictOf } from '../report.js';
import { isPlainObject } from '../plain-object.js';

export interface IntegrityDetails {
  /** The document's own verdict: every finding but the one that reports the carried verdict. */
  verdict: Verdict;
  /** Whether a trust store was given (signers could be checked). */
  trustStore: boolean;
  /** One sentence: what its own checks established, or the first that did not pass. */
  statement: string;
}

export interface CarriedVerdict {
  verdict: Verdict;
  kind: string;
  id: string | null;
  /** The carried report's decisive finding (the first fail, else the first unavailable) and its index. */
  decisive: { index: number; rule: string; message: string; pointer: string | null } | null;
}

export interface CarriedDetails {
  integrity: IntegrityDetails;
  /** Null when the carried report could not be read. */
  carried: CarriedVerdict | null;
}

/** The carried report's verdict and decisive finding. */
export function carriedVerdictOf(r: Pick<Report, 'verdict' | 'findings' | 'artifact'>): CarriedVerdict {
  const first = (sev: Finding['severity']) => r.findings.findIndex((f) => f.severity === sev);
  const index = first('fail') >= 0 ? first('fail') : first('unavailable');
  const d = index >= 0 ? r.findings[index]! : null;
  return {
    verdict: r.verdict,
    kind: r.artifact.kind,
    id: r.artifact.id,
    decisive: d ? { index, rule: d.rule, message: d.message, pointer: d.pointer ?? null } : null,
  };
}

/** The document's own verdict from its own findings, with `passed` as its statement when nothing failed. */
export function integrityOf(own: readonly Finding[], trustStore: boolean, passed: string): IntegrityDetails {
  const verdict = verdictOf(own);
  const d = own.find((f) => f.severity === verdict);
  const statement =
    verdict === 'pass' || !d ? passed : `${verdict === 'fail' ? 'damaged' : 'not checked'}: ${d.rule} ${d.message}`;
  return { verdict, trustStore, statement };
}

const VERDICTS: readonly string[] = ['pass', 'fail', 'unavailable'];
const isObj = (v: JsonValue | undefined): v is { [key: string]: JsonValue } => isPlainObject(v);

/** The two verdicts of a report whose details carry them, or null. */
export function carriedOf(r: Report | null): CarriedDetails | null {
  const d = r?.details;
  const i = d?.['integrity'];
  if (!d || !isObj(i) || !VERDICTS.includes(String(i['verdict'])) || typeof i['statement'] !== 'string') return null;
  const c = d['carried'];
  if (c !== null && !(isObj(c) && VERDICTS.includes(String(c['verdict'])))) return null;
  return d as unknown as CarriedDetails;
}

/**
 * How a report's stated verdict contradicts what it holds (RPR-RPT-002), or null: its
 * findings make another verdict, or it says better than the integrity verdict it carries (an
 * edit that turned "FAIL: damaged" into PASS beside an integrity of FAIL). One check for the
 * report kind (app/kinds/report/verify.ts) and the window's saved-report viewer.
 */
export type VerdictContradiction = { by: 'findings'; made: Verdict } | { by: 'integrity'; integrity: Verdict };

export function verdictContradictions(r: Report): VerdictContradiction[] {
  const out: VerdictContradiction[] = [];
  const made = verdictOf(r.findings);
  if (r.verdict !== made) out.push({ by: 'findings', made });
  const integrity = carriedOf(r)?.integrity.verdict;
  if (integrity !== undefined && VERDICT_RANK[r.verdict] < VERDICT_RANK[integrity])
    out.push({ by: 'integrity', integrity });
  return out;
}
