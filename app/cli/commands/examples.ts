/** `reprise examples DIR`: write the built-in sample and training artifacts. */
import { EXIT, type ExitCode } from '../../../shared/report.js';
import { writeExamples } from '../../examples/index.js';
import { safeText } from '../../core/text.js';
import { parse } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { INFO } from './info.js';
import { UsageError } from '../../core/errors.js';

const usage = INFO.examples.usage;

export const examplesCommand: Command = {
  ...INFO.examples,
  async run(args: string[], io: CliIO): Promise<ExitCode> {
    const { positionals } = parse(args, {}, usage);
    if (positionals.length !== 1) throw new UsageError(`examples takes exactly one DIR\nusage: ${usage}`);
    let files;
    try {
      files = await writeExamples(positionals[0]!);
    } catch (e) {
      throw new UsageError(
        `cannot write examples to ${positionals[0]}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
        'path',
      );
    }
    io.out(`wrote ${files.length} example files and examples.json to ${safeText(positionals[0]!)}\n`);
    return EXIT.pass;
  },
};
