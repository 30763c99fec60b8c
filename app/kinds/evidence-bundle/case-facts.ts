/**
 * What an evidence bundle offers a reviewer's case (KindOperations.caseFacts, docs/case.md),
 * read from its verified report's details (details.ts): it names the artifact its report is
 * about (`bundled-report`; not expected beside it, a bundle travels alone), is named by the
 * digest of the report it carries, names each judgement's journal entry by its entry hash
 * (`bundled-judgement`), and dates its judgements and its checkpoint. A case bundle names
 * each artifact whose report it carries.
 */
import type { Report } from '../../../shared/report.js';
import { bundleDetailsOf, caseBundleDetailsOf, type BundledJudgementDetails } from '../../../shared/details/bundle.js';
import type { CaseFacts } from '../operations.js';
import { CASE_MEMBER, MEMBER } from './format.js';

export function bundleCaseFacts(report: Report): CaseFacts {
  const facts: CaseFacts = { identities: [], references: [], events: [] };
  const d = bundleDetailsOf(report);
  if (!d) return caseBundleFacts(report, facts);
  const { artifact, reportDigest, checkpoint } = d.bundle;
  if (artifact.sha256)
    facts.references.push({
      pointer: `entry:${MEMBER.manifest}#/artifact/sha256`,
      relation: 'bundled-report',
      value: artifact.sha256,
      expected: false,
    });
  if (reportDigest) facts.identities.push({ value: reportDigest, pointer: `entry:${MEMBER.report}` });
  dated(facts, d.judgements, checkpoint);
  return facts;
}

/**
 * A case bundle names each artifact whose report it carries (`bundled-report`, from its
 * manifest's list of reports; not expected) and dates its judgements and its checkpoint.
 */
function caseBundleFacts(report: Report, facts: CaseFacts): CaseFacts {
  const c = caseBundleDetailsOf(report);
  if (!c) return facts;
  c.caseBundle.reports.forEach((r, i) => {
    if (r.sha256.startsWith('sha256:'))
      facts.references.push({
        pointer: `entry:${MEMBER.manifest}#/reports/${i}/sha256`,
        relation: 'bundled-report',
        value: r.sha256,
        expected: false,
      });
  });
  facts.identities.push({ value: c.caseBundle.digest, pointer: `entry:${CASE_MEMBER}` });
  dated(facts, c.judgements, c.caseBundle.checkpoint);
  return facts;
}

/**
 * What a bundle says of its judgements: each names its journal entry by its entry hash
 * (`bundled-judgement`, not expected: a bundle travels without its journal), so the copy a
 * bundle carries links to the entry it was exported from; and the times it carries, each
 * judgement's and its checkpoint's.
 */
function dated(
  facts: CaseFacts,
  judgements: readonly BundledJudgementDetails[],
  checkpoint: { treeSize: number; timestampUtc: string } | null,
): void {
  for (const j of judgements) {
    if (j.entryHash)
      facts.references.push({
        pointer: `entry:${j.member}`,
        relation: 'bundled-judgement',
        value: j.entryHash,
        expected: false,
      });
    facts.events.push({
      atUtc: j.recordedAtUtc,
      pointer: `entry:${j.member}`,
      label: `bundled judgement: ${j.decision}`,
      node: null,
    });
  }
  if (checkpoint)
    facts.events.push({
      atUtc: checkpoint.timestampUtc,
      pointer: `entry:${MEMBER.checkpoint}`,
      label: `checkpoint signed (tree size ${checkpoint.treeSize})`,
      node: null,
    });
}
