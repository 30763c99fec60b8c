/** Every CLI command, in the order `reprise --help` lists them. Add a command with one line. */
import type { Command } from '../io.js';
import { canonicalizeCommand } from './canonicalize.js';
import { replayCommand, verifyCommand } from './check.js';
import { examplesCommand } from './examples.js';
import { keysCommand } from './keys.js';
import { journalCommand } from './journal.js';
import { quarantineCommand } from './quarantine.js';
import { attestCommand } from './attest.js';
import { driftCommand } from './drift.js';
import { lintCommand } from './lint.js';

export const COMMANDS: readonly Command[] = [verifyCommand, replayCommand, canonicalizeCommand, keysCommand, journalCommand, quarantineCommand, lintCommand, attestCommand, driftCommand, examplesCommand];
