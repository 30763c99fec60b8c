/**
 * Self-contained RFC 9162 inclusion proofs (`reprise.journal-proof/v1`): the entry line
 * verbatim, its audit path, and the signed checkpoint it is proven against. A verifier
 * needs only the proof document and a trust store, not the journal.
 */
import type { Finding } from '../../shared/report.js';
import { changedNumbers, fail, info, unavailable } from '../core/findings.js';
import { isPlainObject as isObj } from '../core/closed.js';
import { formatHash, isHashString } from '../core/hash.js';
import { JcsError, parseCanonical } from '../core/jcs.js';
import type { TrustStore } from '../core/keys.js';
import { rawPublicKey, verifyBytes } from '../core/keys.js';
import { parseCheckpointBody, parseNote, verifyNote } from './note.js';
import { JournalError } from './errors.js';
import {
  checkCheckpointShape,
  checkEntryShape,
  entryHash,
  NOTES_FILE,
  unsignedDigest,
  type Checkpoint,
  type Entry,
} from './format.js';
import { leafHash, verifyConsistency, verifyInclusion } from './merkle.js';
import { notePointer, verifyJournal, type JournalVerification } from './verify.js';

export const PROOF_TYPE = 'reprise.journal-proof/v1';

export interface InclusionProof {
  type: typeof PROOF_TYPE;
  leafIndex: number;
  treeSize: number;
  /** The entry line exactly as in entries.jsonl (without the newline): the Merkle leaf. */
  entry: string;
  entryHash: string;
  auditPath: string[];
  checkpoint: Checkpoint;
  /** The same checkpoint as a C2SP signed note (journals written since notes were added). */
  note?: string;
}

/**
 * Told why a proof goes without its checkpoint's signed note (the form tools other than
 * Reprise read), so that a caller can say so: a proof never loses its note silently.
 */
export type NoteGap = (why: string) => void;

/** An inclusion proof of entry `seq` against the latest checkpoint of the journal in `dir`. */
export async function inclusionProof(dir: string, seq: number, onNoteGap?: NoteGap): Promise<InclusionProof> {
  return proofFromVerification(await verifyJournal(dir, null), seq, onNoteGap);
}

/** The same proof from a verification already made (several proofs, one pass over the journal). */
export function proofFromVerification(v: JournalVerification, seq: number, onNoteGap?: NoteGap): InclusionProof {
  const dir = v.dir;
  const cp = v.latestCheckpoint;
  if (!cp) throw new JournalError(`journal ${dir} has no checkpoint to prove against`, 'REFUSED');
  if (cp.treeSize > v.entryLines)
    throw new JournalError(
      `the latest checkpoint covers ${cp.treeSize} entries but the journal holds ${v.entryLines}: run 'reprise journal verify ${dir}'`,
      'DAMAGED',
    );
  const root = formatHash(v.tree.root(cp.treeSize).toString('hex'));
  if (root !== cp.rootHash)
    throw new JournalError(
      `the latest checkpoint's root does not match the journal: run 'reprise journal verify ${dir}'`,
      'DAMAGED',
    );
  if (!Number.isSafeInteger(seq) || seq < 0 || seq >= cp.treeSize)
    throw new JournalError(
      `no entry ${seq} under the latest checkpoint (it covers entries 0 to ${cp.treeSize - 1})`,
      'USAGE',
    );
  const p = v.entries.find((e) => e.line === seq + 1);
  if (!p || p.entry.seq !== seq)
    throw new JournalError(`entry line ${seq + 1} is damaged: run 'reprise journal verify ${dir}'`, 'DAMAGED');
  return {
    type: PROOF_TYPE,
    leafIndex: seq,
    treeSize: cp.treeSize,
    entry: p.text,
    entryHash: p.hash,
    auditPath: v.tree.inclusionProof(seq, cp.treeSize).map((h) => formatHash(h.toString('hex'))),
    checkpoint: cp,
    ...noteOf(v, cp, onNoteGap),
  };
}

export const CONSISTENCY_TYPE = 'reprise.journal-consistency/v1';

/** An RFC 9162 consistency proof from an earlier tree of the journal to its latest signed checkpoint (and that checkpoint's note). */
export interface ConsistencyProofDoc {
  type: typeof CONSISTENCY_TYPE;
  fromSize: number;
  fromRoot: string;
  treeSize: number;
  proof: string[];
  checkpoint: Checkpoint;
  note?: string;
}

/** `journal proof DIR --from SIZE`: the latest checkpoint extends the journal's tree of SIZE entries. */
export async function consistencyProofOf(
  dir: string,
  fromSize: number,
  onNoteGap?: NoteGap,
): Promise<ConsistencyProofDoc> {
  const v = await verifyJournal(dir, null, { keep: false });
  const cp = v.latestCheckpoint;
  if (!cp) throw new JournalError(`journal ${dir} has no checkpoint to prove against`, 'REFUSED');
  if (cp.treeSize > v.entryLines || formatHash(v.tree.root(cp.treeSize).toString('hex')) !== cp.rootHash)
    throw new JournalError(
      `the latest checkpoint does not match the journal: run 'reprise journal verify ${dir}'`,
      'DAMAGED',
    );
  if (!Number.isSafeInteger(fromSize) || fromSize < 1 || fromSize > cp.treeSize)
    throw new JournalError(`--from takes a tree size from 1 to ${cp.treeSize} (the latest checkpoint's)`, 'USAGE');
  return {
    type: CONSISTENCY_TYPE,
    fromSize,
    fromRoot: formatHash(v.tree.root(fromSize).toString('hex')),
    treeSize: cp.treeSize,
    proof: v.tree.consistencyProof(fromSize, cp.treeSize).map((h) => formatHash(h.toString('hex'))),
    checkpoint: cp,
    ...noteOf(v, cp, onNoteGap),
  };
}

/** Checks a consistency proof document as a recipient would: the proof, the checkpoint's signature, its note. */
export function checkConsistencyProof(doc: unknown, trust: TrustStore | null): ProofCheck {
  const R = 'RPR-JOURNAL-036';
  if (!isObj(doc))
    return { findings: [fail(R_SHAPE, 'the proof is not a JSON object')], entry: null, checkpoint: null };
  const out: Finding[] = [];
  for (const k of Object.keys(doc))
    if (!['type', 'fromSize', 'fromRoot', 'treeSize', 'proof', 'checkpoint', 'note'].includes(k))
      out.push(fail(R_SHAPE, `unknown member "${k}"`, { pointer: `/${k}` }));
  const nat = (k: string) => typeof doc[k] === 'number' && Number.isSafeInteger(doc[k]) && (doc[k] as number) >= 1;
  if (!nat('fromSize') || !nat('treeSize'))
    out.push(fail(R_SHAPE, 'fromSize and treeSize are whole numbers >= 1', { pointer: '/fromSize' }));
  if (!isHashString(doc['fromRoot']))
    out.push(fail(R_SHAPE, 'fromRoot is not a sha256: hash string', { pointer: '/fromRoot' }));
  const path = doc['proof'];
  if (!Array.isArray(path) || !path.every(isHashString))
    out.push(fail(R_SHAPE, 'proof is not an array of sha256: hash strings', { pointer: '/proof' }));
  if (doc['note'] !== undefined && typeof doc['note'] !== 'string')
    out.push(fail(R_SHAPE, 'note is not a string (the checkpoint as a signed note)', { pointer: '/note' }));
  out.push(...checkCheckpointShape(doc['checkpoint'], '/checkpoint'));
  if (out.length > 0) return { findings: out, entry: null, checkpoint: null };
  const cp = doc['checkpoint'] as Checkpoint;
  const [from, size] = [doc['fromSize'] as number, doc['treeSize'] as number];
  if (cp.treeSize !== size)
    out.push(
      fail(R_SIZE, 'the checkpoint is for another tree size than the proof', {
        pointer: '/checkpoint/treeSize',
        expected: size,
        actual: cp.treeSize,
      }),
    );
  const hashes = (path as string[]).map((h) => Buffer.from(h.slice(7), 'hex'));
  if (
    !verifyConsistency(
      from,
      size,
      Buffer.from((doc['fromRoot'] as string).slice(7), 'hex'),
      Buffer.from(cp.rootHash.slice(7), 'hex'),
      hashes,
    )
  )
    out.push(
      fail(
        R,
        `the proof does not show that the checkpoint's tree (${size}) extends the tree of ${from} entries (RFC 9162 consistency)`,
        { pointer: '/proof', expected: `extends ${String(doc['fromRoot'])}` },
      ),
    );
  if (!trust)
    out.push(
      unavailable('RPR-JOURNAL-011', "no trust store given (--trust-store): the checkpoint's signer cannot be checked"),
    );
  else {
    const k = trust.get(cp.signer);
    if (!k)
      out.push(
        fail('RPR-JOURNAL-008', `the checkpoint is signed by ${cp.signer}, which is not in the trust store`, {
          pointer: '/checkpoint/sig',
        }),
      );
    else if (k.status === 'revoked')
      out.push(fail('RPR-JOURNAL-009', 'the checkpoint is signed by a revoked key', { pointer: '/checkpoint/sig' }));
    else if (!verifyBytes(k.publicKey, unsignedDigest(cp), cp.sig))
      out.push(fail('RPR-JOURNAL-007', "the checkpoint's signature does not verify", { pointer: '/checkpoint/sig' }));
  }
  if (typeof doc['note'] === 'string') out.push(...checkProofNote(doc['note'], cp, trust));
  if (out.length === 0)
    out.push(
      info(
        'RPR-JOURNAL-000',
        `the signed tree of ${size} entries extends the tree of ${from} entries (${String(doc['fromRoot'])}) by RFC 9162 consistency`,
      ),
    );
  return { findings: out, entry: null, checkpoint: cp };
}

/** The rules of notes.jsonl's lines (verify.ts NoteSteps). */
const NOTE_RULES = new Set(['RPR-JOURNAL-040', 'RPR-JOURNAL-041', 'RPR-JOURNAL-042', 'RPR-JOURNAL-043']);

/**
 * The latest checkpoint's note for a proof: the newest note when it is for that tree and the
 * journal's checks found nothing wrong with its line; otherwise none, and `onNoteGap` is told why.
 */
function noteOf(v: JournalVerification, cp: Checkpoint, onNoteGap?: NoteGap): { note?: string } {
  const line = v.latestNoteLine ?? null;
  const onLine =
    line === null ? [] : v.findings.filter((f) => f.pointer === notePointer(line) && f.severity === 'fail');
  if (v.latestNote && noteSize(v.latestNote) === cp.treeSize && onLine.length === 0) return { note: v.latestNote };
  const said = [...onLine, ...v.findings.filter((f) => NOTE_RULES.has(f.rule) && !onLine.includes(f))];
  const why =
    said.length > 0
      ? said[0]!.message
      : v.latestNote
        ? `the newest note is for tree ${noteSize(v.latestNote) ?? '?'}, not the latest checkpoint's (${cp.treeSize})`
        : `the journal holds no signed notes (${NOTES_FILE} is absent or empty: written before notes, or by another program)`;
  onNoteGap?.(why);
  return {};
}

function noteSize(note: string): number | null {
  try {
    return parseCheckpointBody(parseNote(note).body).treeSize;
  } catch {
    return null;
  }
}

const R_SHAPE = 'RPR-JOURNAL-030';
const R_ENTRY = 'RPR-JOURNAL-031';
const R_INDEX = 'RPR-JOURNAL-032';
const R_PATH = 'RPR-JOURNAL-033';
const R_SIZE = 'RPR-JOURNAL-034';

export interface ProofCheck {
  findings: Finding[];
  entry: Entry | null;
  checkpoint: Checkpoint | null;
}

/**
 * The checkpoint's signed note a proof carries: the same tree size and root as the JSON
 * checkpoint, and (with a trust store) signed under its origin by a key the store knows.
 */
function checkProofNote(note: string, cp: Checkpoint, trust: TrustStore | null): Finding[] {
  const R = 'RPR-JOURNAL-035';
  let body;
  try {
    body = parseCheckpointBody(parseNote(note).body);
  } catch (e) {
    return [
      fail(R, `the proof's note is not a C2SP checkpoint note: ${e instanceof Error ? e.message : String(e)}`, {
        pointer: '/note',
      }),
    ];
  }
  const out: Finding[] = [];
  if (body.treeSize !== cp.treeSize || formatHash(body.rootHash.toString('hex')) !== cp.rootHash)
    out.push(
      fail(
        R,
        `the proof's note is for tree ${body.treeSize} ${formatHash(body.rootHash.toString('hex'))}, not the checkpoint's`,
        { pointer: '/note', expected: `${cp.treeSize} ${cp.rootHash}` },
      ),
    );
  if (trust) {
    const v = verifyNote(
      note,
      trust.keys
        .filter((k) => k.status !== 'revoked')
        .map((k) => ({ name: body.origin, publicKey: rawPublicKey(k.publicKey) })),
    );
    if (!v.ok) {
      // A key the store lists but has revoked is no unknown key: say which, so nobody re-keys for nothing.
      const revoked = trust.keys.filter(
        (k) =>
          k.status === 'revoked' && verifyNote(note, [{ name: body.origin, publicKey: rawPublicKey(k.publicKey) }]).ok,
      );
      out.push(
        fail(
          R,
          revoked.length > 0
            ? `the proof's note is signed by a key the trust store has revoked (${revoked.map((k) => k.keyId).join(', ')}), and by no key it trusts`
            : `the proof's note is not signed by a key the trust store knows: ${v.problems.join('; ')}`,
          { pointer: '/note' },
        ),
      );
    }
  }
  return out;
}

/** Verifies a proof document (already parsed JSON) against a trust store; one finding per failed check. */
export function checkInclusionProof(doc: unknown, trust: TrustStore | null): ProofCheck {
  const out: Finding[] = [];
  if (!isObj(doc))
    return { findings: [fail(R_SHAPE, 'the proof is not a JSON object')], entry: null, checkpoint: null };
  if (doc['type'] !== PROOF_TYPE)
    out.push(
      fail(R_SHAPE, `type must be "${PROOF_TYPE}"`, {
        pointer: '/type',
        expected: PROOF_TYPE,
        actual: String(doc['type']),
      }),
    );
  for (const k of Object.keys(doc))
    if (!['type', 'leafIndex', 'treeSize', 'entry', 'entryHash', 'auditPath', 'checkpoint', 'note'].includes(k))
      out.push(fail(R_SHAPE, `unknown member "${k}"`, { pointer: `/${k}` }));
  const idx = doc['leafIndex'];
  const size = doc['treeSize'];
  if (!(typeof idx === 'number' && Number.isSafeInteger(idx) && idx >= 0))
    out.push(fail(R_SHAPE, 'leafIndex is not a whole number >= 0', { pointer: '/leafIndex' }));
  if (!(typeof size === 'number' && Number.isSafeInteger(size) && size >= 1))
    out.push(fail(R_SHAPE, 'treeSize is not a whole number >= 1', { pointer: '/treeSize' }));
  const path = doc['auditPath'];
  if (!Array.isArray(path) || !path.every(isHashString))
    out.push(fail(R_SHAPE, 'auditPath is not an array of sha256: hash strings', { pointer: '/auditPath' }));
  if (typeof doc['entry'] !== 'string')
    out.push(fail(R_SHAPE, 'entry is not a string (the entry line verbatim)', { pointer: '/entry' }));
  if (doc['note'] !== undefined && typeof doc['note'] !== 'string')
    out.push(fail(R_SHAPE, 'note is not a string (the checkpoint as a signed note)', { pointer: '/note' }));
  const cpShape = checkCheckpointShape(doc['checkpoint'], '/checkpoint');
  out.push(...cpShape);
  if (out.length > 0) return { findings: out, entry: null, checkpoint: null };

  const cp = doc['checkpoint'] as Checkpoint;
  const line = doc['entry'] as string;
  let entry: Entry | null = null;
  try {
    const p = parseCanonical(line);
    out.push(...changedNumbers(p.warnings, { rule: R_ENTRY, subject: 'the entry is not I-JSON' }, { at: '/entry' }));
    if (p.canonical !== line && p.warnings.length === 0)
      out.push(
        fail(R_ENTRY, 'the entry is not in canonical form', { pointer: '/entry', expected: p.canonical, actual: line }),
      );
    const shape = checkEntryShape(p.value, '/entry');
    out.push(...shape.map((f) => ({ ...f, rule: R_ENTRY })));
    if (shape.length === 0) entry = p.value as Entry;
  } catch (e) {
    out.push(
      fail(R_ENTRY, `the entry is not valid I-JSON: ${e instanceof JcsError ? e.message : String(e)}`, {
        pointer: '/entry',
      }),
    );
  }
  if (entry) {
    if (entry.seq !== idx)
      out.push(
        fail(R_INDEX, "the entry's seq differs from leafIndex", {
          pointer: '/leafIndex',
          expected: entry.seq,
          actual: idx as number,
        }),
      );
    const h = entryHash(entry);
    if (doc['entryHash'] !== undefined && doc['entryHash'] !== h)
      out.push(
        fail(R_ENTRY, 'entryHash is not the hash of the entry', {
          pointer: '/entryHash',
          expected: h,
          actual: String(doc['entryHash']),
        }),
      );
  }
  if (cp.treeSize !== size)
    out.push(
      fail(R_SIZE, 'the checkpoint is for another tree size than the proof', {
        pointer: '/checkpoint/treeSize',
        expected: size as number,
        actual: cp.treeSize,
      }),
    );
  const ok = verifyInclusion(
    leafHash(line),
    idx as number,
    size as number,
    (path as string[]).map((h) => Buffer.from(h.slice(7), 'hex')),
    Buffer.from(cp.rootHash.slice(7), 'hex'),
  );
  if (!ok)
    out.push(
      fail(
        R_PATH,
        `the audit path does not lead from entry ${String(idx)} to the checkpoint's root (RFC 9162 inclusion)`,
        { pointer: '/auditPath', expected: cp.rootHash },
      ),
    );
  if (!trust)
    out.push(
      unavailable(
        'RPR-JOURNAL-011',
        "no trust store given (--trust-store): the entry's author and the checkpoint's signer cannot be checked",
      ),
    );
  else {
    const sig = (keyId: string, digest: Buffer, s: string, pointer: string, what: string) => {
      const k = trust.get(keyId);
      if (!k)
        out.push(
          fail('RPR-JOURNAL-008', `${what} is signed by ${keyId}, which is not in the trust store`, {
            pointer,
            actual: keyId,
          }),
        );
      else if (k.status === 'revoked')
        out.push(
          fail('RPR-JOURNAL-009', `${what} is signed by a revoked key`, {
            pointer,
            expected: 'active',
            actual: 'revoked',
          }),
        );
      else if (!verifyBytes(k.publicKey, digest, s))
        out.push(fail('RPR-JOURNAL-007', `${what}: the signature does not verify`, { pointer }));
    };
    sig(cp.signer, unsignedDigest(cp), cp.sig, '/checkpoint/sig', 'the checkpoint');
    if (entry) sig(entry.author, unsignedDigest(entry), entry.sig, '/entry', 'the entry');
  }
  if (typeof doc['note'] === 'string') out.push(...checkProofNote(doc['note'], cp, trust));
  if (out.length === 0)
    out.push(
      info(
        'RPR-JOURNAL-000',
        `entry ${String(idx)} is included in the signed tree of ${String(size)} entries (root ${cp.rootHash})`,
      ),
    );
  return { findings: out, entry, checkpoint: cp };
}
