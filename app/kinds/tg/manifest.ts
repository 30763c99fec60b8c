/**
 * The replay manifest (comp.TG.OUTPUT.REPLAY-MANIFEST.v1_0): a closed format, checked
 * member by member. Structural checks only; the replay rules (policy resolution, pins,
 * governed ε, lineage, anchors) are in rules.ts, the recomputation in replay.ts.
 */
import type { Finding } from '../../../shared/report.js';
import { fail } from './findings.js';
import { hashBytes, hashValue } from '../../core/hash.js';
import type { Progress } from '../../core/progress.js';
import { isRfc3339Utc, whyNotRfc3339Utc } from '../../core/time.js';
import { HASH_RE, MANIFEST_TYPE, MODES, type Mode } from './constants.js';
import {
  closedMembers,
  isFiniteNumber,
  isNonEmptyString,
  isObj,
  ownRecord,
  ptr,
  show,
  wrongType,
  type Obj,
} from './structure.js';

export interface Pins {
  modelId: string;
  modelVersion: string;
  promptHash: string;
  inferenceParams: { temperature: number; topP: number; seed: number; maxTokens?: number };
  epsilon: number;
  embeddingVersion?: string;
}

export interface Anchor {
  seq: number;
  entryHash: string;
}

export interface Execution {
  executionId: string;
  engine: string;
  engineCmi: string;
  configSnapshotRef: string;
  output: string;
  replayMode: Mode;
  inputs: string[];
  value?: unknown;
  pins?: Partial<Pins>;
  artifactHash?: string;
  anchor?: Anchor;
  /** Index in `executions` (for pointers). */
  index: number;
}

export interface Artifact {
  mediaType: string;
  text?: string;
  json?: unknown;
}

export interface Profile {
  specification: string;
  default?: Mode;
  outputs: Record<string, Mode>;
}

export interface Manifest {
  claimRef: string;
  createdAtUtc: string;
  policyContext: { bundleRef: string; bundleHash: string };
  replayProfiles: Record<string, Profile>;
  executions: Execution[];
  artifacts: Record<string, Artifact>;
}

export interface CheckedManifest {
  manifest: Manifest | null;
  findings: Finding[];
  /** Artifact keys whose content hashes to the key. */
  goodArtifacts: Set<string>;
  artifactNodes: { id: string; recorded: string; recomputed: string | null }[];
}

const TOP = ['type', 'claimRef', 'createdAtUtc', 'policyContext', 'replayProfiles', 'executions', 'artifacts'];
const EXEC_REQUIRED = ['executionId', 'engine', 'engineCmi', 'configSnapshotRef', 'output', 'replayMode', 'inputs'];
const EXEC_BY_MODE: Record<Mode, { required: string[]; optional: string[] }> = {
  EXACT: { required: ['value'], optional: [] },
  // pins is checked by the pin rule (RPR-TG-015), so that a missing pin has its own finding.
  BANDED: { required: ['value'], optional: ['pins'] },
  RECORDED: { required: [], optional: ['artifactHash', 'anchor'] },
};
export const PIN_MEMBERS = ['modelId', 'modelVersion', 'promptHash', 'inferenceParams', 'epsilon'] as const;
export const PARAM_MEMBERS = ['temperature', 'topP', 'seed'] as const;

const isMode = (v: unknown): v is Mode => typeof v === 'string' && (MODES as readonly string[]).includes(v);

/** `progress` hears of each execution record checked (a manifest may hold 100,000). */
export function checkManifest(v: unknown, progress?: Progress): CheckedManifest {
  const findings: Finding[] = [];
  const goodArtifacts = new Set<string>();
  const artifactNodes: CheckedManifest['artifactNodes'] = [];
  if (!isObj(v)) return { manifest: null, findings: [wrongType('', 'a JSON object', v)], goodArtifacts, artifactNodes };
  const before = findings.length;
  closedMembers(v, '', TOP, [], findings);
  if (v['type'] !== MANIFEST_TYPE)
    findings.push(
      fail('RPR-TG-002', `type must be ${MANIFEST_TYPE}`, {
        pointer: '/type',
        expected: MANIFEST_TYPE,
        actual: show(v['type']),
      }),
    );
  if ('claimRef' in v && !isNonEmptyString(v['claimRef']))
    findings.push(wrongType('/claimRef', 'a non-empty string', v['claimRef']));
  if ('createdAtUtc' in v && !isRfc3339Utc(v['createdAtUtc']))
    findings.push(
      fail('RPR-TG-005', `createdAtUtc is not an RFC 3339 UTC timestamp: ${whyNotRfc3339Utc(v['createdAtUtc'])}`, {
        pointer: '/createdAtUtc',
        expected: 'YYYY-MM-DDThh:mm:ss[.fff]Z',
        actual: show(v['createdAtUtc']),
      }),
    );

  const pc = v['policyContext'];
  if ('policyContext' in v) {
    if (!isObj(pc)) findings.push(wrongType('/policyContext', 'an object {bundleRef, bundleHash}', pc));
    else {
      closedMembers(pc, '/policyContext', ['bundleRef', 'bundleHash'], [], findings);
      if (!isNonEmptyString(pc['bundleRef']))
        findings.push(wrongType('/policyContext/bundleRef', 'a non-empty string', pc['bundleRef']));
      if (!(typeof pc['bundleHash'] === 'string' && HASH_RE.test(pc['bundleHash'])))
        findings.push(
          wrongType('/policyContext/bundleHash', 'a hash string sha256:<64 lowercase hex>', pc['bundleHash']),
        );
    }
  }

  const rp = v['replayProfiles'];
  if ('replayProfiles' in v) checkReplayProfiles(rp, findings);

  const arts = v['artifacts'];
  if ('artifacts' in v) checkArtifacts(arts, findings, goodArtifacts, artifactNodes);

  const ex = v['executions'];
  if ('executions' in v) {
    if (!Array.isArray(ex)) findings.push(wrongType('/executions', 'an array of execution records', ex));
    else
      for (let i = 0; i < ex.length; i++) {
        checkExecution(ex[i], i, findings);
        progress?.at(i + 1, ex.length);
      }
  }
  if (findings.length !== before) return { manifest: null, findings, goodArtifacts, artifactNodes };
  const executions = (ex as Obj[]).map((e, index) => ({ ...(e as unknown as Execution), index }));
  // Every record keyed by artifact data is looked up by that data later: no prototype.
  const profiles = ownRecord(rp as Record<string, Profile>);
  for (const [engine, prof] of Object.entries(profiles))
    profiles[engine] = { ...prof, outputs: ownRecord(prof.outputs) };
  return {
    manifest: {
      ...(v as unknown as Manifest),
      replayProfiles: profiles,
      artifacts: ownRecord(arts as Record<string, Artifact>),
      executions,
    },
    findings,
    goodArtifacts,
    artifactNodes,
  };
}

/** replayProfiles: per engine a closed TG-RP profile mapping output CSIs to modes. */
function checkReplayProfiles(rp: unknown, findings: Finding[]): void {
  if (!isObj(rp)) {
    findings.push(wrongType('/replayProfiles', 'an object keyed by engine', rp));
    return;
  }
  for (const [engine, prof] of Object.entries(rp)) {
    const p = ptr('/replayProfiles', engine);
    if (!isObj(prof)) {
      findings.push(wrongType(p, 'an object {specification, default?, outputs}', prof));
      continue;
    }
    closedMembers(prof, p, ['specification', 'outputs'], ['default'], findings);
    if (prof['specification'] !== 'TG-RP')
      findings.push(
        fail('RPR-TG-002', 'specification must be TG-RP', {
          pointer: ptr(p, 'specification'),
          expected: 'TG-RP',
          actual: show(prof['specification']),
        }),
      );
    if ('default' in prof && !isMode(prof['default']))
      findings.push(wrongType(ptr(p, 'default'), 'EXACT, BANDED or RECORDED', prof['default']));
    const outs = prof['outputs'];
    if (!isObj(outs)) findings.push(wrongType(ptr(p, 'outputs'), 'an object mapping output CSIs to modes', outs));
    else
      for (const [csi, m] of Object.entries(outs))
        if (!isMode(m)) findings.push(wrongType(ptr(p, 'outputs', csi), 'EXACT, BANDED or RECORDED', m));
  }
}

/** artifacts: each keyed by the hash of its text or JSON; the good ones and a chain node for each. */
function checkArtifacts(
  arts: unknown,
  findings: Finding[],
  goodArtifacts: Set<string>,
  artifactNodes: CheckedManifest['artifactNodes'],
): void {
  if (!isObj(arts)) {
    findings.push(wrongType('/artifacts', 'an object keyed by artifact hash', arts));
    return;
  }
  for (const [key, a] of Object.entries(arts)) {
    const p = ptr('/artifacts', key);
    if (!HASH_RE.test(key))
      findings.push(
        fail('RPR-TG-002', 'an artifact key must be a hash string sha256:<64 lowercase hex>', {
          pointer: p,
          expected: 'sha256:<64 hex>',
          actual: key,
        }),
      );
    if (!isObj(a)) {
      findings.push(wrongType(p, 'an object {mediaType, text} or {mediaType, json}', a));
      continue;
    }
    const hasText = 'text' in a;
    closedMembers(a, p, ['mediaType', hasText ? 'text' : 'json'], [], findings);
    if (!isNonEmptyString(a['mediaType']))
      findings.push(wrongType(ptr(p, 'mediaType'), 'a non-empty string', a['mediaType']));
    if (hasText && typeof a['text'] !== 'string') {
      findings.push(wrongType(ptr(p, 'text'), 'a string', a['text']));
      continue;
    }
    if (!hasText && !('json' in a)) continue;
    let recomputed: string | null;
    try {
      recomputed = hasText ? hashBytes(a['text'] as string) : hashValue(a['json']);
    } catch {
      recomputed = null;
    }
    artifactNodes.push({ id: key, recorded: key, recomputed });
    if (recomputed === key) goodArtifacts.add(key);
    else
      findings.push(
        fail('RPR-TG-010', 'the artifact does not hash to its key', {
          pointer: p,
          expected: key,
          actual: recomputed ?? '(unhashable)',
        }),
      );
  }
}

function checkExecution(e: unknown, i: number, out: Finding[]): void {
  const p = ptr('/executions', i);
  if (!isObj(e)) return void out.push(wrongType(p, 'an execution record object', e));
  const mode = e['replayMode'];
  if (!isMode(mode)) {
    closedMembers(e, p, EXEC_REQUIRED, ['value', 'pins', 'artifactHash', 'anchor'], out);
    if ('replayMode' in e) out.push(wrongType(ptr(p, 'replayMode'), 'EXACT, BANDED or RECORDED', mode));
    return;
  }
  const shape = EXEC_BY_MODE[mode];
  closedMembers(e, p, [...EXEC_REQUIRED, ...shape.required], shape.optional, out);
  for (const m of ['executionId', 'engine', 'engineCmi', 'configSnapshotRef', 'output'])
    if (Object.hasOwn(e, m) && !isNonEmptyString(e[m])) out.push(wrongType(ptr(p, m), 'a non-empty string', e[m]));
  const inputs = e['inputs'];
  if ('inputs' in e && !(Array.isArray(inputs) && inputs.every(isNonEmptyString)))
    out.push(wrongType(ptr(p, 'inputs'), 'an array of execution ids or artifact hashes', inputs));
  if (mode === 'BANDED' && 'pins' in e && !isObj(e['pins']))
    out.push(wrongType(ptr(p, 'pins'), 'an object of pins', e['pins']));
  if (mode === 'BANDED' && isObj(e['pins'])) checkPinTypes(e['pins'], ptr(p, 'pins'), out);
  if (mode === 'BANDED' && 'value' in e && !isFiniteNumber(e['value']))
    out.push(wrongType(ptr(p, 'value'), 'a number (a BANDED output is numeric)', e['value']));
  if (mode === 'RECORDED') {
    if ('artifactHash' in e && !(typeof e['artifactHash'] === 'string' && HASH_RE.test(e['artifactHash'])))
      out.push(wrongType(ptr(p, 'artifactHash'), 'a hash string', e['artifactHash']));
    const a = e['anchor'];
    if ('anchor' in e) {
      if (!isObj(a)) out.push(wrongType(ptr(p, 'anchor'), 'an object {seq, entryHash}', a));
      else {
        closedMembers(a, ptr(p, 'anchor'), ['seq', 'entryHash'], [], out);
        if (!(Number.isSafeInteger(a['seq']) && (a['seq'] as number) >= 0))
          out.push(wrongType(ptr(p, 'anchor', 'seq'), 'a non-negative integer', a['seq']));
        if (!(typeof a['entryHash'] === 'string' && HASH_RE.test(a['entryHash'])))
          out.push(wrongType(ptr(p, 'anchor', 'entryHash'), 'a hash string', a['entryHash']));
      }
    }
  }
}

/** Types of the pins that are present; absence is the pin rule's business (RPR-TG-015). */
function checkPinTypes(pins: Obj, p: string, out: Finding[]): void {
  closedMembers(pins, p, [], [...PIN_MEMBERS, 'embeddingVersion'], out);
  for (const m of ['modelId', 'modelVersion', 'embeddingVersion'])
    if (Object.hasOwn(pins, m) && !isNonEmptyString(pins[m]))
      out.push(wrongType(ptr(p, m), 'a non-empty string', pins[m]));
  if ('promptHash' in pins && !(typeof pins['promptHash'] === 'string' && HASH_RE.test(pins['promptHash'])))
    out.push(wrongType(ptr(p, 'promptHash'), 'a hash string', pins['promptHash']));
  if ('epsilon' in pins && !(isFiniteNumber(pins['epsilon']) && pins['epsilon'] >= 0))
    out.push(wrongType(ptr(p, 'epsilon'), 'a non-negative number', pins['epsilon']));
  const ip = pins['inferenceParams'];
  if ('inferenceParams' in pins) {
    if (!isObj(ip)) out.push(wrongType(ptr(p, 'inferenceParams'), 'an object {temperature, topP, seed}', ip));
    else {
      closedMembers(ip, ptr(p, 'inferenceParams'), [], [...PARAM_MEMBERS, 'maxTokens'], out);
      if (Object.hasOwn(ip, 'temperature') && !(isFiniteNumber(ip['temperature']) && ip['temperature'] >= 0))
        out.push(wrongType(ptr(p, 'inferenceParams', 'temperature'), 'a non-negative number', ip['temperature']));
      // Nucleus sampling keeps a share of the probability mass: a topP above 1 names no distribution.
      if (Object.hasOwn(ip, 'topP') && !(isFiniteNumber(ip['topP']) && ip['topP'] >= 0 && ip['topP'] <= 1))
        out.push(wrongType(ptr(p, 'inferenceParams', 'topP'), 'a number from 0 to 1', ip['topP']));
      for (const m of ['seed', 'maxTokens'])
        if (Object.hasOwn(ip, m) && !(Number.isSafeInteger(ip[m]) && (ip[m] as number) >= 0))
          out.push(wrongType(ptr(p, 'inferenceParams', m), 'a non-negative integer', ip[m]));
    }
  }
}
