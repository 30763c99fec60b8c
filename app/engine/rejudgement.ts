/**
 * Re-judging an archive (`reprise rejudge`, `reprise worker`): the engine's door to the
 * rejudgement kind's formats, shard reader and assembly, so neither the jobs nor the CLI
 * reach into a kind's folder.
 */
export * from '../kinds/rejudgement/index.js';
