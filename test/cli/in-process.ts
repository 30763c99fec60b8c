/** `reprise ARGS` run in this process (no build needed), and a folder of the built-in examples. */
import { runCli } from '../../app/cli/main.js';
import { writeExamples } from '../../app/examples/index.js';
import { tmp } from '../journal/helpers.js';

export interface InProcessResult {
  code: number;
  out: string;
  err: string;
}

/** `reprise ARGS` with `cwd` as its working folder: its exit code, stdout and stderr. */
export async function cliIn(cwd: string, ...args: string[]): Promise<InProcessResult> {
  let out = '';
  let err = '';
  const streams = { out: (t: string) => void (out += t), err: (t: string) => void (err += t), stderrIsTTY: false, cwd };
  return { code: await runCli(args, streams), out, err };
}

/** A new temporary folder (its name begins with `prefix`) holding `reprise examples`. */
export async function examplesIn(prefix: string): Promise<string> {
  const dir = tmp(prefix);
  await writeExamples(dir);
  return dir;
}
