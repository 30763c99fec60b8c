/**
 * Every CLI command, in the order `reprise --help` lists them: its help (info.ts) and how to
 * load its implementation, which is imported only when the command runs, so `reprise --help`,
 * `--version` and each command load only what they need. Add a command with its module, its
 * entry in info.ts and one line here.
 */
import type { Command } from '../io.js';
import { INFO, quarantineUsage } from './info.js';

/** A command as the dispatcher sees it: its help, and how to load its implementation. */
export interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  /** A string, or (when it depends on an engine constant) how to make it. */
  readonly usage: string | (() => Promise<string>);
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    ...INFO.verify,
    usage: async () => (await import('./check.js')).checkHelp('verify'),
    load: async () => (await import('./check.js')).verifyCommand,
  },
  {
    ...INFO.replay,
    usage: async () => (await import('./check.js')).checkHelp('replay'),
    load: async () => (await import('./check.js')).replayCommand,
  },
  { ...INFO.canonicalize, load: async () => (await import('./canonicalize.js')).canonicalizeCommand },
  { ...INFO.keys, load: async () => (await import('./keys.js')).keysCommand },
  { ...INFO.journal, load: async () => (await import('./journal.js')).journalCommand },
  {
    ...INFO.quarantine,
    usage: async () => quarantineUsage((await import('../../journal/cases.js')).MIN_RATIONALE_CHARS),
    load: async () => (await import('./quarantine.js')).quarantineCommand,
  },
  { ...INFO.lint, load: async () => (await import('./lint.js')).lintCommand },
  { ...INFO.attest, load: async () => (await import('./attest.js')).attestCommand },
  { ...INFO.export, load: async () => (await import('./export.js')).exportCommand },
  { ...INFO.drift, load: async () => (await import('./drift.js')).driftCommand },
  { ...INFO.rejudge, load: async () => (await import('./rejudge.js')).rejudgeCommand },
  { ...INFO.worker, load: async () => (await import('./worker.js')).workerCommand },
  { ...INFO.diff, load: async () => (await import('./diff.js')).diffCommand },
  { ...INFO.examples, load: async () => (await import('./examples.js')).examplesCommand },
];
