/** `reprise examples DIR`: write the built-in sample and training artifacts. */
import { EXIT, type ExitCode } from '../../../shared/report.js';
import { writeExamples } from '../../examples/index.js';
import { parse } from '../args.js';
import { CliUsageError, type CliIO, type Command } from '../io.js';
import { INFO } from './info.js';

const usage = INFO.examples.usage;

export const examplesCommand: Command = {
  ...INFO.examples,
  async run(args: string[], io: CliIO): Promise<ExitCode> {
    const { positionals } = parse(args, {}, usage);
    if (positionals.length !== 1) throw new CliUsageError(`examples takes exactly one DIR\nusage: ${usage}`);
    let files;
    try {
      files = await writeExamples(positionals[0]!);
    } catch (e) {
      throw new CliUsageError(`cannot write examples to ${positionals[0]}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    io.out(`wrote ${files.length} example files and examples.json to ${positionals[0]}\n`);
    return EXIT.pass;
  },
};
