/**
 * Kind `rejudgement`: the signed record `reprise rejudge merge` writes (docs/rejudge.md).
 * Detected by its `type` member. Its verify (index.ts) loads when a job of the kind runs.
 */
import { TRUST_STORE_OPTION, type KindHandler, type KindOption } from '../types.js';
import { REJUDGEMENT_RULES } from '../../rejudge/rule-ids.js';
import type { Sniffed } from '../sniff.js';
import { REJUDGEMENT_TYPE } from '../../rejudge/constants.js';

const REJUDGEMENT_OPTIONS = [
  // Who signed the record (verify.ts; R.trust of app/rejudge/format.ts, which declarations do not load).
  { ...TRUST_STORE_OPTION, decides: ['RPR-REJUDGE-003'] },
  {
    name: 'shards',
    flag: 'shards',
    arg: 'FILE',
    multiple: true,
    help: "a shard file of a re-judgement record (reprise rejudge --out): the record is checked against the shards' records",
  },
] as const satisfies readonly KindOption[];

export const rejudgementKind: KindHandler<typeof REJUDGEMENT_OPTIONS> = {
  kind: 'rejudgement',
  rules: { doc: 'docs/rules/rejudge.md', ids: REJUDGEMENT_RULES },
  options: REJUDGEMENT_OPTIONS,
  detect: (s: Sniffed) => s.jsonObject()?.['type'] === REJUDGEMENT_TYPE,
  load: async () => (await import('./index.js')).rejudgementCode,
};
