/**
 * An evidence bundle's details as the window reads them (docs/evidence-bundle.md, "What the
 * report says"): the bundle's own integrity verdict, the verdict of the report it carries,
 * and each bundled judgement with its rationale and proof. The accessor checks the shape
 * (a report crosses a process boundary as JSON) and never the kind's name.
 */
import type { JsonValue, Report, Verdict } from '../report.js';
import { jsonObjectOf } from './index.js';

export interface BundledJudgementDetails {
  seq: number;
  member: string;
  entryHash: string | null;
  recordedAtUtc: string;
  author: string;
  role: string | null;
  label: string | null;
  decision: string;
  /** "" for the whole report, else /findings/N, /comparisons/N or /events/N of the bundled report. */
  pointer: string;
  rationale: string;
  reportDigest: string | null;
  proof: {
    leafIndex: number | null;
    treeSize: number | null;
    auditPath: string[];
    /** Checked against the signed checkpoint under the trust store, with no finding on it. */
    verified: boolean;
    problems: string[];
  };
}

export interface EvidenceBundleDetails {
  /** The bundle's own verdict: its members, checkpoint, proofs and signatures (never the carried report's). */
  integrity: { verdict: Verdict; trustStore: boolean };
  bundle: {
    artifact: { sha256: string; kind: string; id: string | null };
    reportDigest: string;
    checkpoint: { treeSize: number; rootHash: string; signer: string; timestampUtc: string } | null;
    attestation: boolean;
  };
  /** The carried report's verdict and its decisive finding (index into its findings), or null when unreadable. */
  bundled: {
    verdict: Verdict;
    kind: string;
    id: string | null;
    decisive: { index: number; rule: string; message: string; pointer: string | null } | null;
  } | null;
  judgements: BundledJudgementDetails[];
  report: JsonValue;
}

const VERDICTS: readonly string[] = ['pass', 'fail', 'unavailable'];
const isObj = (v: JsonValue | undefined): v is { [key: string]: JsonValue } => jsonObjectOf(v) !== null;

/** A bundle's details (integrity, bundled verdict, judgements), or null when the report carries none. */
export function bundleDetailsOf(r: Report | null): EvidenceBundleDetails | null {
  const d = r?.details;
  if (!d || !isObj(d['integrity']) || !VERDICTS.includes(String(d['integrity']['verdict']))) return null;
  if (!isObj(d['bundle']) || !Array.isArray(d['judgements'])) return null;
  const b = d['bundled'];
  if (b !== null && !(isObj(b) && VERDICTS.includes(String(b['verdict'])))) return null;
  const ok = d['judgements'].every((j) => isObj(j) && typeof j['seq'] === 'number' && isObj(j['proof']));
  return ok ? (d as unknown as EvidenceBundleDetails) : null;
}
