import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Report } from '../../shared/report.js';
import { runBytes } from '../../app/engine/run.js';
import type { EngineOptions } from '../../app/kinds/types.js';
import { sampleSupportFiles } from '../../app/kinds/nemosyne/samples.js';

/** A temp dir holding the example kernel adapter and profile registry. */
export function supportDir(): { dir: string; adapter: string; profiles: string; flags: EngineOptions } {
  const dir = mkdtempSync(join(tmpdir(), 'reprise-nemosyne-'));
  for (const f of sampleSupportFiles()) writeFileSync(join(dir, f.name), f.bytes);
  const adapter = join(dir, 'kernel-adapter.mjs');
  const profiles = join(dir, 'profiles.json');
  return { dir, adapter, profiles, flags: { kernelAdapter: adapter, profiles } };
}

export function verify(bytes: Buffer, options: EngineOptions = {}, path = 'package.nemosyne'): Promise<Report> {
  return runBytes(path, bytes, 'verify', options);
}

export const rules = (r: Report) => r.findings.map((f) => f.rule);
