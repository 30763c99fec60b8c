/**
 * What runs an evidence bundle's job (declare.ts declares and detects the kind: a bundle of
 * one artifact or of a case), and the writers, the kind's export operations (engine/evidence.ts).
 */
import type { KindCode } from '../types.js';
import { fileSource } from '../../zip/source.js';
import { verifyEvidence } from './case-verify.js';
import { bundleFromJournal } from './write.js';
import { openCaseBundle } from './write-case.js';
// What it offers a reviewer's case: small, loaded with the kind's code (no import per artifact).
import { bundleCaseFacts } from './case-facts.js';

export const evidenceBundleCode: KindCode = {
  async verify(s, ctx) {
    const archive = s.file && !s.loaded ? fileSource(s.file.fd, s.file.size) : s.bytes;
    return verifyEvidence(archive, await ctx.trustStore(), ctx.options.limits, ctx.decidersOf);
  },
  operations: {
    export: bundleFromJournal,
    exportCase: openCaseBundle,
    caseFacts: async (_subject, report) => bundleCaseFacts(report),
  },
};

export {
  writeEvidenceBundle,
  bundleFromJournal,
  type BundleInput,
  type BundledReport,
  type JournalBundle,
} from './write.js';
export { verifyBundle } from './verify.js';
export { verifyEvidence } from './case-verify.js';
export { openCaseBundle, writeCaseBundle } from './write-case.js';
export { BUNDLE_TYPE, MEMBER } from './format.js';
