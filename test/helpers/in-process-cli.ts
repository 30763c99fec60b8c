/**
 * The CLI run in this process (app/cli/main.ts runCli), its output collected: for tests that
 * run it many times, where spawning the built CLI each time would cost seconds.
 */
import { runCli } from '../../app/cli/main.js';

export interface InProcessResult {
  code: number;
  out: string;
  err: string;
}

/** Runs `reprise ARGS` in this process with `cwd` as its working folder. */
export async function inProcessCli(cwd: string, args: readonly string[]): Promise<InProcessResult> {
  let out = '';
  let err = '';
  const code = await runCli([...args], {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    stderrIsTTY: false,
    cwd,
  });
  return { code, out, err };
}
