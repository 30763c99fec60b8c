/**
 * What runs a re-judgement record's job (declare.ts declares and detects the kind), and what
 * the engine's door (app/engine/rejudgement.ts) gives the jobs and the CLI: the formats, the
 * shard reader and the assembly of shards into one record.
 */
import type { KindCode } from '../types.js';
import { verifyRejudgement } from './verify.js';

export const rejudgementCode: KindCode = {
  async verify(s, ctx) {
    return verifyRejudgement(s.jsonObject(), s.json()?.ok === true, await ctx.trustStore(), ctx.options.shards ?? []);
  },
};

export * from './format.js';
export { linesOf } from './shard-file.js';
export {
  assembleShards,
  emptyAssembly,
  namedCoverage,
  nameSome,
  RecordSink,
  zeroVerdicts,
  type Assembly,
} from './assemble.js';
export { signRejudgement } from './verify.js';
