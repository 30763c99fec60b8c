/**
 * The journal's two line formats (journal.md): entries and checkpoints, their hashes,
 * their signatures, and the structural checks of one parsed line. One small function per
 * check, each yielding a finding with a rule id (see docs/rules/journal.md).
 */
import type { Finding } from '../../shared/report.js';
import { fail } from '../core/findings.js';
import { isPlainObject } from '../core/closed.js';
import { isHashString, sha256, formatHash } from '../core/hash.js';
import { canonicalizeValue } from '../core/jcs.js';
import { isKeyId, isSignatureString, signBytes, type Signer } from '../core/keys.js';
import { isRfc3339Utc, whyNotRfc3339Utc } from '../core/time.js';

// The files' names live in layout.ts, with every other file a journal directory holds.
export { CHECKPOINTS_FILE, COSIGNATURES_FILE, ENTRIES_FILE, LOCK_FILE, NOTES_FILE } from './layout.js';

/**
 * The origin line of a journal's notes, and the key name its signers sign them under:
 * `reprise.journal/` + the first 32 hex digits of entry 0's hash. Entry 0 holds its author's
 * key id, its time and its signature, so two journals never share an origin, and a copy of a
 * journal keeps its own; it needs no name chosen by anyone and no configuration.
 */
export function journalOrigin(entry0Hash: string): string {
  return `reprise.journal/${entry0Hash.slice(7, 39)}`;
}

/** The closed set of entry kinds (journal.md lists the first eight; `journal-repair` records a repair). */
export const ENTRY_KINDS = [
  'review-rationale',
  'quarantine-open',
  'quarantine-release',
  'quarantine-uphold',
  'quarantine-escalate',
  'replay-drift',
  'recalibration-flag',
  'replay-comparison',
  'journal-repair',
] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

export interface Subject {
  claimRef: string;
  artifact?: string;
}

export type JsonObject = { [key: string]: unknown };

/** An entry line, as written. */
export interface Entry {
  seq: number;
  prev: string;
  recordedAtUtc: string;
  kind: EntryKind;
  subject: Subject;
  body: JsonObject;
  author: string;
  sig: string;
}

/** A checkpoint (signed tree head) line, as written. */
export interface Checkpoint {
  treeSize: number;
  rootHash: string;
  timestampUtc: string;
  signer: string;
  sig: string;
}

/** The 32 raw bytes of `H(value without sig)`: what `sig` signs. */
export function unsignedDigest(value: Entry | Checkpoint | Omit<Entry, 'sig'> | Omit<Checkpoint, 'sig'>): Buffer {
  const { sig: _sig, ...rest } = value as { sig?: string };
  return sha256(canonicalizeValue(rest));
}

/**
 * `unsignedDigest` straight from a line already proven canonical (parseCanonical's output
 * equals the line) and shape-checked: RFC 8785 serializes members independently, so the
 * canonical text of the value without `sig` is the line with the `,"sig":"…"` member cut
 * out. Entries sort `sig` just before `subject` (whose members are plain strings, which
 * cannot hold a raw `"`), checkpoints just before `signer`, so the cut is unambiguous.
 * Returns null when the member is not where it must be (the caller then canonicalizes).
 */
export function unsignedDigestOfLine(line: string, sig: string, next: 'subject' | 'signer'): Buffer | null {
  const needle = `,"sig":"${sig}","${next}":`;
  const i = line.lastIndexOf(needle);
  if (i < 0) return null;
  const cut = 8 + sig.length + 1; // `,"sig":"` + sig + `"`
  return sha256(line.slice(0, i) + line.slice(i + cut));
}

/** The entry hash `H(entry without sig)` as a `sha256:` string. */
export function entryHash(e: Entry | Omit<Entry, 'sig'>): string {
  return formatHash(unsignedDigest(e).toString('hex'));
}

export function signEntry(unsigned: Omit<Entry, 'sig'>, signer: Signer): { entry: Entry; hash: string; line: string } {
  const digest = unsignedDigest(unsigned);
  const entry: Entry = { ...unsigned, sig: signBytes(signer, digest) };
  return { entry, hash: formatHash(digest.toString('hex')), line: canonicalizeValue(entry) };
}

export function signCheckpoint(
  unsigned: Omit<Checkpoint, 'sig'>,
  signer: Signer,
): { checkpoint: Checkpoint; line: string } {
  const checkpoint: Checkpoint = { ...unsigned, sig: signBytes(signer, unsignedDigest(unsigned)) };
  return { checkpoint, line: canonicalizeValue(checkpoint) };
}

// ---------------------------------------------------------------------------
// Structural checks (one function per rule; each returns the findings it yields)

const ENTRY_MEMBERS = ['author', 'body', 'kind', 'prev', 'recordedAtUtc', 'seq', 'sig', 'subject'];
const CHECKPOINT_MEMBERS = ['rootHash', 'sig', 'signer', 'timestampUtc', 'treeSize'];

function membersFinding(
  rule: string,
  v: JsonObject,
  allowed: readonly string[],
  required: readonly string[],
  pointer: string | undefined,
  what: string,
): Finding[] {
  // Fast path: exactly the required members in code-unit order (what a canonical line holds).
  const keys = Object.keys(v);
  if (keys.length === required.length && keys.every((k, i) => k === required[i])) return [];
  const out: Finding[] = [];
  for (const k of Object.keys(v))
    if (!allowed.includes(k)) out.push(fail(rule, `${what} has an unknown member "${k}"`, { pointer }));
  for (const k of required)
    if (!Object.hasOwn(v, k)) out.push(fail(rule, `${what} lacks the member "${k}"`, { pointer }));
  return out;
}

/** RPR-JOURNAL-004: an entry's members and their types. */
export function checkEntryShape(v: unknown, pointer: string): Finding[] {
  const R = 'RPR-JOURNAL-004';
  if (!isPlainObject(v)) return [fail(R, 'the entry is not a JSON object', { pointer })];
  const out = membersFinding(R, v, ENTRY_MEMBERS, ENTRY_MEMBERS, pointer, 'the entry');
  if ('seq' in v && !(typeof v['seq'] === 'number' && Number.isSafeInteger(v['seq']) && v['seq'] >= 0))
    out.push(fail(R, 'seq is not a whole number >= 0', { pointer, actual: String(v['seq']) }));
  if ('prev' in v && !isHashString(v['prev']))
    out.push(fail(R, 'prev is not a sha256:<64 hex> hash string', { pointer }));
  if ('recordedAtUtc' in v && !isRfc3339Utc(v['recordedAtUtc']))
    out.push(fail(R, `recordedAtUtc is ${whyNotRfc3339Utc(v['recordedAtUtc'])}`, { pointer }));
  if ('kind' in v && !ENTRY_KINDS.includes(v['kind'] as EntryKind))
    out.push(fail(R, `kind ${JSON.stringify(v['kind'])} is not one of ${ENTRY_KINDS.join(', ')}`, { pointer }));
  if ('subject' in v) out.push(...checkSubject(v['subject'], pointer));
  if ('body' in v && !isPlainObject(v['body'])) out.push(fail(R, 'body is not a JSON object', { pointer }));
  if ('author' in v && !isKeyId(v['author']))
    out.push(fail(R, 'author is not an ed25519:<64 hex> key id', { pointer }));
  if ('sig' in v && !isSignatureString(v['sig']))
    out.push(fail(R, 'sig is not the canonical base64 of a 64-byte signature', { pointer }));
  return out;
}

export function checkSubject(s: unknown, pointer: string): Finding[] {
  const R = 'RPR-JOURNAL-004';
  if (!isPlainObject(s)) return [fail(R, 'subject is not a JSON object', { pointer })];
  const out = membersFinding(R, s, ['claimRef', 'artifact'], ['claimRef'], pointer, 'subject');
  if ('claimRef' in s && (typeof s['claimRef'] !== 'string' || s['claimRef'].trim() === ''))
    out.push(fail(R, 'subject.claimRef is not a non-empty string', { pointer }));
  if ('artifact' in s && !isHashString(s['artifact']))
    out.push(fail(R, 'subject.artifact is not a sha256:<64 hex> hash string', { pointer }));
  return out;
}

/** RPR-JOURNAL-014: a checkpoint's members and their types. */
export function checkCheckpointShape(v: unknown, pointer: string | undefined): Finding[] {
  const R = 'RPR-JOURNAL-014';
  if (!isPlainObject(v)) return [fail(R, 'the checkpoint is not a JSON object', { pointer })];
  const out = membersFinding(R, v, CHECKPOINT_MEMBERS, CHECKPOINT_MEMBERS, pointer, 'the checkpoint');
  if (
    'treeSize' in v &&
    !(typeof v['treeSize'] === 'number' && Number.isSafeInteger(v['treeSize']) && v['treeSize'] >= 1)
  )
    out.push(fail(R, 'treeSize is not a whole number >= 1', { pointer }));
  if ('rootHash' in v && !isHashString(v['rootHash']))
    out.push(fail(R, 'rootHash is not a sha256:<64 hex> hash string', { pointer }));
  if ('timestampUtc' in v && !isRfc3339Utc(v['timestampUtc']))
    out.push(fail(R, `timestampUtc is ${whyNotRfc3339Utc(v['timestampUtc'])}`, { pointer }));
  if ('signer' in v && !isKeyId(v['signer']))
    out.push(fail(R, 'signer is not an ed25519:<64 hex> key id', { pointer }));
  if ('sig' in v && !isSignatureString(v['sig']))
    out.push(fail(R, 'sig is not the canonical base64 of a 64-byte signature', { pointer }));
  return out;
}
