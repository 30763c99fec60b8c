/** What a CLI command may touch (its printer) and the raw streams a printer writes to. */
import type { ExitCode } from '../../shared/report.js';

/** The raw output streams: the process's (output.ts `processStreams`), or a test's strings. */
export interface Streams {
  out(s: string): void;
  err(s: string): void;
  /** Absent: stdout is no terminal (a pipe or a file). */
  readonly stdoutIsTTY?: boolean;
  readonly stderrIsTTY: boolean;
  readonly cwd: string;
}

/**
 * A command's only way to the terminal, made by output.ts `printer`: whatever a command
 * writes reaches the streams with its terminal controls escaped.
 */
export interface CliIO {
  /** Text or JSON for stdout: every control but the line feed is escaped (core/text.ts terminalSafe). */
  out(s: string): void;
  /** The same, for stderr. */
  err(s: string): void;
  /**
   * Bytes the user asked for as they are (canonical JSON, an envelope): written unchanged
   * to a pipe or a file, escaped like `out` when stdout is a terminal.
   */
  bytes(s: string): void;
  /** Draws a progress line on stderr (null clears it); only when stderr is a terminal. */
  progress(line: string | null): void;
  readonly stderrIsTTY: boolean;
  readonly cwd: string;
}

export interface Command {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  run(args: string[], io: CliIO): Promise<ExitCode>;
}
