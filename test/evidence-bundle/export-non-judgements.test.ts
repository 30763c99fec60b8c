/**
 * The export never writes a bundle its own verifier fails (docs/evidence-bundle.md, "Export"):
 * a `review-rationale` entry that does not count as a judgement (signed by a key that may not
 * sign one, here a quarantine officer's recorded by `journal record` without --trust-store) is
 * left out of the bundle, of one artifact and of a case alike, and each entry left out is named
 * (seq, entry hash, signer, why); the bundle written then verifies under the same store.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeExamples } from '../../app/examples/index.js';
import { hashBytes } from '../../app/core/hash.js';
import { loadTrustStore } from '../../app/core/keys.js';
import { runCase } from '../../app/jobs/case.js';
import { runPath } from '../../app/engine/run.js';
import { verifyJournal } from '../../app/journal/verify.js';
import { bundleFromJournal, openCaseBundle, verifyEvidence } from '../../app/kinds/evidence-bundle/index.js';
import type { Report } from '../../shared/report.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { exportBundle } from '../../main/host/judgement-ops.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';

interface Verified {
  verdict: string;
  authenticity: { status: string; statement: string };
  findings: { rule: string; severity: string }[];
  details: { integrity: { verdict: string }; judgements: { seq: number }[] };
}

let base: string;
let keys: Keys;
let dir: string;
let art: string;
let journal: string;
let officerEntry: { seq: number; hash: string };

beforeAll(async () => {
  base = tmp('reprise-evb-nonjudgement-');
  const ex = join(base, 'ex');
  await writeExamples(ex);
  keys = makeKeys(base);
  dir = join(base, 'case');
  mkdirSync(dir);
  art = join(dir, 'trace.jsonl');
  copyFileSync(join(ex, 'acgp/trace-clean.jsonl'), art);
  const sha = hashBytes(readFileSync(art));
  journal = join(base, 'journal');
  const record = async (body: unknown, key: string, trust: string[]) => {
    const file = join(base, `body-${key.replace(/\W/g, '_')}.json`);
    writeFileSync(file, JSON.stringify(body));
    const r = await runCli([
      ...['journal', 'record', journal, '--kind', 'review-rationale', '--claim', 'q', '--artifact', sha],
      ...['--body-file', file, '--key', key, ...trust],
    ]);
    expect(r.code, r.stderr).toBe(0);
  };
  // The officer's entry: `journal record` without --trust-store does not ask who may sign a judgement.
  await record(
    { decision: 'reject', rationale: 'Quarantined pending the officer review of the trace.' },
    keys.officerPem,
    [],
  );
  await record(
    { decision: 'accept', rationale: 'The trace was read in full and it is what it says.' },
    keys.reviewerPem,
    ['--trust-store', keys.trustPath],
  );
  const v = await verifyJournal(journal, keys.trust);
  const e = v.entries.find((p) => p.entry.author === keys.officer.keyId)!;
  officerEntry = { seq: e.entry.seq, hash: e.hash };
}, 120_000);

/** The line (the bundle's `omitted`) naming the officer's entry. */
const namesOfficerEntry = (text: string) => {
  expect(text).toContain(`seq ${officerEntry.seq}`);
  expect(text).toContain(officerEntry.hash);
  expect(text).toContain(keys.officer.keyId);
  expect(text).toMatch(/must be signed by a reviewer key; .* is a quarantine-officer key/);
};

const verified = async (zip: string): Promise<{ code: number | null; got: Verified }> => {
  const v = await runCli(['verify', zip, '--trust-store', keys.trustPath, '--json']);
  return { code: v.code, got: JSON.parse(v.stdout) as Verified };
};

describe.skipIf(!cliBuilt())('export leaves out an entry that is no judgement (CLI)', () => {
  it.each([
    ['a case bundle', () => dir, 'case.zip'],
    ['a bundle of one artifact', () => art, 'one.zip'],
  ])('%s: exit 0, the entry left out is named on stderr, the bundle verifies without it', async (_what, from, name) => {
    const zip = join(base, name);
    const e = await runCli(['export', from(), '--journal', journal, '--out', zip, '--trust-store', keys.trustPath]);
    expect(e.code, e.stderr).toBe(0);
    expect(e.stdout).toContain('1 judgement(s)');
    const lines = e.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^reprise: left out entry /);
    namesOfficerEntry(lines[0]!);
    const { code, got } = await verified(zip);
    expect(got.verdict).not.toBe('fail');
    expect(code).toBe(0);
    expect(got.findings.filter((f) => f.rule === 'RPR-EVB-008')).toEqual([]);
    expect(got.details.judgements.map((j) => j.seq)).not.toContain(officerEntry.seq);
    expect(got.details.judgements).toHaveLength(1);
    const json = await runCli([
      'export',
      from(),
      '--journal',
      journal,
      '--out',
      zip + '.2',
      '--trust-store',
      keys.trustPath,
      '--json',
    ]);
    const summary = JSON.parse(json.stdout) as { omitted: { seq: number; entryHash: string }[] };
    expect(summary.omitted).toEqual([expect.objectContaining({ seq: officerEntry.seq, entryHash: officerEntry.hash })]);
  });
});

describe.skipIf(!cliBuilt())('export leaves out an entry that is no judgement (API)', () => {
  it('bundleFromJournal and the case bundler name what they leave out, and what they write verifies', async () => {
    const trust = await loadTrustStore(keys.trustPath);
    const report = await runPath(art, 'verify', {});
    const one = await bundleFromJournal(journal, report, trust);
    expect(one.judgements.map((j) => j.seq)).not.toContain(officerEntry.seq);
    const omittedOne = one.omitted;
    expect(omittedOne.map((o) => o.seq)).toEqual([officerEntry.seq]);
    namesOfficerEntry(omittedOne[0]!.line);
    const r1 = await verifyEvidence(one.bytes, trust);
    expect(r1.findings.filter((f) => f.severity === 'fail')).toEqual([]);

    const reports = new Map<string, Report>();
    const caseReport = await runCase(dir, {
      onArtifact: (o) => o.ok && o.report && reports.set(o.part.artifact.path, o.report),
    });
    const c = (await openCaseBundle(journal, trust))(caseReport, reports);
    const omittedCase = c.omitted;
    expect(omittedCase.map((o) => o.seq)).toEqual([officerEntry.seq]);
    namesOfficerEntry(omittedCase[0]!.line);
    const r2 = await verifyEvidence(c.bytes, trust);
    expect(r2.findings.filter((f) => f.severity === 'fail')).toEqual([]);
  });

  it('the workbench host says what it left out with the bundle it saves', async () => {
    const report = await runPath(art, 'verify', {});
    const b = await exportBundle({ dir: journal, trustStore: keys.trustPath, report });
    expect(b.judgements).toBe(1);
    expect(b.omitted).toHaveLength(1);
    namesOfficerEntry(b.omitted[0]!);
  });
});
