/** The re-judgement's type names (no imports: the registry reads the record's type through declare.ts). */
export const REJUDGEMENT_TYPE = 'reprise.rejudgement/v1';
export const SHARD_TYPE = 'reprise.rejudge-shard/v1';
