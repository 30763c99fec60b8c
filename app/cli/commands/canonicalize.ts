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
    let bytes: Buffer;
    try {
      bytes = await readRegularFile(file, MAX_WHOLE_FILE_BYTES);
    } catch (e) {
      throw new UsageError(`cannot read ${file}: ${readFailure(e)}`, 'path');
    }
    try {
      const { canonical, warnings } = parseCanonical(decodeJsonBytes(bytes), { limits });
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
