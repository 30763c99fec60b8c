/**
 * The ends of `rejudge merge` (from shard files or a queue): where its record may be written,
 * and the record written, or the problems that stopped it.
 */
import { stat } from 'node:fs/promises';
import { EXIT, type ExitCode } from '../../../shared/report.js';
import { writeOutputFile } from '../../core/files.js';
import { safeText } from '../../core/text.js';
import { RECORD_VERDICTS } from '../../rejudge/index.js';
import { readList } from '../../jobs/rejudge/list.js';
import { recordText, type Merged } from '../../jobs/rejudge/merge.js';
import type { CliIO } from '../io.js';
import { formatError } from '../output.js';
import { refuseWriteOnListed, refuseWritesOn, type Read } from './outputs-on-inputs.js';

/**
 * Refuses the merge's record and records file on an archive its records judged (`sources`:
 * the `--list`, where the shards or the queue's run say the list was read): the list, a file
 * inside the folder, an artifact the list file names or a file inside one.
 */
export async function refuseMergeOnArchive(values: Record<string, unknown>, sources: readonly Read[]): Promise<void> {
  const outputs: [string, unknown][] = [
    ['--out', values['out']],
    ['--records', values['records']],
  ];
  for (const source of sources) {
    await refuseWritesOn(outputs, [source]);
    const listed = await listedPaths(source.path);
    for (const [flag, out] of outputs) if (typeof out === 'string') await refuseWriteOnListed(flag, out, listed);
  }
}

/**
 * The paths a list file names. None for a folder: what it lists lies inside it, refused as
 * such. None for a list this machine cannot read: what it names is not known here (a merge
 * that needs it refuses on its own).
 */
async function listedPaths(source: string): Promise<string[]> {
  const file = await stat(source).then(
    (s) => !s.isDirectory(),
    () => false,
  );
  if (!file) return [];
  return readList(source).then(
    (l) => l.items.map((i) => i.path),
    () => [],
  );
}

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
