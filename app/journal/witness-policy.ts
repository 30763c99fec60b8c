/**
 * Witness policies: which witnesses' cosignatures a checkpoint needs (k of n, in nested
 * groups), in the syntax of Sigsum's policy file (sigsum-go doc/policy.md) as litewitness's
 * torchwood reads it (policy.go ParsePolicy, with vkeys). Parsing and quorum evaluation are
 * pure; the syntax, the key encodings and the example are in docs/journal-notes.md.
 *
 *   log KEY [URL]                    a log key: a vkey of type 0x01 (the note's key name is in it)
 *   witness NAME KEY [URL]           KEY: 64 hex digits (Sigsum: NAME is then the cosigner's key
 *                                    name) or a cosigner vkey of type 0x04 (torchwood: its name is)
 *   group NAME all|any|K MEMBER...   acts when at least K of its members act
 *   quorum NAME|none                 exactly once; names are defined before they are used
 */
import { isUtf8 } from 'node:buffer';
import { UsageError } from '../core/errors.js';
import {
  parseVerifierKey,
  isValidKeyName,
  parseNote,
  parseCheckpointBody,
  verifyCosignature,
  verifySignatures,
  cosignerKeyId,
  NoteError,
  SIG_TYPE_COSIGNATURE_V1,
  SIG_TYPE_ED25519,
  type NoteKey,
  type NoteSignature,
  type ParsedNote,
} from './note.js';

/** Bounds on a hostile policy file: its size, and the names it may define. */
export const MAX_POLICY_BYTES = 64 * 1024;
export const MAX_POLICY_NAMES = 1000;

export interface PolicyLog {
  keyName: string;
  publicKey: Buffer;
  keyId: string;
  url: string | null;
  line: number;
}

export interface PolicyWitness {
  /** The policy's own name for the witness (used by groups and the quorum). */
  name: string;
  /** The key name its cosignature lines carry. */
  keyName: string;
  publicKey: Buffer;
  /** The cosigner key id (type 0x04) of keyName and publicKey. */
  keyId: string;
  url: string | null;
  line: number;
}

export interface PolicyGroup {
  name: string;
  threshold: number;
  members: string[];
  line: number;
}

export interface WitnessPolicy {
  source: string;
  logs: PolicyLog[];
  witnesses: PolicyWitness[];
  /** In definition order: a group names only witnesses and groups defined above it. */
  groups: PolicyGroup[];
  /** A witness or group name, or "none" (no cosignature needed). */
  quorum: string;
}

const NONE = 'none';

interface Builder {
  policy: WitnessPolicy;
  names: Set<string>;
  keys: Map<string, string>;
  quorumLine: number;
}

function policyText(input: string | Uint8Array, source: string): string {
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.length;
  if (size > MAX_POLICY_BYTES)
    throw new UsageError(`witness policy ${source}: larger than ${MAX_POLICY_BYTES} bytes`, 'bad-file');
  const valid = typeof input === 'string' ? input.isWellFormed() : isUtf8(input);
  if (!valid) throw new UsageError(`witness policy ${source}: not valid UTF-8`, 'bad-file');
  return typeof input === 'string'
    ? input
    : Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
}

function optionalUrl(s: string | undefined): string | null {
  if (s === undefined) return null;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new NoteError(`${JSON.stringify(s)} is not a URL`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new NoteError(`${JSON.stringify(s)} is not an http(s) URL`);
  return s;
}

function defineName(b: Builder, name: string): void {
  if (name === NONE) throw new NoteError('"none" is the predefined empty quorum and cannot be redefined');
  if (!isValidKeyName(name)) throw new NoteError(`${JSON.stringify(name)} is not a usable name`);
  if (b.names.has(name)) throw new NoteError(`the name ${JSON.stringify(name)} is defined twice`);
  if (b.names.size >= MAX_POLICY_NAMES) throw new NoteError(`more than ${MAX_POLICY_NAMES} witnesses and groups`);
  b.names.add(name);
}

/** One public key, one witness (or log): two names for a key would count one signer twice. */
function claimKey(b: Builder, publicKey: Buffer, who: string): void {
  const hex = publicKey.toString('hex');
  const had = b.keys.get(hex);
  if (had) throw new NoteError(`${who} has the same public key as ${had}`);
  b.keys.set(hex, who);
}

function parseLog(b: Builder, args: string[], line: number): void {
  if (args.length < 1 || args.length > 2) throw new NoteError('a log line is "log KEY [URL]"');
  if (/^[0-9a-fA-F]{64}$/.test(args[0]!))
    throw new NoteError(
      'a log key is written as its vkey (name+id+key) here: its note signatures are found by key name, which a hex key lacks',
    );
  const v = parseVerifierKey(args[0]!);
  if (v.type !== SIG_TYPE_ED25519)
    throw new NoteError(`the log key ${v.name} is of type 0x04 (a cosigner key); a log signs with type 0x01`);
  claimKey(b, v.publicKey, `log ${v.name}`);
  b.policy.logs.push({ keyName: v.name, publicKey: v.publicKey, keyId: v.keyId, url: optionalUrl(args[1]), line });
}

function parseWitness(b: Builder, args: string[], line: number): void {
  if (args.length < 2 || args.length > 3) throw new NoteError('a witness line is "witness NAME KEY [URL]"');
  const [name, key] = args as [string, string];
  defineName(b, name);
  let keyName = name;
  let publicKey: Buffer;
  if (/^[0-9a-fA-F]{64}$/.test(key)) {
    publicKey = Buffer.from(key, 'hex');
  } else {
    const v = parseVerifierKey(key);
    if (v.type !== SIG_TYPE_COSIGNATURE_V1)
      throw new NoteError(
        `the key of witness ${name} is a note signing key (type 0x01); a witness cosigns with type 0x04 (c2sp.org/tlog-cosignature): give its cosigner vkey or its public key in hex`,
      );
    keyName = v.name;
    publicKey = v.publicKey;
  }
  claimKey(b, publicKey, `witness ${name}`);
  b.policy.witnesses.push({
    name,
    keyName,
    publicKey,
    keyId: cosignerKeyId(keyName, publicKey),
    url: optionalUrl(args[2]),
    line,
  });
}

function parseGroup(b: Builder, args: string[], line: number): void {
  if (args.length < 3) throw new NoteError('a group line is "group NAME all|any|K MEMBER..."');
  const [name, k, ...members] = args as [string, string, ...string[]];
  const n = members.length;
  let threshold: number;
  if (k === 'any') threshold = 1;
  else if (k === 'all') threshold = n;
  else if (/^[1-9][0-9]{0,5}$/.test(k) && Number(k) <= n) threshold = Number(k);
  else
    throw new NoteError(
      `group ${name}: the threshold ${JSON.stringify(k)} is not all, any or a number from 1 to ${n} (its member count)`,
    );
  const seen = new Set<string>();
  for (const m of members) {
    if (m === NONE || !b.names.has(m))
      throw new NoteError(`group ${name}: ${JSON.stringify(m)} is not a witness or group defined above`);
    if (seen.has(m)) throw new NoteError(`group ${name} names ${m} twice`);
    seen.add(m);
  }
  defineName(b, name);
  b.policy.groups.push({ name, threshold, members, line });
}

function parseQuorum(b: Builder, args: string[], line: number): void {
  if (args.length !== 1) throw new NoteError('a quorum line is "quorum NAME" or "quorum none"');
  if (b.quorumLine) throw new NoteError(`a second quorum line (the first is line ${b.quorumLine})`);
  if (args[0] !== NONE && !b.names.has(args[0]!))
    throw new NoteError(`the quorum ${JSON.stringify(args[0])} is not a witness or group defined above`);
  b.policy.quorum = args[0]!;
  b.quorumLine = line;
}

const KEYWORDS: Record<string, (b: Builder, args: string[], line: number) => void> = {
  log: parseLog,
  witness: parseWitness,
  group: parseGroup,
  quorum: parseQuorum,
};

/**
 * Parses a witness policy file. Any defect refuses the whole file with one error naming the
 * line (`witness policy F line N: ...`), a usage error about a file (the CLI exits 3).
 */
export function parseWitnessPolicy(input: string | Uint8Array, source = '(policy)'): WitnessPolicy {
  const text = policyText(input, source);
  const b: Builder = {
    policy: { source, logs: [], witnesses: [], groups: [], quorum: NONE },
    names: new Set(),
    keys: new Map(),
    quorumLine: 0,
  };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    // As Sigsum's parser: "#" starts a comment anywhere; fields are separated by white space (a CRLF's \r too).
    const hash = lines[i]!.indexOf('#');
    const fields = (hash < 0 ? lines[i]! : lines[i]!.slice(0, hash)).split(/\s+/).filter((f) => f !== '');
    if (fields.length === 0) continue;
    const parse = Object.hasOwn(KEYWORDS, fields[0]!) ? KEYWORDS[fields[0]!] : undefined;
    try {
      if (!parse) throw new NoteError(`unknown keyword ${JSON.stringify(fields[0])} (log, witness, group or quorum)`);
      parse(b, fields.slice(1), i + 1);
    } catch (e) {
      if (e instanceof NoteError)
        throw new UsageError(`witness policy ${source} line ${i + 1}: ${e.message}`, 'bad-file');
      throw e;
    }
  }
  if (!b.quorumLine)
    throw new UsageError(`witness policy ${source}: no quorum line ("quorum NAME" or "quorum none")`, 'bad-file');
  return b.policy;
}

// ---------------------------------------------------------------------------
// Quorum

export interface WitnessCosigned {
  witness: string;
  keyName: string;
  /** The latest time among its verified cosignatures on this checkpoint. */
  timestamp: number;
}

export interface QuorumResult {
  /** The note parsed as a checkpoint, every cosignature by a policy witness verified, the log lines (if any) satisfied, and the quorum met. */
  ok: boolean;
  quorum: string;
  /** Policy witnesses whose cosignature verified, in policy order. */
  cosigned: WitnessCosigned[];
  /** Witnesses the quorum counts on (directly or through groups) that did not cosign. */
  missing: string[];
  /** Log keys of the policy that signed the note (empty when the policy lists none). */
  logsSigned: string[];
  /** Why the checkpoint falls short, one sentence each. */
  problems: string[];
}

interface Cosigs {
  cosigned: WitnessCosigned[];
  problems: string[];
}

/** Each policy witness's cosignature lines on the checkpoint, verified; a failing line by a policy witness is a problem. */
function checkWitnesses(
  policy: WitnessPolicy,
  body: string,
  sigs: NoteSignature[],
  notAfter: number | undefined,
): Cosigs {
  const out: Cosigs = { cosigned: [], problems: [] };
  for (const w of policy.witnesses) {
    const key: NoteKey = { name: w.keyName, publicKey: w.publicKey };
    let latest = -1;
    for (const s of sigs) {
      if (s.name !== w.keyName || s.keyId !== w.keyId) continue;
      const c = verifyCosignature(body, s, key, notAfter === undefined ? {} : { notAfter });
      if (c.ok) latest = Math.max(latest, c.timestamp);
      else out.problems.push(`witness ${w.name}: ${c.problem}`);
    }
    if (latest >= 0) out.cosigned.push({ witness: w.name, keyName: w.keyName, timestamp: latest });
  }
  return out;
}

/** Why the policy witnesses' signature lines among `sigs` do not cosign `body` (a line by a key outside the policy is not weighed). */
export function witnessLineProblems(policy: WitnessPolicy, body: string, sigs: NoteSignature[]): string[] {
  return checkWitnesses(policy, body, sigs, undefined).problems;
}

/** Which names act: a witness that cosigned, a group with at least its threshold of acting members (groups in definition order). */
function actingNames(policy: WitnessPolicy, cosigned: readonly WitnessCosigned[]): Set<string> {
  const acts = new Set(cosigned.map((c) => c.witness));
  for (const g of policy.groups) if (g.members.filter((m) => acts.has(m)).length >= g.threshold) acts.add(g.name);
  return acts;
}

/** The witnesses a name stands for, through its groups. */
function witnessesUnder(policy: WitnessPolicy, name: string): Set<string> {
  const groups = new Map(policy.groups.map((g) => [g.name, g]));
  const out = new Set<string>();
  const todo = [name];
  const seen = new Set<string>();
  while (todo.length > 0) {
    const n = todo.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    const g = groups.get(n);
    if (g) todo.push(...g.members);
    else if (n !== NONE) out.add(n);
  }
  return out;
}

function quorumProblem(policy: WitnessPolicy, acts: Set<string>): string | null {
  if (policy.quorum === NONE || acts.has(policy.quorum)) return null;
  const g = policy.groups.find((x) => x.name === policy.quorum);
  if (!g) return `the quorum needs witness ${policy.quorum}, which did not cosign`;
  const acting = g.members.filter((m) => acts.has(m));
  return `the quorum ${g.name} needs ${g.threshold} of ${g.members.join(', ')}; ${acting.length} ${acting.length === 1 ? 'acts' : 'act'}${acting.length ? ` (${acting.join(', ')})` : ''}`;
}

/**
 * Whether a checkpoint note meets a witness policy: its text is a checkpoint (of `origin`
 * when given), every cosignature by a policy witness verifies (a failing one is a problem,
 * as a failing known key refuses a note), and the quorum's witnesses and groups act. With
 * `log` lines, one of those keys must also have signed the note. `notAfter` (POSIX seconds)
 * refuses cosignatures dated later. Never throws on a bad note: it is a problem.
 */
export function evaluateQuorum(
  policy: WitnessPolicy,
  note: string | Uint8Array,
  opts: { origin?: string; notAfter?: number } = {},
): QuorumResult {
  let parsed: ParsedNote;
  try {
    parsed = parseNote(note);
  } catch (e) {
    if (!(e instanceof NoteError)) throw e;
    return { ...noQuorum(policy), problems: [e.message] };
  }
  return evaluateParsedQuorum(policy, parsed, opts);
}

const noQuorum = (policy: WitnessPolicy): QuorumResult => ({
  ok: false,
  quorum: policy.quorum,
  cosigned: [],
  missing: [],
  logsSigned: [],
  problems: [],
});

/**
 * evaluateQuorum on a note already read: a checkpoint text and its signature lines, as many
 * as the caller gathered (the journal's note of a tree and the cosignatures kept beside it,
 * which MAX_NOTE_SIGNATURES must not cut short; the caller bounds them).
 */
export function evaluateParsedQuorum(
  policy: WitnessPolicy,
  parsed: ParsedNote,
  opts: { origin?: string; notAfter?: number } = {},
): QuorumResult {
  const result = noQuorum(policy);
  const { body, signatures: sigs } = parsed;
  try {
    const cp = parseCheckpointBody(body);
    if (opts.origin !== undefined && cp.origin !== opts.origin)
      result.problems.push(
        `the checkpoint's origin is ${JSON.stringify(cp.origin)}, not ${JSON.stringify(opts.origin)}`,
      );
  } catch (e) {
    if (!(e instanceof NoteError)) throw e;
    result.problems.push(e.message);
    return result;
  }
  if (policy.logs.length > 0) {
    const v = verifySignatures(
      parsed,
      policy.logs.map((l) => ({ name: l.keyName, publicKey: l.publicKey })),
    );
    result.logsSigned = v.verified.map((r) => r.name);
    result.problems.push(...v.problems.map((p) => `log signature: ${p}`));
  }
  const { cosigned, problems } = checkWitnesses(policy, body, sigs, opts.notAfter);
  result.cosigned = cosigned;
  result.problems.push(...problems);
  const acts = actingNames(policy, cosigned);
  const counted = witnessesUnder(policy, policy.quorum);
  result.missing = policy.witnesses.map((w) => w.name).filter((w) => counted.has(w) && !acts.has(w));
  const q = quorumProblem(policy, acts);
  if (q) result.problems.push(q);
  result.ok = result.problems.length === 0;
  return result;
}
