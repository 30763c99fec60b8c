/**
 * The `reprise` command line (cli.md). Exit codes: 0 pass, 1 fail, 2 unavailable,
 * 3 error. Bad input never produces a stack trace: every error becomes one line.
 * Start-up loads only the command table; a command's implementation is imported when it
 * runs (commands/index.ts), so `--help` and `--version` load no engine code.
 */
import { EXIT, type ExitCode } from '../../shared/report.js';
import { UsageError } from '../core/errors.js';
import { VERSION } from '../version.js';
import { COMMANDS } from './commands/index.js';
import type { Streams } from './io.js';
import { formatError, printer, processStreams } from './output.js';

/** Commands served by other rooms (the launcher in bin/ dispatches them). */
export const EXTERNAL_COMMANDS: readonly { name: string; summary: string }[] = [
  { name: 'serve', summary: 'serve the workbench UI on 127.0.0.1 for a browser (random port and token)' },
];

export function helpText(): string {
  const rows = [...COMMANDS.map((c) => ({ name: c.name, summary: c.summary })), ...EXTERNAL_COMMANDS];
  const w = Math.max(...rows.map((r) => r.name.length));
  return [
    `reprise ${VERSION}: forensic replay workbench (engine and CLI)`,
    '',
    'usage: reprise COMMAND [ARGS] [FLAGS]',
    '',
    'commands:',
    ...rows.map((r) => `  ${r.name.padEnd(w)}  ${r.summary}`),
    '',
    'common flags: --json, --jsonl, --trust-store FILE, --policy FILE, --providers FILE, --workers N, --quiet',
    'exit codes: 0 pass, 1 fail, 2 unavailable (fail-closed), 3 error (usage, unreadable path, internal)',
    "'reprise COMMAND --help' shows a command's usage.",
    '',
  ].join('\n');
}

/** Runs one command line; everything it prints goes through the printer over `streams`. */
export async function runCli(argv: string[], streams: Streams): Promise<ExitCode> {
  const io = printer(streams);
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(helpText());
    return name === undefined ? EXIT.error : EXIT.pass;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    io.out(`reprise ${VERSION}\n`);
    return EXIT.pass;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    io.err(formatError(`unknown command ${JSON.stringify(name)} (see 'reprise --help')`));
    return EXIT.error;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    const usage = typeof cmd.usage === 'string' ? cmd.usage : await cmd.usage();
    io.out(`usage: ${usage}\n\n${cmd.summary}\n`);
    return EXIT.pass;
  }
  try {
    return await (await cmd.load()).run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(formatError(e.message));
      return EXIT.error;
    }
    const msg = e instanceof Error ? e.message : String(e);
    io.err(formatError(`internal error: ${msg}`));
    if (process.env['REPRISE_DEBUG']) io.err(`${(e as Error).stack ?? ''}\n`);
    return EXIT.error;
  }
}

/** Process entry: the process's streams, exit code set when output has drained. */
export async function main(argv: string[]): Promise<void> {
  const streams = processStreams();
  const code = await runCli(argv, streams);
  const failure = await streams.stdoutFailure();
  if (failure !== null) printer(streams).err(formatError(failure));
  process.exitCode = failure !== null ? EXIT.error : code;
}
