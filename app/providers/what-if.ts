/**
 * What-if substitutions for training replays (`--what-if model=ID`, `shape=ADVISOR/ARITY/
 * TENSORTYPE`): a different model or compute shape than the one recorded, asked of the
 * provider. They concern the provider, not a format, so the replay-dump and TG kinds both
 * read them from here; a substituted run is labelled in details.whatIf and never passes.
 */
import { UsageError } from '../core/errors.js';
import type { ComputeShape } from './types.js';

export interface WhatIf {
  model?: string;
  shape?: ComputeShape;
}

/** Parses the `--what-if` items (last one of each wins); a malformed item is a usage error. */
export function parseWhatIf(items: readonly string[] | undefined): WhatIf | null {
  if (!items || items.length === 0) return null;
  const w: WhatIf = {};
  for (const it of items) {
    const eq = it.indexOf('=');
    const k = it.slice(0, eq);
    const v = it.slice(eq + 1);
    if (k === 'model' && v) w.model = v;
    else if (k === 'shape') {
      const m = /^([^/]+)\/(\d{1,4})\/([^/]+)$/.exec(v);
      if (!m)
        throw new UsageError(`--what-if shape takes ADVISOR/ARITY/TENSORTYPE (e.g. advisor.cpu_v1/4/fp32), not "${v}"`);
      w.shape = { advisor: m[1]!, arity: Number(m[2]), tensorType: m[3]! };
    } else throw new UsageError(`--what-if takes model=ID or shape=ADVISOR/ARITY/TENSORTYPE, not "${it}"`);
  }
  return w;
}
