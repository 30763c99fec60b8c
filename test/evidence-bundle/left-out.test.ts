/**
 * Nothing of the case is missing from its bundle unsaid (docs/evidence-bundle.md, "What a
 * bundle leaves out"): an artifact the case could not verify, and a judgement on what the
 * bundle carries that no checkpoint covers, are each listed in the manifest's `leftOut` with
 * why, named on stderr with a non-zero exit (3 for an unreadable artifact, 2 for an unproven
 * judgement), and `verify` says the bundle is incomplete (RPR-EVB-020), never a clean PASS.
 * A signed reject on an artifact the case holds is always carried, with its judgement.
 * In process: the CLI's source, no build.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaseReport } from '../../shared/case.js';
import type { Finding, Report } from '../../shared/report.js';
import { hashBytes } from '../../app/core/hash.js';
import { runBytes } from '../../app/engine/run.js';
import { writeExamples } from '../../app/examples/index.js';
import { runCase } from '../../app/jobs/case.js';
import { recordJudgement } from '../../app/journal/index.js';
import { bundleFromJournal, openCaseBundle, verifyEvidence } from '../../app/kinds/evidence-bundle/index.js';
import { writeZip } from '../../app/zip/writer.js';
import { cliIn } from '../cli/in-process.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';
import { fixManifest, json, unzip } from './helpers.js';

// Three artifacts that verify (PASS) without a trust store: only what is left out keeps a bundle from PASS.
let KEPT: Buffer;
let REJECTED: Buffer;
let GONE: Buffer;
const WHY = 'The file was read in full and it is not what it claims to be.';

interface Details {
  integrity: { verdict: string; statement: string };
  judgements: { seq: number; decision: string }[];
}

let base: string;
let keys: Keys;

/** A journal in `base` with a reviewer's reject on each of `judged` (a report of those bytes). */
async function journalRejecting(name: string, judged: readonly Buffer[]): Promise<string> {
  const journal = join(base, name);
  for (const bytes of judged) {
    const report = await runBytes(join(base, 'x.json'), bytes, 'verify', {});
    await recordJudgement(
      journal,
      { report, pointer: '', decision: 'reject', rationale: WHY },
      keys.reviewer,
      keys.trust,
      {
        fsync: false,
      },
    );
  }
  return journal;
}

/** The case folder `name`: `kept.json`, `rejected.json`, and `gone.json` a link to nothing (its bytes are no longer there). */
function caseFolder(name: string, files: Record<string, Buffer | null>): string {
  const dir = join(base, name);
  mkdirSync(dir);
  for (const [file, bytes] of Object.entries(files))
    if (bytes) writeFileSync(join(dir, file), bytes);
    else symlinkSync(join(base, 'nowhere', file), join(dir, file));
  return dir;
}

async function caseBundle(dir: string, journal: string) {
  const reports = new Map<string, Report>();
  const caseReport: CaseReport = await runCase(dir, {
    onArtifact: (o) => o.ok && o.report && reports.set(o.part.artifact.path, o.report),
  });
  return (await openCaseBundle(journal, keys.trust))(caseReport, reports);
}

const leftOutFindings = (findings: readonly Finding[]) => findings.filter((f) => f.rule === 'RPR-EVB-020');

beforeAll(async () => {
  base = tmp('reprise-evb-left-out-');
  keys = makeKeys(base);
  const ex = join(base, 'examples');
  await writeExamples(ex);
  const example = (f: string): Buffer => readFileSync(join(ex, f));
  KEPT = example('acgp/trace-clean.jsonl');
  REJECTED = example('acgp/trace-blueprint-override.jsonl');
  GONE = example('acgp/seed-eval-corrected.json');
}, 60_000);

describe('an artifact of the case that could not be verified', () => {
  let dir: string;
  let journal: string;

  beforeAll(async () => {
    journal = await journalRejecting('journal', [REJECTED, GONE]);
    dir = caseFolder('case', { 'kept.json': KEPT, 'rejected.json': REJECTED, 'gone.json': null });
  }, 60_000);

  it('is listed in the manifest as left out, with why; the reject on an artifact it holds is carried', async () => {
    const b = await caseBundle(dir, journal);
    expect(b.artifactsLeftOut).toEqual([
      { path: 'gone.json', reason: expect.stringMatching(/symbolic link whose target does not exist/) },
    ]);
    const manifest = json(await unzip(b.bytes), 'reprise-evidence-bundle.json');
    expect(manifest['leftOut']).toEqual({ artifacts: b.artifactsLeftOut, entries: [] });
    // The reject on rejected.json is in the bundle with its judgement.
    expect(b.judgements.map((j) => [j.decision, j.entry.subject.artifact])).toEqual([
      ['reject', expect.stringMatching(/^sha256:/)],
    ]);
    const r = await verifyEvidence(b.bytes, keys.trust);
    const said = leftOutFindings(r.findings);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ severity: 'unavailable', pointer: 'entry:case.json#/findings/0' });
    expect(said[0]!.message).toMatch(/^the bundle is incomplete: gone\.json, an artifact of the case, is left out/);
    expect(r.findings.filter((f) => f.rule === 'RPR-EVB-019')).toHaveLength(1);
    const d = r.details as unknown as Details;
    expect(d.integrity.verdict).toBe('unavailable');
    expect(d.integrity.statement).toMatch(/RPR-EVB-020 the bundle is incomplete/);
    expect(d.judgements.map((j) => j.decision)).toEqual(['reject']);
    expect(r.authenticity?.statement).toMatch(/the bundle is incomplete: gone\.json/);
  });

  it('a manifest that does not list it fails (RPR-EVB-017), and verify still says the bundle is incomplete', async () => {
    const f = await unzip((await caseBundle(dir, journal)).bytes);
    fixManifest(f, (m) => delete m['leftOut']);
    const r = await verifyEvidence(writeZip(f), keys.trust);
    expect(r.findings.filter((x) => x.rule === 'RPR-EVB-017' && x.severity === 'fail')).toEqual([
      expect.objectContaining({ pointer: 'entry:reprise-evidence-bundle.json#/leftOut/artifacts' }),
    ]);
    expect(leftOutFindings(r.findings).map((x) => x.severity)).toEqual(['unavailable']);
    expect(r.findings.some((x) => x.rule === 'RPR-EVB-000')).toBe(false);
  });

  it('reprise export says it on stderr and exits 3; reprise verify of the bundle is not PASS', async () => {
    const out = join(base, 'case.zip');
    const e = await cliIn(base, 'export', dir, '--journal', journal, '--out', out, '--trust-store', keys.trustPath);
    expect(e.code, e.err).toBe(3);
    expect(e.err).toMatch(
      /^reprise: left out artifact gone\.json: it could not be verified \(.*symbolic link whose target does not exist.*\), so the bundle holds no report of it and is incomplete/m,
    );
    expect(e.out).toMatch(/INCOMPLETE: 1 artifact\(s\) of the case could not be verified and are left out/);
    expect(existsSync(out)).toBe(true);
    const v = await cliIn(base, 'verify', out, '--trust-store', keys.trustPath, '--json');
    const got = JSON.parse(v.out) as { verdict: string; findings: Finding[] };
    expect(v.code).not.toBe(0);
    expect(got.verdict).not.toBe('pass');
    expect(leftOutFindings(got.findings)).toHaveLength(1);
  });

  it('a case none of whose artifacts could be verified is refused, naming each (exit 3, nothing written)', async () => {
    const only = caseFolder('case-gone', { 'gone.json': null });
    const out = join(base, 'gone.zip');
    const e = await cliIn(base, 'export', only, '--journal', journal, '--out', out, '--trust-store', keys.trustPath);
    expect(e.code).toBe(3);
    expect(e.err).toMatch(/no artifact of the case could be verified, so there is no report to bundle: gone\.json \(/);
    expect(existsSync(out)).toBe(false);
  });
});

describe('a reject no checkpoint covers', () => {
  let dir: string;
  let journal: string;

  beforeAll(async () => {
    journal = await journalRejecting('journal-cut', [KEPT, REJECTED]);
    // The last write cut short between its entry and its checkpoint: the reject on REJECTED has no proof.
    const path = join(journal, 'checkpoints.jsonl');
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    writeFileSync(path, lines.slice(0, -1).join('\n') + '\n');
    dir = caseFolder('case-cut', { 'kept.json': KEPT, 'rejected.json': REJECTED });
  }, 60_000);

  it('a case bundle lists it as left out (unproven, a reject), and verify is UNAVAILABLE, never PASS', async () => {
    const b = await caseBundle(dir, journal);
    expect(b.omitted.map((o) => [o.seq, o.decision, o.status])).toEqual([[1, 'reject', 'unproven']]);
    const manifest = json(await unzip(b.bytes), 'reprise-evidence-bundle.json');
    expect(manifest['leftOut']).toEqual({
      artifacts: [],
      entries: [
        expect.objectContaining({ seq: 1, decision: 'reject', status: 'unproven', author: keys.reviewer.keyId }),
      ],
    });
    const r = await verifyEvidence(b.bytes, keys.trust);
    expect(leftOutFindings(r.findings)).toEqual([
      expect.objectContaining({
        severity: 'unavailable',
        message: expect.stringMatching(
          /^the bundle is incomplete: journal entry seq 1 \(sha256:[0-9a-f]{64}\), a reject signed by/,
        ),
      }),
    ]);
    expect(r.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    expect((r.details as unknown as Details).integrity.verdict).toBe('unavailable');
  });

  it('a bundle of the one artifact says it alike', async () => {
    const report = await runBytes(join(dir, 'rejected.json'), REJECTED, 'verify', {});
    const b = await bundleFromJournal(journal, report, keys.trust);
    expect(json(await unzip(b.bytes), 'reprise-evidence-bundle.json')['leftOut']).toEqual({
      entries: [expect.objectContaining({ seq: 1, decision: 'reject', status: 'unproven' })],
    });
    const r = await verifyEvidence(b.bytes, keys.trust);
    expect(leftOutFindings(r.findings).map((f) => f.severity)).toEqual(['unavailable']);
    expect(r.findings.some((f) => f.rule === 'RPR-EVB-000')).toBe(false);
  });

  it('reprise export exits 2 naming it; reprise verify of the bundle exits 2', async () => {
    for (const [from, name] of [
      [dir, 'cut-case.zip'],
      [join(dir, 'rejected.json'), 'cut-one.zip'],
    ] as const) {
      const out = join(base, name);
      const e = await cliIn(base, 'export', from, '--journal', journal, '--out', out, '--trust-store', keys.trustPath);
      expect(e.code, e.err).toBe(2);
      expect(e.err).toMatch(
        /^reprise: left out entry seq 1 .*no inclusion proof can be built for it.*the bundle is incomplete/m,
      );
      const v = await cliIn(base, 'verify', out, '--trust-store', keys.trustPath);
      expect(v.code).toBe(2);
    }
  });
});

describe('a reject signed by a key that may not sign a judgement (a quarantine officer’s)', () => {
  it('is no judgement: listed in the manifest, a warning of verify, and the bundle is complete (exit 0)', async () => {
    const journal = join(base, 'journal-officer');
    const body = join(base, 'officer-body.json');
    writeFileSync(body, JSON.stringify({ decision: 'reject', rationale: WHY }));
    const dir = caseFolder('case-officer', { 'rejected.json': REJECTED });
    const sha = hashBytes(REJECTED);
    const record = await cliIn(
      base,
      ...['journal', 'record', journal, '--kind', 'review-rationale', '--claim', 'q', '--artifact', sha],
      ...['--body-file', body, '--key', keys.officerPem],
    );
    expect(record.code, record.err).toBe(0);
    const out = join(base, 'officer.zip');
    const e = await cliIn(base, 'export', dir, '--journal', journal, '--out', out, '--trust-store', keys.trustPath);
    expect(e.code, e.err).toBe(0);
    expect(e.err).toMatch(/^reprise: left out entry seq 0 .*it is no judgement/);
    const manifest = json(await unzip(readFileSync(out)), 'reprise-evidence-bundle.json');
    expect(manifest['leftOut']).toEqual({
      artifacts: [],
      entries: [
        expect.objectContaining({ seq: 0, decision: 'reject', status: 'no-judgement', author: keys.officer.keyId }),
      ],
    });
    const v = await cliIn(base, 'verify', out, '--trust-store', keys.trustPath, '--json');
    expect(v.code).toBe(0);
    const said = leftOutFindings((JSON.parse(v.out) as { findings: Finding[] }).findings);
    expect(said).toEqual([
      expect.objectContaining({
        severity: 'warning',
        message: expect.stringMatching(
          new RegExp(
            `^journal entry seq 0 \\(sha256:[0-9a-f]{64}\\), a reject signed by ${keys.officer.keyId} .*it is no judgement`,
          ),
        ),
      }),
    ]);
  });
});
