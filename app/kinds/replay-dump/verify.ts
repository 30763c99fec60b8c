/**
 * Verification of a replay dump model (encoding-independent): structure (closed format,
 * RDS-001/RDS-F002, RDS-LOCK-001/002, RDS-003, types), then the hash chain of
 * spec/replay-dump.md in order (each step a chain node with recorded and recomputed
 * values), then the signature and trust decision (RDS-007, RDS-F001).
 * Each check is a small function that pushes findings; nothing that depends on a
 * malformed member is computed.
 */
import type { ChainNode, Finding, JsonValue } from '../../../shared/report.js';
import { fail, unavailable, warning, type RuleId } from './findings.js';
import { hashBytes, hashValue, isHashString } from '../../core/hash.js';
import { canonicalizeValue, escapePointerToken } from '../../core/jcs.js';
// Not through core/jcs.ts: the pieces hash (core/hash.ts), which itself canonicalizes through core/jcs.ts.
import { hashCanonical } from '../../core/jcs/pieces.js';
import { isKeyId, isSignatureString, verifyBytes, type KeyStatus, type TrustStore } from '../../core/keys.js';
import { isRfc3339Utc, whyNotRfc3339Utc } from '../../core/time.js';
import { whyNotDotNetDateTime } from './dotnet-time.js';
import type { ComputeShape, FrozenArtifact, InferenceParameters } from '../../providers/types.js';
import type { SignatureCheck } from '../../threads/canonical.js';
import {
  DUMP_TYPE,
  FORMAT_VERSION,
  isObject,
  LOCK_REQUIRED,
  SUB_MEMBERS,
  TOP_MEMBERS,
  TRUST_DECISIONS,
  type DumpModel,
  type TrustDecisionValue,
} from './model.js';

/** Kernel major versions this replayer supports (RDS-F003 outside). */
export const SUPPORTED_KERNEL_MAJORS: readonly number[] = [0];
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

export interface LockedProviderInfo {
  providerId: string;
  modelId: string;
  quantizationProfile: string;
  capacitySnapshot: { [key: string]: JsonValue };
  capturedAtUtc: string;
}

/** The model's members after their type checks; absent when missing or malformed. */
export interface Typed {
  artifacts?: Map<string, FrozenArtifact>;
  /** Keys of artifacts present but malformed (their own findings say how); not in `artifacts`. */
  malformedArtifacts?: Set<string>;
  buffers?: { expression: string; material: string[]; orchestration: string };
  computeShape?: ComputeShape;
  createdAtUtc?: string;
  dumpId?: string;
  executionOutcomeHash?: string;
  inferenceParameters?: InferenceParameters;
  kernelVersion?: string;
  kernelMajor?: number;
  keyId?: string;
  lockedProviderInfo?: LockedProviderInfo;
  materialSnapshotHashSet?: string[];
  pipelineDefinitionHash?: string;
  promptArtifactHash?: string;
  seed?: number;
  signature?: string;
  trustDecision?: { decision: TrustDecisionValue; evaluatedAtUtc: string; keyId: string };
}

export interface DumpVerification {
  id: string | null;
  findings: Finding[];
  chain: ChainNode[];
  typed: Typed;
  /** H({computeShape, …, seed}) when every input member is well-formed. */
  inputHash: string | null;
}

/** A JSON Pointer to a member (one or two levels down). */
function ptr(a: string, b?: string): string {
  const first = '/' + escapePointerToken(a);
  return b === undefined ? first : first + '/' + escapePointerToken(b);
}
const typeFail = (pointer: string, want: string, v: unknown) =>
  fail('RPR-DUMP-002', `${pointer} must be ${want}`, { pointer, expected: want, actual: describe(v) });

function describe(v: unknown): JsonValue {
  if (v === null) return null;
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return v.length > 200 ? v.slice(0, 200) + '…' : v;
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  return typeof v;
}

// ---------------------------------------------------------------------------
// Structure

/** A mandatory member written as null records nothing: it counts as missing (and is also a type error). */
const absent = (v: unknown): boolean => v === undefined || v === null;

function checkMembers(m: DumpModel, out: Finding[]): void {
  const missing: string[] = [];
  for (const k of TOP_MEMBERS) {
    const v = m[k];
    if (!absent(v)) continue;
    missing.push(k);
    const actual = v === null ? 'null' : 'missing';
    if (k === 'lockedProviderInfo')
      out.push(
        fail(
          'RDS-LOCK-001',
          `the dump has no lockedProviderInfo${v === null ? ' (it is null)' : ''} (ReplayContext.LockedProviderInfo is mandatory)`,
          { pointer: '/lockedProviderInfo', expected: 'present', actual },
        ),
      );
    else
      out.push(fail('RDS-001', `mandatory member ${k} is ${actual}`, { pointer: ptr(k), expected: 'present', actual }));
  }
  for (const k of Object.keys(m)) {
    if (!(TOP_MEMBERS as readonly string[]).includes(k))
      out.push(
        fail('RPR-DUMP-001', `unknown member "${k}": the dump format is closed`, { pointer: ptr(k), actual: k }),
      );
  }
  for (const [group, members] of Object.entries(SUB_MEMBERS)) {
    const g = m[group];
    if (g === undefined) continue;
    if (!isObject(g)) {
      out.push(typeFail(ptr(group), 'an object', g));
      // A string or a list holds none of the locked members: no LockedProviderInfo at all.
      if (group === 'lockedProviderInfo')
        out.push(
          fail(
            'RDS-LOCK-001',
            'lockedProviderInfo is not an object: the dump has no usable LockedProviderInfo (mandatory)',
            { pointer: '/lockedProviderInfo', expected: 'an object', actual: describe(g) },
          ),
        );
      continue;
    }
    for (const k of members) {
      if (!absent(g[k])) continue;
      const actual = g[k] === null ? 'null' : 'missing';
      if (group === 'lockedProviderInfo' && (LOCK_REQUIRED as readonly string[]).includes(k)) {
        out.push(
          fail(
            'RDS-LOCK-002',
            `lockedProviderInfo.${k} is ${actual} (RDS-LOCK-002: providerId, modelId, quantizationProfile and capacitySnapshot are required)`,
            { pointer: ptr(group, k), expected: 'present', actual },
          ),
        );
      } else {
        missing.push(`${group}.${k}`);
        out.push(
          fail('RDS-001', `mandatory member ${group}.${k} is ${actual}`, {
            pointer: ptr(group, k),
            expected: 'present',
            actual,
          }),
        );
      }
    }
    for (const k of Object.keys(g)) {
      if (!(members as readonly string[]).includes(k))
        out.push(
          fail('RPR-DUMP-001', `unknown member "${group}.${k}": the dump format is closed`, {
            pointer: ptr(group, k),
            actual: k,
          }),
        );
    }
  }
  if (out.some((f) => f.rule === 'RDS-001' || f.rule.startsWith('RDS-LOCK-00'))) {
    out.push(
      fail('RDS-F002', 'loading denied: mandatory fields are missing', {
        expected: 'every mandatory member',
        actual: out.filter((f) => f.rule === 'RDS-001' || f.rule.startsWith('RDS-LOCK-00')).map((f) => f.pointer ?? ''),
      }),
    );
  }
}

function hashRef(v: unknown, pointer: string, out: Finding[]): string | undefined {
  if (isHashString(v)) return v;
  if (v !== undefined)
    out.push(
      fail('RPR-DUMP-004', `${pointer} is not a hash string (sha256: + 64 lowercase hex digits)`, {
        pointer,
        expected: 'sha256:<64 lowercase hex>',
        actual: describe(v),
      }),
    );
  return undefined;
}

function hashList(v: unknown, pointer: string, out: Finding[]): string[] | undefined {
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) {
    out.push(typeFail(pointer, 'an array of hash strings', v));
    return undefined;
  }
  const before = out.length;
  const r: string[] = [];
  for (let i = 0; i < v.length; i++) {
    const h = hashRef(v[i], `${pointer}/${i}`, out);
    if (h !== undefined) r.push(h);
  }
  return out.length === before ? r : undefined;
}

function str(v: unknown, pointer: string, out: Finding[]): string | undefined {
  if (typeof v === 'string' && v.length > 0) return v;
  if (v !== undefined) out.push(typeFail(pointer, 'a non-empty string', v));
  return undefined;
}

/** Why a dump's time is not one (RDS-003): not RFC 3339 UTC, or no .NET DateTime (dotnet-time.ts). */
const whyNotDotNetTime = (v: unknown): string | null =>
  !isRfc3339Utc(v) ? whyNotRfc3339Utc(v) : whyNotDotNetDateTime(v);

function timestamp(v: unknown, pointer: string, out: Finding[]): string | undefined {
  if (v === undefined) return undefined;
  const why = whyNotDotNetTime(v);
  if (why === null) return v as string;
  out.push(
    fail('RDS-003', `${pointer} is not an RFC 3339 UTC timestamp: ${why}`, {
      pointer,
      expected: 'YYYY-MM-DDTHH:MM:SS[.fff]Z',
      actual: describe(v),
    }),
  );
  return undefined;
}

function numberIn(
  v: unknown,
  pointer: string,
  lo: number,
  hi: number,
  integer: boolean,
  out: Finding[],
): number | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi && (!integer || Number.isInteger(v))) return v;
  out.push(typeFail(pointer, `${integer ? 'an integer' : 'a number'} from ${lo} to ${hi}`, v));
  return undefined;
}

/**
 * Work already done on a large dump by the thread that stripped it (json-encoding.ts,
 * strippedDump): JSON artifacts' canonical bytes and long text artifacts' hashes by
 * artifact key, and a signature check (used only for the same key and signature).
 */
export interface Precomputed {
  jsonArtifacts?: ReadonlyMap<string, Uint8Array>;
  textHashes?: ReadonlyMap<string, string>;
  signature?: SignatureCheck | null;
}

function checkArtifacts(
  v: unknown,
  out: Finding[],
  t: Typed,
  pre?: Precomputed,
): Map<string, FrozenArtifact> | undefined {
  if (v === undefined) return undefined;
  if (!isObject(v)) {
    out.push(typeFail('/artifacts', 'an object', v));
    return undefined;
  }
  const map = new Map<string, FrozenArtifact>();
  for (const key of Object.keys(v)) {
    const p = ptr('artifacts', key);
    if (!isHashString(key))
      out.push(
        fail('RPR-DUMP-004', `artifact key ${key} is not a hash string`, {
          pointer: p,
          expected: 'sha256:<64 lowercase hex>',
          actual: key,
        }),
      );
    const a = v[key];
    if (!isObject(a)) {
      out.push(typeFail(p, 'an object {mediaType, text} or {mediaType, json}', a));
      (t.malformedArtifacts ??= new Set()).add(key);
      continue;
    }
    let good = true;
    for (const k of Object.keys(a)) {
      if (k !== 'mediaType' && k !== 'text' && k !== 'json') {
        out.push(
          fail('RPR-DUMP-001', `unknown member "${k}" in an artifact: the dump format is closed`, {
            pointer: `${p}/${escapePointerToken(k)}`,
            actual: k,
          }),
        );
        good = false;
      }
    }
    if (typeof a['mediaType'] !== 'string' || a['mediaType'] === '') {
      out.push(
        a['mediaType'] === undefined
          ? fail('RDS-001', 'an artifact has no mediaType', {
              pointer: `${p}/mediaType`,
              expected: 'present',
              actual: 'missing',
            })
          : typeFail(`${p}/mediaType`, 'a non-empty string', a['mediaType']),
      );
      good = false;
    }
    const hasText = a['text'] !== undefined;
    const hasJson = a['json'] !== undefined;
    if (hasText === hasJson) {
      out.push(
        fail('RPR-DUMP-002', 'an artifact holds exactly one of "text" or "json"', {
          pointer: p,
          expected: 'text xor json',
          actual: hasText ? 'both' : 'neither',
        }),
      );
      good = false;
    } else if (hasText && typeof a['text'] !== 'string') {
      out.push(typeFail(`${p}/text`, 'a string', a['text']));
      good = false;
    }
    if (!good) {
      (t.malformedArtifacts ??= new Set()).add(key);
      continue;
    }
    const canonical = pre?.jsonArtifacts?.get(key);
    const art: FrozenArtifact = hasText
      ? {
          hash: pre?.textHashes?.get(key) ?? hashBytes(a['text'] as string),
          mediaType: a['mediaType'] as string,
          text: a['text'] as string,
        }
      : {
          hash: canonical ? hashBytes(canonical) : hashCanonical(a['json']),
          mediaType: a['mediaType'] as string,
          json: a['json'] as JsonValue,
        };
    map.set(key, art);
  }
  return map;
}

export function checkStructure(m: DumpModel, out: Finding[], pre?: Precomputed): Typed {
  checkMembers(m, out);
  const t: Typed = {};
  if (m['type'] !== undefined && m['type'] !== DUMP_TYPE)
    out.push(
      fail('RPR-DUMP-006', `type must be "${DUMP_TYPE}"`, {
        pointer: '/type',
        expected: DUMP_TYPE,
        actual: describe(m['type']),
      }),
    );
  if (m['formatVersion'] !== undefined && m['formatVersion'] !== FORMAT_VERSION) {
    out.push(
      fail(
        'RPR-DUMP-006',
        `formatVersion ${JSON.stringify(m['formatVersion'])} is not supported (this reader reads ${FORMAT_VERSION})`,
        { pointer: '/formatVersion', expected: FORMAT_VERSION, actual: describe(m['formatVersion']) },
      ),
    );
  }
  t.artifacts = checkArtifacts(m['artifacts'], out, t, pre);
  t.dumpId = str(m['dumpId'], '/dumpId', out);
  t.createdAtUtc = timestamp(m['createdAtUtc'], '/createdAtUtc', out);
  t.executionOutcomeHash = hashRef(m['executionOutcomeHash'], '/executionOutcomeHash', out);
  t.pipelineDefinitionHash = hashRef(m['pipelineDefinitionHash'], '/pipelineDefinitionHash', out);
  t.promptArtifactHash = hashRef(m['promptArtifactHash'], '/promptArtifactHash', out);
  t.materialSnapshotHashSet = hashList(m['materialSnapshotHashSet'], '/materialSnapshotHashSet', out);
  t.seed = numberIn(m['seed'], '/seed', 0, Number.MAX_SAFE_INTEGER, true, out);
  checkSigningMembers(m, t, out);
  checkConditionMembers(m, t, out);
  checkTrustDecisionMember(m, t, out);
  return t;
}

/** kernelVersion, keyId and signature: each well-formed when present. */
function checkSigningMembers(m: DumpModel, t: Typed, out: Finding[]): void {
  const kv = m['kernelVersion'];
  if (kv !== undefined) {
    const sm = typeof kv === 'string' ? SEMVER.exec(kv) : null;
    if (!sm)
      out.push(
        fail('RPR-DUMP-007', '/kernelVersion is not a semantic version (MAJOR.MINOR.PATCH)', {
          pointer: '/kernelVersion',
          expected: 'MAJOR.MINOR.PATCH',
          actual: describe(kv),
        }),
      );
    else {
      t.kernelVersion = kv as string;
      t.kernelMajor = Number(sm[1]);
    }
  }
  if (m['keyId'] !== undefined) {
    if (isKeyId(m['keyId'])) t.keyId = m['keyId'];
    else
      out.push(
        fail('RPR-DUMP-004', '/keyId is not ed25519: + 64 lowercase hex digits', {
          pointer: '/keyId',
          expected: 'ed25519:<64 lowercase hex>',
          actual: describe(m['keyId']),
        }),
      );
  }
  const sig = m['signature'];
  if (sig !== undefined) {
    // Canonical base64 only (isSignatureString): a signature whose padding bits differ decodes
    // to the same bytes, and accepting it would let a forger change a signed dump undetected.
    if (isSignatureString(sig)) t.signature = sig;
    else
      out.push(
        fail('RDS-F001', '/signature is not a canonical base64 Ed25519 signature (64 bytes)', {
          pointer: '/signature',
          expected: '88 characters of canonical base64',
          actual: describe(sig),
        }),
      );
  }
}

/** buffers, computeShape, inferenceParameters, lockedProviderInfo: each typed only when complete and well-formed. */
function checkConditionMembers(m: DumpModel, t: Typed, out: Finding[]): void {
  const b = m['buffers'];
  if (isObject(b)) {
    const before = out.length;
    const expression = hashRef(b['expression'], '/buffers/expression', out);
    const orchestration = hashRef(b['orchestration'], '/buffers/orchestration', out);
    const material = hashList(b['material'], '/buffers/material', out);
    if (out.length === before && expression && orchestration && material)
      t.buffers = { expression, material, orchestration };
  }
  const cs = m['computeShape'];
  if (isObject(cs)) {
    const before = out.length;
    const advisor = str(cs['advisor'], '/computeShape/advisor', out);
    const arity = numberIn(cs['arity'], '/computeShape/arity', 1, 1024, true, out);
    const tensorType = str(cs['tensorType'], '/computeShape/tensorType', out);
    if (out.length === before && advisor && arity !== undefined && tensorType)
      t.computeShape = { advisor, arity, tensorType };
  }
  const ip = m['inferenceParameters'];
  if (isObject(ip)) {
    const before = out.length;
    const maxTokens = numberIn(ip['maxTokens'], '/inferenceParameters/maxTokens', 1, 1_000_000, true, out);
    const temperature = numberIn(ip['temperature'], '/inferenceParameters/temperature', 0, 2, false, out);
    const topP = numberIn(ip['topP'], '/inferenceParameters/topP', 0, 1, false, out);
    if (out.length === before && maxTokens !== undefined && temperature !== undefined && topP !== undefined)
      t.inferenceParameters = { maxTokens, temperature, topP };
  }
  const lp = m['lockedProviderInfo'];
  if (isObject(lp)) {
    const before = out.length;
    const providerId = str(lp['providerId'], '/lockedProviderInfo/providerId', out);
    const modelId = str(lp['modelId'], '/lockedProviderInfo/modelId', out);
    const quantizationProfile = str(lp['quantizationProfile'], '/lockedProviderInfo/quantizationProfile', out);
    const capturedAtUtc = timestamp(lp['capturedAtUtc'], '/lockedProviderInfo/capturedAtUtc', out);
    const cap = lp['capacitySnapshot'];
    if (cap !== undefined && !isObject(cap))
      out.push(typeFail('/lockedProviderInfo/capacitySnapshot', 'an object', cap));
    if (out.length === before && providerId && modelId && quantizationProfile && capturedAtUtc && isObject(cap)) {
      t.lockedProviderInfo = {
        providerId,
        modelId,
        quantizationProfile,
        capturedAtUtc,
        capacitySnapshot: cap as { [k: string]: JsonValue },
      };
    }
  }
}

function checkTrustDecisionMember(m: DumpModel, t: Typed, out: Finding[]): void {
  const td = m['trustDecision'];
  if (isObject(td)) {
    const before = out.length;
    const decision = td['decision'];
    if (decision !== undefined && !(TRUST_DECISIONS as readonly unknown[]).includes(decision))
      out.push(typeFail('/trustDecision/decision', `one of ${TRUST_DECISIONS.join(', ')}`, decision));
    const evaluatedAtUtc = timestamp(td['evaluatedAtUtc'], '/trustDecision/evaluatedAtUtc', out);
    if (td['keyId'] !== undefined && !isKeyId(td['keyId']))
      out.push(
        fail('RPR-DUMP-004', '/trustDecision/keyId is not ed25519: + 64 lowercase hex digits', {
          pointer: '/trustDecision/keyId',
          expected: 'ed25519:<64 lowercase hex>',
          actual: describe(td['keyId']),
        }),
      );
    if (out.length === before && decision !== undefined && evaluatedAtUtc && isKeyId(td['keyId']))
      t.trustDecision = { decision: decision as TrustDecisionValue, evaluatedAtUtc, keyId: td['keyId'] };
  }
}

/**
 * RDS-005 (freezing non-determinism): the seed, the inference parameters and the compute
 * shape are all recorded, each complete and well-formed. Accompanies the RDS-001 or
 * RPR-DUMP-002 findings that say what is wrong with each.
 */
function checkFrozenConditions(t: Typed, out: Finding[]): void {
  const lacking: string[] = [];
  if (t.seed === undefined) lacking.push('/seed');
  if (!t.inferenceParameters) lacking.push('/inferenceParameters');
  if (!t.computeShape) lacking.push('/computeShape');
  if (lacking.length > 0)
    out.push(
      lackingFinding(
        'RDS-005',
        "the run's non-determinism is not fully frozen: the seed, the inference parameters and the compute shape must all be recorded",
        'seed, inferenceParameters and computeShape, complete and well-formed',
        lacking,
      ),
    );
}

/**
 * RDS-006 (semantic snapshot capture): the orchestration, material and expression buffers
 * are each named by hash and held by the dump as an artifact that hashes to that name.
 * Accompanies RDS-001, RDS-002 or RDS-F001, which say what is wrong with each.
 */
function checkSnapshot(t: Typed, out: Finding[]): void {
  const lacking: string[] = [];
  const b = t.buffers;
  if (!b) lacking.push('/buffers');
  else {
    const held = (h: string): boolean => refNode(t, h) === 'match';
    if (!held(b.orchestration)) lacking.push('/buffers/orchestration');
    for (let i = 0; i < b.material.length; i++) if (!held(b.material[i]!)) lacking.push(`/buffers/material/${i}`);
    if (!held(b.expression)) lacking.push('/buffers/expression');
  }
  if (lacking.length > 0)
    out.push(
      lackingFinding(
        'RDS-006',
        'the semantic snapshot is incomplete: the orchestration, material and expression buffers must each be held as an artifact that hashes to its reference',
        'every buffer held as an intact artifact',
        lacking,
      ),
    );
}

/** One finding for a rule several members break: the first as its pointer, all as `actual`. */
function lackingFinding(rule: RuleId, message: string, expected: string, lacking: string[]): Finding {
  return fail(rule, message, { pointer: lacking[0]!, expected, actual: lacking });
}

// ---------------------------------------------------------------------------
// Hash chain

function node(
  id: string,
  label: string,
  recorded: string | null,
  recomputed: string | null,
  status: ChainNode['status'],
  parents: string[],
  pointer?: string,
): ChainNode {
  const n: ChainNode = { id, label, recorded, recomputed, status, parents };
  if (pointer !== undefined) n.pointer = pointer;
  return n;
}

/** Step 1: every artifact's key equals its content hash (RDS-F001); references resolve (RDS-002). */
function chainArtifacts(t: Typed, out: Finding[], chain: ChainNode[]): void {
  if (!t.artifacts) return;
  for (const [key, a] of t.artifacts) {
    const p = ptr('artifacts', key);
    const ok = key === a.hash;
    chain.push(
      node(
        `artifact:${key}`,
        `artifact (${a.mediaType}, ${a.text !== undefined ? 'text' : 'json'})`,
        key,
        a.hash,
        ok ? 'match' : 'mismatch',
        [],
        p,
      ),
    );
    if (!ok)
      out.push(
        fail('RDS-F001', 'an artifact does not hash to its key: its content was altered', {
          pointer: p,
          expected: key,
          actual: a.hash,
        }),
      );
  }
}

function resolves(t: Typed, h: string | undefined, pointer: string, out: Finding[]): boolean {
  if (!h || !t.artifacts) return false;
  const a = t.artifacts.get(h);
  if (a && a.hash === h) return true;
  if (a) return false;
  if (t.malformedArtifacts?.has(h))
    out.push(
      fail('RDS-002', `${pointer} names an artifact that is malformed (see the findings at ${ptr('artifacts', h)})`, {
        pointer,
        expected: `a well-formed artifact ${h}`,
        actual: 'a malformed artifact',
      }),
    );
  else
    out.push(
      fail('RDS-002', `${pointer} does not resolve to an artifact of the dump`, {
        pointer,
        expected: `an artifact ${h}`,
        actual: 'no such artifact',
      }),
    );
  return false;
}

function isReferenced(t: Typed, k: string): boolean {
  if (k === t.promptArtifactHash || k === t.pipelineDefinitionHash) return true;
  if (t.buffers && (k === t.buffers.expression || k === t.buffers.orchestration || t.buffers.material.includes(k)))
    return true;
  return t.materialSnapshotHashSet !== undefined && t.materialSnapshotHashSet.includes(k);
}

function refNode(t: Typed, h: string | undefined): ChainNode['status'] {
  if (!h) return 'missing';
  const a = t.artifacts?.get(h);
  return !a ? 'unresolved' : a.hash === h ? 'match' : 'mismatch';
}

export function verifyModel(
  m: DumpModel,
  trust: TrustStore | null,
  signedPayload: () => Uint8Array,
  kernelSeverity: 'warning' | 'unavailable',
  pre?: Precomputed,
): DumpVerification {
  const findings: Finding[] = [];
  const chain: ChainNode[] = [];
  const t = checkStructure(m, findings, pre);
  if (t.kernelMajor !== undefined && !SUPPORTED_KERNEL_MAJORS.includes(t.kernelMajor)) {
    const mk = kernelSeverity === 'warning' ? warning : unavailable;
    findings.push(
      mk(
        'RDS-F003',
        `kernel major version ${t.kernelMajor} is outside the supported range (${SUPPORTED_KERNEL_MAJORS.join(', ')})`,
        {
          pointer: '/kernelVersion',
          expected: `major ${SUPPORTED_KERNEL_MAJORS.join(' or ')}`,
          actual: t.kernelVersion ?? null,
        },
      ),
    );
  }
  checkFrozenConditions(t, findings);
  chainArtifacts(t, findings, chain);
  checkReferences(t, findings);

  // Step 2: prompt.
  const promptStatus = refNode(t, t.promptArtifactHash);
  const orch = t.buffers?.orchestration ?? null;
  const promptOk = promptStatus === 'match' && orch === t.promptArtifactHash;
  chain.push(
    node(
      'prompt',
      'prompt: buffers.orchestration = promptArtifactHash',
      t.promptArtifactHash ?? null,
      orch,
      promptStatus !== 'match' ? promptStatus : promptOk ? 'match' : 'mismatch',
      t.promptArtifactHash ? [`artifact:${t.promptArtifactHash}`] : [],
      '/promptArtifactHash',
    ),
  );
  if (t.promptArtifactHash && orch && orch !== t.promptArtifactHash)
    findings.push(
      fail('RDS-F001', 'buffers.orchestration differs from promptArtifactHash', {
        pointer: '/buffers/orchestration',
        expected: t.promptArtifactHash,
        actual: orch,
      }),
    );

  // Step 3: pipeline resolves to a JSON artifact.
  let pipeStatus = refNode(t, t.pipelineDefinitionHash);
  const pipe = t.pipelineDefinitionHash ? t.artifacts?.get(t.pipelineDefinitionHash) : undefined;
  if (pipeStatus === 'match' && pipe && pipe.json === undefined) {
    pipeStatus = 'mismatch';
    findings.push(
      fail('RPR-DUMP-008', 'pipelineDefinitionHash names a text artifact; a pipeline definition is a JSON artifact', {
        pointer: '/pipelineDefinitionHash',
        expected: 'a JSON artifact',
        actual: 'a text artifact',
      }),
    );
  }
  chain.push(
    node(
      'pipeline',
      'pipeline definition (JSON artifact)',
      t.pipelineDefinitionHash ?? null,
      pipe?.hash ?? null,
      pipeStatus,
      t.pipelineDefinitionHash ? [`artifact:${t.pipelineDefinitionHash}`] : [],
      '/pipelineDefinitionHash',
    ),
  );

  // Step 4: materials: sorted, unique, equal to the set buffers.material.
  chainMaterials(t, findings, chain);

  // Steps 5 and 6: the input commitment and the outcome bound to it.
  const inputHash = chainInputAndOutcome(m, t, findings, chain);

  // Step 7: signature and trust (RDS-007, RDS-F001).
  checkSignature(t, trust, signedPayload, findings, chain, pre?.signature ?? null);

  const id = t.dumpId ?? (typeof m['dumpId'] === 'string' ? m['dumpId'] : null);
  return { id, findings, chain, typed: t, inputHash };
}

/** RDS-002 for every hash the dump names; RDS-006; RPR-DUMP-010 for an artifact nothing names. */
function checkReferences(t: Typed, findings: Finding[]): void {
  resolves(t, t.promptArtifactHash, '/promptArtifactHash', findings);
  resolves(t, t.pipelineDefinitionHash, '/pipelineDefinitionHash', findings);
  const ms0 = t.materialSnapshotHashSet;
  if (ms0) for (let i = 0; i < ms0.length; i++) resolves(t, ms0[i], `/materialSnapshotHashSet/${i}`, findings);
  if (t.buffers) {
    resolves(t, t.buffers.orchestration, '/buffers/orchestration', findings);
    resolves(t, t.buffers.expression, '/buffers/expression', findings);
    const bm = t.buffers.material;
    for (let i = 0; i < bm.length; i++) resolves(t, bm[i], `/buffers/material/${i}`, findings);
  }
  checkSnapshot(t, findings);
  if (t.artifacts) {
    // Every artifact is named by some member (RPR-DUMP-010 otherwise).
    for (const k of t.artifacts.keys())
      if (!isReferenced(t, k))
        findings.push(
          warning('RPR-DUMP-010', 'an artifact is not referenced by any member of the dump', {
            pointer: ptr('artifacts', k),
          }),
        );
  }
}

/** Step 4: materialSnapshotHashSet sorted, unique, and the set of buffers.material. */
function chainMaterials(t: Typed, findings: Finding[], chain: ChainNode[]): void {
  const ms = t.materialSnapshotHashSet;
  let matStatus: ChainNode['status'] = ms && t.buffers ? 'match' : 'missing';
  if (ms) {
    for (let i = 1; i < ms.length; i++) {
      if (!(ms[i - 1]! < ms[i]!)) {
        matStatus = 'mismatch';
        findings.push(
          fail('RPR-DUMP-009', 'materialSnapshotHashSet is not sorted ascending without duplicates', {
            pointer: `/materialSnapshotHashSet/${i}`,
            expected: `after ${ms[i - 1]}`,
            actual: ms[i]!,
          }),
        );
        break;
      }
    }
    if (ms.some((h) => refNode(t, h) !== 'match') && matStatus === 'match') matStatus = 'unresolved';
  }
  const bufSet = t.buffers ? [...new Set(t.buffers.material)].sort() : null;
  // Each list is canonicalized once: compared here, hashed for the chain node below.
  const msText = ms ? canonicalizeValue(ms) : null;
  const bufText = bufSet ? canonicalizeValue(bufSet) : null;
  if (msText !== null && bufText !== null && msText !== bufText) {
    matStatus = 'mismatch';
    findings.push(
      fail('RDS-F001', 'the set buffers.material differs from materialSnapshotHashSet', {
        pointer: '/buffers/material',
        expected: ms,
        actual: t.buffers!.material,
      }),
    );
  } else if (t.buffers && new Set(t.buffers.material).size !== t.buffers.material.length) {
    matStatus = 'mismatch';
    findings.push(
      fail('RPR-DUMP-009', 'buffers.material lists a material twice', {
        pointer: '/buffers/material',
        actual: t.buffers.material,
      }),
    );
  }
  chain.push(
    node(
      'materials',
      'materials: materialSnapshotHashSet = set(buffers.material)',
      msText !== null ? hashBytes(msText) : null,
      bufText !== null ? hashBytes(bufText) : null,
      matStatus,
      (ms ?? []).map((h) => `artifact:${h}`),
      '/materialSnapshotHashSet',
    ),
  );
}

/** Steps 5 (input commitment: nothing recorded, computed from the frozen conditions) and 6 (outcome, RDS-F005); the input hash. */
function chainInputAndOutcome(m: DumpModel, t: Typed, findings: Finding[], chain: ChainNode[]): string | null {
  const ms = t.materialSnapshotHashSet;
  // Step 5: input commitment (nothing recorded: computed from the frozen conditions).
  let inputHash: string | null = null;
  if (
    t.computeShape &&
    t.inferenceParameters &&
    t.kernelVersion &&
    t.lockedProviderInfo &&
    ms &&
    t.pipelineDefinitionHash &&
    t.promptArtifactHash &&
    t.seed !== undefined
  ) {
    inputHash = hashValue({
      computeShape: m['computeShape'],
      inferenceParameters: m['inferenceParameters'],
      kernelVersion: t.kernelVersion,
      lockedProviderInfo: m['lockedProviderInfo'],
      materialSnapshotHashSet: ms,
      pipelineDefinitionHash: t.pipelineDefinitionHash,
      promptArtifactHash: t.promptArtifactHash,
      seed: t.seed,
    });
  }
  chain.push(
    node(
      'input',
      'input commitment H({computeShape, inferenceParameters, kernelVersion, lockedProviderInfo, materials, pipeline, prompt, seed})',
      null,
      inputHash,
      inputHash ? 'match' : 'missing',
      ['prompt', 'pipeline', 'materials'],
    ),
  );

  // Step 6: outcome (RDS-F005).
  const expr = t.buffers?.expression;
  let outcome: string | null = null;
  let outStatus: ChainNode['status'] = 'missing';
  if (inputHash && expr && t.executionOutcomeHash) {
    outcome = hashValue({ expressionHash: expr, inputHash });
    outStatus =
      outcome === t.executionOutcomeHash ? (refNode(t, expr) === 'match' ? 'match' : 'unresolved') : 'mismatch';
    if (outcome !== t.executionOutcomeHash)
      findings.push(
        fail(
          'RDS-F005',
          'executionOutcomeHash does not match H({expressionHash, inputHash}): the outcome is not bound to the recorded conditions',
          { pointer: '/executionOutcomeHash', expected: outcome, actual: t.executionOutcomeHash },
        ),
      );
  }
  chain.push(
    node(
      'outcome',
      'outcome: executionOutcomeHash = H({expressionHash, inputHash})',
      t.executionOutcomeHash ?? null,
      outcome,
      outStatus,
      ['input', ...(expr ? [`artifact:${expr}`] : [])],
      '/executionOutcomeHash',
    ),
  );
  return inputHash;
}

/**
 * RDS-007 for the signing key's status (spec replay-dump.md step 7: active or retired is
 * trusted, revoked fails). A retired key is said with a warning, as the journal's
 * RPR-JOURNAL-010 and the evidence bundle say it: retiring vouches only for what the key
 * signed before, and a dump cannot prove when it was signed (its createdAtUtc and
 * capturedAtUtc are written by the same key), nor does the trust store say when the key
 * was retired.
 */
function keyStatusFindings(status: KeyStatus, keyId: string): Finding[] {
  if (status === 'revoked')
    return [
      fail('RDS-007', `the signing key ${keyId} is revoked in the trust store`, {
        pointer: '/keyId',
        expected: 'active or retired',
        actual: 'revoked',
      }),
    ];
  if (status === 'retired')
    return [
      warning(
        'RDS-007',
        `the signing key ${keyId} is retired in the trust store: a retired key vouches only for what it signed before it was retired, and neither the dump (its createdAtUtc is the signer's own word) nor the trust store says when that was`,
        { pointer: '/keyId', expected: 'active', actual: 'retired' },
      ),
    ];
  return [];
}

function checkSignature(
  t: Typed,
  trust: TrustStore | null,
  signedPayload: () => Uint8Array,
  out: Finding[],
  chain: ChainNode[],
  pre: SignatureCheck | null,
): void {
  const parents = ['outcome'];
  if (!t.keyId || !t.signature) {
    chain.push(
      node(
        'signature',
        'Ed25519 signature over the canonical dump without "signature"',
        t.keyId ?? null,
        null,
        'missing',
        parents,
        '/signature',
      ),
    );
    chain.push(
      node(
        'trust',
        'trust decision (recorded vs Reprise)',
        t.trustDecision?.decision ?? null,
        null,
        'missing',
        ['signature'],
        '/trustDecision',
      ),
    );
    return;
  }
  if (t.trustDecision && t.trustDecision.keyId !== t.keyId) {
    out.push(
      fail('RDS-007', 'trustDecision.keyId differs from the signing keyId', {
        pointer: '/trustDecision/keyId',
        expected: t.keyId,
        actual: t.trustDecision.keyId,
      }),
    );
  }
  const key = trust?.get(t.keyId);
  let reprise: TrustDecisionValue = 'unknown';
  if (!trust) {
    out.push(
      unavailable('RDS-007', 'no trust store was given (--trust-store): the signing key cannot be decided', {
        pointer: '/keyId',
        actual: t.keyId,
      }),
    );
    chain.push(
      node(
        'signature',
        'Ed25519 signature over the canonical dump without "signature"',
        t.keyId,
        null,
        'missing',
        parents,
        '/signature',
      ),
    );
  } else if (!key) {
    out.push(
      unavailable('RDS-007', `the signing key ${t.keyId} is not in the trust store given (--trust-store)`, {
        pointer: '/keyId',
        expected: 'a key listed in the trust store',
        actual: t.keyId,
      }),
    );
    chain.push(
      node(
        'signature',
        'Ed25519 signature over the canonical dump without "signature"',
        t.keyId,
        null,
        'missing',
        parents,
        '/signature',
      ),
    );
  } else {
    // The stripping thread's check counts only for this very key and signature.
    const same =
      pre !== null && pre.keyId === t.keyId && pre.signature === t.signature && pre.publicKey === key.publicKey;
    const good = same ? pre.ok : verifyBytes(key.publicKey, signedPayload(), t.signature);
    chain.push(
      node(
        'signature',
        'Ed25519 signature over the canonical dump without "signature"',
        t.keyId,
        good ? key.keyId : null,
        good ? 'match' : 'mismatch',
        parents,
        '/signature',
      ),
    );
    if (!good)
      out.push(
        fail(
          'RDS-F001',
          'the signature does not verify: the dump was altered after signing, or signed by another key',
          { pointer: '/signature', expected: `a valid signature by ${t.keyId}`, actual: 'invalid signature' },
        ),
      );
    reprise = key.status === 'revoked' ? 'revoked' : 'trusted';
    out.push(...keyStatusFindings(key.status, t.keyId));
  }
  const recorded = t.trustDecision?.decision ?? null;
  const decided = key !== undefined;
  chain.push(
    node(
      'trust',
      'trust decision (recorded vs Reprise)',
      recorded,
      decided ? reprise : null,
      !decided ? 'missing' : recorded === reprise ? 'match' : 'mismatch',
      ['signature'],
      '/trustDecision/decision',
    ),
  );
  if (decided && recorded !== null && recorded !== reprise) {
    out.push(
      fail('RDS-007', `the recorded trustDecision "${recorded}" disagrees with Reprise's decision "${reprise}"`, {
        pointer: '/trustDecision/decision',
        expected: reprise,
        actual: recorded,
      }),
    );
  }
}
