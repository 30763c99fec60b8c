/**
 * C2SP signed notes, transparency-log checkpoints and Ed25519 witness cosignatures, read and
 * written byte for byte as Go's golang.org/x/mod/sumdb/note does (the reference: note.go's
 * Open, Sign, NewVerifier; test/journal/go-interop.test.ts checks it against that code).
 *
 * - c2sp.org/signed-note: text ending in "\n", a blank line, then one or more lines
 *   "— <key name> base64(key id (4, big-endian) || signature)\n"; key id =
 *   SHA-256(name || 0x0A || type || public key)[:4], type 0x01 for Ed25519 over the text.
 * - c2sp.org/tlog-checkpoint: the text is "origin\ntree size\nbase64(root)\n" + extension lines.
 * - c2sp.org/tlog-cosignature (cosignature/v1): type 0x04; the signature bytes are
 *   timestamp (u64, big-endian) || Ed25519 over "cosignature/v1\ntime T\n" + the checkpoint text.
 *
 * Pure functions: no I/O and no clock (a cosignature's time and the latest time accepted are
 * parameters). Hostile input is bounded by MAX_NOTE_BYTES and MAX_NOTE_SIGNATURES before any
 * signature is checked. docs/journal-notes.md says what Reprise writes and accepts, and why.
 */
import { isUtf8 } from 'node:buffer';
import type { KeyObject } from 'node:crypto';
import { UsageError } from '../core/errors.js';
import { sha256 } from '../core/hash.js';
import { publicKeyFromRaw, rawPublicKey, signBytes, verifyBytes, type Signer } from '../core/keys.js';

/** Signature type bytes (c2sp.org/signed-note, "Signature types"). */
export const SIG_TYPE_ED25519 = 0x01;
export const SIG_TYPE_COSIGNATURE_V1 = 0x04;
export type NoteSigType = typeof SIG_TYPE_ED25519 | typeof SIG_TYPE_COSIGNATURE_V1;

/** Go's tlog.ParseTree refuses texts over 1e6 bytes; a note (text and signatures) gets the same bound. */
export const MAX_NOTE_BYTES = 1_000_000;
/** Go's note.Open refuses a note with more than 100 signatures; the spec asks for at least 16. */
export const MAX_NOTE_SIGNATURES = 100;

/** A malformed note, checkpoint, key or policy file: a usage error about a file (the CLI exits 3 with its one line). */
export class NoteError extends UsageError {
  constructor(message: string) {
    super(message, 'bad-file');
    this.name = 'NoteError';
  }
}

/** A key a verifier knows: the key name it signs under and its raw 32-byte Ed25519 public key. */
export interface NoteKey {
  name: string;
  publicKey: Uint8Array;
}

/** One signature line as read: the key id as 8 lower-case hex digits, the bytes after it, the line without its newline. */
export interface NoteSignature {
  name: string;
  keyId: string;
  signature: Buffer;
  line: string;
}

export interface ParsedNote {
  /** The signed text: everything before the last blank line, its final newline included. */
  body: string;
  signatures: NoteSignature[];
}

const SIG_PREFIX = '\u2014 ';
// Unicode White_Space is exactly what Go's unicode.IsSpace tests (note.go isValidName).
const NAME_REFUSED = /[\p{White_Space}+\u0000-\u001f]/u;
const CONTROL = /[\u0000-\u0009\u000b-\u001f]/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** A key name per signed-note: non-empty, well-formed, no Unicode space, no "+" (and no control character, which no note may hold). */
export function isValidKeyName(name: unknown): name is string {
  return typeof name === 'string' && name !== '' && name.isWellFormed() && !NAME_REFUSED.test(name);
}

/**
 * Standard base64 (RFC 4648 section 4) in its one canonical spelling, else null. Go's decoder
 * ignores the unused low bits of the last character; refusing other spellings keeps one
 * signature line per signature, as the journal does for its own signatures.
 */
export function decodeCanonicalBase64(s: string): Buffer | null {
  if (s === '' || !BASE64.test(s)) return null;
  const b = Buffer.from(s, 'base64');
  return b.toString('base64') === s ? b : null;
}

function checkKeyName(name: string, what: string): void {
  if (!isValidKeyName(name))
    throw new NoteError(
      `${what} ${JSON.stringify(name)} is not a key name (non-empty, no spaces, no "+", no control characters)`,
    );
}

function checkRawKey(publicKey: Uint8Array): void {
  if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32)
    throw new NoteError('an Ed25519 public key is 32 bytes');
}

// ---------------------------------------------------------------------------
// Keys: key ids and verifier keys ("vkeys", note.go NewVerifier / NewEd25519VerifierKey)

/** The key id of a key, as 8 lower-case hex digits: SHA-256(name || 0x0A || type || public key)[:4]. */
export function noteKeyId(name: string, publicKey: Uint8Array, type: NoteSigType = SIG_TYPE_ED25519): string {
  checkKeyName(name, 'key name');
  checkRawKey(publicKey);
  return sha256(Buffer.concat([Buffer.from(name, 'utf8'), Buffer.from([0x0a, type]), publicKey]))
    .subarray(0, 4)
    .toString('hex');
}

/** The key id of a cosigner (witness) key: the same hash with type 0x04 (c2sp.org/tlog-cosignature). */
export function cosignerKeyId(name: string, publicKey: Uint8Array): string {
  return noteKeyId(name, publicKey, SIG_TYPE_COSIGNATURE_V1);
}

/** The verifier key `name+<key id>+base64(type || public key)` that Go's note.NewVerifier reads (type 0x01) and witnesses publish (type 0x04). */
export function verifierKey(name: string, publicKey: Uint8Array, type: NoteSigType = SIG_TYPE_ED25519): string {
  return `${name}+${noteKeyId(name, publicKey, type)}+${Buffer.concat([Buffer.from([type]), publicKey]).toString('base64')}`;
}

export interface VerifierKey {
  name: string;
  type: NoteSigType;
  keyId: string;
  publicKey: Buffer;
}

/** Reads a verifier key of type 0x01 or 0x04; the key id must be the one its name and key give. */
export function parseVerifierKey(vkey: string): VerifierKey {
  const bad = (why: string): never => {
    throw new NoteError(`verifier key ${JSON.stringify(vkey.length > 200 ? vkey.slice(0, 200) + '…' : vkey)}: ${why}`);
  };
  // Split at the first two "+" only, as note.go's chop does: base64 has "+" in its alphabet.
  const m = /^([^+]*)\+([^+]*)\+(.*)$/s.exec(vkey);
  if (!m) bad('not of the form <name>+<8 hex digits>+<base64 key>');
  const [, name, id, b64] = m as unknown as [string, string, string, string];
  if (!isValidKeyName(name)) bad('the name is not a key name (non-empty, no spaces, no "+")');
  if (!/^[0-9a-fA-F]{8}$/.test(id)) bad('the key id is not 8 hex digits');
  const key = decodeCanonicalBase64(b64);
  if (!key) bad('the key is not canonical standard base64');
  const type = key![0];
  if (type !== SIG_TYPE_ED25519 && type !== SIG_TYPE_COSIGNATURE_V1)
    bad(
      `signature type 0x${(type ?? 0).toString(16).padStart(2, '0')} is not 0x01 (Ed25519) or 0x04 (Ed25519 cosignature/v1)`,
    );
  if (key!.length !== 33) bad(`an Ed25519 key is 32 bytes after its type byte, not ${key!.length - 1}`);
  const publicKey = key!.subarray(1);
  const keyId = noteKeyId(name, publicKey, type as NoteSigType);
  if (id.toLowerCase() !== keyId) bad(`the key id ${id} is not the one of this name and key (${keyId})`);
  return { name, type: type as NoteSigType, keyId, publicKey };
}

// ---------------------------------------------------------------------------
// Parsing a note

/** The note as text, within the size bound, valid UTF-8, without a control character other than newline. */
function noteText(input: string | Uint8Array, what: string): string {
  let text: string;
  if (typeof input === 'string') {
    if (input.length > MAX_NOTE_BYTES || Buffer.byteLength(input, 'utf8') > MAX_NOTE_BYTES)
      throw new NoteError(`${what} is larger than ${MAX_NOTE_BYTES} bytes`);
    if (!input.isWellFormed()) throw new NoteError(`${what} is not valid UTF-8 (it holds a lone surrogate)`);
    text = input;
  } else {
    if (input.length > MAX_NOTE_BYTES) throw new NoteError(`${what} is larger than ${MAX_NOTE_BYTES} bytes`);
    if (!isUtf8(input)) throw new NoteError(`${what} is not valid UTF-8`);
    text = Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
  }
  const c = CONTROL.exec(text);
  if (c) {
    const line = text.slice(0, c.index).split('\n').length;
    const code = c[0].charCodeAt(0).toString(16).padStart(4, '0').toUpperCase();
    throw new NoteError(
      `${what} holds the control character U+${code} on line ${line}${code === '000D' ? ' (carriage return: CRLF line ends?)' : ''}; only newline is allowed`,
    );
  }
  return text;
}

function parseSignatureLine(line: string, n: number): NoteSignature {
  const where = `signature line ${n}`;
  if (!line.startsWith(SIG_PREFIX)) throw new NoteError(`${where} does not start with "— " (em dash U+2014, space)`);
  const rest = line.slice(SIG_PREFIX.length);
  const sp = rest.indexOf(' ');
  if (sp < 0) throw new NoteError(`${where} has no space between the key name and the signature`);
  const name = rest.slice(0, sp);
  if (!isValidKeyName(name))
    throw new NoteError(`${where}: ${JSON.stringify(name)} is not a key name (non-empty, no spaces, no "+")`);
  const raw = decodeCanonicalBase64(rest.slice(sp + 1));
  if (!raw) throw new NoteError(`${where} (${name}): the signature is not canonical standard base64`);
  if (raw.length < 5)
    throw new NoteError(
      `${where} (${name}): ${raw.length} bytes; a signature is a 4-byte key id and at least one more byte`,
    );
  return { name, keyId: raw.subarray(0, 4).toString('hex'), signature: raw.subarray(4), line };
}

/**
 * Parses a signed note strictly (c2sp.org/signed-note; note.go Open): valid UTF-8 without
 * control characters, the text ends in a newline, the signatures follow the last blank line,
 * each is a well-formed line, at most MAX_NOTE_SIGNATURES. Checks no signature: verifyNote does.
 */
export function parseNote(input: string | Uint8Array): ParsedNote {
  const text = noteText(input, 'the note');
  const split = text.lastIndexOf('\n\n');
  if (split < 0) throw new NoteError('the note has no blank line between its text and its signatures');
  const sigs = text.slice(split + 2);
  if (sigs === '') throw new NoteError('the note has no signature line after its blank line');
  if (!sigs.endsWith('\n')) throw new NoteError('the note does not end in a newline');
  const lines = sigs.slice(0, -1).split('\n');
  if (lines.length > MAX_NOTE_SIGNATURES)
    throw new NoteError(`the note has ${lines.length} signature lines; at most ${MAX_NOTE_SIGNATURES} are read`);
  return { body: text.slice(0, split + 1), signatures: lines.map((l, i) => parseSignatureLine(l, i + 1)) };
}

// ---------------------------------------------------------------------------
// Signing and adding signatures

function checkBody(body: string): void {
  if (typeof body !== 'string' || !body.endsWith('\n')) throw new NoteError('a note text ends in a newline');
  noteText(body, 'the note text');
}

/** One signature line, newline included: "— name base64(key id || signature)\n". */
export function signatureLine(name: string, keyId: string, signature: Uint8Array): string {
  checkKeyName(name, 'key name');
  if (!/^[0-9a-f]{8}$/.test(keyId)) throw new NoteError('a key id is 8 lower-case hex digits');
  return `${SIG_PREFIX}${name} ${Buffer.concat([Buffer.from(keyId, 'hex'), signature]).toString('base64')}\n`;
}

/** Signs a note text with an Ed25519 key under a key name: the text, a blank line, one signature line (note.go Sign). */
export function signNote(body: string, name: string, signer: Signer): string {
  checkBody(body);
  const keyId = noteKeyId(name, rawPublicKey(signer.publicKey));
  const sig = Buffer.from(signBytes(signer, Buffer.from(body, 'utf8')), 'base64');
  return body + '\n' + signatureLine(name, keyId, sig);
}

/**
 * Adds signature lines to a signed note. As Go's note.Sign does, a new line replaces an
 * existing one by the same key (name and key id), and new lines come after the kept ones.
 * Checks no signature.
 */
export function addSignatures(note: string, lines: readonly string[]): string {
  const parsed = parseNote(note);
  const added = lines.map((l, i) => {
    if (!l.endsWith('\n') || l.indexOf('\n') !== l.length - 1)
      throw new NoteError(`added signature line ${i + 1} is not one line ending in a newline`);
    return parseSignatureLine(l.slice(0, -1), i + 1);
  });
  const replaced = new Set(added.map((s) => `${s.name}\n${s.keyId}`));
  const kept = parsed.signatures.filter((s) => !replaced.has(`${s.name}\n${s.keyId}`));
  const out = parsed.body + '\n' + [...kept, ...added].map((s) => s.line + '\n').join('');
  parseNote(out);
  return out;
}

// ---------------------------------------------------------------------------
// Verifying a note

export interface KeyRef {
  name: string;
  keyId: string;
}

export interface NoteVerification {
  /** True when at least one known key verified the note and no known key's signature failed. */
  ok: boolean;
  /** The signed text once the note parsed, else null. Trust it only when ok. */
  body: string | null;
  /** Known keys whose signature verified, each once, in note order. */
  verified: KeyRef[];
  /** Signatures by keys not known here (name and key id not both known), each once: ignored, as the spec says. */
  ignored: KeyRef[];
  /** Why the note is refused, one sentence each; empty when ok. */
  problems: string[];
}

/** Known keys by "name\nkeyid"; two different keys under one name and key id cannot be told apart (note.go's ambiguous key). */
/**
 * The last table built, reused while the same keys are asked for again: a journal's
 * verification checks a million notes against one trust store, and building a public
 * KeyObject and a key id per key per note cost more than the signatures themselves.
 */
let lastTable: { known: readonly NoteKey[]; sig: string; table: Map<string, { raw: Buffer; key: KeyObject }> } | null =
  null;

function keyTable(known: readonly NoteKey[]): Map<string, { raw: Buffer; key: KeyObject }> {
  if (lastTable?.known === known) return lastTable.table;
  const sig = known.map((k) => `${k.name}\n${Buffer.from(k.publicKey).toString('hex')}`).join('\n');
  if (lastTable?.sig === sig) return lastTable.table;
  const table = new Map<string, { raw: Buffer; key: KeyObject }>();
  for (const k of known) {
    const id = `${k.name}\n${noteKeyId(k.name, k.publicKey)}`;
    const raw = Buffer.from(k.publicKey);
    const had = table.get(id);
    if (had && !had.raw.equals(raw))
      throw new NoteError(`two known keys share the name ${JSON.stringify(k.name)} and key id ${id.split('\n')[1]}`);
    table.set(id, { raw, key: publicKeyFromRaw(raw) });
  }
  lastTable = { known, sig, table };
  return table;
}

function pushOnce(list: KeyRef[], s: NoteSignature): void {
  if (!list.some((r) => r.name === s.name && r.keyId === s.keyId)) list.push({ name: s.name, keyId: s.keyId });
}

/**
 * Verifies a signed note against Ed25519 keys the caller trusts (c2sp.org/signed-note,
 * "Signatures"): a signature whose key name and key id do not both match a known key is
 * ignored; every signature by a known key must verify (a failing one refuses the note, where
 * Go's Open checks only the first line per key); and at least one must. Never throws on bad
 * input: a malformed note is a problem.
 */
export function verifyNote(input: string | Uint8Array, known: readonly NoteKey[]): NoteVerification {
  // An ambiguous list of keys is refused whatever the note holds.
  keyTable(known);
  let parsed: ParsedNote;
  try {
    parsed = parseNote(input);
  } catch (e) {
    if (!(e instanceof NoteError)) throw e;
    return { ok: false, body: null, verified: [], ignored: [], problems: [e.message] };
  }
  return verifySignatures(parsed, known);
}

/**
 * verifyNote on a note already read: its text and signature lines, as many as the caller
 * gathered (a witness policy weighs the log's note together with cosignatures kept apart,
 * whose number the caller bounds; MAX_NOTE_SIGNATURES bounds a note read from one text).
 */
export function verifySignatures(parsed: ParsedNote, known: readonly NoteKey[]): NoteVerification {
  const table = keyTable(known);
  const out: NoteVerification = { ok: false, body: parsed.body, verified: [], ignored: [], problems: [] };
  const text = Buffer.from(parsed.body, 'utf8');
  for (const s of parsed.signatures) {
    const k = table.get(`${s.name}\n${s.keyId}`);
    if (!k) pushOnce(out.ignored, s);
    else if (s.signature.length !== 64 || !verifyBytes(k.key, text, s.signature.toString('base64')))
      out.problems.push(`the signature by ${s.name} (key id ${s.keyId}) does not verify the note's text`);
    else pushOnce(out.verified, s);
  }
  if (out.verified.length === 0 && out.problems.length === 0) {
    out.problems.push(
      `no signature by a known key: the note is signed only by keys not known here (${out.ignored.map((r) => `${r.name}+${r.keyId}`).join(', ')})`,
    );
  }
  out.ok = out.problems.length === 0;
  return out;
}

// ---------------------------------------------------------------------------
// Checkpoints (c2sp.org/tlog-checkpoint)

export interface NoteCheckpoint {
  origin: string;
  treeSize: number;
  rootHash: Buffer;
  extensionLines: string[];
}

/** A checkpoint's text: "origin\ntree size\nbase64(root hash)\n". The origin must also be a valid key name (the spec's SHOULD), so it can name the log's key. */
export function checkpointBody(origin: string, treeSize: number, rootHash: Uint8Array): string {
  checkKeyName(origin, 'the checkpoint origin');
  if (!Number.isSafeInteger(treeSize) || treeSize < 0)
    throw new NoteError(`tree size ${String(treeSize)} is not an integer from 0 to 2^53-1`);
  if (!(rootHash instanceof Uint8Array) || rootHash.length !== 32) throw new NoteError('a root hash is 32 bytes');
  return `${origin}\n${treeSize}\n${Buffer.from(rootHash).toString('base64')}\n`;
}

/**
 * Reads a checkpoint's text strictly: at least three lines, each ending in a newline; a
 * non-empty origin; the size in decimal without leading zeros (Reprise reads sizes up to
 * 2^53-1, its Merkle tree's bound); the root as canonical base64 of 32 bytes; extension
 * lines non-empty. Any origin is read (clients must not assume its form).
 */
export function parseCheckpointBody(body: string): NoteCheckpoint {
  const text = noteText(body, 'the checkpoint');
  if (!text.endsWith('\n')) throw new NoteError('the checkpoint text does not end in a newline');
  const lines = text.slice(0, -1).split('\n');
  if (lines.length < 3)
    throw new NoteError(`the checkpoint text has ${lines.length} line(s); origin, tree size and root hash are needed`);
  const [origin, size, root] = lines as [string, string, string];
  if (origin === '') throw new NoteError('the checkpoint origin (line 1) is empty');
  if (!/^(?:0|[1-9][0-9]{0,15})$/.test(size) || !Number.isSafeInteger(Number(size))) {
    throw new NoteError(
      `the checkpoint tree size (line 2) ${JSON.stringify(size.slice(0, 40))} is not a decimal from 0 to 2^53-1 without leading zeros`,
    );
  }
  const rootHash = decodeCanonicalBase64(root);
  if (!rootHash || rootHash.length !== 32)
    throw new NoteError('the checkpoint root hash (line 3) is not canonical base64 of 32 bytes');
  const extensionLines = lines.slice(3);
  const empty = extensionLines.indexOf('');
  if (empty >= 0) throw new NoteError(`the checkpoint extension line ${empty + 4} is empty`);
  return { origin, treeSize: Number(size), rootHash, extensionLines };
}

// ---------------------------------------------------------------------------
// Witness cosignatures (c2sp.org/tlog-cosignature, Ed25519 cosignature/v1)

const MAX_COSIGNATURE_TIME = 2n ** 63n - 1n;

/** The message a cosigner signs: "cosignature/v1\ntime T\n" followed by the whole checkpoint text. */
export function cosignedMessage(body: string, timestamp: number): Buffer {
  return Buffer.from(`cosignature/v1\ntime ${timestamp}\n${body}`, 'utf8');
}

/**
 * A witness's cosignature on a checkpoint note, as the line to add (addSignatures): key id
 * with type 0x04, then timestamp (8 bytes, big-endian) and the Ed25519 signature (64) over
 * cosignedMessage. Only the note's text is read; checking the log's signature and the
 * checkpoint's consistency before cosigning is the caller's duty.
 */
export function cosign(checkpointNote: string, witnessName: string, signer: Signer, unixSeconds: number): string {
  const { body } = parseNote(checkpointNote);
  parseCheckpointBody(body);
  if (!Number.isSafeInteger(unixSeconds) || unixSeconds < 0)
    throw new NoteError(`cosignature time ${String(unixSeconds)} is not a POSIX time in whole seconds`);
  const keyId = cosignerKeyId(witnessName, rawPublicKey(signer.publicKey));
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(BigInt(unixSeconds));
  const sig = Buffer.from(signBytes(signer, cosignedMessage(body, unixSeconds)), 'base64');
  return signatureLine(witnessName, keyId, Buffer.concat([time, sig]));
}

export type CosignatureCheck = { ok: true; timestamp: number } | { ok: false; problem: string };

/**
 * Checks one cosignature line against a witness key: same key name, key id of type 0x04,
 * 72 bytes, a timestamp at most 2^63-1 (the spec's bound) and at most 2^53-1 (Reprise's
 * numbers), not after `notAfter` when given (the spec lets verifiers refuse future times),
 * and the Ed25519 signature over cosignedMessage(body, timestamp).
 */
export function verifyCosignature(
  body: string,
  sig: NoteSignature,
  witness: NoteKey,
  opts: { notAfter?: number } = {},
): CosignatureCheck {
  const who = `the cosignature by ${sig.name} (key id ${sig.keyId})`;
  if (sig.name !== witness.name || sig.keyId !== cosignerKeyId(witness.name, witness.publicKey))
    return { ok: false, problem: `${who} is not by the witness key ${witness.name}` };
  if (sig.signature.length !== 72)
    return {
      ok: false,
      problem: `${who} has ${sig.signature.length} bytes after its key id; cosignature/v1 has 72 (time 8, Ed25519 64)`,
    };
  const t = sig.signature.readBigUInt64BE(0);
  if (t > MAX_COSIGNATURE_TIME) return { ok: false, problem: `${who} has time ${t}, beyond 2^63-1` };
  if (t > BigInt(Number.MAX_SAFE_INTEGER))
    return { ok: false, problem: `${who} has time ${t}, beyond 2^53-1 seconds, which Reprise does not read` };
  const timestamp = Number(t);
  if (opts.notAfter !== undefined && timestamp > opts.notAfter)
    return { ok: false, problem: `${who} is dated ${timestamp}, after ${opts.notAfter} (in the future)` };
  const ed = sig.signature.subarray(8).toString('base64');
  if (!verifyBytes(publicKeyFromRaw(witness.publicKey), cosignedMessage(body, timestamp), ed))
    return { ok: false, problem: `${who} does not verify the checkpoint` };
  return { ok: true, timestamp };
}
