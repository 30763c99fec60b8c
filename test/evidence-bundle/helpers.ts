/** A judged artifact: a journal with a reviewer's judgements on one report, and its bundle. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { runCase } from '../../app/jobs/case.js';
import { expect } from 'vitest';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { hashBytes } from '../../app/core/hash.js';
import { readEntries } from '../../app/zip/parallel.js';
import { readStructure } from '../../app/zip/reader.js';
import { resolveLimits } from '../../app/zip/limits.js';
import { join } from 'node:path';
import type { Report } from '../../shared/report.js';
import { runBytes } from '../../app/engine/run.js';
import { appendEntry, recordJudgement } from '../../app/journal/index.js';
import { bundleFromJournal, openCaseBundle } from '../../app/kinds/evidence-bundle/index.js';
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

/** The case bundle of a case folder `dir` (made here) holding the judged artifact, with the journal's judgements on it. */
export async function caseBundleOf(j: Judged, dir: string): Promise<Buffer> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'artifact.json'), ARTIFACT);
  const reports = new Map<string, Report>();
  const caseReport = await runCase(dir, {
    onArtifact: (o) => o.ok && o.report && reports.set(o.part.artifact.path, o.report),
  });
  return (await openCaseBundle(j.journal, j.keys.trust))(caseReport, reports).bytes;
}

/** A bundle's members, to tamper with and zip again. */
export type Files = { name: string; data: Buffer }[];

export async function unzip(bytes: Buffer): Promise<Files> {
  const zs = readStructure(bytes, resolveLimits(undefined));
  expect(zs.ok).toBe(true);
  const c = await readEntries(bytes, zs.entries, () => true);
  return zs.entries.map((e, i) => ({ name: e.name, data: c[i]!.bytes! }));
}

export const json = (f: Files, name: string) =>
  JSON.parse(f.find((x) => x.name === name)!.data.toString('utf8')) as Record<string, unknown>;
export const put = (f: Files, name: string, v: unknown) =>
  (f.find((x) => x.name === name)!.data = Buffer.from(canonicalizeValue(v) + '\n'));

/** Recomputes the manifest's digests so only the deeper checks can catch the change. */
export function fixManifest(f: Files, also: (m: Record<string, unknown>) => void = () => undefined): void {
  const m = json(f, 'reprise-evidence-bundle.json');
  m['members'] = (m['members'] as { name: string }[]).map((x) => {
    const d = f.find((y) => y.name === x.name)!.data;
    return { name: x.name, sha256: hashBytes(d), size: d.length };
  });
  also(m);
  put(f, 'reprise-evidence-bundle.json', m);
}
