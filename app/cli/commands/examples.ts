/**
 * `reprise examples DIR`: write the built-in sample and training artifacts. A file already
 * at one of their paths is never overwritten (DIR/journal/keys/reviewer.pem may be a user's
 * own key, and the example's is public): only a file holding the very bytes it would get is
 * left as it is, so a folder of a previous run's examples may be written again.
 */
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EXIT, type ExitCode } from '../../../shared/report.js';
import { buildExamples, exampleOutputs, writeExampleOutputs, type ExampleOutput } from '../../examples/index.js';
import { isMissing } from '../../core/files.js';
import { safeText } from '../../core/text.js';
import { parse } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { INFO } from './info.js';
import { UsageError } from '../../core/errors.js';

const usage = INFO.examples.usage;

/** Whether the file at `p` (not followed if a link) is a regular file holding `bytes`; null when nothing is there. */
async function sameFile(p: string, bytes: Uint8Array | string): Promise<boolean | null> {
  const want = Buffer.from(bytes);
  let st;
  try {
    st = await lstat(p);
  } catch (e) {
    if (isMissing(e)) return null;
    throw e;
  }
  return st.isFile() && st.size === want.length && want.equals(await readFile(p));
}

/** The outputs not yet under `dir`; refuses the first path that holds anything but its own bytes. */
async function notYetWritten(dir: string, outputs: readonly ExampleOutput[]): Promise<ExampleOutput[]> {
  const fresh: ExampleOutput[] = [];
  for (const f of outputs) {
    const p = join(dir, ...f.path.split('/'));
    const same = await sameFile(p, f.bytes);
    if (same === false)
      throw new UsageError(
        `${p} exists and is not the example Reprise would write there; Reprise never overwrites a file (name a new or empty folder)`,
        'path',
      );
    if (same === null) fresh.push(f);
  }
  return fresh;
}

export const examplesCommand: Command = {
  ...INFO.examples,
  async run(args: string[], io: CliIO): Promise<ExitCode> {
    const { positionals } = parse(args, {}, usage);
    if (positionals.length !== 1) throw new UsageError(`examples takes exactly one DIR\nusage: ${usage}`);
    const dir = positionals[0]!;
    if (dir === '') throw new UsageError(`examples needs a folder name (DIR is empty)\nusage: ${usage}`);
    const files = await buildExamples();
    try {
      // 'wx': a file put at one of the paths after the check is refused too, never replaced.
      await writeExampleOutputs(dir, await notYetWritten(dir, exampleOutputs(files)), 'wx');
    } catch (e) {
      if (e instanceof UsageError) throw e;
      const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
      throw new UsageError(`cannot write examples to ${dir}: ${why}`, 'path');
    }
    io.out(`wrote ${files.length} example files and examples.json to ${safeText(dir)}\n`);
    return EXIT.pass;
  },
};
