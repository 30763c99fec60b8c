/**
 * Witnesses (docs/journal-notes.md): a witness cosigns a journal's checkpoint only after
 * checking that it extends the last checkpoint that witness cosigned, and a verifier can
 * require k of n named witnesses (a Sigsum/litewitness-style policy) before it trusts a
 * checkpoint. Cosignatures are kept in `cosignatures.jsonl`, one canonical JSON object per
 * line: `{line, rootHash, treeSize, witness}`, `line` the C2SP cosignature/v1 signature line.
 * A cosignature signs only the checkpoint's text (origin, size, root), so the note a quorum
 * is evaluated on is rebuilt from the journal's own tree at that size.
 */
import { join } from 'node:path';
import type { Finding } from '../../shared/report.js';
import { isPlainObject } from '../core/closed.js';
import { FileReadError } from '../core/files.js';
import { fail, info, warning } from '../core/findings.js';
import { formatHash, isHashString } from '../core/hash.js';
import { canonicalizeValue, parseCanonical } from '../core/jcs.js';
import { rawPublicKey, type Signer, type TrustStore } from '../core/keys.js';
import { ioReason, JournalError } from './errors.js';
import { COSIGNATURES_FILE, journalOrigin } from './format.js';
import { openJournalFile } from './frontier.js';
import { verifyConsistency, type MerkleView } from './merkle.js';
import { addSignatures, checkpointBody, cosign, NoteError, parseNote, verifyNote } from './note.js';
import type { JournalVerification } from './verify.js';
import { evaluateQuorum, witnessLineProblems, type WitnessPolicy } from './witness-policy.js';
import { JournalWriter } from './writer.js';

export interface Cosignature {
  witness: string;
  treeSize: number;
  rootHash: string;
  /** The signature line, newline included. */
  line: string;
}

/** The most cosignature lines read (a witness cosigns now and then; a hostile file is bounded). */
const MAX_COSIGNATURES_BYTES = 16 * 1024 * 1024;

const TORN = 'is not ended by a newline (a torn write)';

/** What cosignatures.jsonl holds: its well-formed lines (each with its line number), and why each other line is not one. */
export interface CosignatureLines {
  cosignatures: (Cosignature & { at: number })[];
  damaged: { line: number; why: string }[];
}

/**
 * Reads cosignatures.jsonl (absent: none), keeping each malformed line as damage named by
 * its line, so that a verifier reports it as a finding and still weighs the good lines.
 * Throws JournalError for a file that cannot be read at all (IO) or is too large (DAMAGED).
 */
export async function readCosignatureLines(dir: string): Promise<CosignatureLines> {
  let fh;
  try {
    fh = await openJournalFile(dir, COSIGNATURES_FILE, 'read');
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return { cosignatures: [], damaged: [] };
    // A refusal of the journal's own (a symbolic link, not a regular file) says why; an errno is said as one.
    const why = e instanceof FileReadError ? e.reason : ioReason(e);
    throw new JournalError(`cannot read ${join(dir, COSIGNATURES_FILE)}: ${why}`, 'IO');
  }
  try {
    if ((await fh.stat()).size > MAX_COSIGNATURES_BYTES)
      throw new JournalError(`${COSIGNATURES_FILE} is larger than ${MAX_COSIGNATURES_BYTES} bytes`, 'DAMAGED');
    const lines = (await fh.readFile()).toString('utf8').split('\n');
    // The last piece follows the last newline: empty in a whole file, a torn line otherwise.
    const torn = lines.pop();
    const out: CosignatureLines = { cosignatures: [], damaged: [] };
    lines.forEach((l, i) => {
      const c = cosignatureOf(l);
      if (typeof c === 'string') out.damaged.push({ line: i + 1, why: c });
      else out.cosignatures.push({ ...c, at: i + 1 });
    });
    if (torn) out.damaged.push({ line: lines.length + 1, why: TORN });
    return out;
  } finally {
    await fh.close();
  }
}

/** Reads cosignatures.jsonl (absent: none) for a witness about to cosign; a malformed line is an error naming it. */
export async function readCosignatures(dir: string): Promise<Cosignature[]> {
  const { cosignatures, damaged } = await readCosignatureLines(dir);
  const bad = damaged[0];
  // A torn last line would swallow the next cosignature (one line of two): cut it first, journaled.
  const torn = bad?.why === TORN ? ` (run 'reprise journal repair ${dir}')` : '';
  // Refused (exit 1), as a cosignature onto a journal that does not verify is.
  if (bad)
    throw new JournalError(
      `refused to cosign: ${COSIGNATURES_FILE} line ${bad.line} ${bad.why}${torn}; nothing was written`,
      'REFUSED',
    );
  return cosignatures;
}

/** The cosignature a line holds, or why it holds none. */
function cosignatureOf(text: string): Cosignature | string {
  let v: unknown;
  try {
    v = parseCanonical(text).value;
  } catch {
    return 'is not canonical JSON';
  }
  if (
    !isPlainObject(v) ||
    typeof v['witness'] !== 'string' ||
    typeof v['line'] !== 'string' ||
    !isHashString(v['rootHash']) ||
    !(typeof v['treeSize'] === 'number' && Number.isSafeInteger(v['treeSize']) && v['treeSize'] >= 1)
  )
    return 'is not {line, rootHash, treeSize, witness}';
  return { witness: v['witness'], treeSize: v['treeSize'], rootHash: v['rootHash'], line: v['line'] };
}

const root32 = (h: string) => Buffer.from(h.slice(7), 'hex');

/**
 * `reprise journal cosign`: under the writer's lock, with the journal verified from its last
 * trusted state, the witness checks the latest checkpoint's note (signed under the journal's
 * origin by a key the trust store knows), checks that it extends the last checkpoint this
 * witness cosigned (RFC 9162 consistency proof over the journal's tree), and appends its
 * cosignature. Returns the note with the cosignature line added.
 */
export async function cosignJournal(
  dir: string,
  witness: string,
  signer: Signer,
  trust: TrustStore,
  unixSeconds: number,
  /** What this witness remembers cosigning for this journal's origin (its own state, kept apart from the journal). */
  remembered: (origin: string) => { treeSize: number; rootHash: string } | null = () => null,
): Promise<{ note: string; cosignature: Cosignature; extended: number | null; origin: string }> {
  const w = await JournalWriter.open(dir, { create: false, trustStore: trust });
  try {
    const latest = await w.latestNote();
    if (!latest)
      throw new JournalError(
        `journal ${dir} has no signed checkpoint note to cosign (it is empty, or no writer with notes has written to it yet)`,
        'REFUSED',
      );
    const { checkpoint, note, origin } = latest;
    const known = trust.keys
      .filter((k) => k.status !== 'revoked')
      .map((k) => ({ name: origin, publicKey: rawPublicKey(k.publicKey) }));
    const check = verifyNote(note, known);
    if (!check.ok)
      throw new JournalError(
        `refused to cosign: the latest checkpoint note is not signed by a key the trust store knows (${check.problems.join('; ')})`,
        'REFUSED',
      );
    // The witness's own memory first (a journal rewritten together with its cosignatures file
    // cannot hide a fork from it), then what the journal records of this witness.
    const own = remembered(origin);
    if (own) checkExtends(w.merkle, { witness, line: '', ...own }, checkpoint.treeSize, checkpoint.rootHash, dir);
    const previous = (await readCosignatures(dir)).filter((c) => c.witness === witness).pop();
    if (previous) checkExtends(w.merkle, previous, checkpoint.treeSize, checkpoint.rootHash, dir);
    const line = cosign(note, witness, signer, unixSeconds);
    const cosignature: Cosignature = { witness, treeSize: checkpoint.treeSize, rootHash: checkpoint.rootHash, line };
    await appendCosignature(dir, cosignature);
    return {
      note: addSignatures(note, [line]),
      cosignature,
      extended: own?.treeSize ?? previous?.treeSize ?? null,
      origin,
    };
  } finally {
    await w.close();
  }
}

function checkExtends(tree: MerkleView, previous: Cosignature, size: number, rootHash: string, dir: string): void {
  const refuse = (why: string) =>
    new JournalError(
      `refused to cosign: ${why}; the witness ${previous.witness} last cosigned tree ${previous.treeSize} (${previous.rootHash}) of ${dir}`,
      'REFUSED',
    );
  if (previous.treeSize > size)
    throw refuse(
      `the journal's latest checkpoint (tree ${size}) is smaller than the one this witness cosigned: entries were removed`,
    );
  if (previous.treeSize === size) {
    if (previous.rootHash !== rootHash)
      throw refuse(
        `the latest checkpoint has the size of the one this witness cosigned but another root: the journal was rewritten or forked`,
      );
    return;
  }
  const proof = tree.consistencyProof(previous.treeSize, size);
  if (!verifyConsistency(previous.treeSize, size, root32(previous.rootHash), root32(rootHash), proof))
    throw refuse(
      'the latest checkpoint is not consistent (RFC 9162) with the one this witness cosigned: the journal was rewritten or forked',
    );
}

async function appendCosignature(dir: string, c: Cosignature): Promise<void> {
  const fh = await openJournalFile(dir, COSIGNATURES_FILE, 'append');
  try {
    await fh.appendFile(
      canonicalizeValue({ line: c.line, rootHash: c.rootHash, treeSize: c.treeSize, witness: c.witness }) + '\n',
    );
    await fh.sync();
  } finally {
    await fh.close();
  }
}

/**
 * Why one stored cosignature does not verify the checkpoint text `body` it names: not one
 * signature line (`unreadable`), or a policy witness's signature that fails on it. Lines by
 * keys outside the policy are not weighed, so none of theirs is a problem.
 */
function lineProblem(policy: WitnessPolicy, body: string, c: Cosignature): { why: string; unreadable: boolean } | null {
  let sigs;
  try {
    sigs = parseNote(body + '\n' + c.line).signatures;
  } catch (e) {
    if (!(e instanceof NoteError)) throw e;
    return { why: `the line is not a note signature line: ${e.message}`, unreadable: true };
  }
  if (sigs.length !== 1) return { why: `the line holds ${sigs.length} signature lines, not one`, unreadable: true };
  const why = witnessLineProblems(policy, body, sigs);
  return why.length > 0 ? { why: why.join('; '), unreadable: false } : null;
}

/**
 * `journal verify --witness-policy`: the newest checkpoint whose cosignatures meet the
 * policy's quorum, each cosigned checkpoint checked to be this journal's (its root the root
 * recomputed at its size). Pass when the newest checkpoint is witnessed; a warning naming the
 * entries not yet witnessed when only an older one is; fail when none is.
 */
export async function witnessFindings(v: JournalVerification, policy: WitnessPolicy): Promise<Finding[]> {
  const R = 'RPR-JOURNAL-044';
  if (!v.firstHash)
    return [fail(R, 'the journal has no readable first entry, so its origin (and its cosignatures) cannot be named')];
  const origin = journalOrigin(v.firstHash);
  const out: Finding[] = [];
  const bySize = new Map<number, Cosignature[]>();
  let read: CosignatureLines;
  try {
    read = await readCosignatureLines(v.dir);
  } catch (e) {
    if (!(e instanceof JournalError)) throw e;
    return [fail(R, `the cosignatures cannot be weighed: ${e.message}`, { pointer: `entry:${COSIGNATURES_FILE}` })];
  }
  // A damaged line is a cosignature nobody can weigh: it fails the journal, and the others still count.
  for (const d of read.damaged)
    out.push(
      fail(R, `${COSIGNATURES_FILE} line ${d.line} ${d.why}`, { pointer: `entry:${COSIGNATURES_FILE}:line:${d.line}` }),
    );
  for (const c of read.cosignatures) {
    if (c.treeSize > v.entryLines || formatHash(v.tree.root(c.treeSize).toString('hex')) !== c.rootHash) {
      out.push(
        fail(
          R,
          `the cosignature by ${c.witness} is for tree ${c.treeSize} ${c.rootHash}, which is not this journal's`,
          { pointer: `entry:${COSIGNATURES_FILE}` },
        ),
      );
      continue;
    }
    const line = lineProblem(policy, checkpointBody(origin, c.treeSize, v.tree.root(c.treeSize)), c);
    if (line)
      out.push(
        fail(R, `${COSIGNATURES_FILE} line ${c.at} does not cosign tree ${c.treeSize}: ${line.why}`, {
          pointer: `entry:${COSIGNATURES_FILE}:line:${c.at}`,
        }),
      );
    // A line that does not verify still refuses its checkpoint (a known key's failing signature
    // refuses a note); one that is no signature line at all cannot be put into a note.
    if (!line?.unreadable) bySize.set(c.treeSize, [...(bySize.get(c.treeSize) ?? []), c]);
  }
  const sizes = [...bySize.keys()].sort((a, b) => b - a);
  const latest = v.latestCheckpoint?.treeSize ?? 0;
  let lastLacks = policy.witnesses.map((w) => w.name).join(', ');
  for (const size of sizes) {
    const body = checkpointBody(origin, size, v.tree.root(size));
    const note =
      body +
      '\n' +
      bySize
        .get(size)!
        .map((c) => c.line)
        .join('');
    const q = evaluateQuorum(policy, note, { origin });
    if (!q.ok) {
      // Every witness counted but the quorum is refused: a line above does not verify that tree.
      if (size === sizes[0]) lastLacks = q.missing.join(', ') || 'a quorum of cosignatures that all verify';
      continue;
    }
    const who = q.cosigned.map((c) => c.witness).join(', ');
    if (size === latest)
      out.push(info(R, `witness quorum "${q.quorum}" met on the newest checkpoint (tree ${size}): cosigned by ${who}`));
    else
      out.push(
        warning(
          R,
          `witness quorum "${q.quorum}" is met on tree ${size} (cosigned by ${who}), not on the newest checkpoint (tree ${latest}): the ${latest - size} newer entries are not witnessed yet`,
        ),
      );
    return out;
  }
  out.push(
    fail(
      R,
      `no checkpoint of this journal meets the witness policy's quorum${sizes.length === 0 ? ': no witness has cosigned one' : ` (the newest cosigned one, tree ${sizes[0]}, lacks ${lastLacks})`}`,
    ),
  );
  return out;
}
