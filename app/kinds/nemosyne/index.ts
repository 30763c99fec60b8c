/** What runs a Nemosyne package's job (declare.ts declares and detects the kind). */
import type { KindCode } from '../types.js';
import { archiveOf } from './declare.js';
import { verifyPackage } from './verify.js';
// What it offers a reviewer's case: small, loaded with the kind's code (no import per artifact).
import { forCaseOf, packageCaseFacts } from './case-facts.js';

export const nemosynePackageCode: KindCode = {
  // What its checks read is kept for the case's facts (no member read or parsed twice).
  verify: (s, ctx) => verifyPackage(archiveOf(s), ctx, forCaseOf(s)),
  // The recomputation a package allows (dataset identity, digest root through the
  // kernel adapter) is done by verify; replay is the same check, and says what it could not
  // re-execute (a V1/V2 ledger's analyses with no digest: verify.ts noDigest).
  replay: (s, ctx) => verifyPackage(archiveOf(s), ctx, forCaseOf(s), 'replay'),
  // The workbench's member table reads the package as verification does (members.ts).
  operations: {
    members: async (archive, member) => (await import('./members.js')).packageMembers(archive, member),
    caseFacts: async (subject, report) => packageCaseFacts(report, subject.sniffed),
  },
};
