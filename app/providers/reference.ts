/**
 * `reprise.reference`: the offline, deterministic reference language model
 * (docs/reference-provider.md gives the algorithm precisely enough to re-implement).
 *
 * Its output is a pure function of (model id, quantization, prompt, materials, pipeline,
 * seed, temperature, topP, maxTokens, compute shape). Weights and hidden states come from
 * SHA-256; logits are dot products whose *reduction order* is fixed by the compute shape
 * (advisor, arity, tensor type), so another shape moves the low bits of every
 * log-probability, as accelerators do; another model version changes the weights and so
 * the text itself.
 */
import { canonicalizeValue } from '../core/jcs.js';
import { sha256 } from '../core/hash.js';
import { unavailable } from '../core/findings.js';
import type { ComputeShape, ExecutionRequest, ExecutionResult, Provider, ProviderEntry } from './types.js';

export const REFERENCE_PROVIDER_ID = 'reprise.reference';
export const REFERENCE_MODELS = ['ref-1', 'ref-2'] as const;
export const REFERENCE_QUANTIZATIONS = ['fp32', 'int8'] as const;
export const REFERENCE_ADVISORS = ['advisor.cpu_v1', 'advisor.npu_v1'] as const;
/**
 * The arities the reference model implements. Each of the 16 shapes they make with the
 * advisors and tensor types reduces in its own order (a test checks that all 16 outputs
 * differ); a wider arity would equal a narrower one on its 16-dimensional vectors.
 */
export const REFERENCE_ARITIES = [1, 2, 4, 8] as const;
export const REFERENCE_TENSOR_TYPES = ['fp32', 'fp64'] as const;

/** Hidden width: one SHA-256 digest gives 16 big-endian uint16 values. */
const D = 16;

export const VOCAB: readonly string[] = [
  '<eos>',
  'the',
  'replay',
  'dump',
  'kernel',
  'seed',
  'model',
  'frozen',
  'hash',
  'chain',
  'outcome',
  'prompt',
  'material',
  'pipeline',
  'expression',
  'provider',
  'shape',
  'tensor',
  'arity',
  'advisor',
  'trust',
  'key',
  'signature',
  'verified',
  'drift',
  'audit',
  'evidence',
  'reviewer',
  'locked',
  'environment',
  'buffer',
  'snapshot',
  'decision',
  'is',
  'was',
  'and',
  'of',
  'to',
  'in',
  'under',
  'with',
  'not',
  'deterministic',
  'restored',
  'compared',
  'recorded',
  'replayed',
  'matches',
  'diverges',
  'every',
  'condition',
  'bound',
  'output',
  'input',
  'quantized',
  'temperature',
  'token',
  'score',
  'context',
  'window',
  'abort',
  'pass',
  'fail',
  'unavailable',
];

/** 16 values in [-1, 1] from one SHA-256 digest (big-endian uint16 / 65535 * 2 - 1). */
function unitVector(label: string | Buffer): number[] {
  const d = sha256(label);
  const out: number[] = [];
  for (let i = 0; i < D; i++) out.push((d.readUInt16BE(i * 2) / 65535) * 2 - 1);
  return out;
}

const weightCache = new Map<string, number[][]>();

/** W[j][k] for token j: row j is unitVector("reprise.reference|<modelId>|w|<j>"), int8 rounds to k/127. */
export function weights(modelId: string, quantization: string): number[][] {
  const key = `${modelId}\u0000${quantization}`;
  let w = weightCache.get(key);
  if (!w) {
    w = VOCAB.map((_, j) => {
      const row = unitVector(`reprise.reference|${modelId}|w|${j}`);
      return quantization === 'int8' ? row.map((x) => Math.round(x * 127) / 127) : row;
    });
    weightCache.set(key, w);
  }
  return w;
}

/**
 * The dot product of `a` and `b` in the order the compute shape prescribes.
 * fp32: every product and every sum is rounded to binary32 (Math.fround); fp64: no rounding.
 * advisor.cpu_v1: `arity` lanes, product k goes to lane k mod arity (in k order), then the
 * lanes are summed left to right. advisor.npu_v1: blocks of `arity` consecutive products
 * summed left to right, then the block sums reduced as a butterfly tree: element i is added
 * to element i + ceil(L/2) of a level of L, an unpaired one carried up. (Adjacent pairs
 * would make arity 2's blocks the tree's first level, and arity 1 and 2 identical.)
 */
export function dot(a: readonly number[], b: readonly number[], shape: ComputeShape): number {
  const r = shape.tensorType === 'fp32' ? Math.fround : (x: number) => x;
  const n = a.length;
  const arity = Math.max(1, shape.arity);
  const prods: number[] = [];
  for (let k = 0; k < n; k++) prods.push(r(r(a[k]!) * r(b[k]!)));
  if (shape.advisor === 'advisor.npu_v1') {
    let level: number[] = [];
    for (let s = 0; s < n; s += arity) {
      let acc = 0;
      for (let k = s; k < Math.min(n, s + arity); k++) acc = r(acc + prods[k]!);
      level.push(acc);
    }
    while (level.length > 1) {
      const half = Math.ceil(level.length / 2);
      const next: number[] = [];
      for (let i = 0; i < half; i++) next.push(i + half < level.length ? r(level[i]! + level[i + half]!) : level[i]!);
      level = next;
    }
    return level[0] ?? 0;
  }
  const lanes = new Array<number>(arity).fill(0);
  for (let k = 0; k < n; k++) lanes[k % arity] = r(lanes[k % arity]! + prods[k]!);
  let acc = 0;
  for (const l of lanes) acc = r(acc + l);
  return acc;
}

/** Uniform in [0, 1): the first 53 bits of SHA-256("reprise.reference|rng|<seed>|<step>"). */
export function uniform(seed: number, step: number): number {
  const d = sha256(`reprise.reference|rng|${seed}|${step}`);
  const hi = d.readUInt32BE(0) >>> 5; // 27 bits
  const lo = d.readUInt32BE(4) >>> 6; // 26 bits
  return (hi * 67108864 + lo) / 9007199254740992;
}

export interface ReferenceOutput {
  logprobs: number[];
  score: number;
  text: string;
  tokens: number[];
}

/** The reference model itself (pure). */
export function generate(req: ExecutionRequest): ReferenceOutput {
  const W = weights(req.modelId, req.quantizationProfile);
  const ctx = sha256(
    canonicalizeValue({
      materials: req.materials.map((m) => m.hash),
      modelId: req.modelId,
      pipeline: req.pipeline.hash,
      prompt: req.prompt.hash,
    }),
  ).toString('hex');
  const { temperature, topP, maxTokens } = req.parameters;
  const tokens: number[] = [];
  const logprobs: number[] = [];
  let prev = 0;
  for (let t = 0; t < maxTokens; t++) {
    const h = unitVector(`reprise.reference|h|${ctx}|${t}|${prev}`);
    const logits = W.map((row) => dot(row, h, req.computeShape) * 4);
    // A temperature so small that a logit divided by it overflows (5e-324) is taken as 0: its
    // limit is the argmax, where the overflowed softmax would give NaN and no score at all.
    const divided = temperature > 0 ? logits.map((x) => x / temperature) : logits;
    const greedy = temperature <= 0 || !divided.every(Number.isFinite);
    const scaled = greedy ? logits : divided;
    let max = -Infinity;
    for (const x of scaled) if (x > max) max = x;
    const exps = scaled.map((x) => Math.exp(x - max));
    let sum = 0;
    for (const e of exps) sum += e;
    const probs = exps.map((e) => e / sum);
    let choice: number;
    if (greedy) {
      choice = 0;
      for (let j = 1; j < probs.length; j++) if (probs[j]! > probs[choice]!) choice = j;
    } else {
      const order = probs.map((_, j) => j).sort((x, y) => probs[y]! - probs[x]! || x - y);
      const kept: number[] = [];
      let cum = 0;
      for (const j of order) {
        kept.push(j);
        cum += probs[j]!;
        if (cum >= topP) break;
      }
      let keptSum = 0;
      for (const j of kept) keptSum += probs[j]!;
      const u = uniform(req.seed, t) * keptSum;
      let acc = 0;
      choice = kept[kept.length - 1]!;
      for (const j of kept) {
        acc += probs[j]!;
        if (u < acc) {
          choice = j;
          break;
        }
      }
    }
    tokens.push(choice);
    logprobs.push(Math.log(probs[choice]!));
    if (choice === 0) break;
    prev = choice;
  }
  let total = 0;
  for (const l of logprobs) total += l;
  return {
    logprobs,
    score: logprobs.length ? total / logprobs.length : 0,
    text: tokens
      .filter((t) => t !== 0)
      .map((t) => VOCAB[t])
      .join(' '),
    tokens,
  };
}

export function referenceEntry(): ProviderEntry {
  const shapes: ComputeShape[] = [];
  for (const advisor of REFERENCE_ADVISORS)
    for (const arity of REFERENCE_ARITIES)
      for (const tensorType of REFERENCE_TENSOR_TYPES) shapes.push({ advisor, arity, tensorType });
  return {
    providerId: REFERENCE_PROVIDER_ID,
    kind: 'reference',
    models: [
      { modelId: 'ref-1', quantizationProfiles: ['fp32', 'int8'], capacitySnapshot: { contextWindow: 4096 } },
      { modelId: 'ref-2', quantizationProfiles: ['fp32', 'int8'], capacitySnapshot: { contextWindow: 8192 } },
    ],
    computeShapes: shapes,
  };
}

export class ReferenceProvider implements Provider {
  constructor(readonly entry: ProviderEntry) {}
  ensureAvailable(modelId: string) {
    const known = (REFERENCE_MODELS as readonly string[]).includes(modelId);
    return Promise.resolve(
      known
        ? []
        : [
            unavailable(
              'RDS-LOCK-003',
              `the reference implementation has no model ${modelId} (it knows ${REFERENCE_MODELS.join(', ')})`,
              { pointer: '/lockedProviderInfo/modelId', expected: modelId, actual: null },
            ),
          ],
    );
  }
  execute(req: ExecutionRequest): Promise<ExecutionResult> {
    const shapeOk =
      (REFERENCE_ADVISORS as readonly string[]).includes(req.computeShape.advisor) &&
      (REFERENCE_TENSOR_TYPES as readonly string[]).includes(req.computeShape.tensorType) &&
      (REFERENCE_ARITIES as readonly number[]).includes(req.computeShape.arity);
    const quantOk = (REFERENCE_QUANTIZATIONS as readonly string[]).includes(req.quantizationProfile);
    if (!shapeOk || !quantOk) {
      return Promise.resolve({
        ok: false,
        findings: [
          unavailable('RDS-F004', 'the reference implementation cannot run this quantization or compute shape', {
            expected: 'a shape and quantization the reference model implements',
            actual: `${req.quantizationProfile} ${req.computeShape.advisor}/${req.computeShape.arity}/${req.computeShape.tensorType}`,
          }),
        ],
      });
    }
    const out = generate(req);
    return Promise.resolve({
      ok: true,
      expression: { logprobs: out.logprobs, score: out.score, text: out.text, tokens: out.tokens },
    });
  }
}
