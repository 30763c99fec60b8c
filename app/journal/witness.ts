/**
 * Witnesses (docs/journal-notes.md): a witness cosigns a journal's checkpoint only after
 * checking that it extends the last checkpoint that witness cosigned, and a verifier can
 * require k of n named witnesses (a Sigsum/litewitness-style policy) before it trusts a
 * checkpoint. Cosignatures are kept in `cosignatures.jsonl`, one canonical JSON object per
 * line: `{line, rootHash, treeSize, witness}`, `line` the C2SP cosignature/v1 signature line.
 * A cosignature signs only the checkpoint's text (origin, size, root), so a quorum is weighed
 * on the journal's own signed note of that tree (its log signature; the text rebuilt from the
 * journal's tree when it has no note) with each policy witness's cosignature once.
 */
import { join } from 'node:path';
import type { Finding } from '../../shared/report.js';
import { isPlainObject } from '../core/closed.js';
import { FileReadError } from '../core/files.js';
import { fail, info, warning } from '../core/findings.js';
import { formatHash, isHashString } from '../core/hash.js';
import { canonicalizeValue, parseCanonical } from '../core/jcs.js';
import { epochMs } from '../core/time.js';
import { rawPublicKey, type Signer, type TrustStore } from '../core/keys.js';
import { ioReason, JournalError } from './errors.js';
import { CHECKPOINTS_FILE, COSIGNATURES_FILE, journalOrigin, NOTES_FILE, type Checkpoint } from './format.js';
import { openJournalFile } from './frontier.js';
import { verifyConsistency, type MerkleView } from './merkle.js';
import {
  addSignatures,
  checkpointBody,
  cosign,
  NoteError,
  parseNote,
  verifyCosignature,
  verifyNote,
  type NoteKey,
  type NoteSignature,
  type ParsedNote,
} from './note.js';
import { noteLineSizeHint, readNoteLine } from './note-line.js';
import { streamLines } from './read.js';
import { CLOCK_TOLERANCE_MS, recognizeCheckpoint, type JournalVerification } from './verify.js';
import { evaluateParsedQuorum, witnessLineProblems, type QuorumResult, type WitnessPolicy } from './witness-policy.js';
import { NO_MEMORY, type WitnessMemory } from './witness-state.js';
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

/** What `journal cosign` did: the note with this witness's line on it, and whether that line was added now. */
export interface CosignResult {
  note: string;
  cosignature: Cosignature;
  /** The tree size this witness cosigned before, which the latest checkpoint was checked to extend. */
  extended: number | null;
  origin: string;
  /** The witness had already cosigned this checkpoint (same key and name): nothing was written. */
  already: boolean;
}

/**
 * `reprise journal cosign`: under the writer's lock, with the journal verified from its last
 * trusted state, the witness checks the latest checkpoint's note (signed under the journal's
 * origin by a key the trust store knows), checks that it extends the last checkpoint this
 * witness cosigned (RFC 9162 consistency proof over the journal's tree), records it in its
 * memory, and only then appends its cosignature, unless its own line for that checkpoint is
 * already there (a quorum counts a witness once, so a second line would only grow the file).
 * Returns the note with the cosignature line added.
 */
export async function cosignJournal(
  dir: string,
  witness: string,
  signer: Signer,
  trust: TrustStore,
  unixSeconds: number,
  /** The witness's own memory, kept apart from the journal (witness-state.ts). */
  memory: WitnessMemory = NO_MEMORY,
): Promise<CosignResult> {
  const w = await JournalWriter.open(dir, { create: false, trustStore: trust });
  try {
    const { checkpoint, note, body, origin } = await signedLatest(w, trust, dir);
    // The witness's own memory first (a journal rewritten together with its cosignatures file
    // cannot hide a fork from it), then what the journal records of this witness.
    const own = memory.recall(origin);
    if (own) checkExtends(w.merkle, { witness, line: '', ...own }, checkpoint.treeSize, checkpoint.rootHash, dir);
    const stored = await readCosignatures(dir);
    const previous = stored.filter((c) => c.witness === witness).pop();
    if (previous) checkExtends(w.merkle, previous, checkpoint.treeSize, checkpoint.rootHash, dir);
    const extended = own?.treeSize ?? previous?.treeSize ?? null;
    // Remembered before it is signed: a signature the witness could forget would let it sign a fork later.
    await memory.remember(origin, { treeSize: checkpoint.treeSize, rootHash: checkpoint.rootHash });
    const mine = ownLine(stored, checkpoint, body, { name: witness, publicKey: rawPublicKey(signer.publicKey) });
    if (mine) return { note: addSignatures(note, [mine.line]), cosignature: mine, extended, origin, already: true };
    const line = cosign(note, witness, signer, unixSeconds);
    const cosignature: Cosignature = { witness, treeSize: checkpoint.treeSize, rootHash: checkpoint.rootHash, line };
    await appendCosignature(dir, cosignature);
    return { note: addSignatures(note, [line]), cosignature, extended, origin, already: false };
  } finally {
    await w.close();
  }
}

/** The latest checkpoint and its note, which must be signed under the journal's origin by a key the trust store knows. */
async function signedLatest(
  w: JournalWriter,
  trust: TrustStore,
  dir: string,
): Promise<{ checkpoint: Checkpoint; note: string; body: string; origin: string }> {
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
  return { checkpoint, note, body: check.body!, origin };
}

/** The witness's own stored cosignature of this checkpoint (its key and name, and it verifies the text `body`), if any. */
function ownLine(stored: readonly Cosignature[], cp: Checkpoint, body: string, key: NoteKey): Cosignature | null {
  for (const c of stored) {
    if (c.treeSize !== cp.treeSize || c.rootHash !== cp.rootHash) continue;
    const sig = signatureOn(body, c.line);
    if (typeof sig !== 'string' && verifyCosignature(body, sig, key).ok)
      return { witness: c.witness, treeSize: c.treeSize, rootHash: c.rootHash, line: c.line };
  }
  return null;
}

/** A stored cosignature line as the one signature line it must be on a checkpoint text, or why it is not. */
function signatureOn(body: string, line: string): NoteSignature | string {
  let sigs;
  try {
    sigs = parseNote(body + '\n' + line).signatures;
  } catch (e) {
    if (!(e instanceof NoteError)) throw e;
    return `the line is not a note signature line: ${e.message}`;
  }
  return sigs.length === 1 ? sigs[0]! : `the line holds ${sigs.length} signature lines, not one`;
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

const R = 'RPR-JOURNAL-044';

/** A tree of this journal that is weighed: one that cosignatures name (or, under `quorum none`, the newest checkpoint's). */
interface WeighedTree {
  size: number;
  root: Buffer;
  lines: (Cosignature & { at: number })[];
  /** The journal's own signed note of the tree (notes.jsonl), when it has one. */
  note: ParsedNote | null;
  /** When the journal first signed the tree (its earliest checkpoint, ms); null when no checkpoint names it. */
  checkpointMs: number | null;
}

/**
 * `journal verify --witness-policy`: the newest checkpoint whose cosignatures meet the
 * policy's quorum, each cosigned checkpoint checked to be this journal's (its root the root
 * recomputed at its size). The quorum is weighed on the journal's own note of the tree (its
 * log signature) with each policy witness's cosignature once, and only cosignatures dated
 * when their witness could have observed the tree (`misdated`; `clock` is this verification's
 * time). Pass when the newest checkpoint is witnessed; a warning naming the entries not yet
 * witnessed when only an older one is; fail when none is.
 */
export async function witnessFindings(
  v: JournalVerification,
  policy: WitnessPolicy,
  clock: () => number = Date.now,
): Promise<Finding[]> {
  if (!v.firstHash)
    return [fail(R, 'the journal has no readable first entry, so its origin (and its cosignatures) cannot be named')];
  const origin = journalOrigin(v.firstHash);
  let read: CosignatureLines;
  try {
    read = await readCosignatureLines(v.dir);
  } catch (e) {
    if (!(e instanceof JournalError)) throw e;
    return [fail(R, `the cosignatures cannot be weighed: ${e.message}`, { pointer: `entry:${COSIGNATURES_FILE}` })];
  }
  // A damaged line is a cosignature nobody can weigh: it fails the journal, and the others still count.
  const out = read.damaged.map((d) =>
    fail(R, `${COSIGNATURES_FILE} line ${d.line} ${d.why}`, { pointer: `entry:${COSIGNATURES_FILE}:line:${d.line}` }),
  );
  const { trees, before } = cosignedTrees(v, read.cosignatures, out);
  // `quorum none` needs no cosignature: the newest checkpoint is weighed too (a `log` line still needs its note).
  if (policy.quorum === 'none') addNewest(v, trees);
  await addNotes(v.dir, origin, trees, out);
  await addCheckpointTimes(v.dir, trees, out);
  // Weighed oldest first (the line findings in file order), the quorum sought newest first.
  const witnesses = new Set(policy.witnesses.map((w) => `${w.keyName}\n${w.keyId}`));
  const weighing = { policy, origin, witnesses, out, nowMs: clock() };
  const weighed = [...trees.values()]
    .sort((a, b) => a.size - b.size)
    .map((tree) => ({ tree, note: noteOf(weighing, tree) }));
  if (before > 0) out.push(info(R, beforeHeld(before, v.signers.from)));
  out.push(quorumFinding(policy, origin, weighed.reverse(), v.latestCheckpoint?.treeSize ?? 0, before));
  return out;
}

/**
 * The trees the cosignatures name, each checked to be this journal's. A verification since a
 * held checkpoint holds no root for most trees before it: their lines are counted in `before`,
 * not weighed (and not held against the journal).
 */
function cosignedTrees(
  v: JournalVerification,
  cosignatures: readonly (Cosignature & { at: number })[],
  out: Finding[],
): { trees: Map<number, WeighedTree>; before: number } {
  const trees = new Map<number, WeighedTree>();
  let before = 0;
  for (const c of cosignatures) {
    const root = rootAt(v, c.treeSize);
    if (root === 'before') {
      before++;
      continue;
    }
    if (!root || formatHash(root.toString('hex')) !== c.rootHash) {
      out.push(
        fail(
          R,
          `the cosignature by ${c.witness} is for tree ${c.treeSize} ${c.rootHash}, which is not this journal's`,
          { pointer: `entry:${COSIGNATURES_FILE}` },
        ),
      );
      continue;
    }
    const t = trees.get(c.treeSize) ?? { size: c.treeSize, root, lines: [], note: null, checkpointMs: null };
    t.lines.push(c);
    trees.set(c.treeSize, t);
  }
  return { trees, before };
}

/** The journal's root at `size`: null beyond the journal, 'before' when a tree continued from a held checkpoint does not hold it. */
function rootAt(v: JournalVerification, size: number): Buffer | null | 'before' {
  if (size > v.entryLines) return null;
  try {
    return v.tree.root(size);
  } catch (e) {
    if (e instanceof RangeError) return 'before';
    throw e;
  }
}

function addNewest(v: JournalVerification, trees: Map<number, WeighedTree>): void {
  const size = v.latestCheckpoint?.treeSize;
  if (size === undefined || trees.has(size)) return;
  const root = rootAt(v, size);
  if (root instanceof Buffer) trees.set(size, { size, root, lines: [], note: null, checkpointMs: null });
}

const beforeHeld = (n: number, held: number) =>
  `${n} cosignature line(s) are for trees before the held checkpoint (tree ${held}): a verification since it holds no root for those trees, so they were not weighed ('journal verify' without --since weighs them)`;

/**
 * The journal's own signed note of each weighed tree (notes.jsonl: the last line for that tree
 * that names this journal and gives its root), which carries the log's signature. A note that
 * cannot be read is left out (the verification reports it, RPR-JOURNAL-040 to 042).
 */
async function addNotes(dir: string, origin: string, trees: Map<number, WeighedTree>, out: Finding[]): Promise<void> {
  if (trees.size === 0) return;
  await eachLine(dir, NOTES_FILE, out, "the journal's notes cannot be read to weigh its log signature", (text) => {
    const hint = text === undefined ? null : noteLineSizeHint(text);
    if (text === undefined || (hint !== null && !trees.has(hint))) return;
    const read = readNoteLine(text);
    if (typeof read === 'string') return;
    const t = trees.get(read.checkpoint.treeSize);
    if (t && read.checkpoint.origin === origin && read.checkpoint.rootHash.equals(t.root)) t.note = read.parsed;
  });
}

/**
 * When the journal first signed each weighed tree: its earliest checkpoint of that size and
 * root (checkpoints.jsonl), which no cosignature of the tree can precede. A line that is not a
 * well-formed checkpoint dates nothing (the verification reports it).
 */
async function addCheckpointTimes(dir: string, trees: Map<number, WeighedTree>, out: Finding[]): Promise<void> {
  if (trees.size === 0) return;
  await eachLine(dir, CHECKPOINTS_FILE, out, "the journal's checkpoints cannot be read to date its trees", (text) => {
    // A checkpoint line ends in `"treeSize":N}`: lines of trees nobody cosigned are passed over unparsed.
    if (text === undefined || !trees.has(Number(text.slice(text.lastIndexOf(':') + 1, -1)))) return;
    const cp = recognizeCheckpoint(text)?.cp;
    const t = cp ? trees.get(cp.treeSize) : undefined;
    if (!cp || !t || formatHash(t.root.toString('hex')) !== cp.rootHash) return;
    const ms = epochMs(cp.timestampUtc);
    t.checkpointMs = t.checkpointMs === null ? ms : Math.min(t.checkpointMs, ms);
  });
}

/** Hands the text of each line of the journal's file `name` to `step` (undefined when not UTF-8); a file that cannot be read is a fail, `cannot` saying what was lost. */
async function eachLine(
  dir: string,
  name: string,
  out: Finding[],
  cannot: string,
  step: (text: string | undefined) => void,
): Promise<void> {
  try {
    await streamLines(
      dir,
      name,
      (lines, texts) => lines.forEach((_, i) => step(texts?.[i])),
      () => undefined,
    );
  } catch (e) {
    if (!(e instanceof JournalError)) throw e;
    out.push(fail(R, `${cannot}: ${e.message}`));
  }
}

/** What weighing one journal's cosignatures shares. */
interface Weighing {
  policy: WitnessPolicy;
  origin: string;
  /** Each policy witness's key, as "key name\nkey id" (a line's signature is matched against them). */
  witnesses: Set<string>;
  out: Finding[];
  /** This verification's time (ms): a cosignature dated later (beyond CLOCK_TOLERANCE_MS) does not count. */
  nowMs: number;
}

/** One stored line weighed on a checkpoint text: its signature line, and why it does not cosign that text. */
interface WeighedLine {
  sig: NoteSignature | null;
  why: string | null;
}

/** Whether a stored line cosigns the text `body`: no signature line, or a policy witness's signature that fails on it; a key outside the policy is not weighed. */
function weighLine(policy: WitnessPolicy, body: string, line: string): WeighedLine {
  const sig = signatureOn(body, line);
  if (typeof sig === 'string') return { sig: null, why: sig };
  const why = witnessLineProblems(policy, body, [sig]);
  return { sig, why: why.length > 0 ? why.join('; ') : null };
}

/**
 * The note a tree's quorum is weighed on: the journal's note of it (else its checkpoint text
 * alone) with each policy witness's cosignature once (its last line that verifies, and its
 * first that does not, which refuses the tree). So however many lines a witness added, the
 * note holds at most two per policy witness; each distinct line is verified once, and every
 * line that fails is a finding at its line. A policy witness's cosignature that is misdated
 * (a line's or one the journal's note carries) is left out of the note, named in a warning.
 */
function noteOf(weighing: Weighing, t: WeighedTree): ParsedNote {
  const { policy, origin, witnesses, out } = weighing;
  const body = t.note?.body ?? checkpointBody(origin, t.size, t.root);
  const weighed = new Map<string, WeighedLine>();
  const kept = new Map<string, NoteSignature>();
  const count = new Map<string, number>();
  for (const c of t.lines) {
    const w = weighed.get(c.line) ?? weighLine(policy, body, c.line);
    weighed.set(c.line, w);
    const at = { pointer: `entry:${COSIGNATURES_FILE}:line:${c.at}` };
    if (w.why) out.push(fail(R, `${COSIGNATURES_FILE} line ${c.at} does not cosign tree ${t.size}: ${w.why}`, at));
    const key = w.sig ? `${w.sig.name}\n${w.sig.keyId}` : '';
    if (!w.sig || !witnesses.has(key)) continue;
    if (!w.why && !countsInTime(weighing, t, w.sig, `${COSIGNATURES_FILE} line ${c.at}`, at.pointer)) continue;
    count.set(key, (count.get(key) ?? 0) + 1);
    if (!w.why) kept.set(key, w.sig);
    else if (!kept.has(`${key}\n!`)) kept.set(`${key}\n!`, w.sig);
  }
  const repeated = repeatedFinding(t.size, count);
  if (repeated) out.push(repeated);
  const own = (t.note?.signatures ?? []).filter(
    (s) =>
      !witnesses.has(`${s.name}\n${s.keyId}`) ||
      countsInTime(weighing, t, s, `the journal's note of it (${NOTES_FILE})`, `entry:${NOTES_FILE}`),
  );
  return { body, signatures: [...own, ...kept.values()] };
}

/** Whether a policy witness's cosignature on tree `t` is dated when the witness could have observed it; a warning at `pointer` when not. */
function countsInTime(weighing: Weighing, t: WeighedTree, sig: NoteSignature, where: string, pointer: string): boolean {
  const why = misdated(sig, t, weighing.nowMs);
  if (why)
    weighing.out.push(
      warning(
        R,
        `the cosignature by ${sig.name} of tree ${t.size} in ${where} ${why}, so it does not count toward the quorum`,
        { pointer },
      ),
    );
  return why === null;
}

/**
 * Why a cosignature's time cannot be when its witness observed the tree (C2SP
 * tlog-cosignature: the time the cosignature was made, as of which the tree is the largest
 * the witness saw): later than this verification's time, or earlier than the tree's first
 * checkpoint, each by more than CLOCK_TOLERANCE_MS (two machines' clocks); or for a tree no
 * checkpoint dates, so nothing shows it came after the tree. Null when it can be.
 */
function misdated(sig: NoteSignature, t: WeighedTree, nowMs: number): string | null {
  // A signature of another length holds no cosignature/v1 time; its check says so.
  if (sig.signature.length !== 72) return null;
  const seconds = sig.signature.readBigUInt64BE(0);
  const ms = Number(seconds) * 1000;
  const skew = `by more than ${CLOCK_TOLERANCE_MS / 60_000} minutes`;
  if (ms > nowMs + CLOCK_TOLERANCE_MS)
    return `is dated ${shownTime(seconds)}, later than this verification's time ${skew}`;
  if (t.checkpointMs === null)
    return `is dated ${shownTime(seconds)}, and no checkpoint of this journal dates the tree, so nothing shows the witness observed it then`;
  if (ms < t.checkpointMs - CLOCK_TOLERANCE_MS)
    return `is dated ${shownTime(seconds)}, before the tree's first checkpoint (${new Date(t.checkpointMs).toISOString()}) ${skew}`;
  return null;
}

/** A cosignature's time: its POSIX seconds, with the date when JavaScript can show it. */
function shownTime(seconds: bigint): string {
  const ms = Number(seconds) * 1000;
  return ms <= MAX_DATE_MS ? `${seconds} (${new Date(ms).toISOString()})` : `${seconds}`;
}

/** The latest time a JavaScript Date holds (ECMA-262: 8.64e15 ms). */
const MAX_DATE_MS = 8.64e15;

/** Lines by a witness that already cosigned the tree: counted once, and said once per tree. */
function repeatedFinding(size: number, count: Map<string, number>): Finding | null {
  const names = [...count].filter(([, n]) => n > 1).map(([key]) => key.split('\n')[0]!);
  if (names.length === 0) return null;
  const more = [...count.values()].reduce((sum, n) => sum + n - 1, 0);
  return info(
    R,
    `${COSIGNATURES_FILE} holds ${more} more line(s) for tree ${size} by ${names.slice(0, 5).join(', ')}${names.length > 5 ? ` and ${names.length - 5} other witness(es)` : ''}, which already cosigned it: a witness counts once per tree`,
    { pointer: `entry:${COSIGNATURES_FILE}` },
  );
}

/** The quorum on the newest weighed tree that meets it (trees newest first), or the fail naming why the newest falls short. */
function quorumFinding(
  policy: WitnessPolicy,
  origin: string,
  trees: readonly { tree: WeighedTree; note: ParsedNote }[],
  latest: number,
  before: number,
): Finding {
  let shortOf: string | null = null;
  for (const { tree, note } of trees) {
    const q = evaluateParsedQuorum(policy, note, { origin });
    if (!q.ok) {
      shortOf ??= shortfall(policy, q, tree);
      continue;
    }
    const who =
      q.cosigned.length > 0 ? `cosigned by ${q.cosigned.map((c) => c.witness).join(', ')}` : 'no cosignature needed';
    if (tree.size === latest)
      return info(R, `witness quorum "${q.quorum}" met on the newest checkpoint (tree ${tree.size}): ${who}`);
    return warning(
      R,
      `witness quorum "${q.quorum}" is met on tree ${tree.size} (${who}), not on the newest checkpoint (tree ${latest}): ${notWitnessed(latest - tree.size)}`,
    );
  }
  const newest = trees[0]?.tree;
  const none = before > 0 ? ': no witness has cosigned one after the held checkpoint' : ': no witness has cosigned one';
  return fail(
    R,
    `no checkpoint of this journal meets the witness policy's quorum${newest ? ` (the newest ${newest.lines.length > 0 ? 'cosigned one' : 'checkpoint'}, tree ${newest.size}, ${shortOf})` : none}`,
  );
}

const notWitnessed = (n: number) =>
  n === 1 ? 'the 1 newer entry is not witnessed yet' : `the ${n} newer entries are not witnessed yet`;

/** Why a tree falls short of the quorum: the witnesses it lacks, a log signature it lacks, or the lines that refuse it. */
function shortfall(policy: WitnessPolicy, q: QuorumResult, t: WeighedTree): string {
  const parts = q.missing.length > 0 ? [`lacks ${q.missing.join(', ')}`] : [];
  if (policy.logs.length > 0 && q.logsSigned.length === 0)
    parts.push(
      t.note
        ? 'lacks the signature of a log the policy names'
        : `lacks a log signature: ${NOTES_FILE} holds no signed note of it`,
    );
  return parts.length > 0
    ? parts.join('; ')
    : `lacks a quorum of cosignatures that all verify (${q.problems.join('; ')})`;
}
