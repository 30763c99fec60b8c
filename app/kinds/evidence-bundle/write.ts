/**
 * Writing an evidence bundle: the same inputs give the same bytes (the ZIP writer's fixed
 * timestamps and deflate level, members in a fixed order, canonical JSON, the report
 * without `run`). `bundleFromJournal` collects every judgement a journal holds on the
 * report's artifact, proven under the journal's latest checkpoint.
 */
import { hashBytes } from '../../core/hash.js';
import { canonicalizeValue } from '../../core/jcs.js';
import type { TrustStore } from '../../core/keys.js';
import { JournalError } from '../../journal/errors.js';
import type { Checkpoint } from '../../journal/format.js';
import { judgementPointerProblem, judgementsIn, reportDigest, type JudgementRecord } from '../../journal/judgement.js';
import type { InclusionProof } from '../../journal/proofs.js';
import { verifyJournal, type JournalVerification } from '../../journal/verify.js';
import { writeZip } from '../../zip/writer.js';
import type { Report } from '../../../shared/report.js';
import { BUNDLE_TYPE, judgementMember, MEMBER, type BundleManifest } from './format.js';
import { bundleHtml } from './html.js';
import { checkBundleAttestation } from './attestation.js';
import { checkMemberCount, checkReadable } from './limits.js';
import { manifestLeftOut } from './left-out.js';

import type { BundledReport, JournalBundle, OmittedEntry } from '../operations.js';

/** The report as a bundle holds it: without `run` (the times of the run that made it). */
export type { BundledReport, JournalBundle } from '../operations.js';

export interface BundleInput {
  report: Report | BundledReport;
  /** Inclusion proofs of the judgements, all against `checkpoint`. */
  proofs: readonly InclusionProof[];
  checkpoint: Checkpoint;
  /** For a TG replay: the DSSE envelope file's bytes as `reprise attest` writes them. */
  attestation?: Uint8Array | null;
  /** `--limit` overrides: the bundle must be one its verifier reads under them (limits.ts). */
  limits?: Record<string, number>;
  /** The journal's entries on the artifact left out (countedJudgements): listed in the manifest's `leftOut`. */
  omitted?: readonly OmittedEntry[];
}

const jsonMember = (v: unknown): Buffer => Buffer.from(canonicalizeValue(v) + '\n', 'utf8');

/**
 * The bundle's bytes. Throws (USAGE) when a proof is not against `checkpoint`; (REFUSED)
 * when its verifier would refuse the archive under `input.limits` (limits.ts).
 */
export function writeEvidenceBundle(input: BundleInput): Buffer {
  const { run: _run, ...given } = input.report as Report;
  // The page is made from the report as report.json holds it (canonical member order), as
  // the verifier rebuilds it: the engine's report lists some members in another order
  // (a TG replay's expressions), and the page prints them as they come.
  const report = JSON.parse(canonicalizeValue(given)) as typeof given;
  const sha = report.artifact.sha256;
  if (sha === null)
    throw new JournalError('the report names no artifact SHA-256: there is nothing to bundle evidence on', 'USAGE');
  const cpText = canonicalizeValue(input.checkpoint);
  const proofs = [...input.proofs].sort((a, b) => a.leafIndex - b.leafIndex);
  for (const p of proofs)
    if (canonicalizeValue(p.checkpoint) !== cpText)
      throw new JournalError(`the proof of entry ${p.leafIndex} is not against the bundle's checkpoint`, 'USAGE');
  const digest = reportDigest(report);
  const files: { name: string; data: Buffer }[] = [
    { name: MEMBER.report, data: jsonMember(report) },
    { name: MEMBER.html, data: Buffer.from(bundleHtml(report, proofs, input.checkpoint, digest), 'utf8') },
    { name: MEMBER.checkpoint, data: jsonMember(input.checkpoint) },
    ...proofs.map((p) => ({ name: judgementMember(p.leafIndex), data: jsonMember(p) })),
  ];
  if (input.attestation) files.push({ name: MEMBER.attestation, data: Buffer.from(input.attestation) });
  files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  checkMemberCount(
    files.length + 1,
    `the manifest, the report, its page, the checkpoint${input.attestation ? ', the attestation' : ''} and ${proofs.length} judgement(s)`,
    'a bundle carries every judgement the journal holds on its artifact',
    input.limits,
  );
  const manifest: BundleManifest = {
    type: BUNDLE_TYPE,
    artifact: { sha256: sha, kind: report.artifact.kind, id: report.artifact.id },
    reportDigest: digest,
    checkpoint: { treeSize: input.checkpoint.treeSize, rootHash: input.checkpoint.rootHash },
    members: files.map((f) => ({ name: f.name, sha256: hashBytes(f.data), size: f.data.length })),
  };
  const leftOut = manifestLeftOut(input.omitted ?? [], null);
  if (leftOut) manifest.leftOut = leftOut;
  return checkReadable(writeZip([{ name: MEMBER.manifest, data: jsonMember(manifest) }, ...files]), input.limits);
}

/**
 * The journal's verification, refused (JournalError) when it holds no entries, does not
 * verify, or has no checkpoint to prove judgements against: what every export needs.
 */
export async function provableJournal(
  dir: string,
  trust: TrustStore | null,
): Promise<{ v: JournalVerification; checkpoint: Checkpoint }> {
  const v = await verifyJournal(dir, trust);
  if (v.entryLines === 0 && v.latestCheckpoint === null)
    throw new JournalError(`${dir} holds no journal entries`, 'NOT_FOUND');
  const broken = v.findings.find((f) => f.severity === 'fail');
  if (broken)
    throw new JournalError(
      `journal ${dir} does not verify (${broken.rule}: ${broken.message}); run 'reprise journal verify ${dir}'`,
      'DAMAGED',
    );
  if (!v.latestCheckpoint)
    throw new JournalError(`journal ${dir} has no checkpoint to prove judgements against`, 'REFUSED');
  return { v, checkpoint: v.latestCheckpoint };
}

/**
 * The bundle of `report` with every judgement `dir` holds on its artifact. An entry on it
 * that is no judgement, or that no checkpoint covers (countedJudgements), is left out and
 * named in `omitted`. Refused
 * (JournalError) when the journal does not verify, has no checkpoint, or holds a judgement
 * made on another report of the artifact (its pointer would name an item of a report the
 * bundle does not hold: give that report instead), or when the attestation given would not
 * pass the bundle's verifier (refuseAttestation).
 */
export async function bundleFromJournal(
  dir: string,
  report: Report | BundledReport,
  trust: TrustStore | null,
  attestation?: Uint8Array | null,
  limits?: Record<string, number>,
): Promise<JournalBundle> {
  const sha = report.artifact.sha256;
  if (sha === null)
    throw new JournalError('the report names no artifact SHA-256: there is nothing to bundle evidence on', 'USAGE');
  if (attestation) refuseAttestation(attestation, trust, sha);
  const { v, checkpoint } = await provableJournal(dir, trust);
  const digest = reportDigest(report);
  const { judgements, omitted } = countedJudgements(judgementsIn(v, sha, trust));
  const other = judgements.filter((j) => j.reportDigest !== null && j.reportDigest !== digest);
  if (other.length > 0) {
    const list = other.map((j) => `seq ${j.seq} (${j.reportDigest})`).join(', ');
    throw new JournalError(
      `judgement(s) ${list} were recorded on another report of this artifact than the one exported (${digest}): export the report they judged (same engine options and mode)`,
      'REFUSED',
    );
  }
  refuseUnnamedItems(judgements.map((j) => ({ j, report })));
  const bytes = writeEvidenceBundle({
    report,
    proofs: provenProofs(dir, judgements),
    checkpoint,
    attestation: attestation ?? null,
    limits,
    omitted,
  });
  return { bytes, judgements, checkpoint, reportDigest: digest, omitted, artifactsLeftOut: [] };
}

/**
 * Refuses (REFUSED, nothing written) an attestation the bundle's verifier would not pass: a
 * `fail` of its check (attestation.ts, the verifier's own), or with a trust store any finding
 * at all (a signer the store does not hold is UNAVAILABLE there). Without a trust store its
 * signer is left to the verifier, as a judgement's role is: the export cannot tell.
 */
function refuseAttestation(bytes: Uint8Array, trust: TrustStore | null, artifact: string): void {
  const bad = checkBundleAttestation(bytes, trust, artifact).findings.find(
    (f) => f.severity === 'fail' || (trust !== null && f.severity === 'unavailable'),
  );
  if (bad)
    throw new JournalError(
      `the attestation does not verify (${bad.rule}: ${bad.message}): a bundle carrying it would fail its own verification, so none was written`,
      'REFUSED',
    );
}

/**
 * The judgements' inclusion proofs. Refused (DAMAGED, nothing written) when the journal in
 * `dir` could not prove one (JudgementRecord.proof null, its proofFindings saying why): a
 * bundle never carries a judgement without its proof, and leaving it out would hide it.
 */
export function provenProofs(dir: string, judgements: readonly JudgementRecord[]): InclusionProof[] {
  const unproven = judgements.filter((j) => j.proof === null);
  if (unproven.length > 0)
    throw new JournalError(
      `journal ${dir} cannot prove judgement(s) ${unproven.map((j) => `seq ${j.seq}`).join(', ')} (${unproven[0]!.proofFindings.join('; ')}): no bundle was written`,
      'DAMAGED',
    );
  return judgements.flatMap((j) => (j.proof ? [j.proof] : []));
}

/**
 * The entries that count as judgements, and those left out: an entry whose body is not a
 * judgement, or (with a trust store) whose signer may not sign one (not a reviewer's key, or
 * one the store revokes: judgementSignerProblem, 'recorded'). The bundle's verifier fails each
 * of those (RPR-EVB-013, RPR-EVB-008, RPR-EVB-005), and the journal is append-only, so
 * refusing the export would leave the artifact or case un-exportable for good: the export
 * leaves them out and names each (docs/evidence-bundle.md, "Export"). So is a judgement no
 * checkpoint covers yet (a write cut short before its checkpoint): it has no inclusion proof,
 * and the next write's checkpoint covers it; until then the bundle is incomplete. Every one
 * left out is listed in the manifest (left-out.ts), so the bundle's reader is told too.
 */
export function countedJudgements(all: readonly JudgementRecord[]): {
  judgements: JudgementRecord[];
  omitted: OmittedEntry[];
} {
  const judgements: JudgementRecord[] = [];
  const omitted: OmittedEntry[] = [];
  for (const j of all) {
    if (j.problem === null && j.proof !== null) judgements.push(j);
    else omitted.push(omittedOf(j));
  }
  return { judgements, omitted };
}

/** A judgement left out, named: no judgement, or one no checkpoint covers (its inclusion proof cannot be built). */
function omittedOf(j: JudgementRecord): OmittedEntry {
  const why =
    j.problem !== null
      ? `it is no judgement (${j.problem}), and a bundle carrying it would fail its own verification`
      : `no inclusion proof can be built for it (${j.proofFindings.join('; ')}), and a bundle carries every judgement with its proof: the bundle is incomplete without it (export again once a checkpoint covers it)`;
  return {
    seq: j.seq,
    entryHash: j.entryHash,
    author: j.author,
    decision: j.decision,
    status: j.problem !== null ? 'no-judgement' : 'unproven',
    problem: j.problem ?? j.proofFindings.join('; '),
    line: `left out entry seq ${j.seq} (${j.entryHash}), signed by ${j.author}: ${why}`,
  };
}

/**
 * Refuses (REFUSED, nothing written) judgements whose pointer names no item of the report they
 * judge: the bundle's verifier would fail each (RPR-EVB-012), so the export never writes a
 * bundle its verifier refuses. `report` is the one each names by its digest (null: none, as a
 * note's), whose pointer is then "" by the body rule.
 */
export function refuseUnnamedItems(
  list: readonly { j: JudgementRecord; report: Pick<Report, 'findings'> | null }[],
): void {
  const bad = list.flatMap(({ j, report }) => {
    const why = report && j.reportDigest !== null ? judgementPointerProblem(report, j.pointer) : null;
    return why ? [`seq ${j.seq} (${why})`] : [];
  });
  if (bad.length > 0)
    throw new JournalError(
      `judgement(s) ${bad.join(', ')} point at no item of the report they judge: their bundle would fail its own verification (RPR-EVB-012)`,
      'REFUSED',
    );
}
