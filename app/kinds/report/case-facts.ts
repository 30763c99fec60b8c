/**
 * What an exported report offers a reviewer's case (KindOperations.caseFacts, docs/case.md):
 * it names the artifact it is about (`reported`, by the SHA-256 the report holds; not
 * expected beside it, a report travels alone, but checked against it when the case holds
 * it) and dates the run that made it.
 */
import type { Report } from '../../../shared/report.js';
import { isHashString } from '../../core/hash.js';
import type { CaseFacts } from '../operations.js';

export function reportCaseFacts(doc: Record<string, unknown> | null): CaseFacts {
  const facts: CaseFacts = { identities: [], references: [], events: [] };
  const r = doc as Partial<Report> | null;
  const sha = r?.artifact?.sha256;
  if (isHashString(sha))
    facts.references.push({
      pointer: '/artifact/sha256',
      relation: 'reported',
      value: sha,
      expected: false,
      // A case that holds the artifact checks the report against it, as --artifact does.
      option: 'artifact',
    });
  const at = r?.run?.startedAtUtc;
  if (typeof at === 'string')
    facts.events.push({ atUtc: at, pointer: '/run/startedAtUtc', label: 'report made', node: 'report' });
  return facts;
}
