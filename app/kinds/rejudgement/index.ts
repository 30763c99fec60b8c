/**
 * What runs a re-judgement record's job (declare.ts declares and detects the kind). The
 * record's formats, the shard reader, the assembly and the signing are the floor below
 * (app/rejudge/), which the jobs and the CLI use directly.
 */
import type { KindCode } from '../types.js';
import { verifyRejudgement } from './verify.js';

export const rejudgementCode: KindCode = {
  async verify(s, ctx) {
    return verifyRejudgement(s.jsonObject(), s.json()?.ok === true, await ctx.trustStore(), ctx.options.shards ?? []);
  },
};
