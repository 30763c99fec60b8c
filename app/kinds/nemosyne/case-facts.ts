/**
 * What a Nemosyne package offers a reviewer's case (KindOperations.caseFacts, docs/case.md):
 * each member's SHA-256 as its verification recomputed it (the chain's `entry:<name>`
 * nodes), so a replay dump whose material hash is a member's bytes links to that member.
 * The package names nothing outside itself and carries no time the case places.
 */
import type { Report } from '../../../shared/report.js';
import type { CaseFacts } from '../operations.js';

export function packageCaseFacts(report: Report): CaseFacts {
  const identities = report.chain
    .filter((n) => n.id.startsWith('entry:') && n.recomputed !== null && n.recomputed.startsWith('sha256:'))
    .map((n) => ({ value: n.recomputed!, pointer: n.pointer ?? n.id }));
  return { identities, references: [], events: [] };
}
