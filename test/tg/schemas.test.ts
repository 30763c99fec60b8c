/* eslint-disable @typescript-eslint/no-explicit-any -- the tests edit parsed JSON fixtures freely */
/** The published JSON Schemas accept every example manifest and bundle, and reject what the closed format refuses. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildExamples } from '../../app/examples/index.js';
import { ROOT } from '../helpers/cli.js';

const ajv = new Ajv2020({ allErrors: true, strict: true });
const manifestSchema = ajv.compile(
  JSON.parse(readFileSync(join(ROOT, 'docs', 'schemas', 'tg-replay-manifest.schema.json'), 'utf8')),
);
const bundleSchema = ajv.compile(
  JSON.parse(readFileSync(join(ROOT, 'docs', 'schemas', 'tg-policy-bundle.schema.json'), 'utf8')),
);
let manifests: [string, Record<string, any>][] = [];
let bundle: Record<string, any> = {};

beforeAll(async () => {
  const files = await buildExamples();
  const text = (b: Uint8Array | string) => (typeof b === 'string' ? b : Buffer.from(b).toString('utf8'));
  manifests = files
    .filter((f) => f.path.startsWith('tg/') && f.path.endsWith('manifest.json'))
    .map((f) => [f.path, JSON.parse(text(f.bytes))]);
  bundle = JSON.parse(text(files.find((f) => f.path === 'tg/bundle.json')!.bytes));
});

describe('TG JSON Schemas', () => {
  it('accept every example manifest and the bundle', () => {
    expect(manifests.length).toBeGreaterThanOrEqual(10);
    for (const [path, m] of manifests)
      expect([path, manifestSchema(m), manifestSchema.errors]).toEqual([path, true, null]);
    expect(bundleSchema(bundle)).toBe(true);
    for (const [, m] of manifests) expect(bundleSchema(m['artifacts'][m['policyContext'].bundleHash].json)).toBe(true);
  });
  it('the tg examples are byte-deterministic (fixed keys, timestamps and provider)', async () => {
    const again = (await buildExamples()).filter((f) => f.path.startsWith('tg/'));
    const first = (await buildExamples()).filter((f) => f.path.startsWith('tg/'));
    expect(again.map((f) => [f.path, Buffer.from(f.bytes).toString('base64')])).toEqual(
      first.map((f) => [f.path, Buffer.from(f.bytes).toString('base64')]),
    );
  });
  it('reject unknown members and wrong modes', () => {
    const m = structuredClone(manifests[0]![1]);
    m['extra'] = 1;
    expect(manifestSchema(m)).toBe(false);
    const m2 = structuredClone(manifests[0]![1]);
    m2['executions'][0].replayMode = 'SAMPLED';
    expect(manifestSchema(m2)).toBe(false);
    expect(bundleSchema({ ...bundle, weights: { ...bundle['weights'], X: 0 } })).toBe(false);
  });
});
