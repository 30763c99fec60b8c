/**
 * The provider registry: what this machine offers to replay on. Built in: `reprise.reference`.
 * `--providers FILE` replaces the built-in registry with the file's complete list
 * (`{"type": "reprise.providers/v1", "providers": [ProviderEntry…]}`), so a registry can
 * deliberately lack a model. A defective file is refused whole (ProviderRegistryError,
 * exit 3), never half-used.
 *
 * `checkEnvironment` is the fail-closed environment emulation of a replay (RDS-LOCK-003,
 * RDS-F004): provider, model, quantization, capacity and compute shape must all be
 * offered exactly, or the replay aborts `unavailable` before anything runs.
 */
import type { Finding, JsonValue } from '../../shared/report.js';
import { UsageError } from '../core/errors.js';
import { readFailure, readRegularFile } from '../core/files.js';
import { unavailable } from '../core/findings.js';
import { isPlainObject as isObj, memoFile } from '../core/closed.js';
import { hashValue } from '../core/hash.js';
import { canonicalizeValue, decodeJsonBytes, JcsError, parseCanonical } from '../core/jcs.js';
import { OpenAiCompatibleProvider } from './openai-compatible.js';
import { ReferenceProvider, referenceEntry } from './reference.js';
import { shapeKey, type ComputeShape, type ModelOffer, type Provider, type ProviderEntry } from './types.js';

export const PROVIDERS_TYPE = 'reprise.providers/v1';

/** A defective --providers file: the user's to fix (exit 3, one line). */
export class ProviderRegistryError extends UsageError {
  constructor(message: string) {
    super(message, 'bad-file');
    this.name = 'ProviderRegistryError';
  }
}

const BUILTIN = '(built-in)';

export class ProviderRegistry {
  private readonly byId: Map<string, ProviderEntry>;
  constructor(
    readonly entries: readonly ProviderEntry[],
    readonly source: string,
  ) {
    this.byId = new Map(entries.map((e) => [e.providerId, e]));
  }
  /**
   * How a report names this registry: never by its path, which differs with how --providers
   * was spelled while the registry's content (all a verdict depends on) does not, and a
   * report's digest must not change with the spelling.
   */
  get named(): string {
    return this.source === BUILTIN ? 'the built-in provider registry' : 'the provider registry given (--providers)';
  }
  /**
   * What a report records of the registry a replay ran under: `(built-in)`, or the hash of
   * its content (`H(registry)`), never its path, for the reason `named` gives.
   */
  get identity(): string {
    return this.source === BUILTIN ? BUILTIN : hashValue(registryDocument(this));
  }
  entry(providerId: string): ProviderEntry | undefined {
    return this.byId.get(providerId);
  }
  provider(providerId: string): Provider | undefined {
    const e = this.byId.get(providerId);
    if (!e) return undefined;
    return e.kind === 'reference' ? new ReferenceProvider(e) : new OpenAiCompatibleProvider(e);
  }
}

export function builtinRegistry(): ProviderRegistry {
  return new ProviderRegistry([referenceEntry()], BUILTIN);
}

export function registryDocument(reg: ProviderRegistry): JsonValue {
  return { providers: reg.entries as unknown as JsonValue, type: PROVIDERS_TYPE };
}

/** Parses and checks a registry file; any defect refuses the whole file. */
export function parseProviderRegistry(bytes: Uint8Array, source: string): ProviderRegistry {
  const bad = (why: string): never => {
    throw new ProviderRegistryError(`provider registry ${source} refused: ${why}`);
  };
  let doc: unknown;
  try {
    doc = parseCanonical(decodeJsonBytes(bytes)).value;
  } catch (e) {
    return bad(e instanceof JcsError ? e.message : String(e));
  }
  if (!isObj(doc)) return bad('not a JSON object');
  for (const k of Object.keys(doc)) if (k !== 'type' && k !== 'providers') bad(`unknown member "${k}"`);
  if (doc['type'] !== PROVIDERS_TYPE) bad(`type must be "${PROVIDERS_TYPE}"`);
  if (!Array.isArray(doc['providers'])) bad('providers must be an array');
  const seen = new Set<string>();
  const entries = (doc['providers'] as unknown[]).map((p, i): ProviderEntry => {
    const at = `/providers/${i}`;
    if (!isObj(p)) return bad(`${at} is not an object`);
    for (const k of Object.keys(p))
      if (!['providerId', 'kind', 'models', 'computeShapes', 'baseUrl', 'timeoutMs'].includes(k))
        bad(`${at} has unknown member "${k}"`);
    const id = p['providerId'];
    if (typeof id !== 'string' || id === '') return bad(`${at}/providerId must be a non-empty string`);
    if (seen.has(id)) bad(`provider ${id} is listed twice`);
    seen.add(id);
    const kind = p['kind'];
    if (kind !== 'reference' && kind !== 'openai-compatible')
      return bad(`${at}/kind must be "reference" or "openai-compatible"`);
    if (!Array.isArray(p['models'])) return bad(`${at}/models must be an array`);
    // A model offered twice would be matched on its first offer only: ambiguous, so refused.
    const modelIds = new Set<string>();
    const models = (p['models'] as unknown[]).map((m, j): ModelOffer => {
      const mat = `${at}/models/${j}`;
      if (!isObj(m)) return bad(`${mat} is not an object`);
      for (const k of Object.keys(m))
        if (!['modelId', 'quantizationProfiles', 'capacitySnapshot'].includes(k))
          bad(`${mat} has unknown member "${k}"`);
      if (typeof m['modelId'] !== 'string' || m['modelId'] === '')
        return bad(`${mat}/modelId must be a non-empty string`);
      if (modelIds.has(m['modelId'])) bad(`${mat}: provider ${id} offers model ${m['modelId']} twice`);
      modelIds.add(m['modelId']);
      const q = m['quantizationProfiles'];
      if (!Array.isArray(q) || !q.every((x) => typeof x === 'string'))
        return bad(`${mat}/quantizationProfiles must be an array of strings`);
      if (!isObj(m['capacitySnapshot'])) return bad(`${mat}/capacitySnapshot must be an object`);
      return {
        modelId: m['modelId'],
        quantizationProfiles: q as string[],
        capacitySnapshot: m['capacitySnapshot'] as { [k: string]: JsonValue },
      };
    });
    if (!Array.isArray(p['computeShapes'])) return bad(`${at}/computeShapes must be an array`);
    const computeShapes = (p['computeShapes'] as unknown[]).map((s, j): ComputeShape => {
      if (
        !isObj(s) ||
        typeof s['advisor'] !== 'string' ||
        !Number.isInteger(s['arity']) ||
        typeof s['tensorType'] !== 'string' ||
        Object.keys(s).length !== 3
      ) {
        return bad(`${at}/computeShapes/${j} must be {advisor, arity, tensorType}`);
      }
      return { advisor: s['advisor'], arity: s['arity'] as number, tensorType: s['tensorType'] };
    });
    const entry: ProviderEntry = { providerId: id, kind, models, computeShapes };
    if (kind === 'reference') {
      // The reference model runs here: a capacity it does not have cannot be offered for it
      // (a shape or quantization it lacks is refused when it runs, RDS-F004).
      const builtin = new Map(referenceEntry().models.map((m) => [m.modelId, canonicalizeValue(m.capacitySnapshot)]));
      models.forEach((m, j) => {
        const real = builtin.get(m.modelId);
        if (real !== undefined && real !== canonicalizeValue(m.capacitySnapshot)) {
          bad(
            `${at}/models/${j}: the reference model ${m.modelId} has capacitySnapshot ${real}, not ${canonicalizeValue(m.capacitySnapshot)}`,
          );
        }
      });
    }
    if (kind === 'openai-compatible') {
      const url = p['baseUrl'];
      if (typeof url !== 'string' || !/^https?:\/\/[^\s/]+/.test(url)) bad(`${at}/baseUrl must be an http(s) URL`);
      entry.baseUrl = url as string;
      if (p['timeoutMs'] !== undefined) {
        const t = p['timeoutMs'];
        if (!Number.isInteger(t) || (t as number) < 1 || (t as number) > 600_000)
          bad(`${at}/timeoutMs must be an integer from 1 to 600000`);
        entry.timeoutMs = t as number;
      }
    } else if (p['baseUrl'] !== undefined || p['timeoutMs'] !== undefined)
      bad(`${at}: baseUrl and timeoutMs belong to openai-compatible providers`);
    return entry;
  });
  return new ProviderRegistry(entries, source);
}

const loadCached = memoFile((path: string): Promise<ProviderRegistry> =>
  readRegularFile(path).then(
    (bytes) => parseProviderRegistry(bytes, path),
    (e: unknown) => {
      throw new ProviderRegistryError(`cannot read provider registry ${path}: ${readFailure(e)}`);
    },
  ),
);

/** The registry for `--providers PATH` (parsed once per process), or the built-in one. */
export function loadProviderRegistry(path: string | undefined): Promise<ProviderRegistry> {
  if (!path) return Promise.resolve(builtinRegistry());
  return loadCached(path);
}

/** What a replay asks for: the locked provider info and compute shape (after any what-if). */
export interface LockedEnvironment {
  providerId: string;
  modelId: string;
  quantizationProfile: string;
  capacitySnapshot: { [key: string]: JsonValue };
  computeShape: ComputeShape;
}

/**
 * Environment emulation, fail-closed: returns the provider when everything locked is
 * offered exactly, otherwise `unavailable` findings and no provider.
 */
export function checkEnvironment(
  reg: ProviderRegistry,
  env: LockedEnvironment,
  substituted: { model?: boolean; shape?: boolean } = {},
): { provider: Provider | null; findings: Finding[] } {
  const findings: Finding[] = [];
  // A what-if substitute is the trainer's choice, not what the dump locked: say which.
  const modelWord = substituted.model ? 'the what-if model' : 'the locked model';
  const shapeWord = substituted.shape ? 'the what-if compute shape' : 'the locked compute shape';
  const entry = reg.entry(env.providerId);
  if (!entry) {
    findings.push(
      unavailable('RDS-LOCK-003', `the locked provider ${env.providerId} is not in ${reg.named}`, {
        pointer: '/lockedProviderInfo/providerId',
        expected: env.providerId,
        actual: reg.entries.map((e) => e.providerId),
      }),
    );
    return { provider: null, findings };
  }
  const model = entry.models.find((m) => m.modelId === env.modelId);
  if (!model) {
    findings.push(
      unavailable('RDS-LOCK-003', `provider ${env.providerId} does not offer ${modelWord} ${env.modelId}`, {
        pointer: '/lockedProviderInfo/modelId',
        expected: env.modelId,
        actual: entry.models.map((m) => m.modelId),
      }),
    );
  } else {
    if (!model.quantizationProfiles.includes(env.quantizationProfile)) {
      findings.push(
        unavailable(
          'RDS-LOCK-003',
          `model ${env.modelId} is not offered with the locked quantization ${env.quantizationProfile}`,
          {
            pointer: '/lockedProviderInfo/quantizationProfile',
            expected: env.quantizationProfile,
            actual: model.quantizationProfiles,
          },
        ),
      );
    }
    const want = canonicalizeValue(env.capacitySnapshot);
    const have = canonicalizeValue(model.capacitySnapshot);
    if (want !== have) {
      findings.push(
        unavailable('RDS-F004', `model ${env.modelId}'s capacity differs from the locked capacity snapshot`, {
          pointer: '/lockedProviderInfo/capacitySnapshot',
          expected: env.capacitySnapshot,
          actual: model.capacitySnapshot,
        }),
      );
    }
  }
  const wantShape = shapeKey(env.computeShape);
  if (!entry.computeShapes.some((s) => shapeKey(s) === wantShape)) {
    findings.push(
      unavailable('RDS-F004', `provider ${env.providerId} does not offer ${shapeWord} ${wantShape}`, {
        pointer: '/computeShape',
        expected: wantShape,
        actual: entry.computeShapes.map(shapeKey),
      }),
    );
  }
  if (findings.length > 0) return { provider: null, findings };
  return { provider: reg.provider(env.providerId)!, findings };
}
