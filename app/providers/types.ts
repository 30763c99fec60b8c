/**
 * The provider interface: what a replayer needs from "the thing that runs a model".
 *
 * A provider is looked up by `providerId` in a registry (registry.ts). Replay checks the
 * locked environment against the registry's *offer* (`ProviderEntry`) before anything runs
 * (fail-closed: no substitution, no routing, no fallback), then asks the provider to make
 * sure the locked model is really there (`ensureAvailable`), then executes once
 * (`execute`) with the frozen seed, parameters, model, quantization and compute shape.
 *
 * Providers never throw for environmental trouble (server down, timeout, malformed
 * answer): they return `unavailable` findings. Only programming errors throw.
 *
 * Users of this interface: the replay-dump kind (app/kinds/replay-dump/replay.ts) and,
 * later, TG replay profiles. Implementations: `reference.ts` (`reprise.reference`, offline,
 * deterministic) and `openai-compatible.ts` (llama.cpp server, Ollama, vLLM).
 */
import type { Finding, JsonValue } from '../../shared/report.js';

/** The compute shape chosen by IComputeShapeAdvisor (RDS-005): it fixes reduction order. */
export interface ComputeShape {
  advisor: string;
  arity: number;
  tensorType: string;
}

export interface InferenceParameters {
  maxTokens: number;
  temperature: number;
  topP: number;
}

/** A frozen buffer restored from a dump's artifacts (content already hash-checked). */
export interface FrozenArtifact {
  hash: string;
  mediaType: string;
  /** Exactly one of text / json is set. */
  text?: string;
  json?: JsonValue;
}

/** Everything a shadow execution may depend on, and nothing else. */
export interface ExecutionRequest {
  modelId: string;
  quantizationProfile: string;
  computeShape: ComputeShape;
  seed: number;
  parameters: InferenceParameters;
  prompt: FrozenArtifact;
  pipeline: FrozenArtifact;
  materials: FrozenArtifact[];
}

/** The expression (model output) is a JSON value; its hash is H(expression). */
export type ExecutionResult = { ok: true; expression: JsonValue } | { ok: false; findings: Finding[] };

/** One model a provider offers, with the quantizations it can run and its capacity. */
export interface ModelOffer {
  modelId: string;
  quantizationProfiles: string[];
  capacitySnapshot: { [key: string]: JsonValue };
}

export type ProviderKind = 'reference' | 'openai-compatible';

/** One entry of a provider registry file (see docs/reference-provider.md). */
export interface ProviderEntry {
  providerId: string;
  kind: ProviderKind;
  models: ModelOffer[];
  computeShapes: ComputeShape[];
  /** openai-compatible only: base URL, e.g. http://127.0.0.1:8080 (no trailing /v1). */
  baseUrl?: string;
  /** openai-compatible only: per-request timeout in milliseconds (default 30000). */
  timeoutMs?: number;
}

export interface Provider {
  readonly entry: ProviderEntry;
  /**
   * Confirms on the live provider that the locked model is present (for HTTP providers,
   * `GET /v1/models`). Returns `unavailable` findings when it is not, or when the
   * provider cannot be reached; an empty list means "go".
   */
  ensureAvailable(modelId: string): Promise<Finding[]>;
  /** Runs the model once under the frozen conditions. */
  execute(req: ExecutionRequest): Promise<ExecutionResult>;
}

export function shapeKey(s: ComputeShape): string {
  return `${s.advisor}/${s.arity}/${s.tensorType}`;
}
