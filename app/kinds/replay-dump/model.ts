/**
 * The replay dump's data model, shared by both encodings (JSON and ROM): member names,
 * which are mandatory, and the RDS-004 member-order check. Both encodings produce the same
 * model object, and every later check (structure, hash chain, signature, replay) reads
 * only the model, which is why a dump and its ROM twin give the same chain and verdict.
 */
import type { Finding } from '../../../shared/report.js';
import { type ChangedNumberRule } from '../../core/findings.js';
import { fail, type RuleId } from './findings.js';
import { canonicalizeValue, escapePointerToken } from '../../core/jcs.js';

// The kind's identity is declared with its detection (declare.ts, loaded without this model).
export { DUMP_TYPE } from './declare.js';
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

export { isPlainObject as isObject } from '../../core/closed.js';

/** UTF-16 code-unit order (JCS): plain `<` on JS strings compares code units. */
export function inOrder(a: string, b: string): boolean {
  return a < b;
}

export function orderFinding(pointer: string, prev: string, key: string): Finding {
  return fail('RDS-004', `member "${key}" follows "${prev}": members must be in canonical (RFC 8785) order`, {
    pointer,
    expected: `"${key}" before "${prev}"`,
    actual: `"${prev}" before "${key}"`,
  });
}

/**
 * RDS-004 from JSON text: a small scanner that tracks the member names of every open
 * object (strings are skipped with indexOf; pointers are built only for a violation).
 * The text must already be valid JSON (the strict parse ran first).
 */
export function orderFromText(text: string): Finding | null {
  const isObj: boolean[] = [];
  const prev: (string | null)[] = [];
  const key: (string | null)[] = [];
  const index: number[] = [];
  let depth = 0;
  let expectKey = false;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = text.indexOf('"', i + 1);
      while (j !== -1 && text.charCodeAt(j - 1) === 0x5c) {
        let bs = 1;
        while (text.charCodeAt(j - 1 - bs) === 0x5c) bs++;
        if (bs % 2 === 0) break;
        j = text.indexOf('"', j + 1);
      }
      if (j === -1) return null;
      if (expectKey && depth > 0 && isObj[depth - 1]) {
        const raw = text.slice(i + 1, j);
        const k = raw.includes('\\') ? (JSON.parse(text.slice(i, j + 1)) as string) : raw;
        const p = prev[depth - 1]!;
        if (p !== null && !(p < k)) {
          key[depth - 1] = k;
          return orderFinding(pointerOf(isObj, key, index, depth), p, k);
        }
        prev[depth - 1] = k;
        key[depth - 1] = k;
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      isObj[depth] = c === 0x7b;
      prev[depth] = null;
      key[depth] = null;
      index[depth] = 0;
      depth++;
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      expectKey = false;
    } else if (c === 0x2c /* , */ && depth > 0) {
      if (isObj[depth - 1]) expectKey = true;
      else index[depth - 1]!++;
    }
  }
  return null;
}

function pointerOf(isObj: boolean[], key: (string | null)[], index: number[], depth: number): string {
  let p = '';
  for (let d = 0; d < depth; d++) p += '/' + (isObj[d] ? escapePointerToken(key[d] ?? '') : String(index[d]));
  return p;
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

/**
 * Numbers whose text is not their double (the strict parse's WARN_PRECISION and
 * WARN_UNDERFLOW, in any notation) are refused in a dump: spec/common.md requires it, and
 * the signature covers the canonical (rounded) value, so `…993` could be edited to `…992`
 * or `…993.0`, and `0` to `1E-400`, without breaking it. For `changedNumbers`.
 */
export const DUMP_NUMBERS: ChangedNumberRule<RuleId> = { rule: 'RPR-DUMP-003', subject: 'the dump is not I-JSON' };

/**
 * How the encoders order members. `canonical` (what the dump writer and `reprise examples`
 * write): RFC 8785 order at every depth, whatever order the model's objects hold. A JS
 * object cannot hold "10" before "9" (V8 enumerates integer-like names first), so a
 * canonical file cannot come from the model's own order. `model`: the model's own order,
 * for tests and samples that write members out of order on purpose.
 */
export type WriteOrder = 'canonical' | 'model';

/** An object's member names in the order an encoder writes them. */
export function namesToWrite(o: object, order: WriteOrder): string[] {
  const names = Object.keys(o);
  // Array.prototype.sort compares UTF-16 code units: JCS order.
  return order === 'canonical' ? names.sort() : names;
}

/** JSON text of a value written inside a dump (a bullet, a deep member, a JSON artifact). */
export function valueToWrite(v: unknown, order: WriteOrder): string {
  return order === 'canonical' ? canonicalizeValue(v) : JSON.stringify(v);
}
