/**
 * The reference model's outputs for the sample inputs are pinned: an accidental change to
 * its algorithm (docs/reference-provider.md) breaks these hashes. If the algorithm is
 * changed on purpose, the docs, the samples and these pins change together.
 */
import { describe, expect, it } from 'vitest';
import { hashBytes, hashValue } from '../../app/core/hash.js';
import {
  dot,
  generate,
  ReferenceProvider,
  referenceEntry,
  REFERENCE_ADVISORS,
  REFERENCE_ARITIES,
  uniform,
  weights,
} from '../../app/providers/reference.js';
import type { ExecutionRequest } from '../../app/providers/types.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { sampleSpec } from '../../app/kinds/replay-dump/examples.js';

const base: ExecutionRequest = {
  modelId: 'ref-1',
  quantizationProfile: 'fp32',
  computeShape: { advisor: 'advisor.cpu_v1', arity: 1, tensorType: 'fp32' },
  seed: 42,
  parameters: { maxTokens: 12, temperature: 0.7, topP: 0.9 },
  prompt: { hash: hashBytes('p'), mediaType: 'text/plain', text: 'p' },
  pipeline: { hash: hashValue({ steps: [] }), mediaType: 'application/json', json: { steps: [] } },
  materials: [],
};

const PINNED: [string, ExecutionRequest, number[], number, string][] = [
  [
    'ref-1 cpu/1/fp32',
    base,
    [13, 46, 44, 46, 19, 13, 38, 37, 12, 57, 10, 13],
    -1.6341029152412025,
    'sha256:38ee5f9754cf2aea83042c6e25ec96935c7e92614148b8956a4c937a495ba4f1',
  ],
  [
    'ref-2',
    { ...base, modelId: 'ref-2' },
    [51, 60, 11, 55, 4, 47, 23, 7, 3, 41, 52, 37],
    -1.351547611334522,
    'sha256:90dc17de14b538eda9d6cbc2d45feaf3847e330df4622ae905704fb99a41d0b1',
  ],
  [
    'int8',
    { ...base, quantizationProfile: 'int8' },
    [13, 46, 44, 46, 19, 13, 38, 37, 12, 57, 10, 13],
    -1.6417973215549266,
    'sha256:ddeb7035fd905ce9727565e779bf1337094a62cc45932bee6d5d4c1c222445fd',
  ],
  [
    'cpu/4/fp32',
    { ...base, computeShape: { advisor: 'advisor.cpu_v1', arity: 4, tensorType: 'fp32' } },
    [13, 46, 44, 46, 19, 13, 38, 37, 12, 57, 10, 13],
    -1.6341020421669414,
    'sha256:9b0bb25fa9f18393203cf8f58255a9e68972718f6671c7b03dc546255c09a60f',
  ],
  [
    'npu/8/fp32',
    { ...base, computeShape: { advisor: 'advisor.npu_v1', arity: 8, tensorType: 'fp32' } },
    [13, 46, 44, 46, 19, 13, 38, 37, 12, 57, 10, 13],
    -1.6341011676620754,
    'sha256:c1955a8d0a694ec154648ade5ae3791db3847702d8bd1d35c3b1bc6cebaabedf',
  ],
  [
    'npu/1/fp32',
    { ...base, computeShape: { advisor: 'advisor.npu_v1', arity: 1, tensorType: 'fp32' } },
    [13, 46, 44, 46, 19, 13, 38, 37, 12, 57, 10, 13],
    -1.6341013915416522,
    'sha256:63743b79418b826dd2d7c2944266aafa0be40e23b102aaa77e4d0b57e55149fe',
  ],
  [
    'npu/2/fp32',
    { ...base, computeShape: { advisor: 'advisor.npu_v1', arity: 2, tensorType: 'fp32' } },
    [13, 46, 44, 46, 19, 13, 38, 37, 12, 57, 10, 13],
    -1.6341002945556244,
    'sha256:d3fce64e7941741a0c6962126fc9b04b3aeaa70ed36cb4fc6fd67a50adccb68b',
  ],
  [
    'cpu/1/fp64',
    { ...base, computeShape: { advisor: 'advisor.cpu_v1', arity: 1, tensorType: 'fp64' } },
    [13, 46, 44, 46, 19, 13, 38, 37, 12, 57, 10, 13],
    -1.634101518041485,
    'sha256:361ed0e33c38e6a551e4d81ddb7566e9e4775bab9d9ca7c8dbf77f66acd8fe18',
  ],
  [
    'greedy',
    { ...base, parameters: { ...base.parameters, temperature: 0 } },
    [12, 17, 50, 30, 53, 40, 57, 47, 15, 62, 13, 42],
    -0.6062703853686588,
    'sha256:c1d09c09a75a4ebab4e20383ff9569e4d15d68812a695926349d7a84247de3db',
  ],
  [
    'seed 7',
    { ...base, seed: 7 },
    [13, 46, 44, 46, 19, 13, 38, 37, 57, 6, 18, 18],
    -1.6341029152412025,
    'sha256:3124282fbc70f81ac248d8feef5986dae224ad651597c651e7769d883e7ce13b',
  ],
];

describe('reprise.reference (pinned outputs)', () => {
  for (const [label, req, tokens, firstLogprob, hash] of PINNED) {
    it(label, () => {
      const out = generate(req);
      expect(out.tokens).toEqual(tokens);
      expect(out.logprobs[0]).toBe(firstLogprob);
      expect(hashValue(out)).toBe(hash);
    });
  }

  it('the sample dump records the pinned expression and outcome', async () => {
    const m = await buildDump(sampleSpec(), sampleSigner('active'));
    expect((m['buffers'] as { expression: string }).expression).toBe(
      'sha256:16e9708fe66663b929778c5c1696408979fdf8dd0a74945386e86c235695a3e6',
    );
    expect(m['executionOutcomeHash']).toBe('sha256:bc3833b16ef9dfc9f67d870e58b7b7d1908d778f99814dc877088cdbb9018ca1');
  });

  // The spec: another arity or tensor type changes the reduction order, so outputs move.
  it('each of the 16 shapes it implements gives its own output, for every sample request', () => {
    for (const [, req] of PINNED) {
      const seen = new Map<string, string>();
      for (const advisor of REFERENCE_ADVISORS) {
        for (const arity of REFERENCE_ARITIES) {
          for (const tensorType of ['fp32', 'fp64']) {
            const shape = `${advisor}/${arity}/${tensorType}`;
            const h = hashValue(generate({ ...req, computeShape: { advisor, arity, tensorType } }));
            expect(seen.get(h), `${shape} equals ${seen.get(h)}`).toBeUndefined();
            seen.set(h, shape);
          }
        }
      }
      expect(seen.size).toBe(16);
    }
  });

  it('refuses a shape it does not implement (RDS-F004), arity 16 included', async () => {
    const r = await new ReferenceProvider(referenceEntry()).execute({
      ...base,
      computeShape: { advisor: 'advisor.cpu_v1', arity: 16, tensorType: 'fp32' },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.findings.map((f) => f.rule)).toEqual(['RDS-F004']);
  });

  it('takes a temperature whose quotients overflow as 0 (the argmax), never a score of NaN', () => {
    const at = (temperature: number) => generate({ ...base, parameters: { ...base.parameters, temperature } });
    const tiny = at(5e-324);
    expect(Number.isFinite(tiny.score)).toBe(true);
    expect(tiny).toEqual(at(0));
    // Small but finite quotients still sample: the limit applies only where the division overflows.
    expect(Number.isFinite(at(1e-300).score)).toBe(true);
  });

  it('is a pure function: the same request twice gives the same output', () => {
    expect(generate(base)).toEqual(generate(base));
  });

  it('reduction order depends on the shape; fp32 rounds every step', () => {
    const a = [1, 1, 1, 1];
    const b = [1e16, 1, -1e16, 0];
    const r1 = dot(a, b, { advisor: 'advisor.cpu_v1', arity: 1, tensorType: 'fp64' });
    const r2 = dot(a, b, { advisor: 'advisor.cpu_v1', arity: 2, tensorType: 'fp64' });
    expect(r1).toBe(0); // ((1e16 + 1) - 1e16): the 1 is absorbed
    expect(r2).toBe(1); // lanes (1e16 - 1e16) and (1 + 0)
    expect(Math.fround(dot(a, b, { advisor: 'advisor.npu_v1', arity: 2, tensorType: 'fp32' }))).toBe(
      dot(a, b, { advisor: 'advisor.npu_v1', arity: 2, tensorType: 'fp32' }),
    );
    expect(weights('ref-1', 'int8')[1]!.every((w) => Number.isInteger(Math.round(w * 127 * 1e6) / 1e6))).toBe(true);
    expect(uniform(42, 0)).toBeGreaterThanOrEqual(0);
    expect(uniform(42, 0)).toBeLessThan(1);
    expect(uniform(42, 0)).toBe(uniform(42, 0));
  });
});
