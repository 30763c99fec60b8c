/** `reprise lint PATH... [--format text|json|sarif]`: DL-104 over engine specifications; exit 1 on any error. */
import { EXIT, type ExitCode } from '../../../shared/report.js';
import { collectSpecFiles, formatText, lintFile, toJson, toSarif } from '../../lint/index.js';
import { parse } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { INFO } from './info.js';
import { UsageError } from '../../core/errors.js';
import { readFailure } from '../../core/files.js';

const usage = INFO.lint.usage;

export const lintCommand: Command = {
  ...INFO.lint,
  async run(args: string[], io: CliIO): Promise<ExitCode> {
    const { values, positionals } = parse(args, { format: { type: 'string' }, json: { type: 'boolean' } }, usage);
    if (positionals.length === 0) throw new UsageError(`no PATH given\nusage: ${usage}`);
    const format = values['json'] ? 'json' : (values['format'] ?? 'text');
    if (format !== 'text' && format !== 'json' && format !== 'sarif')
      throw new UsageError(`--format takes text, json or sarif, not "${String(format)}"`);
    let files: string[];
    try {
      files = await collectSpecFiles(positionals);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(
        code === 'ENOENT'
          ? `no such file or directory: ${(e as NodeJS.ErrnoException).path ?? ''}`
          : `cannot read ${(e as NodeJS.ErrnoException).path ?? positionals.join(' ')}: ${code ?? readFailure(e)}`,
      );
    }
    const results = [];
    for (const f of files) {
      try {
        results.push(await lintFile(f));
      } catch (e) {
        throw new UsageError(`cannot read ${f}: ${readFailure(e)}`, 'path');
      }
    }
    if (format === 'json') io.out(JSON.stringify(toJson(results), null, 2) + '\n');
    else if (format === 'sarif') io.out(JSON.stringify(toSarif(results), null, 2) + '\n');
    else io.out(formatText(results));
    return results.some((r) => r.diagnostics.some((d) => d.level === 'error')) ? EXIT.fail : EXIT.pass;
  },
};
