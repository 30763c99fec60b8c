/**
 * What an evidence bundle offers a reviewer's case (KindOperations.caseFacts, docs/case.md),
 * read from its verified report's details (details.ts): it names the artifact its report is
 * about (`bundled-report`; not expected beside it, a bundle travels alone), is named by the
 * digest of the report it carries, and dates its judgements and its checkpoint.
 */
import type { Report } from '../../../shared/report.js';
import { bundleDetailsOf } from '../../../shared/details/bundle.js';
import type { CaseFacts } from '../operations.js';
import { MEMBER } from './format.js';

export function bundleCaseFacts(report: Report): CaseFacts {
  const facts: CaseFacts = { identities: [], references: [], events: [] };
  const d = bundleDetailsOf(report);
  if (!d) return facts;
  const { artifact, reportDigest, checkpoint } = d.bundle;
  if (artifact.sha256)
    facts.references.push({
      pointer: `entry:${MEMBER.manifest}#/artifact/sha256`,
      relation: 'bundled-report',
      value: artifact.sha256,
      expected: false,
    });
  if (reportDigest) facts.identities.push({ value: reportDigest, pointer: `entry:${MEMBER.report}` });
  for (const j of d.judgements)
    facts.events.push({
      atUtc: j.recordedAtUtc,
      pointer: `entry:${j.member}`,
      label: `bundled judgement: ${j.decision}`,
      node: null,
    });
  if (checkpoint)
    facts.events.push({
      atUtc: checkpoint.timestampUtc,
      pointer: `entry:${MEMBER.checkpoint}`,
      label: `checkpoint signed (tree size ${checkpoint.treeSize})`,
      node: null,
    });
  return facts;
}
