/**
 * What an evidence journal offers a reviewer's case (KindOperations.caseFacts, docs/case.md),
 * streamed from its two files after its verification (which says what is wrong with any line):
 * a line that does not parse as an entry or a checkpoint offers nothing.
 *
 * The journal is named by its entries file's SHA-256 and each entry by its entry hash (what
 * a TG RECORDED output's anchor names); each entry names its subject's artifact
 * (`subject`) and its claim (`claim`: a quarantine case, a replay's drift and comparison;
 * see NOT_A_CLAIM), neither expected in the case (a journal covers more than one case).
 * Every entry and checkpoint is a timeline event; the judgements (review-rationale entries)
 * are listed for the case to keep those on its artifacts, each with whether it counts, by
 * the rules `reprise journal notes` applies (app/journal/notes.ts and judgement-rules.ts:
 * a judgement body, a signer the case's trust store lets sign one, an edit of a note on the
 * same artifact that nothing supersedes yet): one that does not count says why, and without
 * a trust store who signed it is said to be unchecked.
 */
import { ChangedWhileReadError } from '../../core/errors.js';
import { formatHash, newHasher } from '../../core/hash.js';
import { isPlainObject as isObj } from '../../core/closed.js';
import type { TrustStore } from '../../core/keys.js';
import { CHECKPOINTS_FILE, ENTRIES_FILE, entryHash, type Entry } from '../../journal/format.js';
import { judgementBodyProblem, judgementSignerProblem } from '../../journal/judgement-rules.js';
import { MerkleTree } from '../../journal/merkle.js';
import { NoteEdits } from '../../journal/note-edits.js';
import { streamLines, type RawLine } from '../../journal/read.js';
import type { JournalVerification } from '../../journal/verify.js';
import type { CaseFacts, CaseJudgementFact } from '../operations.js';

/** What the journal's verification read: the facts must be of the same bytes. */
export type VerifiedRead = Pick<
  JournalVerification,
  'root' | 'entryLines' | 'entriesBytes' | 'checkpointLines' | 'checkpointsBytes'
>;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

/** The line's JSON object (its text as the stream decoded it, when it could), or null. */
function parsed(l: RawLine, text: string | undefined): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text ?? l.bytes.toString('utf8'));
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
}

function checkpointEvent(
  l: RawLine,
  text: string | undefined,
  out: { line: number; root: string | null; event: CaseFacts['events'][number] }[],
): void {
  const c = parsed(l, text);
  // A time that is there is an event, placeable or not (the case lists one it cannot place).
  const at: unknown = c?.['timestampUtc'] ?? null;
  if (!c || at === null) return;
  out.push({
    line: l.line,
    root: str(c['rootHash']),
    event: {
      atUtc: at,
      pointer: `entry:${CHECKPOINTS_FILE}:line:${l.line}`,
      label: `checkpoint signed (tree size ${String(c['treeSize'])})`,
      node: null,
    },
  });
}

/**
 * Every entry names its claim (`subject.claimRef`: a quarantine case and its decisions, a
 * replay's drift and comparison…) but these, whose claimRef is a stand-in: a judgement's or
 * note's is the judged artifact's own id or hash (its `subject` link names what it judges),
 * a recalibration flag's a model version (`model:<id>`).
 */
const NOT_A_CLAIM: ReadonlySet<string> = new Set(['review-rationale', 'recalibration-flag']);

const LABELS: Record<string, string> = {
  'quarantine-open': 'quarantine case opened',
  'quarantine-release': 'quarantine case released',
  'quarantine-uphold': 'quarantine case upheld',
  'quarantine-escalate': 'quarantine case escalated',
  'replay-drift': 'replay drift recorded',
  'recalibration-flag': 'recalibration flag raised',
  'replay-comparison': 'replay comparison recorded',
  'journal-repair': 'journal repaired',
};

/**
 * The journal's facts, read a second time after its verification (`verified`: what that read
 * saw). Streamed as its verification reads it (app/journal/read.ts): memory stays bounded
 * whatever the journal's size, and the entries file's SHA-256 and Merkle root over every
 * line are taken on the same read. Throws ChangedWhileReadError when the files are not the
 * ones verified (a journal written to, or swapped, while the case ran).
 */
export async function journalCaseFacts(
  dir: string,
  verified?: VerifiedRead,
  trust: TrustStore | null = null,
): Promise<CaseFacts> {
  const facts: CaseFacts = { identities: [], references: [], events: [], judgements: [] };
  const standing = new Standing(trust);
  const sha = newHasher();
  const tree = new MerkleTree();
  const entries = await streamLines(
    dir,
    ENTRIES_FILE,
    (lines, texts) =>
      lines.forEach((l, i) => {
        tree.appendLeaf(l.bytes);
        entryFacts(l, texts?.[i], facts, standing);
      }),
    // A line too long to hold offers nothing (its verification reports it) but its leaf.
    (l) => tree.appendLeafHash(l.leaf),
    undefined,
    sha,
  );
  facts.sha256 = formatHash(sha.digest('hex'));
  const checkpoints: { line: number; root: string | null; event: CaseFacts['events'][number] }[] = [];
  const read = await streamLines(
    dir,
    CHECKPOINTS_FILE,
    (lines, texts) => lines.forEach((l, i) => checkpointEvent(l, texts?.[i], checkpoints)),
    () => undefined,
  );
  if (verified) {
    const now = { root: formatHash(tree.root().toString('hex')), entries, checkpoints: read };
    const changed = changedSince(verified, now);
    if (changed) throw new ChangedWhileReadError(dir, changed);
  }
  // The last line, when it is a checkpoint, is the one the journal's report has a node for;
  // its root is the journal's id (the report's artifact.id), which an exported report of the
  // journal names it by.
  const last = checkpoints.at(-1);
  if (last && last.line === read.lines) {
    last.event.node = 'checkpoint:latest';
    if (last.root) facts.identities.push({ value: last.root, pointer: `entry:${CHECKPOINTS_FILE}:line:${last.line}` });
  }
  for (const c of checkpoints) facts.events.push(c.event);
  return facts;
}

/** What differs between the verification's read and this one, or null when nothing does. */
function changedSince(
  v: VerifiedRead,
  now: { root: string; entries: { lines: number; size: number }; checkpoints: { lines: number; size: number } },
): string | null {
  if (now.entries.lines !== v.entryLines || now.root !== v.root)
    return `${ENTRIES_FILE}: ${v.entryLines} line(s) with root ${v.root} verified, ${now.entries.lines} with root ${now.root} read`;
  if (now.entries.size !== v.entriesBytes)
    return `${ENTRIES_FILE}: ${v.entriesBytes} bytes verified, ${now.entries.size} read`;
  if (now.checkpoints.lines !== v.checkpointLines || now.checkpoints.size !== v.checkpointsBytes)
    return `${CHECKPOINTS_FILE}: ${v.checkpointLines} line(s), ${v.checkpointsBytes} bytes verified; ${now.checkpoints.lines}, ${now.checkpoints.size} read`;
  return null;
}

/**
 * Whether each judgement read counts, in journal order, by the rules `reprise journal notes`
 * applies (app/journal/notes.ts `notesIn` and `supersedeProblem`, judgement-rules.ts): its body
 * is a judgement (judgementBodyProblem); with a trust store, its signer may sign one
 * (judgementSignerProblem, as for an entry already recorded: a key revoked since fails, a
 * retired one does not); an edit names a note above it on the same artifact that no counted
 * edit supersedes yet. Only an edit that counts supersedes (the first one). Without a trust
 * store the signer cannot be judged: such an entry is `unchecked`, never `counts`.
 * Memory: one record per note read.
 */
class Standing {
  private readonly edits = new NoteEdits();

  constructor(private readonly trust: TrustStore | null) {}

  judge(
    e: Record<string, unknown>,
    hash: string,
    artifact: string,
  ): Required<Pick<CaseJudgementFact, 'standing' | 'problem'>> {
    const body = e['body'] as Record<string, unknown>;
    const author = typeof e['author'] === 'string' ? e['author'] : '';
    const supersedes = body['supersedes'];
    const problem =
      judgementBodyProblem(body) ??
      (this.trust ? judgementSignerProblem(author, this.trust, 'recorded') : null) ??
      (typeof supersedes === 'string' ? this.edits.problem(supersedes, artifact) : null);
    const decision = typeof body['decision'] === 'string' ? body['decision'] : null;
    const edit = typeof supersedes === 'string' ? supersedes : null;
    this.edits.read({ entryHash: hash, artifact, decision, supersedes: edit, counts: problem === null });
    if (problem !== null) return { standing: 'does-not-count', problem };
    return { standing: this.trust ? 'counts' : 'unchecked', problem: null };
  }
}

function entryFacts(l: RawLine, text: string | undefined, facts: CaseFacts, standing: Standing): void {
  const e = parsed(l, text);
  if (!e || typeof e['seq'] !== 'number' || !isObj(e['subject']) || !isObj(e['body'])) return;
  const pointer = `line:${l.line}`;
  let hash: string;
  try {
    hash = entryHash(e as unknown as Entry);
  } catch {
    return; // not canonicalizable: its verification says so
  }
  facts.identities.push({ value: hash, pointer });
  const kind = str(e['kind']) ?? 'entry';
  const subject = e['subject'];
  const artifact = str(subject['artifact']);
  if (artifact) facts.references.push({ pointer, relation: 'subject', value: artifact, expected: false });
  const claim = str(subject['claimRef']);
  if (claim && !NOT_A_CLAIM.has(kind))
    facts.references.push({ pointer, relation: 'claim', value: claim, expected: false, space: 'claim' });
  // Placeable or not, a time that is there is an event (the case lists one it cannot place).
  const at: unknown = e['recordedAtUtc'] ?? null;
  const decision = str(e['body']['decision']);
  if (at !== null) {
    const label = kind === 'review-rationale' ? `judgement: ${decision ?? '?'}` : (LABELS[kind] ?? kind);
    const named = claim && kind.startsWith('quarantine-') ? `${label} (${claim})` : label;
    facts.events.push({ atUtc: at, pointer, label: named, node: null });
  }
  if (kind !== 'review-rationale' || !artifact) return;
  const judged = standing.judge(e, hash, artifact);
  const names = str(e['body']['reportDigest']);
  // Listed whatever its time: one its journal's verification fails is still recorded on the artifact.
  facts.judgements!.push({
    seq: e['seq'],
    entryHash: hash,
    subject: artifact,
    decision: decision ?? '',
    rationale: str(e['body']['rationale']) ?? '',
    author: str(e['author']) ?? '',
    atUtc: typeof at === 'string' ? at : (JSON.stringify(at) ?? ''),
    supersedes: str(e['body']['supersedes']),
    ...judged,
    ...(names === null ? {} : { names }),
  });
}
