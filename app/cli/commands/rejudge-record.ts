/** The end of `rejudge merge` (from shard files or a queue): the record written, or the problems that stopped it. */
import { EXIT, type ExitCode } from '../../../shared/report.js';
import { writeOutputFile } from '../../core/files.js';
import { safeText } from '../../core/text.js';
import { RECORD_VERDICTS } from '../../rejudge/index.js';
import { recordText, type Merged } from '../../jobs/rejudge/merge.js';
import type { CliIO } from '../io.js';
import { formatError } from '../output.js';

/** Prints a merge's outcome and writes its record; exit 1 (nothing written) when the shards make none. */
export async function finishMerge(m: Merged, out: string, json: boolean, io: CliIO): Promise<ExitCode> {
  if (!m.record) {
    for (const p of m.problems) io.err(formatError(`${p.rule}: ${p.message}`));
    io.err(formatError(`no record written: the ${m.problems.length} problem(s) above`));
    return EXIT.fail;
  }
  await writeOutputFile(out, recordText(m.record));
  const a = m.assembly;
  // One line of JSON: stdout stays JSON Lines when progress events precede it (merge --queue --wait).
  if (json)
    io.out(
      JSON.stringify({
        event: 'written',
        out,
        records: a.records,
        root: a.root,
        verdicts: a.verdicts,
        signer: m.record.signer,
      }) + '\n',
    );
  else
    io.out(
      `${a.records} records, root ${a.root} (${RECORD_VERDICTS.map((v) => `${v} ${a.verdicts[v]}`).join(', ')}), signed by ${m.record.signer}; wrote ${safeText(out)}\n`,
    );
  return EXIT.pass;
}
