/**
 * The replay dump's data model, shared by both encodings (JSON and ROM): member names,
 * which are mandatory, and the RDS-004 member-order check. Both encodings produce the same
 * model object, and every later check (structure, hash chain, signature, replay) reads
 * only the model, which is why a dump and its ROM twin give the same chain and verdict.
 */
import type { Finding } from '../../../shared/report.js';
import { fail } from '../../core/findings.js';
import { canonicalizeValue, escapePointerToken } from '../../core/jcs.js';

export const DUMP_TYPE = 'kernel.replay_dump';
export const FORMAT_VERSION = 1;

/** Top-level members, all mandatory (RDS-001), in canonical order. */
export const TOP_MEMBERS = [
  'artifacts',
  'buffers',
  'computeShape',
  'createdAtUtc',
  'dumpId',
  'executionOutcomeHash',
  'formatVersion',
  'inferenceParameters',
  'kernelVersion',
  'keyId',
  'lockedProviderInfo',
  'materialSnapshotHashSet',
  'pipelineDefinitionHash',
  'promptArtifactHash',
  'seed',
  'signature',
  'trustDecision',
  'type',
] as const;
export type TopMember = (typeof TOP_MEMBERS)[number];

/** Closed sub-objects and their members (all mandatory). */
export const SUB_MEMBERS = {
  buffers: ['expression', 'material', 'orchestration'],
  computeShape: ['advisor', 'arity', 'tensorType'],
  inferenceParameters: ['maxTokens', 'temperature', 'topP'],
  lockedProviderInfo: ['capacitySnapshot', 'capturedAtUtc', 'modelId', 'providerId', 'quantizationProfile'],
  trustDecision: ['decision', 'evaluatedAtUtc', 'keyId'],
} as const satisfies Partial<Record<TopMember, readonly string[]>>;

/** RDS-LOCK-002: LockedProviderInfo MUST include at least these. */
export const LOCK_REQUIRED = ['providerId', 'modelId', 'quantizationProfile', 'capacitySnapshot'] as const;

export const TRUST_DECISIONS = ['trusted', 'revoked', 'unknown'] as const;
export type TrustDecisionValue = (typeof TRUST_DECISIONS)[number];

export type DumpModel = Record<string, unknown>;

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** UTF-16 code-unit order (JCS): plain `<` on JS strings compares code units. */
export function inOrder(a: string, b: string): boolean {
  return a < b;
}

const INDEX_LIKE = /^(0|[1-9]\d{0,9})$/;

export function orderFinding(pointer: string, prev: string, key: string): Finding {
  return fail('RDS-004', `member "${key}" follows "${prev}": members must be in canonical (RFC 8785) order`, {
    pointer,
    expected: `"${key}" before "${prev}"`,
    actual: `"${prev}" before "${key}"`,
  });
}

/**
 * RDS-004 from JSON text (the slow, exact path for objects with array-index-like names):
 * a small scanner that tracks the member names of every open object.
 */
export function orderFromText(text: string): Finding | null {
  interface Frame {
    obj: boolean;
    prev: string | null;
    pointer: string;
    index: number;
    key: string | null;
  }
  const stack: Frame[] = [];
  let expectKey = false;
  const childPointer = (f: Frame | undefined) => (!f ? '' : f.obj ? `${f.pointer}/${escapePointerToken(f.key ?? '')}` : `${f.pointer}/${f.index}`);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = i + 1;
      for (;;) {
        j = text.indexOf('"', j);
        if (j === -1) return null;
        let bs = 0;
        for (let b = j - 1; text.charCodeAt(b) === 0x5c; b--) bs++;
        if (bs % 2 === 0) break;
        j++;
      }
      const top = stack[stack.length - 1];
      if (expectKey && top && top.obj) {
        const raw = text.slice(i + 1, j);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, j + 1)) as string) : raw;
        if (top.prev !== null && !inOrder(top.prev, key)) return orderFinding(`${top.pointer}/${escapePointerToken(key)}`, top.prev, key);
        top.prev = key;
        top.key = key;
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b /* { */) {
      stack.push({ obj: true, prev: null, pointer: childPointer(stack[stack.length - 1]), index: 0, key: null });
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      stack.push({ obj: false, prev: null, pointer: childPointer(stack[stack.length - 1]), index: 0, key: null });
      expectKey = false;
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top?.obj) expectKey = true;
      else if (top) top.index++;
    }
  }
  return null;
}

/**
 * RDS-004 for JSON text. Always from the text: the strict parse (jcs.ts) may hand back
 * objects already re-ordered canonically, and V8 hoists array-index-like names, so the
 * parsed value cannot show the order the writer used.
 */
export function checkOrder(text: string, pointer = ''): Finding | null {
  const f = orderFromText(text);
  if (f && pointer) f.pointer = pointer + (f.pointer ?? '');
  return f;
}

function inCanonicalOrder(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e: unknown = v[i];
      if (typeof e === 'object' && e !== null && !inCanonicalOrder(e)) return false;
    }
    return true;
  }
  let prev: string | null = null;
  for (const k in v) {
    const c = k.charCodeAt(0);
    if ((c >= 48 && c <= 57 && INDEX_LIKE.test(k)) || (prev !== null && !(prev < k))) return false;
    prev = k;
    const e = (v as Record<string, unknown>)[k];
    if (typeof e === 'object' && e !== null && !inCanonicalOrder(e)) return false;
  }
  return true;
}

/**
 * Canonical text of a JSON value that came out of the strict parse (so it is already known
 * to be I-JSON: finite numbers, well-formed strings, no duplicates). When every object's
 * members are already in JCS order, JSON.stringify writes exactly the JCS text (ECMAScript
 * number and string serialization *is* JCS's, the premise of app/core/jcs.ts), so the
 * per-value checks of canonicalizeValue are skipped; otherwise canonicalizeValue decides.
 */
export function canonicalOfParsed(v: unknown): string {
  return inCanonicalOrder(v) ? JSON.stringify(v) : canonicalizeValue(v);
}
