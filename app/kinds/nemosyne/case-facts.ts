/**
 * What a Nemosyne package offers a reviewer's case (KindOperations.caseFacts, docs/case.md):
 * each member's SHA-256 as its verification recomputed it (the chain's `entry:<name>`
 * nodes), so a replay dump whose material hash is a member's bytes links to that member;
 * and the times it carries (times.ts: the manifest's `createdAt`, each ledger event's
 * `timestamp`), as its verification read them from the same parse. The package names
 * nothing outside itself.
 */
import type { Report } from '../../../shared/report.js';
import type { CaseFacts } from '../operations.js';
import type { Sniffed } from '../sniff.js';
import type { PackageTime } from './times.js';

/** The times each package's verification read (verify's onTimes), until its case facts are read. */
const heard = new WeakMap<Sniffed, PackageTime[]>();

/** What verify hands the times of the package `s` to. */
export const keepTimes =
  (s: Sniffed) =>
  (times: PackageTime[]): void => {
    heard.set(s, times);
  };

export function packageCaseFacts(report: Report, s: Sniffed | undefined): CaseFacts {
  const identities = report.chain
    .filter((n) => n.id.startsWith('entry:') && n.recomputed !== null && n.recomputed.startsWith('sha256:'))
    .map((n) => ({ value: n.recomputed!, pointer: n.pointer ?? n.id }));
  const times = s ? heard.get(s) : undefined;
  if (s) heard.delete(s);
  const events = (times ?? []).map((t) => ({ atUtc: t.atUtc, pointer: t.pointer, label: t.label, node: null }));
  return { identities, references: [], events };
}
