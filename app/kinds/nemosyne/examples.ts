/**
 * `reprise examples`: Nemosyne investigation packages under packages/ (intact V1-V4, one
 * corrupted variant per refusal code and manifest rule, one V3 per consumer binding and
 * resolution outcome), plus the example kernel adapter and the example profile registry
 * (upstream's two requirement profiles; docs/nemosyne-profiles.example.json) that the
 * notes name.
 */
import { samplePackages, sampleSupportFiles } from './samples.js';
import type { ExampleFile, ExampleWriter } from '../types.js';

const FLAGS = '--kernel-adapter packages/kernel-adapter.mjs --profiles packages/profiles.json';

export const packagesWriter: ExampleWriter = {
  name: 'packages',
  build(): ExampleFile[] {
    const files: ExampleFile[] = samplePackages().map((s) => {
      const flagged = s.withFlags
        ? `; with ${FLAGS}: ${s.withFlags.verdict}${s.withFlags.rule ? ' ' + s.withFlags.rule : ''}`
        : '';
      const expect: ExampleFile['expect'] = { verdict: s.expect.verdict, command: 'verify' };
      if (s.expect.rule) expect.rule = s.expect.rule;
      return { path: `packages/${s.name}`, bytes: s.bytes, note: `Nemosyne package: ${s.note}${flagged}`, expect };
    });
    for (const f of sampleSupportFiles()) files.push({ path: `packages/${f.name}`, bytes: f.bytes, note: f.note });
    return files;
  },
};
