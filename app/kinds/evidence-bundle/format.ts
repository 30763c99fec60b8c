/**
 * The evidence bundle's layout (docs/evidence-bundle.md): one deterministic ZIP per judged
 * artifact. The manifest is the first member (detection reads its name from the first
 * local header); the others follow in code-unit order of their names.
 */
import type { LeftOut } from './left-out.js';

export const BUNDLE_TYPE = 'reprise.evidence-bundle/v1';

export const MEMBER = {
  manifest: 'reprise-evidence-bundle.json',
  report: 'report.json',
  html: 'report.html',
  checkpoint: 'checkpoint.json',
  attestation: 'attestation.dsse.json',
} as const;

/** `judgements/<seq, 12 digits>.json`: one inclusion proof per judgement, in seq order. */
export const JUDGEMENT_DIR = 'judgements/';
export const judgementMember = (seq: number): string => `${JUDGEMENT_DIR}${String(seq).padStart(12, '0')}.json`;
export const JUDGEMENT_MEMBER_RE = /^judgements\/(\d{12})\.json$/;

/** A finding's pointer to a member of the bundle. */
export const ptr = (name: string) => `entry:${name}`;

export interface ManifestMember {
  name: string;
  sha256: string;
  size: number;
}

export interface BundleManifest {
  type: typeof BUNDLE_TYPE;
  artifact: { sha256: string; kind: string; id: string | null };
  /** The report's digest (app/journal/judgement.ts, reportDigest): what judgements name. */
  reportDigest: string;
  checkpoint: { treeSize: number; rootHash: string };
  /** Every member but the manifest, in name order. */
  members: ManifestMember[];
  /** The journal's entries on the artifact the bundle does not carry, and why (left-out.ts); absent when none. */
  leftOut?: LeftOut;
}

/**
 * A case bundle (`reprise export DIR --journal J`): the same archive conventions, the
 * manifest's `type` telling it apart. Members: the case report (`case.json`) and its page
 * (`case.html`), each artifact's report (`reports/<index, 6 digits>.json`, in the case
 * report's artifact order), the checkpoint and the judgements' proofs as in a bundle of one
 * artifact.
 */
export const CASE_BUNDLE_TYPE = 'reprise.case-bundle/v1';
export const CASE_MEMBER = 'case.json';
/** The case's self-contained page (case-html.ts), rebuilt and compared by `verify`. */
export const CASE_HTML_MEMBER = 'case.html';
export const REPORTS_DIR = 'reports/';
export const caseReportMember = (i: number): string => `${REPORTS_DIR}${String(i).padStart(6, '0')}.json`;
export const CASE_REPORT_MEMBER_RE = /^reports\/(\d{6})\.json$/;

export interface CaseBundleManifest {
  type: typeof CASE_BUNDLE_TYPE;
  /** The case report's verdict, artifact count and digest (SHA-256 of case.json's canonical JSON). */
  case: { verdict: string; artifacts: number; digest: string };
  /** One per artifact of the case, in its order: where its report is, and what it is about. */
  reports: { member: string; path: string; sha256: string | null; reportDigest: string }[];
  checkpoint: { treeSize: number; rootHash: string };
  members: ManifestMember[];
  /** The artifacts of the case it holds no report of and the journal's entries it does not carry, and why; absent when none. */
  leftOut?: LeftOut;
}
