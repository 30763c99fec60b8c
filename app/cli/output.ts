/**
 * The CLI's printer, the one way text reaches stdout and stderr (eslint.config.js
 * `reprise/one-printer` keeps it so), and its own stderr line. Reports as text are
 * app/engine/report-text.ts.
 */
import { safeText, terminalSafe } from '../core/text.js';
import type { CliIO, Streams } from './io.js';
import { stringPieces } from '../core/string-pieces.js';

/** The controls the printer itself writes, around a progress line: back to the line's start, erase to its end. */
export const PROGRESS_START = '\r';
export const PROGRESS_END = '\x1b[K';

/**
 * An error message as one stderr line: `reprise: ` and the message, escaped, with Reprise's
 * own usage text (after a line break it put there) kept as it is.
 */
export function formatError(message: string): string {
  const at = message.indexOf('\nusage: ');
  const head = at === -1 ? message : message.slice(0, at);
  return `reprise: ${safeText(head)}${at === -1 ? '' : message.slice(at)}\n`;
}

/** UTF-16 code units written at a time by `bytes`. */
const OUTPUT_PIECE = 1024 * 1024;

/**
 * A command's output over `streams`: no terminal control a command's text may carry (from
 * an artifact, a path, a lock file, an envelope) reaches a terminal raw, whether the text
 * is a report line or JSON. A progress line is the printer's to draw and to clear before
 * anything else is written.
 */
export function printer(streams: Streams): CliIO {
  let drawn = false;
  const clear = (): void => {
    if (!drawn) return;
    drawn = false;
    streams.err(PROGRESS_START + PROGRESS_END);
  };
  return {
    out(s) {
      clear();
      streams.out(terminalSafe(s));
    },
    err(s) {
      clear();
      streams.err(terminalSafe(s));
    },
    bytes(s) {
      clear();
      // In pieces: a long text's UTF-8 is never held whole (stdout to a file or a pipe is
      // written synchronously on Linux, so no piece waits in memory for the next).
      for (const piece of stringPieces(s, OUTPUT_PIECE))
        streams.out(streams.stdoutIsTTY === true ? terminalSafe(piece) : piece);
    },
    progress(line) {
      if (!streams.stderrIsTTY) return;
      if (line === null) return clear();
      streams.err(PROGRESS_START + safeText(line) + PROGRESS_END);
      drawn = true;
    },
    stderrIsTTY: streams.stderrIsTTY,
    cwd: streams.cwd,
  };
}

/** A write's failure in words beside the system's code. */
const WRITE_FAILURES: Record<string, string> = {
  ENOSPC: 'no space left on the device (ENOSPC)',
  EFBIG: 'the file is larger than allowed (EFBIG)',
  EIO: 'an input/output error (EIO)',
  EDQUOT: 'the disk quota is used up (EDQUOT)',
};

/** The process's own streams: the only place in app/ that names process.stdout and process.stderr. */
export function processStreams(): Streams & { stdoutFailure(): Promise<string | null> } {
  // A reader that stops early (`| head`) closes the pipe (EPIPE). The run goes on without printing:
  // its exit code is still its verdict's, and what it writes to files (`--case FILE`, a
  // journal) is still written. Exiting here would say 0 over a failing run and lose them.
  let closed = false;
  // Any other error of stdout (a full disk, an I/O error) leaves it as unwritable too, but
  // what the user redirected is then incomplete, and the run must not end as if it were not.
  let failure: NodeJS.ErrnoException | null = null;
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    closed = true;
    if (e.code !== 'EPIPE') failure ??= e;
  });
  return {
    out: (s) => void (closed || process.stdout.write(s)),
    err: (s) => void process.stderr.write(s),
    stdoutIsTTY: process.stdout.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    cwd: process.cwd(),
    // Asked once the run is over: a write's error is reported after it, so wait for the stream first.
    stdoutFailure: () =>
      new Promise((done) => {
        const said = () =>
          done(
            failure &&
              `cannot write to standard output: ${WRITE_FAILURES[failure.code ?? ''] ?? failure.code ?? failure.message}; what was printed is incomplete`,
          );
        if (closed) said();
        else process.stdout.write('', () => setImmediate(said));
      }),
  };
}
