/**
 * The re-judgement of an archive (`reprise rejudge`, `reprise worker`; docs/rejudge.md): the
 * record's and the shard file's formats, reading a shard file, assembling shards into one
 * record and signing it. A format room of its own, below the kinds as the journal's is, so
 * the jobs and the CLI use it directly and the rejudgement kind verifies records with it.
 */
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
export { signRejudgement } from './sign.js';
