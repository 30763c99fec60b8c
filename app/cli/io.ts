/** What a CLI command may touch: its output streams and whether stderr is a terminal. */
import type { ExitCode } from '../../shared/report.js';

export interface CliIO {
  out(s: string): void;
  err(s: string): void;
  /** Progress goes to stderr, and only when stderr is a terminal. */
  readonly stderrIsTTY: boolean;
  readonly cwd: string;
}

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  run(args: string[], io: CliIO): Promise<ExitCode>;
}
