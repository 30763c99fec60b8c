/**
 * `reprise journal verify|record|proof|check-proof|repair|unlock`: the evidence journal
 * (journal.md). Exit codes: verify/check-proof 0 pass, 1 fail, 2 unavailable; a write
 * that is refused (lock held, torn tail, bad input) exits 3 with one line.
 */
import { checkDirectorySync, readFailure, readRegularFile, writeOutputFile } from '../../core/files.js';
import { EXIT, exitOfVerdict, type ExitCode, type Report } from '../../../shared/report.js';
import { decodeJsonBytes, JcsError, parseCanonical } from '../../core/jcs.js';
import { loadSigner, loadTrustStore, type TrustStore } from '../../core/keys.js';
import { buildReport } from '../../core/report.js';
import { isHashString } from '../../core/hash.js';
import { ENTRY_KINDS, type EntryKind, type JsonObject } from '../../journal/format.js';
import { judgementBodyProblem } from '../../journal/judgement.js';
import { breakStaleLock } from '../../journal/lock.js';
import {
  checkConsistencyProof,
  checkInclusionProof,
  consistencyProofOf,
  CONSISTENCY_TYPE,
  inclusionProof,
} from '../../journal/proofs.js';
import { journalResultAuthenticity, proofAuthenticity } from '../../journal/authenticity.js';
import { withSigner } from '../../core/authenticity.js';
import { journalKindResult } from '../../journal/result.js';
import {
  checkHeldCheckpoint,
  checkHeldShapeAndSignature,
  verifyJournal,
  verifyJournalSince,
  type JournalVerification,
} from '../../journal/verify.js';
import { witnessFindings } from '../../journal/witness.js';
import { MAX_POLICY_BYTES, parseWitnessPolicy, type WitnessPolicy } from '../../journal/witness-policy.js';
import type { Checkpoint } from '../../journal/format.js';
import type { Finding } from '../../../shared/report.js';
import { info } from '../../core/findings.js';
import { isPlainObject } from '../../core/closed.js';
import { cosignCmd } from './journal-witness.js';
import { noteCmd, notesCmd } from './journal-note.js';
import { appendJudgementBody } from '../../journal/notes.js';
import { appendEntry, repairJournal } from '../../journal/writer.js';
import { parse } from '../args.js';
import type { CliIO, Command } from '../io.js';
import { formatReport, safeText } from '../../engine/report-text.js';
import { INFO } from './info.js';
import { UsageError } from '../../core/errors.js';
import { formatError } from '../output.js';
import { refuseWritesOn } from './outputs-on-inputs.js';

const USAGE = INFO.journal.usage;

function one(positionals: string[], what: string, usage: string): string {
  if (positionals.length !== 1)
    throw new UsageError(
      `${positionals.length === 0 ? `no ${what} given` : `unexpected argument ${positionals[1]}`}\nusage: ${usage}`,
    );
  return positionals[0]!;
}

function str(v: unknown, flag: string, usage: string): string {
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${flag} is required\nusage: ${usage}`);
  return v;
}

export async function readJsonFile(path: string, what: string): Promise<unknown> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path);
  } catch (e) {
    throw new UsageError(`cannot read ${what} ${path}: ${readFailure(e)}`, 'path');
  }
  try {
    return parseCanonical(decodeJsonBytes(bytes)).value;
  } catch (e) {
    throw new UsageError(`${what} ${path} is not valid JSON: ${e instanceof JcsError ? e.message : String(e)}`);
  }
}

function printReport(io: CliIO, r: Report, json: boolean, quiet: boolean): ExitCode {
  io.out(json ? JSON.stringify(r, null, 2) + '\n' : formatReport(r, quiet));
  return exitOfVerdict(r.verdict);
}

async function verifyCmd(args: string[], io: CliIO): Promise<ExitCode> {
  const usage =
    'reprise journal verify DIR [--trust-store FILE] [--checkpoint FILE | --since FILE] [--witness-policy FILE] [--json] [--quiet]';
  const spec = {
    'trust-store': { type: 'string' },
    checkpoint: { type: 'string' },
    since: { type: 'string' },
    'witness-policy': { type: 'string' },
    json: { type: 'boolean' },
    quiet: { type: 'boolean', short: 'q' },
  } as const;
  const { values, positionals } = parse(args, spec, usage);
  const dir = one(positionals, 'DIR', usage);
  if (typeof values['checkpoint'] === 'string' && typeof values['since'] === 'string')
    throw new UsageError('--checkpoint and --since exclude each other (--since checks the held checkpoint too)');
  const trust = typeof values['trust-store'] === 'string' ? await loadTrustStore(values['trust-store']) : null;
  const policy =
    typeof values['witness-policy'] === 'string' ? await readWitnessPolicy(values['witness-policy']) : null;
  const started = Date.now();
  const heldPath =
    typeof values['since'] === 'string'
      ? values['since']
      : typeof values['checkpoint'] === 'string'
        ? values['checkpoint']
        : null;
  const held = heldPath ? heldCheckpointOf(await readJsonFile(heldPath, 'checkpoint')) : undefined;
  const { v, extra } = await verifyAgainstHeld(dir, trust, held, typeof values['since'] === 'string');
  if (v.entryLines === 0 && v.findings.some((f) => f.rule === 'RPR-JOURNAL-001' && f.pointer === 'entry:entries.jsonl'))
    throw new UsageError(`${dir} is not a journal (no entries.jsonl)`);
  const result = journalKindResult(v);
  result.findings = [...result.findings, ...extra, ...(policy ? await witnessFindings(v, policy) : [])];
  const r = buildReport(
    { path: dir, kind: 'journal', sha256: null, ...result, authenticity: journalResultAuthenticity(result) },
    started,
  );
  return printReport(io, r, values['json'] === true, values['quiet'] === true);
}

/**
 * A held checkpoint: the checkpoint itself, or a report's details.latestCheckpoint. A report
 * that carries none (another kind's, or `{"details":{}}`) holds null, which the verification
 * refuses (RPR-JOURNAL-014): undefined would mean no held file at all, and a plain verify.
 */
function heldCheckpointOf(held: unknown): unknown {
  if (!isPlainObject(held) || !('details' in held)) return held;
  const details = held['details'];
  return isPlainObject(details) && 'latestCheckpoint' in details ? details['latestCheckpoint'] : null;
}

/**
 * Without a held checkpoint: a full verification. With one: the journal must extend it
 * (--checkpoint: after a full verification; --since: verifying only what came after it, or in
 * full when the journal's index cannot be used, which the report says).
 */
async function verifyAgainstHeld(
  dir: string,
  trust: TrustStore | null,
  held: unknown,
  since: boolean,
): Promise<{ v: JournalVerification; extra: Finding[] }> {
  if (held === undefined) return { v: await verifyJournal(dir, trust, { keep: false }), extra: [] };
  const heldFindings = checkHeldShapeAndSignature(held, trust);
  if (since && !heldFindings.some((f) => f.severity === 'fail')) {
    const cp = held as Checkpoint;
    const v = cp.treeSize >= 1 ? await verifyJournalSince(dir, cp, trust, { keep: false }) : null;
    if (v) return { v, extra: heldFindings };
    const full = await verifyJournal(dir, trust, { keep: false });
    const note = info(
      'RPR-JOURNAL-000',
      `the journal's index could not be used from the held checkpoint (absent, stale, or it does not give the held root): verified in full`,
    );
    return { v: full, extra: [note, ...checkHeldCheckpoint(full, held, trust)] };
  }
  const v = await verifyJournal(dir, trust, { keep: false });
  return { v, extra: checkHeldCheckpoint(v, held, trust) };
}

async function readWitnessPolicy(path: string): Promise<WitnessPolicy> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path, MAX_POLICY_BYTES);
  } catch (e) {
    throw new UsageError(`cannot read the witness policy ${path}: ${readFailure(e)}`, 'path');
  }
  return parseWitnessPolicy(bytes, path);
}

async function recordCmd(args: string[], io: CliIO): Promise<ExitCode> {
  const usage =
    'reprise journal record DIR --kind KIND --claim REF [--artifact HASH] --body-file F --key KEYFILE [--trust-store FILE] [--json]';
  const { values, positionals } = parse(
    args,
    {
      kind: { type: 'string' },
      claim: { type: 'string' },
      artifact: { type: 'string' },
      'body-file': { type: 'string' },
      key: { type: 'string' },
      'trust-store': { type: 'string' },
      json: { type: 'boolean' },
    },
    usage,
  );
  const dir = one(positionals, 'DIR', usage);
  const kind = str(values['kind'], 'kind', usage);
  if (!ENTRY_KINDS.includes(kind as EntryKind)) throw new UsageError(`--kind must be one of ${ENTRY_KINDS.join(', ')}`);
  if (kind.startsWith('quarantine-') || kind === 'journal-repair')
    throw new UsageError(
      `entries of kind ${kind} are written by 'reprise ${kind === 'journal-repair' ? 'journal repair' : 'quarantine'}', which checks the workflow`,
    );
  const claim = str(values['claim'], 'claim', usage);
  const artifact = values['artifact'];
  if (artifact !== undefined && !isHashString(artifact))
    throw new UsageError('--artifact takes a sha256:<64 lowercase hex> hash');
  const body = await readJsonFile(str(values['body-file'], 'body-file', usage), 'body file');
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new UsageError('the body file must hold a JSON object');
  // A review rationale on an artifact is a judgement: exports bundle it, so it must be one.
  const judgement =
    kind === 'review-rationale' && typeof artifact === 'string' ? judgementBodyProblem(body, 'new') : null;
  if (judgement) throw new UsageError(`a review-rationale on an artifact is a judgement: ${judgement}`);
  const signer = await loadSigner(str(values['key'], 'key', usage));
  // With the trust store, the journal is verified with every author's key before this entry is
  // signed onto it, and the signer must be one the store lists and has not revoked (the writer).
  const trustStore = typeof values['trust-store'] === 'string' ? await loadTrustStore(values['trust-store']) : null;
  // A judgement obeys the rules `journal note` and the workbench obey: the signer's role and
  // what a `supersedes` may name (notes.ts), checked before anything is written.
  const r =
    kind === 'review-rationale' && typeof artifact === 'string'
      ? await appendJudgementBody(
          dir,
          { subject: { claimRef: claim, artifact }, body: body as JsonObject, what: 'judgement' },
          signer,
          trustStore,
        )
      : await appendEntry(
          dir,
          {
            kind: kind as EntryKind,
            subject: { claimRef: claim, ...(artifact ? { artifact } : {}) },
            body: body as JsonObject,
          },
          signer,
          { trustStore },
        );
  // spec/cli.md lets a judgement be recorded without a trust store: it is written, and its
  // signer is told that nobody checked who may sign one, since a reader's store decides.
  if (trustStore === null && kind === 'review-rationale' && typeof artifact === 'string')
    io.err(
      formatError(
        `note: no --trust-store was given, so whether ${signer.keyId} may sign a judgement was not checked; a reader counts this judgement only if their trust store lists that key as an active reviewer's`,
      ),
    );
  if (values['json'])
    io.out(JSON.stringify({ seq: r.seq, entryHash: r.entryHash, checkpoint: r.checkpoint }, null, 2) + '\n');
  else
    io.out(
      `seq ${r.seq}\nentry ${r.entryHash}\ncheckpoint tree ${r.checkpoint.treeSize} root ${r.checkpoint.rootHash} at ${r.checkpoint.timestampUtc}\n`,
    );
  return EXIT.pass;
}

async function proofCmd(args: string[], io: CliIO): Promise<ExitCode> {
  const usage = 'reprise journal proof DIR (--entry N | --from SIZE) [--out FILE]';
  const { values, positionals } = parse(
    args,
    { entry: { type: 'string' }, from: { type: 'string' }, out: { type: 'string' } },
    usage,
  );
  const dir = one(positionals, 'DIR', usage);
  const which = typeof values['entry'] === 'string' ? 'entry' : typeof values['from'] === 'string' ? 'from' : null;
  if (which === null || (values['entry'] !== undefined && values['from'] !== undefined))
    throw new UsageError(
      `give one of --entry N (an inclusion proof) or --from SIZE (a consistency proof)\nusage: ${usage}`,
    );
  const n = values[which] as string;
  if (!/^\d+$/.test(n) || !Number.isSafeInteger(Number(n))) throw new UsageError(`--${which} takes a whole number`);
  if (typeof values['out'] === 'string')
    await refuseWritesOn([['--out', values['out']]], [{ path: dir, named: 'the journal' }]);
  // A proof without its signed note still checks with Reprise, but not with the tools that read notes: said
  // (once the proof is out, so a write that fails says only that), never silent.
  let noNote: string | null = null;
  const gap = (why: string) => void (noNote = why);
  const proof =
    which === 'entry' ? await inclusionProof(dir, Number(n), gap) : await consistencyProofOf(dir, Number(n), gap);
  const text = JSON.stringify(proof, null, 2) + '\n';
  if (typeof values['out'] === 'string') {
    await writeOutputFile(values['out'], text);
    io.err(
      `${which === 'entry' ? `proof of entry ${n}` : `consistency proof from tree ${n}`} against tree ${proof.treeSize} written to ${safeText(values['out'])}\n`,
    );
  } else io.out(text);
  if (noNote !== null)
    io.err(
      `reprise: note: the proof carries no signed note (its checkpoint in the C2SP form other tools read): ${noNote}; its signed checkpoint is in it, and 'reprise journal check-proof' checks it\n`,
    );
  return EXIT.pass;
}

async function checkProofCmd(args: string[], io: CliIO): Promise<ExitCode> {
  const usage = 'reprise journal check-proof FILE [--trust-store FILE] [--json] [--quiet]';
  const { values, positionals } = parse(
    args,
    { 'trust-store': { type: 'string' }, json: { type: 'boolean' }, quiet: { type: 'boolean', short: 'q' } },
    usage,
  );
  const file = one(positionals, 'FILE', usage);
  const trust = typeof values['trust-store'] === 'string' ? await loadTrustStore(values['trust-store']) : null;
  const started = Date.now();
  const doc = await readJsonFile(file, 'proof');
  const c =
    isPlainObject(doc) && doc['type'] === CONSISTENCY_TYPE
      ? checkConsistencyProof(doc, trust)
      : checkInclusionProof(doc, trust);
  const result = { id: c.checkpoint?.rootHash ?? null, findings: c.findings, chain: [] };
  const r = buildReport(
    { path: file, kind: 'journal', sha256: null, ...result, authenticity: withSigner(proofAuthenticity(c), trust) },
    started,
  );
  return printReport(io, r, values['json'] === true, values['quiet'] === true);
}

async function repairCmd(args: string[], io: CliIO): Promise<ExitCode> {
  const usage = 'reprise journal repair DIR --key KEYFILE [--trust-store FILE] [--json]';
  const { values, positionals } = parse(
    args,
    { key: { type: 'string' }, 'trust-store': { type: 'string' }, json: { type: 'boolean' } },
    usage,
  );
  const dir = one(positionals, 'DIR', usage);
  const signer = await loadSigner(str(values['key'], 'key', usage));
  // With a store, the repair's signer is checked as any writer's is (unknown, revoked, retired: refused).
  const trustStore = typeof values['trust-store'] === 'string' ? await loadTrustStore(values['trust-store']) : null;
  const r = await repairJournal(dir, signer, { trustStore });
  if (values['json'])
    io.out(
      JSON.stringify(
        r
          ? {
              repaired: true,
              truncated: r.truncated,
              seq: r.entry.seq,
              entryHash: r.entry.entryHash,
              checkpoint: r.entry.checkpoint,
            }
          : { repaired: false },
        null,
        2,
      ) + '\n',
    );
  else if (!r) io.out(`nothing to repair: ${safeText(dir)} has no torn tail\n`);
  else {
    for (const t of r.truncated)
      io.out(`truncated ${safeText(t.file)} at byte ${t.offset}: ${t.length} torn byte(s) ${t.sha256}\n`);
    io.out(
      `repair journaled as seq ${r.entry.seq} (${r.entry.entryHash}); checkpoint tree ${r.entry.checkpoint.treeSize} root ${r.entry.checkpoint.rootHash}\n`,
    );
  }
  return EXIT.pass;
}

async function unlockCmd(args: string[], io: CliIO): Promise<ExitCode> {
  const usage = 'reprise journal unlock DIR [--force]';
  const { values, positionals } = parse(args, { force: { type: 'boolean' } }, usage);
  const dir = one(positionals, 'DIR', usage);
  // "not locked" is said of a folder only: a typo, or a file, must not read as an all-clear.
  checkDirectorySync(dir, false);
  const info = await breakStaleLock(dir, values['force'] === true);
  const held =
    info?.unreadable !== undefined
      ? `a lock whose holder could not be read (${info.unreadable})`
      : `the stale lock of pid ${info?.pid} on ${safeText(info?.host ?? '?')} (since ${safeText(info?.sinceUtc ?? '?')})`;
  io.out(info ? `removed ${held}\n` : `${safeText(dir)} is not locked\n`);
  return EXIT.pass;
}

const SUBS: Record<string, (args: string[], io: CliIO) => Promise<ExitCode>> = {
  verify: verifyCmd,
  record: recordCmd,
  proof: proofCmd,
  'check-proof': checkProofCmd,
  repair: repairCmd,
  cosign: cosignCmd,
  note: noteCmd,
  notes: notesCmd,
  unlock: unlockCmd,
};

export const journalCommand: Command = {
  ...INFO.journal,
  async run(args, io) {
    const [sub, ...rest] = args;
    const fn = sub !== undefined ? SUBS[sub] : undefined;
    if (!fn)
      throw new UsageError(
        `unknown journal subcommand ${sub === undefined ? '(none)' : JSON.stringify(sub)}\nusage: ${USAGE}`,
      );
    return fn(rest, io);
  },
};
