/**
 * The two things TG replay needs from outside its folder, behind small ports:
 * - ConfidencePort: re-run the pinned model for dimension A through a provider of the
 *   provider registry (app/providers, the replay-dump issue), fail-closed.
 * - JournalPort: read anchors with inclusion proofs, append anchored entries, list cases
 *   (app/journal, the evidence-journal issue). See journal-port.ts for the adapter.
 */
import type { Finding, JsonValue } from '../../../shared/report.js';
import { unavailable } from './findings.js';
import { hashValue } from '../../core/hash.js';
import { loadProviderRegistry } from '../../providers/registry.js';
import type { ComputeShape, FrozenArtifact } from '../../providers/types.js';

/** maxTokens when the pins give none (the reference model needs a bound; not a tolerance). */
export const REFERENCE_MAX_TOKENS = 16;

export interface ConfidenceRequest {
  /** The provider that serves the model (`reprise.reference`, or an entry of --providers). */
  modelId: string;
  /** The exact model the provider runs (`ref-1`). */
  modelVersion: string;
  prompt: FrozenArtifact;
  materials: FrozenArtifact[];
  /** What the pipeline artifact hashes: the engine identity that built the prompt. */
  pipeline: { engine: string; engineCmi: string; output: string };
  temperature: number;
  topP: number;
  seed: number;
  maxTokens: number;
  /** Training only: another compute shape than the machine's. */
  computeShape?: ComputeShape;
}

export type ConfidenceResult =
  { ok: true; value: number; modelVersion: string; computeShape: string } | { ok: false; findings: Finding[] };

export interface ConfidencePort {
  confidence(req: ConfidenceRequest, pointer: string): Promise<ConfidenceResult>;
}

/**
 * A from a provider's expression: the reference model gives `score`, the mean
 * log-probability of its tokens, and A = exp(score) (the geometric-mean token
 * probability, in [0, 1]); an HTTP model may answer with the number itself as `text`.
 */
export function confidenceOf(expression: JsonValue): number | null {
  if (typeof expression !== 'object' || expression === null || Array.isArray(expression)) return null;
  const s = expression['score'];
  if (typeof s === 'number' && Number.isFinite(s)) return Math.exp(s);
  const t = expression['text'];
  if (typeof t === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(t)) {
    const n = Number(t);
    return n >= 0 && n <= 1 ? n : null;
  }
  return null;
}

const pipelineHashes = new Map<string, string>();

/** The provider-registry adapter: `--providers FILE` or the built-in `reprise.reference`. */
export function providerConfidencePort(providersPath: string | undefined): ConfidencePort {
  return {
    async confidence(req, pointer) {
      // A defective --providers file is a usage error (ProviderRegistryError, exit 3), never a half-used registry.
      const reg = await loadProviderRegistry(providersPath);
      const entry = reg.entry(req.modelId);
      const provider = reg.provider(req.modelId);
      if (!entry || !provider)
        return {
          ok: false,
          findings: [
            unavailable('RPR-TG-034', `the pinned provider ${req.modelId} is not in ${reg.named}; no substitution`, {
              pointer: `${pointer}/modelId`,
              expected: req.modelId,
              actual: reg.entries.map((e) => e.providerId),
            }),
          ],
        };
      const model = entry.models.find((m) => m.modelId === req.modelVersion);
      const shape = req.computeShape ?? entry.computeShapes[0];
      if (!model || !shape || model.quantizationProfiles.length === 0)
        return {
          ok: false,
          findings: [
            unavailable(
              'RPR-TG-034',
              `provider ${req.modelId} does not offer the pinned model version ${req.modelVersion}; no substitution`,
              {
                pointer: `${pointer}/modelVersion`,
                expected: req.modelVersion,
                actual: entry.models.map((m) => m.modelId),
              },
            ),
          ],
        };
      const live = await provider.ensureAvailable(req.modelVersion);
      if (live.length > 0)
        return { ok: false, findings: live.map((f) => ({ ...f, pointer: `${pointer}/modelVersion` })) };
      const pipelineJson = req.pipeline as unknown as JsonValue;
      const pipelineKey = `${req.pipeline.engine}\u0000${req.pipeline.engineCmi}\u0000${req.pipeline.output}`;
      let pipelineHash = pipelineHashes.get(pipelineKey);
      if (pipelineHash === undefined) pipelineHashes.set(pipelineKey, (pipelineHash = hashValue(pipelineJson)));
      const result = await provider.execute({
        modelId: req.modelVersion,
        quantizationProfile: model.quantizationProfiles[0]!,
        computeShape: shape,
        seed: req.seed,
        parameters: { maxTokens: req.maxTokens, temperature: req.temperature, topP: req.topP },
        prompt: req.prompt,
        pipeline: { hash: pipelineHash, mediaType: 'application/json', json: pipelineJson },
        materials: req.materials,
      });
      if (!result.ok)
        return { ok: false, findings: result.findings.map((f) => ({ ...f, pointer: f.pointer ?? pointer })) };
      const value = confidenceOf(result.expression);
      if (value === null)
        return {
          ok: false,
          findings: [
            unavailable('RPR-TG-034', `provider ${req.modelId} gave no confidence (no numeric score or numeric text)`, {
              pointer,
              expected: 'a score',
              actual: result.expression,
            }),
          ],
        };
      return {
        ok: true,
        value,
        modelVersion: req.modelVersion,
        computeShape: `${shape.advisor}/${shape.arity}/${shape.tensorType}`,
      };
    },
  };
}
