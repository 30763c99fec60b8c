/**
 * Worker side of canonical.ts: strips canonically written JSON bytes to canonical bytes
 * (publishing at once whether it proved the member order), hashes the document's bytes
 * (the report's SHA-256) and the long escape-free string values among the spanned
 * members, and carries out the StripWork it was handed (cut the signature member out,
 * verify with the key of the work's that the document names).
 */
import { parentPort } from 'node:worker_threads';
import type { KeyObject } from 'node:crypto';
import { hashBytes } from '../core/hash.js';
import { stripToCanonical, type MemberSpan } from '../core/jcs.js';
import { verifyBytes } from '../core/keys.js';
import type { StripReply, StripRequest } from './canonical.js';

/** String values at least this long are hashed here (a dump's text artifacts, say). */
export const LONG_STRING = 64 * 1024;

/**
 * Hashes long string values written without escapes: in canonical bytes such a string's
 * bytes are the UTF-8 of its value, so it costs one SHA-256 pass here against an encoding
 * and a hash on the parsing thread. A string with escapes is left to that thread, which
 * hashes its parsed string faster than this one could decode the bytes.
 */
function hashLongStrings(b: Uint8Array, members: MemberSpan[]): void {
  for (const m of members) {
    if (m.members) hashLongStrings(b, m.members);
    else if (m.end - m.value >= LONG_STRING && b[m.value] === 0x22 && b[m.end - 1] === 0x22) {
      const body = Buffer.from(b.buffer, b.byteOffset + m.value + 1, m.end - m.value - 2);
      if (body.indexOf(0x5c) === -1) m.stringHash = hashBytes(body);
    }
  }
}

const decoder = new TextDecoder();
/** The value of a member when it is a string, else null. */
function stringValue(b: Uint8Array, m: MemberSpan | undefined): string | null {
  if (!m || b[m.value] !== 0x22) return null;
  try {
    const v: unknown = JSON.parse(decoder.decode(b.subarray(m.value, m.end)));
    return typeof v === 'string' ? v : null;
  } catch {
    return null;
  }
}

function shift(members: MemberSpan[], from: number, by: number): void {
  for (const m of members) {
    if (m.start < from) continue;
    m.start -= by;
    m.value -= by;
    m.end -= by;
    if (m.members) shift(m.members, from, by);
  }
}

function handle(m: StripRequest): { reply: StripReply; transfer: ArrayBuffer[] } {
  const r = stripToCanonical(m.data);
  // Published at once: the parsing thread looks at it right after its JSON.parse.
  Atomics.store(m.status, 1, r?.ordered ? 1 : 0);
  Atomics.store(m.status, 0, r ? 1 : 2);
  const sha256 = hashBytes(m.data);
  if (!r) return { reply: { id: m.id, sha256, data: null, length: 0, members: [], ordered: false }, transfer: [] };
  hashLongStrings(r.bytes, r.members);
  let bytes = r.bytes;
  const reply: StripReply = { id: m.id, sha256, data: null, length: 0, members: r.members, ordered: r.ordered };
  const plan = m.signature;
  if (plan) {
    const ms = r.members;
    const k = ms.findIndex((x) => x.name === plan.omit);
    const keyId = stringValue(bytes, ms.find((x) => x.name === plan.keyIdMember));
    const signature = stringValue(bytes, ms[k]);
    if (k >= 0) {
      // Cut `,"name":…` (or `"name":…,` when it comes first), in place; later spans move up.
      const from = k > 0 ? ms[k - 1]!.end : ms[k]!.start;
      const to = k > 0 ? ms[k]!.end : (ms[k + 1]?.start ?? ms[k]!.end);
      bytes.copyWithin(from, to);
      bytes = bytes.subarray(0, bytes.length - (to - from));
      ms.splice(k, 1);
      shift(ms, to, to - from);
      reply.omitted = plan.omit;
    }
    const key: KeyObject | undefined = keyId !== null ? new Map(plan.keys).get(keyId) : undefined;
    if (key && keyId !== null && signature !== null) reply.signature = { keyId, signature, ok: verifyBytes(key, bytes, signature) };
  }
  reply.data = bytes.buffer as ArrayBuffer;
  reply.length = bytes.length;
  return { reply, transfer: [bytes.buffer as ArrayBuffer] };
}

parentPort?.on('message', (m: StripRequest) => {
  let out: { reply: StripReply; transfer: ArrayBuffer[] };
  try {
    out = handle(m);
  } catch (e) {
    Atomics.store(m.status, 0, 2);
    out = { reply: { id: m.id, sha256: null, data: null, length: 0, members: [], ordered: false, error: (e as Error).message }, transfer: [] };
  }
  parentPort?.postMessage(out.reply, out.transfer);
});
