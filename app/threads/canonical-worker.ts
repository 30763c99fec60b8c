/**
 * Worker side of canonical.ts: strips canonically written JSON bytes to canonical bytes
 * (publishing at once whether it proved the member order), hashes the document's bytes
 * (the report's SHA-256) and the long string values among the spanned members (those
 * with escapes only while the document arrives, in spare time), and carries out the
 * StripWork it was handed (cut the signature member out, verify with the key of the
 * work's that the document names). A document still arriving is stripped and hashed
 * piece by piece as its bytes come ('begin', 'more'), so that at its last byte only the
 * StripWork is left ('finish').
 */
import { parentPort } from 'node:worker_threads';
import type { Hash, KeyObject } from 'node:crypto';
import { formatHash, hashBytes, newHasher } from '../core/hash.js';
import { stripArriving, stripToCanonical, type ArrivingStrip, type MemberSpan, type Stripped } from '../core/jcs.js';
import { verifyBytes } from '../core/keys.js';
import type { SignaturePlan, StripReply, ToStripper } from './canonical.js';

/** String values at least this long are hashed here (a dump's text artifacts, say). */
export const LONG_STRING = 64 * 1024;

/**
 * Hashes long string values: in canonical bytes such a string's bytes are the UTF-8 of its
 * value, so one written without escapes costs one SHA-256 pass here against an encoding
 * and a hash on the parsing thread. A string with escapes is handed to `escaped` (if given:
 * see Following.whileIdle), else left to the parsing thread, which hashes its parsed string
 * sooner than this one could unescape the bytes. Only members complete within the first
 * `upTo` bytes are looked at, each once (`seen`).
 */
function hashLongStrings(
  b: Uint8Array,
  members: MemberSpan[],
  upTo: number,
  seen: Set<MemberSpan>,
  escaped?: (m: MemberSpan, body: Buffer) => void,
): void {
  for (const m of members) {
    if (seen.has(m)) continue;
    const complete = m.end >= 0 && m.end <= upTo;
    if (m.members) hashLongStrings(b, m.members, upTo, seen, escaped);
    else if (complete && m.end - m.value >= LONG_STRING && b[m.value] === 0x22 && b[m.end - 1] === 0x22) {
      const body = Buffer.from(b.buffer, b.byteOffset + m.value + 1, m.end - m.value - 2);
      if (body.indexOf(0x5c) === -1) m.stringHash = hashBytes(body);
      else escaped?.(m, body);
    }
    if (complete) seen.add(m);
  }
}

/** The byte each short escape stands for (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`), by the escape's letter; 0: none. */
const SHORT_ESCAPES = new Uint8Array(128);
for (const [letter, byte] of [
  ['"', 0x22],
  ['\\', 0x5c],
  ['b', 0x08],
  ['f', 0x0c],
  ['n', 0x0a],
  ['r', 0x0d],
  ['t', 0x09],
] as const)
  SHORT_ESCAPES[letter.charCodeAt(0)] = byte;

/** A lower-case hex digit's value; -64 for anything else (so that a sum with it is negative). */
const hexDigit = (d: number): number => (d >= 0x30 && d <= 0x39 ? d - 0x30 : d >= 0x61 && d <= 0x66 ? d - 0x57 : -64);

/**
 * The UTF-8 of a string value from its canonically written body (between the quotes): the
 * only escapes stripToCanonical lets through in text the parse accepts are the short ones
 * and `\u00xx` for other control characters. Null at anything else (the parsing thread
 * then hashes the parsed string).
 */
function unescaped(body: Uint8Array): Uint8Array | null {
  const out = Buffer.allocUnsafe(body.length);
  let o = 0;
  const n = body.length;
  for (let i = 0; i < n; i++) {
    const c = body[i]!;
    if (c !== 0x5c) {
      out[o++] = c;
      continue;
    }
    const e = body[++i]!;
    const short = e < 128 ? SHORT_ESCAPES[e]! : 0;
    if (short !== 0) out[o++] = short;
    else if (e === 0x75 && body[i + 1] === 0x30 && body[i + 2] === 0x30 && i + 4 < n) {
      const v = hexDigit(body[i + 3]!) * 16 + hexDigit(body[i + 4]!);
      if (!(v >= 0 && v < 0x20)) return null;
      out[o++] = v;
      i += 4;
    } else return null;
  }
  return out.subarray(0, o);
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

/** Published at once: the parsing thread looks at it right after its JSON.parse. */
function publish(status: Int32Array, r: Stripped | null): void {
  Atomics.store(status, 1, r?.ordered ? 1 : 0);
  Atomics.store(status, 0, r ? 1 : 2);
}

/** The reply for a stripped document: the StripWork's signature cut out and checked. */
function complete(
  id: number,
  r: Stripped | null,
  sha256: string,
  plan: SignaturePlan | undefined,
): { reply: StripReply; transfer: ArrayBuffer[] } {
  if (!r) return { reply: { id, sha256, data: null, length: 0, members: [], ordered: false }, transfer: [] };
  let bytes = r.bytes;
  const reply: StripReply = { id, sha256, data: null, length: 0, members: r.members, ordered: r.ordered };
  if (plan) {
    const ms = r.members;
    const k = ms.findIndex((x) => x.name === plan.omit);
    const keyId = stringValue(
      bytes,
      ms.find((x) => x.name === plan.keyIdMember),
    );
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
    if (key && keyId !== null && signature !== null)
      reply.signature = { keyId, signature, ok: verifyBytes(key, bytes, signature) };
  }
  reply.data = bytes.buffer as ArrayBuffer;
  reply.length = bytes.length;
  return { reply, transfer: [bytes.buffer as ArrayBuffer] };
}

/** A document stripped and hashed as it arrives. */
class Following {
  private readonly strip: ArrivingStrip;
  private readonly hasher: Hash = newHasher();
  private readonly seen = new Set<MemberSpan>();
  /** Long strings with escapes, complete, not hashed yet (see whileIdle). */
  private readonly escaped: { m: MemberSpan; body: Buffer }[] = [];
  private hashed = 0;
  private ok = true;
  /** Once every byte is in: the stripped document (null: not canonical) and the bytes' hash. */
  whole: { r: Stripped | null; sha256: string } | null = null;

  constructor(
    private readonly data: Uint8Array,
    private readonly status: Int32Array,
    private readonly arrived: Int32Array,
  ) {
    this.strip = stripArriving(data);
  }

  more(available: number): void {
    if (this.whole || available <= this.hashed) return;
    this.hasher.update(this.data.subarray(this.hashed, available));
    this.hashed = available;
    if (this.ok) this.ok = this.strip.advance(available);
    if (this.ok)
      hashLongStrings(this.strip.out, this.strip.members, this.strip.written, this.seen, (m, body) =>
        this.escaped.push({ m, body }),
      );
    if (available < this.data.length) return this.whileIdle(available);
    const r = this.ok ? this.strip.end() : null;
    publish(this.status, r);
    // Those left with escapes are the parsing thread's: from here it waits for this one.
    if (r) hashLongStrings(r.bytes, r.members, r.bytes.length, this.seen);
    this.whole = { r, sha256: formatHash(this.hasher.digest('hex')) };
  }

  /**
   * Unescapes and hashes the escaped long strings found so far, one at a time, only while
   * no newer bytes wait: this thread's time between pieces, which would otherwise go
   * unused, so that the parsing thread has fewer strings to encode and hash after the last
   * byte. Never at the cost of stripping late (measured: unescaping every string of a
   * 100 MiB dump as it came put the end of the stripping 100-550 ms after the parse's).
   */
  private whileIdle(available: number): void {
    while (this.escaped.length > 0 && Atomics.load(this.arrived, 0) <= available) {
      const { m, body } = this.escaped.shift()!;
      const value = unescaped(body);
      if (value) m.stringHash = hashBytes(value);
    }
  }
}

const following = new Map<number, Following>();

function handle(m: ToStripper): { reply: StripReply; transfer: ArrayBuffer[] } | null {
  switch (m.op) {
    case 'strip': {
      const r = m.hashOnly ? null : stripToCanonical(m.data, () => Atomics.load(m.status, 2) === 1);
      publish(m.status, r);
      const sha256 = hashBytes(m.data);
      if (r) hashLongStrings(r.bytes, r.members, r.bytes.length, new Set());
      return complete(m.id, r, sha256, m.signature);
    }
    case 'begin':
      following.set(m.id, new Following(m.data, m.status, m.arrived));
      return null;
    case 'more':
      following.get(m.id)?.more(m.available);
      return null;
    case 'drop':
      following.delete(m.id);
      return null;
    case 'finish': {
      const f = following.get(m.id);
      following.delete(m.id);
      // Dropped after an error in a piece, or finished before its last byte (canonical.ts never does): nothing to give.
      if (!f?.whole)
        return { reply: { id: m.id, sha256: null, data: null, length: 0, members: [], ordered: false }, transfer: [] };
      return complete(m.id, f.whole.r, f.whole.sha256, m.signature);
    }
  }
}

parentPort?.on('message', (m: ToStripper) => {
  let out: { reply: StripReply; transfer: ArrayBuffer[] } | null;
  try {
    out = handle(m);
  } catch (e) {
    if (m.op === 'strip' || m.op === 'begin') Atomics.store(m.status, 0, 2);
    following.delete(m.id);
    out =
      m.op === 'strip' || m.op === 'finish'
        ? {
            reply: {
              id: m.id,
              sha256: null,
              data: null,
              length: 0,
              members: [],
              ordered: false,
              error: (e as Error).message,
            },
            transfer: [],
          }
        : null;
  }
  if (out) parentPort?.postMessage(out.reply, out.transfer);
});
