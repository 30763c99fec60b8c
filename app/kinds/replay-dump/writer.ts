/**
 * The dump writer: builds a replay dump model from frozen conditions, runs the shadow
 * execution once to obtain the expression (for `reprise.reference`), closes the hash
 * chain (input commitment, outcome hash) and signs it. Used by `reprise examples` and the
 * tests; deterministic for fixed inputs and a fixed key.
 */
import { createPrivateKey } from 'node:crypto';
import type { JsonValue } from '../../../shared/report.js';
import { hashBytes, hashValue, sha256 } from '../../core/hash.js';
import { canonicalizeValue, checkJsonData } from '../../core/jcs.js';
import { signBytes, signerFromPrivateKey, type Signer } from '../../core/keys.js';
import { REFERENCE_PROVIDER_ID, ReferenceProvider, referenceEntry } from '../../providers/reference.js';
import type { ComputeShape, FrozenArtifact, InferenceParameters } from '../../providers/types.js';
import { DUMP_TYPE, FORMAT_VERSION, type DumpModel, type TrustDecisionValue } from './model.js';
import { signedPayload } from './json-encoding.js';

/** PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows. */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** An Ed25519 signer whose private key is the given 32-byte seed. */
export function signerFromSeed(seed: Uint8Array): Signer {
  if (seed.length !== 32) throw new Error('an Ed25519 seed is 32 bytes');
  return signerFromPrivateKey(
    createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' }),
  );
}

/** The documented sample keys: seed = SHA-256("reprise/examples/dumps/<name>"). */
export function sampleSigner(name: 'active' | 'revoked' | 'unknown'): Signer {
  return signerFromSeed(sha256(`reprise/examples/dumps/${name}`));
}

export type ArtifactInput = { mediaType: string; text: string } | { mediaType: string; json: JsonValue };

export interface DumpSpec {
  dumpId: string;
  createdAtUtc: string;
  kernelVersion: string;
  seed: number;
  inferenceParameters: InferenceParameters;
  lockedProviderInfo: {
    providerId: string;
    modelId: string;
    quantizationProfile: string;
    capacitySnapshot: { [k: string]: JsonValue };
    capturedAtUtc: string;
  };
  computeShape: ComputeShape;
  prompt: ArtifactInput;
  pipeline: ArtifactInput & { json: JsonValue };
  materials: ArtifactInput[];
  /** The recorded expression; computed with the reference model when omitted. */
  expression?: JsonValue;
  trust: { decision: TrustDecisionValue; evaluatedAtUtc: string };
}

function frozen(a: ArtifactInput): FrozenArtifact {
  return 'text' in a
    ? { hash: hashBytes(a.text), mediaType: a.mediaType, text: a.text }
    : { hash: hashValue(a.json), mediaType: a.mediaType, json: a.json };
}

function artifactValue(a: FrozenArtifact): JsonValue {
  return a.text !== undefined
    ? { mediaType: a.mediaType, text: a.text }
    : { json: a.json ?? null, mediaType: a.mediaType };
}

/** Re-orders every member canonically (models are plain JSON data). */
export function canonicalOrder(m: DumpModel): DumpModel {
  return JSON.parse(canonicalizeValue(m)) as DumpModel;
}

export async function expressionFor(spec: DumpSpec): Promise<JsonValue> {
  if (spec.expression !== undefined) return spec.expression;
  if (spec.lockedProviderInfo.providerId !== REFERENCE_PROVIDER_ID)
    throw new Error('an expression must be given for providers other than reprise.reference');
  const r = await new ReferenceProvider(referenceEntry()).execute({
    modelId: spec.lockedProviderInfo.modelId,
    quantizationProfile: spec.lockedProviderInfo.quantizationProfile,
    computeShape: spec.computeShape,
    seed: spec.seed,
    parameters: spec.inferenceParameters,
    prompt: frozen(spec.prompt),
    pipeline: frozen(spec.pipeline),
    materials: spec.materials.map(frozen).sort((a, b) => (a.hash < b.hash ? -1 : 1)),
  });
  if (!r.ok) throw new Error(`reference model refused: ${r.findings.map((f) => f.message).join('; ')}`);
  return r.expression;
}

/** H({computeShape, inferenceParameters, kernelVersion, lockedProviderInfo, materials, pipeline, prompt, seed}). */
export function inputHashOf(m: DumpModel): string {
  return hashValue({
    computeShape: m['computeShape'],
    inferenceParameters: m['inferenceParameters'],
    kernelVersion: m['kernelVersion'],
    lockedProviderInfo: m['lockedProviderInfo'],
    materialSnapshotHashSet: m['materialSnapshotHashSet'],
    pipelineDefinitionHash: m['pipelineDefinitionHash'],
    promptArtifactHash: m['promptArtifactHash'],
    seed: m['seed'],
  });
}

/** Recomputes executionOutcomeHash from the model's own members (for writers and tamper samples). */
export function closeChain(m: DumpModel): DumpModel {
  const expr = (m['buffers'] as { expression: string }).expression;
  return canonicalOrder({ ...m, executionOutcomeHash: hashValue({ expressionHash: expr, inputHash: inputHashOf(m) }) });
}

/** Signs the model (everything but "signature") with the signer; sets keyId and trustDecision.keyId. */
export function signModel(m: DumpModel, signer: Signer): DumpModel {
  const { signature: _old, ...rest } = m;
  // Built in memory, not parsed: checked to be JSON data before its canonical bytes are written.
  checkJsonData(rest);
  return canonicalOrder({ ...rest, signature: signBytes(signer, signedPayload(rest)) });
}

/** Builds, closes and signs a dump from its frozen conditions. */
export async function buildDump(spec: DumpSpec, signer: Signer): Promise<DumpModel> {
  const prompt = frozen(spec.prompt);
  const pipeline = frozen(spec.pipeline);
  const materials = spec.materials.map(frozen);
  const expression = frozen({ mediaType: 'application/json', json: await expressionFor(spec) });
  const artifacts: Record<string, JsonValue> = Object.create(null) as Record<string, JsonValue>;
  for (const a of [prompt, pipeline, ...materials, expression]) artifacts[a.hash] = artifactValue(a);
  const materialHashes = [...new Set(materials.map((a) => a.hash))].sort();
  const m = canonicalOrder({
    artifacts,
    buffers: { expression: expression.hash, material: materialHashes, orchestration: prompt.hash },
    computeShape: spec.computeShape,
    createdAtUtc: spec.createdAtUtc,
    dumpId: spec.dumpId,
    executionOutcomeHash: '',
    formatVersion: FORMAT_VERSION,
    inferenceParameters: spec.inferenceParameters,
    kernelVersion: spec.kernelVersion,
    keyId: signer.keyId,
    lockedProviderInfo: spec.lockedProviderInfo,
    materialSnapshotHashSet: materialHashes,
    pipelineDefinitionHash: pipeline.hash,
    promptArtifactHash: prompt.hash,
    seed: spec.seed,
    trustDecision: { decision: spec.trust.decision, evaluatedAtUtc: spec.trust.evaluatedAtUtc, keyId: signer.keyId },
    type: DUMP_TYPE,
  });
  return signModel(closeChain(m), signer);
}
