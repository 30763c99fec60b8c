/** `reprise canonicalize FILE [--hash] [--limit NAME=N]`: RFC 8785 bytes of a JSON file, or the reason it is refused. */
import { MAX_WHOLE_FILE_BYTES, readFailure, readRegularFile } from '../../core/files.js';
import { EXIT, type ExitCode } from '../../../shared/report.js';
import { hashBytes } from '../../core/hash.js';
import { decodeJsonBytes, JcsError, parseCanonical } from '../../core/jcs.js';
import { limitOverrides, parse } from '../args.js';
import { ITEMS_LIMIT, MEMBER_NAMES_LIMIT } from '../../core/json-limits.js';
import type { CliIO, Command } from '../io.js';
import { formatError } from '../output.js';
import { INFO } from './info.js';
import { UsageError } from '../../core/errors.js';

const usage = INFO.canonicalize.usage;

/**
 * The file's text, handed over once: neither its bytes nor its text stay referenced here
 * while the parsed value and its canonical text are made (a 100 MiB string was held six
 * times over). Decoding errors are thrown by take(), as the parse's are.
 */
async function readText(file: string): Promise<{ take(): string }> {
  let bytes: Buffer | null;
  try {
    bytes = await readRegularFile(file, MAX_WHOLE_FILE_BYTES);
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${readFailure(e)}`, 'path');
  }
  return {
    take() {
      const b = bytes!;
      bytes = null;
      return decodeJsonBytes(b);
    },
  };
}

export const canonicalizeCommand: Command = {
  ...INFO.canonicalize,
  async run(args: string[], io: CliIO): Promise<ExitCode> {
    const { values, positionals } = parse(
      args,
      { hash: { type: 'boolean' }, json: { type: 'boolean' }, limit: { type: 'string', multiple: true } },
      usage,
    );
    if (positionals.length !== 1) throw new UsageError(`canonicalize takes exactly one FILE\nusage: ${usage}`);
    // The bounds checked before parsing (docs/rules/core.md, ERR_LIMIT), raised for a document known to be that large.
    const limits = limitOverrides((values['limit'] as string[] | undefined) ?? [], [MEMBER_NAMES_LIMIT, ITEMS_LIMIT]);
    const file = positionals[0]!;
    const text = await readText(file);
    try {
      // Lazy: the text may be collected before the canonical text is serialized from the value.
      const { canonical, warnings } = parseCanonical(text.take(), { limits, lazy: true });
      for (const w of warnings) io.err(formatError(`warning: ${w.code}: ${w.message} at ${w.pointer || '(root)'}`));
      const hash = hashBytes(canonical);
      if (values['json']) io.out(JSON.stringify({ ok: true, hash, canonical, warnings }) + '\n');
      else if (values['hash']) io.out(hash + '\n');
      else io.bytes(canonical);
      return EXIT.pass;
    } catch (e) {
      if (!(e instanceof JcsError)) throw e;
      if (values['json'])
        io.out(
          JSON.stringify({
            ok: false,
            error: e.code,
            message: e.message,
            pointer: e.pointer ?? null,
            line: e.line ?? null,
            column: e.column ?? null,
          }) + '\n',
        );
      io.err(formatError(`refused ${file}: ${e.message}`));
      return EXIT.fail;
    }
  },
};
