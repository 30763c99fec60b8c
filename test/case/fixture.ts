/**
 * A reviewer's case folder with an artifact of every kind that offers the case something,
 * built from the built-in examples and the kinds' writers: a replay dump, an ACGP trace and
 * EVAL, a TG manifest with its policy bundle and the journal that anchors its RECORDED
 * output, a Nemosyne package holding one of the dump's materials as a member, a reviewer's
 * journal with a judgement and a note (and its edit) on the dump and a quarantine case on the
 * manifest's claim, and an
 * evidence bundle of the dump's report.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { runBytes } from '../../app/engine/run.js';
import { writeExamples } from '../../app/examples/index.js';
import { openCase, recordJudgement } from '../../app/journal/index.js';
import { recordNote } from '../../app/journal/notes.js';
import { bundleFromJournal } from '../../app/kinds/evidence-bundle/index.js';
import { buildZip } from '../../app/zip/writer.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';

export const CLAIM = 'claim:2026-11-0107';

export interface CaseFixture {
  dir: string;
  keys: Keys;
  examples: string;
  /** The dump's SHA-256 and the material the package holds. */
  dumpSha: string;
  material: string;
}

const clock = () => Date.parse('2026-11-03T08:00:00Z');

export async function caseFixture(): Promise<CaseFixture> {
  const root = tmp('reprise-case-');
  const examples = join(root, 'examples');
  await writeExamples(examples);
  const dir = join(root, 'case');
  mkdirSync(dir);
  const keys = makeKeys(root);
  const copy = (from: string, to: string) => cpSync(join(examples, from), join(dir, to), { recursive: true });
  copy('dumps/intact.dump.json', 'dump.json');
  copy('acgp/trace-clean.jsonl', 'agent/trace.jsonl');
  copy('acgp/seed-eval.json', 'agent/eval.json');
  copy('acgp/trace-private-provider.json', 'agent/trace-array.json');
  copy('tg/recorded-anchored/manifest.json', 'tg/manifest.json');
  copy('tg/bundle.json', 'tg/policy.json');
  copy('tg/journal', 'tg/journal');
  const dumpBytes = readFileSync(join(dir, 'dump.json'));
  const dump = JSON.parse(dumpBytes.toString('utf8')) as {
    materialSnapshotHashSet: string[];
    artifacts: Record<string, { text?: string; json?: unknown }>;
  };
  const material = dump.materialSnapshotHashSet[0]!;
  const a = dump.artifacts[material]!;
  const data = Buffer.from(a.text ?? canonicalizeValue(a.json), 'utf8');
  writeFileSync(join(dir, 'dataset.nemosyne'), buildZip({ entries: [{ name: 'data/material.bin', data }] }));
  const report = await runBytes('dump.json', dumpBytes, 'verify', {});
  const journal = join(dir, 'review');
  await recordJudgement(
    journal,
    { report, pointer: '', decision: 'accept', rationale: 'The dump was replayed by hand and its chain agrees.' },
    keys.reviewer,
    keys.trust,
    { clock, fsync: false },
  );
  await openCase(journal, { claimRef: CLAIM, reason: 'held for the reviewer' }, keys.officer, { clock, fsync: false });
  // A reviewer's note on the dump and its edit (append-only: the edit names the note it supersedes).
  const note = await recordNote(
    journal,
    { artifact: report.artifact.sha256!, text: 'The prompt matches the one the claim was scored with.' },
    keys.reviewer,
    keys.trust,
    { clock, fsync: false },
  );
  await recordNote(
    journal,
    {
      artifact: report.artifact.sha256!,
      text: 'The prompt matches the one the claim was scored with, byte for byte.',
      supersedes: note.entryHash,
    },
    keys.reviewer,
    keys.trust,
    { clock, fsync: false },
  );
  const bundle = await bundleFromJournal(journal, report, keys.trust, null);
  writeFileSync(join(dir, 'dump-evidence.zip'), bundle.bytes);
  return { dir, keys, examples, dumpSha: report.artifact.sha256!, material };
}
