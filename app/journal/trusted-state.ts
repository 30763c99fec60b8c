/**
 * How a writer comes to trust a journal before it writes (docs/journal.md, "The trusted
 * state"): from the state the last writer recorded, when it still matches the files and checks
 * out in O(log n) reads, or else from a full verification, which refuses a journal that does
 * not verify and rebuilds the derived files (tree.bin, index.bin, state.json).
 */
import { randomInt, type KeyObject } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import type { Finding } from '../../shared/report.js';
import { formatHash, hashBytes, ZERO_HASH } from '../core/hash.js';
import { canonicalizeValue, parseCanonical } from '../core/jcs.js';
import { signBytes, verifyBytes, type Signer, type TrustStore } from '../core/keys.js';
import { JournalError } from './errors.js';
import {
  checkEntryShape,
  entryHash,
  journalOrigin,
  NOTES_FILE,
  unsignedDigest,
  type Checkpoint,
  type Entry,
} from './format.js';
import {
  hex,
  identityMismatch,
  identityOf,
  indexBytes,
  indexRecord,
  readAt,
  readIndex,
  readState,
  STATE_TYPE,
  treeBytes,
  TreeFile,
  writeAllAt,
  writeState,
  type FilePlace,
  type TrustedState,
} from './frontier.js';
import { frontierBlocks, leafHash } from './merkle.js';
import { sealedBytes, sealSigner, type SealFields } from './sealed-state.js';
import { entryPointer, recognizeCheckpoint, verifyJournal, type JournalVerification } from './verify.js';
import type { OpenOptions } from './writer.js';

/** The four files a writer holds open: the two the journal is made of, and the two derived from them. */
export interface Handles {
  entries: FileHandle;
  checkpoints: FileHandle;
  notes: FileHandle;
  tree: FileHandle;
  index: FileHandle;
}

/** What the writer knows of the journal between appends (state.json holds it between writers). */
export interface WriterState {
  /** The notes' origin (from entry 0; null while the journal is empty). */
  origin: string | null;
  /** The note of the last checkpoint this writer wrote (its receipts carry it). */
  lastNote?: string;
  head: string;
  lastTs: string | null;
  entriesBytes: number;
  checkpointsEnd: FilePlace;
  notesEnd: FilePlace;
  /** The newest checkpoint verified: the next append must extend it (RFC 9162 consistency). */
  trusted: { line: string; offset: number; checkpoint: Checkpoint } | null;
  quarantine: number[];
  /** The verification this state stands for (`verificationContext`): recorded with it, and required to be this writer's for it to be trusted. */
  verifiedUnder: string;
  /** The key that seals the state when this writer records it (`sealerFor`); null: recorded unsealed, which no writer trusts. */
  sealer: Signer | null;
  /** The tree size when this state was taken from a sealed state.json; while it is unchanged, that file still describes the journal and is left as it is. */
  sealedSize: number | null;
}

/**
 * Why state.json is sealed, what the seal covers, and under which verification a state is trusted.
 *
 * A writer trusts the state instead of verifying the journal, so everything in it that a write
 * relies on must be as the last writer left it: the tree size, head, frontier and checkpoint
 * (each also checked against the files), and the rest, which nothing cheap can recompute: the
 * quarantine entries' seqs (the case fold reads only those: drop a release and the case could be
 * released again), the origin the notes are signed under, the line counts the index records,
 * and which verification the state stands for. The file identities catch a change to the
 * journal's files, not to state.json itself. So the writer signs the state: `seal` is an
 * Ed25519 signature, by the writer's own key, over a domain tag and the state's canonical JSON
 * (every member but `seal`, unknown ones included). A writer trusts the state only when the seal
 * verifies with a key it trusts (the store's, not revoked; without a store, its own) and is by
 * the key that signed the newest checkpoint (fromTrustedState), so an edit by anyone else (a text
 * editor, a script, a copy of another state, another key of the store) is caught and the journal
 * verified in full, which rebuilds the state. The holder of that key who forges a state is not
 * stopped here (what they could then write still fails `journal verify`, and a held
 * checkpoint or a witness catches a rewrite); that is the limit docs/journal.md states for the
 * local state. A recomputed digest (an unkeyed hash of the state) would stop only an accident.
 * A writer opened without a key of its own (a witness) records an unsealed state, which the next
 * writer does not trust, unless it appended nothing: then it leaves the sealed state as it is.
 * A state written before seals existed is verified in full once, and sealed from then on.
 *
 * `verifiedUnder` says what the verification behind the state checked: with a trust store,
 * every signature against that store's content, named by its digest (`trustStoreDigest`: keys,
 * public keys, roles, statuses; not its path or labels, which change no verdict); without one,
 * the signer's own signatures only. A state made under no store, or under a store whose content
 * differs (a key revoked, a role changed), says nothing about this store: it is not trusted, and
 * the full verification decides (and refuses a journal that fails under the store given now).
 * It names what the writers behind the state checked of each append too (APPEND_CHECKS): the
 * fast way in skips the case fold and the note edit rule, which hold only because every
 * quarantine entry and every edit a sealing writer appended passed them. Between writers with the same store (or the same key, without one)
 * the append stays O(1).
 * (The seal itself, and what a sealed state proves to a verifier: sealed-state.ts.)
 */
function sealHolds(rec: TrustedState, opts: OpenOptions): boolean {
  const under = (rec as TrustedState & Partial<SealFields>).verifiedUnder;
  return under === verificationContext(opts) && sealSigner(rec, (id) => keyFor(id, opts)) !== null;
}

/** The content of a trust store that decides a verification, as a digest: the same keys, public keys, roles and statuses give the same digest, whatever the file's path, order or labels. */
export function trustStoreDigest(trust: TrustStore): string {
  const ids = [...new Set(trust.keys.map((k) => k.keyId))].sort();
  const keys = ids.map((keyId) => {
    const k = trust.get(keyId)!;
    return { keyId, publicKey: k.publicKeyB64, role: k.role, status: k.status };
  });
  return hashBytes(canonicalizeValue({ type: 'reprise.trust-store-content/v1', keys }));
}

/**
 * What the writers that seal a state check of each entry they append, beyond its signer: every
 * quarantine entry's transition (`case-rules`, case-append.ts), so the quarantine seqs a state
 * lists are valid transitions by construction; and every note's edit (`note-edit-rules`,
 * note-edit-rule.ts: RPR-JOURNAL-045), so the journal behind the state holds no edit that
 * `journal verify` fails. A state that does not name both was sealed by a writer that signed
 * what it was given: it is not trusted, and the journal is verified in full once, which refuses
 * one holding a transition the fold refuses or an edit the rule refuses.
 */
const APPEND_CHECKS = 'case-rules note-edit-rules';

/** What a verification with these options checks: every signature against a store's content, or (without one) the signer's own; and what its writers checked of each append. */
export function verificationContext(opts: OpenOptions): string {
  if (opts.trustStore) return `${APPEND_CHECKS} trust-store:${trustStoreDigest(opts.trustStore)}`;
  return `${APPEND_CHECKS} ${opts.signer ? `own-key:${opts.signer.keyId}` : 'none'}`;
}

/**
 * The key this writer seals its state with: its signer, when a writer under the same options
 * would trust that key. The writer seals again with each append's signer (writer.ts), so the
 * seal is always by the newest checkpoint's signer, which is what fromTrustedState requires.
 */
export function sealerFor(opts: OpenOptions): Signer | null {
  const s = opts.signer;
  if (!s) return null;
  if (!opts.trustStore) return s;
  const k = opts.trustStore.get(s.keyId);
  return k && k.status !== 'revoked' && k.publicKeyB64 === s.publicKeyB64 ? s : null;
}

/** The key this writer checks `keyId`'s signatures with: the store's; without one, its own signer's only. */
function keyFor(keyId: string, opts: OpenOptions): { publicKey: KeyObject; status: string } | undefined {
  if (opts.trustStore) return opts.trustStore.get(keyId);
  return keyId === opts.signer?.keyId ? { publicKey: opts.signer.publicKey, status: 'active' } : undefined;
}

export async function saveState(dir: string, fhs: Handles, tree: TreeFile, st: WriterState): Promise<void> {
  // Nothing appended since a sealed state was read: it still describes the files (left
  // unstamped), and a writer without a key of its own (a witness) keeps it trusted.
  if (st.sealedSize === tree.size) return;
  await stampFiles(fhs);
  const [entries, checkpoints, notes, treeId, index] = await Promise.all([
    identityOf(fhs.entries),
    identityOf(fhs.checkpoints),
    identityOf(fhs.notes),
    identityOf(fhs.tree),
    identityOf(fhs.index),
  ]);
  const state: TrustedState & Omit<SealFields, 'seal'> = {
    type: STATE_TYPE,
    treeSize: tree.size,
    origin: st.origin,
    entriesBytes: st.entriesBytes,
    checkpointsEnd: st.checkpointsEnd,
    notesEnd: st.notesEnd,
    head: st.head,
    lastRecordedAtUtc: st.lastTs,
    frontier: tree.frontier.map(hex),
    checkpoint: st.trusted ? { line: st.trusted.line, offset: st.trusted.offset } : null,
    quarantine: st.quarantine,
    files: { entries, checkpoints, notes, tree: treeId, index },
    verifiedUnder: st.verifiedUnder,
  };
  const seal = st.sealer ? { signer: st.sealer.keyId, sig: signBytes(st.sealer, sealedBytes(state)) } : null;
  const sealed: TrustedState & SealFields = { ...state, seal };
  await writeState(dir, sealed);
}

/**
 * Gives every file a modification time of its own, to the nanosecond, before its identity is
 * recorded. The kernel stamps a write with a coarse clock (one tick, a few milliseconds), so
 * an edit of the same size made within a tick of the writer's last write could keep the same
 * mtime and ctime; any later write stamps the coarse clock over this fine, random one.
 */
async function stampFiles(fhs: Handles): Promise<void> {
  const now = Date.now() / 1000;
  await Promise.all(
    Object.values(fhs).map((h: FileHandle, i) => h.utimes(now, now - 1 + (randomInt(1_000_000) + i) / 1e9)),
  );
}

/**
 * The fast way in: state.json is sealed by a key this writer trusts and stands for the
 * verification this writer would make (see the note on SEAL_DOMAIN), it matches the files as the last writer
 * left them, and what it records checks out against them (tree file sizes, frontier, the trusted
 * checkpoint's line, root and signature, the last entry's leaf and hash): O(log n) reads. Null,
 * and the caller verifies in full, at the first doubt.
 */
export async function fromTrustedState(
  dir: string,
  fhs: Handles,
  opts: OpenOptions,
): Promise<{ tree: TreeFile; state: WriterState } | null> {
  const rec = await readState(dir);
  if (!rec || !sealHolds(rec, opts)) return null;
  const now = {
    entries: await identityOf(fhs.entries),
    checkpoints: await identityOf(fhs.checkpoints),
    notes: await identityOf(fhs.notes),
    tree: await identityOf(fhs.tree),
    index: await identityOf(fhs.index),
  };
  if (identityMismatch(rec, now) !== null) return null;
  const n = rec.treeSize;
  if (
    now.tree.size !== treeBytes(n) ||
    now.index.size !== indexBytes(n) ||
    now.entries.size !== rec.entriesBytes ||
    now.checkpoints.size !== rec.checkpointsEnd.offset ||
    now.notes.size !== rec.notesEnd.offset
  )
    return null;
  try {
    const frontier = rec.frontier.map((h) => Buffer.from(h, 'hex'));
    const tree = new TreeFile(fhs.tree, n, frontier);
    if (!tree.readFrontier(n).every((h, i) => h.equals(frontier[i]!))) return null;
    const trusted = await trustedCheckpoint(fhs, rec, tree, opts);
    if (trusted === undefined || !(await lastEntryMatches(fhs, rec, tree))) return null;
    // Sealed by the writer that signed the newest checkpoint, the one that left the files so:
    // another key of the store (a trainer's, say) cannot vouch for a state it did not leave.
    if (trusted && (rec as TrustedState & SealFields).seal?.signer !== trusted.checkpoint.signer) return null;
    return {
      tree,
      state: {
        origin: rec.origin,
        head: rec.head,
        lastTs: rec.lastRecordedAtUtc,
        entriesBytes: rec.entriesBytes,
        checkpointsEnd: rec.checkpointsEnd,
        notesEnd: rec.notesEnd,
        trusted,
        quarantine: [...rec.quarantine],
        verifiedUnder: verificationContext(opts),
        sealer: sealerFor(opts),
        sealedSize: n,
      },
    };
  } catch {
    return null;
  }
}

/** The recorded checkpoint: its line where recorded and last in the file, its root the tree's at its size, its signature good. undefined: it does not check out. */
async function trustedCheckpoint(
  fhs: Handles,
  rec: TrustedState,
  tree: TreeFile,
  opts: OpenOptions,
): Promise<WriterState['trusted'] | undefined> {
  if (!rec.checkpoint) return rec.treeSize === 0 && rec.checkpointsEnd.offset === 0 ? null : undefined;
  const bytes = Buffer.from(rec.checkpoint.line + '\n', 'utf8');
  if (rec.checkpoint.offset + bytes.length !== rec.checkpointsEnd.offset) return undefined;
  if (!(await readAt(fhs.checkpoints, rec.checkpoint.offset, bytes.length)).equals(bytes)) return undefined;
  const cp = recognizeCheckpoint(rec.checkpoint.line)?.cp;
  if (!cp || cp.treeSize > tree.size || formatHash(tree.root(cp.treeSize).toString('hex')) !== cp.rootHash)
    return undefined;
  const key = keyFor(cp.signer, opts);
  // With a store, the signer must be one it lists and has not revoked (the state was verified
  // under this very store, so an honest state always passes). Without one, another author's
  // key cannot be looked up: the sealed state says the files are as a writer with this
  // writer's key left them, and that writer checked what it could.
  if (opts.trustStore && !key) return undefined;
  if (key && (key.status === 'revoked' || !verifyBytes(key.publicKey, unsignedDigest(cp), cp.sig))) return undefined;
  return { line: rec.checkpoint.line, offset: rec.checkpoint.offset, checkpoint: cp };
}

/** The last entry line, read through the index: its leaf is the tree's last, its hash and time are the recorded head. */
async function lastEntryMatches(fhs: Handles, rec: TrustedState, tree: TreeFile): Promise<boolean> {
  const n = rec.treeSize;
  if (n === 0) return rec.head === ZERO_HASH && rec.entriesBytes === 0;
  const { entryOffset } = await readIndex(fhs.index, n - 1);
  const line = await readAt(fhs.entries, entryOffset, rec.entriesBytes - entryOffset - 1);
  if (!leafHash(line).equals(tree.leaf(n - 1))) return false;
  const p = parseCanonical(line.toString('utf8'));
  const e = p.value as Entry;
  return (
    p.warnings.length === 0 &&
    checkEntryShape(e, '').length === 0 &&
    e.seq === n - 1 &&
    entryHash(e) === rec.head &&
    e.recordedAtUtc === rec.lastRecordedAtUtc
  );
}

/**
 * The slow way in (no trusted state, or one that does not match the files: a copy, an edit,
 * an older version's journal, a crash before the state was written): the whole journal is
 * verified, and only a journal that verifies is written to. Its derived files are then
 * rebuilt from the verification, and the state recorded, so the next append is cheap again.
 */
export async function fromFullVerification(
  dir: string,
  fhs: Handles,
  opts: OpenOptions,
): Promise<{ tree: TreeFile; state: WriterState }> {
  const own = opts.signer ? new Map([[opts.signer.keyId, opts.signer.publicKey]]) : undefined;
  const v = await verifyJournal(dir, opts.trustStore ?? null, {
    keep: false,
    collect: true,
    ...(own ? { ownKeys: own } : {}),
  });
  const torn = v.torn[0];
  if (torn && !opts.allowTorn)
    throw new JournalError(
      `journal ${dir}: ${torn.file} ends with a torn line (${torn.length} bytes after the last newline); nothing is repaired silently: run 'reprise journal repair ${dir} --key KEY' first`,
      'TORN',
    );
  refuseUnlessVerified(dir, v, opts.allowTorn === true);
  const tree = await rebuildDerived(fhs, v);
  const state: WriterState = {
    origin: v.firstHash ? journalOrigin(v.firstHash) : null,
    head: v.head?.hash ?? ZERO_HASH,
    lastTs: v.head?.ts ?? null,
    entriesBytes: v.entriesBytes,
    checkpointsEnd: { offset: v.checkpointsBytes, line: v.checkpointLines },
    notesEnd: v.notesEnd ?? { offset: 0, line: 0 },
    trusted: await latestTrusted(fhs, v),
    quarantine: v.entries.map((p) => p.entry.seq),
    verifiedUnder: verificationContext(opts),
    sealer: null,
    sealedSize: null,
  };
  // Sealed only by the key that signed the newest checkpoint (or any, before the first).
  const sealer = sealerFor(opts);
  if (sealer && (!state.trusted || state.trusted.checkpoint.signer === sealer.keyId)) state.sealer = sealer;
  if (!torn) await saveState(dir, fhs, tree, state).catch(() => undefined);
  return { tree, state };
}

/** Refuses to write onto a journal that does not verify: the first failing rule and where, and how many more. */
function refuseUnlessVerified(dir: string, v: JournalVerification, allowTorn: boolean): void {
  // Every fail blocks. Without a trust store, another author's signature cannot be checked
  // (reported as unavailable, not blocking): everything else (chain, tree, checkpoints, the
  // signer's own signatures) must hold. With one, every signature must.
  const blocking = v.findings.filter((f) => f.severity === 'fail' && !(allowTorn && f.rule === 'RPR-JOURNAL-013'));
  if (v.entryLines > 0 && v.head === null && blocking.length === 0)
    blocking.push({
      rule: 'RPR-JOURNAL-002',
      severity: 'fail',
      message: 'the last entry cannot be read',
      pointer: entryPointer(v.entryLines),
    });
  refuseFindings(dir, blocking);
}

/** Throws UNVERIFIED naming the first of `blocking` and how many more; returns when there are none. */
export function refuseFindings(dir: string, blocking: readonly Finding[]): void {
  if (blocking.length === 0) return;
  const f = blocking[0]!;
  const more = blocking.length > 1 ? ` (and ${blocking.length - 1} more finding${blocking.length > 2 ? 's' : ''})` : '';
  const fix = `run 'reprise journal verify ${dir} --trust-store FILE' to see every finding`;
  throw new JournalError(
    `refused: journal ${dir} does not verify, so nothing can be signed onto it: ${f.rule}${f.pointer ? ` at ${f.pointer}` : ''}: ${f.message}${more}. Nothing was written; ${fix}`,
    'UNVERIFIED',
  );
}

/** The newest well-formed checkpoint, as the next append's trusted state (its line read back from the file). */
async function latestTrusted(fhs: Handles, v: JournalVerification): Promise<WriterState['trusted']> {
  if (!v.latestCheckpoint || v.latestCheckpointOffset === null) return null;
  const line = (
    await readAt(fhs.checkpoints, v.latestCheckpointOffset, v.checkpointsBytes - v.latestCheckpointOffset - 1)
  ).toString('utf8');
  return { line, offset: v.latestCheckpointOffset, checkpoint: v.latestCheckpoint };
}

/** The last line of notes.jsonl (ending at `end`), as the note text it holds. */
export async function readLastNote(fh: FileHandle, end: number): Promise<string> {
  const start = Math.max(0, end - 64 * 1024);
  const tail = await readAt(fh, start, end - start);
  const from = tail.lastIndexOf(0x0a, tail.length - 2) + 1;
  const v = parseCanonical(tail.subarray(from, tail.length - 1).toString('utf8')).value;
  if (typeof v !== 'string') throw new JournalError(`the last line of ${NOTES_FILE} is not a note`, 'DAMAGED');
  return v;
}

/** For entries in order: where the lines covering entry i begin (the first with treeSize > i; the file's end when none does). */
function placesCovering(
  lines: readonly { offset: number; line: number; treeSize: number }[],
  end: FilePlace,
): (i: number) => FilePlace {
  let k = 0;
  return (i) => {
    while (k < lines.length && lines[k]!.treeSize <= i) k++;
    const l = lines[k];
    return l ? { offset: l.offset, line: l.line } : end;
  };
}

/** Writes tree.bin (tlog order) and index.bin from a full verification, replacing what they held. */
async function rebuildDerived(fhs: Handles, v: JournalVerification): Promise<TreeFile> {
  const n = v.entryLines;
  const collected = v.collected!;
  await fhs.tree.truncate(0);
  await fhs.index.truncate(0);
  const chunks: Buffer[] = [];
  let pos = 0;
  const flush = async (force: boolean) => {
    if (chunks.length === 0 || (!force && chunks.length < 4096)) return;
    const b = Buffer.concat(chunks);
    chunks.length = 0;
    await writeAllAt(fhs.tree, b, pos);
    pos += b.length;
  };
  const index = Buffer.alloc(indexBytes(n));
  const cps = placesCovering(collected.checkpoints, { offset: v.checkpointsBytes, line: v.checkpointLines });
  const notes = placesCovering(collected.notes, v.notesEnd ?? { offset: 0, line: 0 });
  for (let i = 0; i < n; i++) {
    chunks.push(v.tree.block(0, i));
    for (let level = 0, k = i; k % 2 === 1; level++, k = Math.floor(k / 2))
      chunks.push(v.tree.block(level + 1, Math.floor(k / 2)));
    await flush(false);
    indexRecord({ entryOffset: collected.entryOffsets[i]!, checkpoints: cps(i), notes: notes(i) }).copy(
      index,
      indexBytes(i),
    );
  }
  await flush(true);
  await writeAllAt(fhs.index, index, 0);
  return new TreeFile(fhs.tree, n, n === 0 ? [] : frontierBlocks(n).map(([l, k]) => v.tree.block(l, k)));
}
