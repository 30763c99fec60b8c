/**
 * What an exported report offers a reviewer's case (KindOperations.caseFacts, docs/case.md):
 * it names the artifact it is about (`reported`, by the SHA-256 the report holds, or a
 * directory artifact's by its id; not expected beside it, a report travels alone, but checked
 * against it when the case holds it) and dates the run that made it.
 */
import type { Report } from '../../../shared/report.js';
import { isHashString } from '../../core/hash.js';
import type { CaseFacts } from '../operations.js';

export function reportCaseFacts(doc: Record<string, unknown> | null): CaseFacts {
  const facts: CaseFacts = { identities: [], references: [], events: [] };
  const r = doc as Partial<Report> | null;
  const sha = r?.artifact?.sha256;
  const id = r?.artifact?.id;
  if (isHashString(sha))
    facts.references.push({
      pointer: '/artifact/sha256',
      relation: 'reported',
      value: sha,
      expected: false,
      // A case that holds the artifact checks the report against it, as --artifact does.
      option: 'artifact',
    });
  // A directory artifact's report (a journal's) has no bytes' SHA-256: it names the artifact
  // by its id (a journal's latest checkpoint root), which that artifact declares.
  else if (sha === null && isHashString(id))
    facts.references.push({
      pointer: '/artifact/id',
      relation: 'reported',
      value: id,
      expected: false,
      option: 'artifact',
      optionTakesHolder: true,
    });
  const at = r?.run?.startedAtUtc;
  if (typeof at === 'string')
    // `run` is outside the report's digest: anyone may have written this time, so the label says whose word it is.
    facts.events.push({
      atUtc: at,
      pointer: '/run/startedAtUtc',
      label: 'report made, as its run says (not covered by its digest)',
      node: 'report',
    });
  return facts;
}
