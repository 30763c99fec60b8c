/**
 * An evidence bundle's details as the window reads them (docs/evidence-bundle.md, "What the
 * report says"): the bundle's own integrity verdict and the carried report's (carried.ts),
 * and each bundled judgement with its rationale and proof. The accessor checks the shape
 * (a report crosses a process boundary as JSON) and never the kind's name.
 */
import type { JsonValue, Report } from '../report.js';
import { carriedOf, type CarriedDetails } from './carried.js';
import { isPlainObject } from '../plain-object.js';

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

export interface EvidenceBundleDetails extends CarriedDetails {
  bundle: {
    artifact: { sha256: string; kind: string; id: string | null };
    reportDigest: string;
    checkpoint: { treeSize: number; rootHash: string; signer: string; timestampUtc: string } | null;
    attestation: boolean;
  };
  judgements: BundledJudgementDetails[];
  report: JsonValue;
}

const isObj = (v: JsonValue | undefined): v is { [key: string]: JsonValue } => isPlainObject(v);

/** A bundle's details (both verdicts, judgements), or null when the report carries none. */
export function bundleDetailsOf(r: Report | null): EvidenceBundleDetails | null {
  const d = r?.details;
  if (!d || !carriedOf(r) || !isObj(d['bundle']) || !Array.isArray(d['judgements'])) return null;
  const ok = d['judgements'].every((j) => isObj(j) && typeof j['seq'] === 'number' && isObj(j['proof']));
  return ok ? (d as unknown as EvidenceBundleDetails) : null;
}
