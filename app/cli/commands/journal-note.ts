/**
 * Reviewer notes on an artifact (app/journal/notes.ts, docs/journal.md "Notes"):
 *
 *   reprise journal note DIR --artifact HASH --body-file F --key KEYFILE --trust-store FILE [--supersedes ENTRYHASH] [--json]
 *   reprise journal notes DIR --artifact HASH [--trust-store FILE] [--json]
 *
 * `note` appends a note (or an edit of one, with --supersedes), signed by a reviewer key and
 * anchored; it is refused, with nothing written, on a journal that does not verify. `notes`
 * lists every version of every note on the artifact, the superseded ones too, each with its
 * proof, its author (trust-store label and key id) and, when it does not count, why. A note is
 * only as good as the journal that holds it, so `notes` gives the journal's verdict as
 * `quarantine list` does: when it is not pass, the verdict and its failures on stderr, and the
 * exit is the verdict's (0 pass, 1 fail, 2 unavailable: without a trust store nobody's
 * authorship can be decided). `note` exits 0; both exit 3 with one line on a usage error or a
 * refusal.
 */
import { EXIT, exitOfVerdict, verdictOf, type ExitCode } from '../../../shared/report.js';
import { UsageError } from '../../core/errors.js';
import { FileReadError, readFailure, readUtf8File } from '../../core/files.js';
import { isHashString } from '../../core/hash.js';
import { loadSigner, loadTrustStore } from '../../core/keys.js';
import { safeNoteText, safeText } from '../../core/text.js';
import { formatFinding } from '../../engine/report-text.js';
import { formatError } from '../output.js';
import { listNotes, MAX_NOTE_TEXT_BYTES, recordNote, type NoteRecord } from '../../journal/notes.js';
import type { JournalVerification } from '../../journal/verify.js';
import { parse } from '../args.js';
import type { CliIO } from '../io.js';

function hashFlag(v: unknown, flag: string, usage: string): string {
  if (typeof v !== 'string' || v === '') throw new UsageError(`--${flag} is required\nusage: ${usage}`);
  if (!isHashString(v)) throw new UsageError(`--${flag} takes a sha256:<64 lowercase hex> hash`);
  return v;
}

function dirOf(positionals: string[], usage: string): string {
  if (positionals.length !== 1) throw new UsageError(`expected exactly one DIR\nusage: ${usage}`);
  return positionals[0]!;
}

/** The note's text, and what to say about the file once it is signed (its byte order mark), if anything. */
async function noteText(path: unknown, usage: string, said: (line: string) => void): Promise<string> {
  if (typeof path !== 'string' || path === '') throw new UsageError(`--body-file is required\nusage: ${usage}`);
  return readUtf8File(path, '--body-file', MAX_NOTE_TEXT_BYTES, said).catch((e: unknown) => {
    if (e instanceof UsageError && !(e instanceof FileReadError)) throw e;
    throw new UsageError(`cannot read --body-file ${path}: ${readFailure(e)}`, 'path');
  });
}

export async function noteCmd(args: string[], io: CliIO): Promise<ExitCode> {
  const usage =
    'reprise journal note DIR --artifact HASH --body-file F --key KEYFILE --trust-store FILE [--supersedes ENTRYHASH] [--json]';
  const { values, positionals } = parse(
    args,
    {
      artifact: { type: 'string' },
      'body-file': { type: 'string' },
      key: { type: 'string' },
      'trust-store': { type: 'string' },
      supersedes: { type: 'string' },
      json: { type: 'boolean' },
    },
    usage,
  );
  const dir = dirOf(positionals, usage);
  const artifact = hashFlag(values['artifact'], 'artifact', usage);
  const supersedes = values['supersedes'] === undefined ? null : hashFlag(values['supersedes'], 'supersedes', usage);
  let afterSigning: string | null = null;
  const text = await noteText(values['body-file'], usage, (line) => (afterSigning = line));
  if (typeof values['key'] !== 'string') throw new UsageError(`--key KEYFILE is required\nusage: ${usage}`);
  if (typeof values['trust-store'] !== 'string')
    throw new UsageError(`--trust-store FILE is required: it names the reviewer who signs\nusage: ${usage}`);
  const trust = await loadTrustStore(values['trust-store']);
  const signer = await loadSigner(values['key']);
  const r = await recordNote(dir, { artifact, text, supersedes }, signer, trust);
  if (afterSigning !== null) io.err(formatError(`note: ${afterSigning}`));
  const out = {
    seq: r.seq,
    entryHash: r.entryHash,
    supersedes,
    checkpoint: { treeSize: r.checkpoint.treeSize, rootHash: r.checkpoint.rootHash },
    proofVerified: r.proofVerified,
  };
  if (values['json']) io.out(JSON.stringify(out, null, 2) + '\n');
  else
    io.out(
      `note seq ${r.seq}\nentry ${r.entryHash}\n${supersedes ? `supersedes ${supersedes}\n` : ''}checkpoint tree ${r.checkpoint.treeSize} root ${r.checkpoint.rootHash}\nproof ${r.proofVerified ? 'verified' : 'NOT verified'}\n`,
    );
  return EXIT.pass;
}

/** The fields `journal notes --json` gives per note (`label` added later: older readers ignore it). */
function listedNote(n: NoteRecord) {
  return {
    seq: n.seq,
    entryHash: n.entryHash,
    atUtc: n.entry.recordedAtUtc,
    author: n.author,
    label: n.label,
    text: n.rationale,
    supersedes: n.supersedes,
    supersededBy: n.supersededBy,
    problem: n.problem,
    proofVerified: n.proofVerified,
    // Why its inclusion proof does not verify, or why none could be built (a damaged tree).
    proofFindings: n.proofFindings,
  };
}
type ListedNote = ReturnType<typeof listedNote>;

/**
 * Who signed a version: an "edit" by another reviewer must not read as the author's own. The
 * label is the trust store's; without one, or for a key it lacks, the key id alone, saying so.
 */
function authorText(n: ListedNote, trusted: boolean): string {
  const key = safeText(n.author);
  if (n.label !== null) return `${safeText(n.label)} ${key}`;
  return `${key} (${trusted ? 'not in the trust store' : 'unchecked: no trust store'})`;
}

/**
 * A note with a problem counts for nothing (notesIn gives it no supersession), so it is never
 * called latest nor said to edit: its problem stands where the status would.
 */
function noteLine(n: ListedNote, trusted: boolean): string {
  const by = n.supersededBy ? ` (superseded by ${n.supersededBy})` : '';
  const status = n.problem
    ? ` (does not count: ${safeText(n.problem)})${by}${n.supersedes ? ` claims to edit ${n.supersedes}` : ''}`
    : `${by || ' (latest)'}${n.supersedes ? ` edits ${n.supersedes}` : ''}`;
  const proof = n.proofVerified
    ? ''
    : `  proof NOT verified: ${safeText(n.proofFindings.join('; ') || 'no reason given')}\n`;
  return `#${n.seq} ${safeText(n.atUtc)} ${n.entryHash}${status}\n  by ${authorText(n, trusted)}\n${proof}  ${safeNoteText(n.text)}\n`;
}

/** A directory without entries.jsonl is a usage error, as for `quarantine list`, not a failing journal. */
function notAJournal(v: JournalVerification): boolean {
  return (
    v.entryLines === 0 && v.findings.some((f) => f.rule === 'RPR-JOURNAL-001' && f.pointer === 'entry:entries.jsonl')
  );
}

export async function notesCmd(args: string[], io: CliIO): Promise<ExitCode> {
  const usage = 'reprise journal notes DIR --artifact HASH [--trust-store FILE] [--json]';
  const { values, positionals } = parse(
    args,
    { artifact: { type: 'string' }, 'trust-store': { type: 'string' }, json: { type: 'boolean' } },
    usage,
  );
  const dir = dirOf(positionals, usage);
  const artifact = hashFlag(values['artifact'], 'artifact', usage);
  const trust = typeof values['trust-store'] === 'string' ? await loadTrustStore(values['trust-store']) : null;
  const { notes, verification } = await listNotes(dir, artifact, trust);
  if (notAJournal(verification)) throw new UsageError(`${dir} is not a journal (no entries.jsonl)`);
  const verdict = verdictOf(verification.findings);
  const findings = verification.findings.filter((f) => f.severity === 'fail' || f.severity === 'unavailable');
  const list = notes.map(listedNote);
  if (values['json']) io.out(JSON.stringify({ artifact, notes: list, verdict, findings }, null, 2) + '\n');
  else {
    if (findings.length > 0)
      io.err(
        `journal verdict ${verdict.toUpperCase()}: the notes below are only as good as the journal\n${findings.map(formatFinding).join('\n')}\n`,
      );
    for (const n of list) io.out(noteLine(n, trust !== null));
  }
  return exitOfVerdict(verdict);
}
