/** A judged artifact: a journal with a reviewer's judgements on one report, and its bundle. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../../shared/report.js';
import { runBytes } from '../../app/engine/run.js';
import { appendEntry, recordJudgement } from '../../app/journal/index.js';
import { bundleFromJournal } from '../../app/kinds/evidence-bundle/index.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';

export const ARTIFACT = Buffer.from('{"hello": "world"}\n');

export interface Judged {
  dir: string;
  journal: string;
  keys: Keys;
  report: Report;
  artifactPath: string;
}

/**
 * A report (an artifact of no known kind: one finding, so its verdict is FAIL), two judgements on
 * it and an unrelated entry. `edit` changes the report before it is judged (a passing one).
 */
export async function judged(edit: (r: Report) => Report = (r) => r): Promise<Judged> {
  const dir = tmp('reprise-evb-');
  const keys = makeKeys(dir);
  const artifactPath = join(dir, 'artifact.json');
  writeFileSync(artifactPath, ARTIFACT);
  const report = edit(await runBytes(artifactPath, ARTIFACT, 'verify', {}));
  const journal = join(dir, 'journal');
  const clock = () => Date.parse('2026-11-02T09:30:00Z');
  await recordJudgement(
    journal,
    { report, pointer: '', decision: 'accept', rationale: 'The report was read in full and agrees with the file.' },
    keys.reviewer,
    keys.trust,
    { clock, fsync: false },
  );
  await appendEntry(
    journal,
    { kind: 'replay-comparison', subject: { claimRef: 'claim:other' }, body: { note: 'unrelated' } },
    keys.officer,
    { clock, fsync: false },
  );
  await recordJudgement(
    journal,
    {
      report,
      pointer: '/findings/0',
      decision: 'note',
      rationale: 'This finding is expected: the file is no artifact.',
    },
    keys.reviewer,
    keys.trust,
    { clock, fsync: false },
  );
  return { dir, journal, keys, report, artifactPath };
}

export async function bundleOf(j: Judged): Promise<Buffer> {
  return (await bundleFromJournal(j.journal, j.report, j.keys.trust)).bytes;
}
