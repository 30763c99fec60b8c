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
  /** The artifact the judgement is about (`sha256:`), as its entry's subject names it. */
  subject: string | null;
  decision: string;
  /** A note's edit: the entry hash of the note it supersedes. */
  supersedes: string | null;
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

/** A case bundle's details (docs/evidence-bundle.md, "The case bundle"): both verdicts, each artifact's report, the judgements. */
export interface CaseBundleDetails extends CarriedDetails {
  caseBundle: {
    digest: string;
    checkpoint: { treeSize: number; rootHash: string; signer: string; timestampUtc: string } | null;
    reports: { path: string; kind: string; sha256: string; verdict: 'pass' | 'fail' | 'unavailable'; member: string }[];
  };
  judgements: BundledJudgementDetails[];
}

/**
 * The signed reject in force among the judgements a bundle (or a case bundle) carries: on
 * each item (artifact and pointer) the latest judgement that is not a note is the one in
 * force; of those, the latest reject; null when none. The engine's PASS says the checks
 * agree, not that a reviewer accepted what they show: a PASS beside a reject must not read
 * as a plain pass (the bundle's RPR-EVB-019, the window's caveat). Counted whether or not its
 * proof verified (fail-closed).
 */
export function rejectInForceOf(judgements: readonly BundledJudgementDetails[]): BundledJudgementDetails | null {
  const latest = new Map<string, BundledJudgementDetails>();
  for (const j of [...judgements].sort((a, b) => a.seq - b.seq))
    if (j.decision !== 'note') latest.set(JSON.stringify([j.subject, j.pointer]), j);
  let reject: BundledJudgementDetails | null = null;
  for (const j of latest.values()) if (j.decision === 'reject' && (!reject || j.seq > reject.seq)) reject = j;
  return reject;
}

/** A case bundle's details, or null when the report carries none. */
export function caseBundleDetailsOf(r: Report | null): CaseBundleDetails | null {
  const d = r?.details;
  const c = d?.['caseBundle'];
  if (!d || !carriedOf(r) || !isObj(c) || !Array.isArray(c['reports']) || !Array.isArray(d['judgements'])) return null;
  const ok = d['judgements'].every((j) => isObj(j) && typeof j['seq'] === 'number' && isObj(j['proof']));
  return ok ? (d as unknown as CaseBundleDetails) : null;
}
