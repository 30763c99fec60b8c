/**
 * A module kernel adapter may throw anything and answer with anything a JavaScript value can
 * hold. Whatever it is, the digest is unavailable (AdapterError, RPR-NEM-050) with words
 * that say why, never an internal error: a kernel computing the mean of an empty column
 * answers NaN, and a null thrown is still a failure of the adapter.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AdapterError, runAdapter } from '../../app/kinds/nemosyne/kernel-adapter.js';

const dir = mkdtempSync(join(tmpdir(), 'reprise-adapter-values-'));
/** A restored state of every member the digest root has (kernel-adapter.ts STATE_MEMBERS), `analytical` its analyticalState. */
const state = (analytical: string) =>
  `{ datasetFingerprint: 'a', immutableDatasetFingerprint: 'b', kernelVersion: 'k', analyticalState: ${analytical}, ${[
    'eventHashes',
    'resultHashes',
    'structureHashes',
    'observationHashes',
    'findingHashes',
    'annotationHashes',
    'discoveryEpisodeHashes',
    'nilOutcomeHashes',
  ]
    .map((k) => `${k}: []`)
    .join(', ')} }`;
const STATE = state('{}');
const request = {
  formatVersion: 3 as const,
  kernelVersion: 'k',
  manifest: {},
  packagePath: join(dir, 'none.nemosyne'),
};

function adapter(name: string, body: string): string {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `export function restore() {\n${body}\n}\n`);
  return file;
}

const cases: [string, string, RegExp][] = [
  ['throw-null', 'throw null;', /failed: it threw null/],
  ['reject-undefined', 'return Promise.reject(undefined);', /failed: it threw undefined/],
  ['throw-string', "throw 'no kernel';", /failed: it threw "no kernel"/],
  ['getter', `return { get kernelVersion() { throw new Error('boom'); }, state: ${STATE} };`, /no JSON data: boom/],
  ['nan', `return { kernelVersion: 'k', state: ${state('{ mean: NaN }')} };`, /no JSON data: mean is NaN/],
  ['bigint', `return { kernelVersion: 'k', state: ${state('{ n: 1n }')} };`, /no JSON data: n is bigint/],
  ['undefined', `return { kernelVersion: 'k', state: ${state('{ u: undefined }')} };`, /no JSON data: u is undefined/],
  ['cycle', `const s = ${STATE}; s.analyticalState.self = s; return { kernelVersion: 'k', state: s };`, /no JSON data/],
];

describe('a module kernel adapter that throws or answers what JSON cannot hold: unavailable, said', () => {
  it.each(cases)('%s', async (name, body, said) => {
    const run = runAdapter(adapter(name, body), request);
    await expect(run).rejects.toBeInstanceOf(AdapterError);
    await expect(run).rejects.toThrow(said);
  });

  it('an answer of JSON data is taken as it is', async () => {
    const r = await runAdapter(adapter('good', `return { kernelVersion: 'k', state: ${STATE} };`), request);
    expect(r.kernelVersion).toBe('k');
    expect(r.state['eventHashes']).toEqual([]);
  });
});
