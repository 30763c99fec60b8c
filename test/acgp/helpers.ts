/** Helpers for the ACGP tests: hand-made EVALs, and running the engine on bytes. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Finding, Report } from '../../shared/report.js';
import { runBytes } from '../../app/engine/run.js';
import type { EngineOptions } from '../../app/kinds/types.js';

export type Intervention = 'ok' | 'nudge' | 'escalate' | 'block' | 'halt';

/** One evaluated dimension of weight 1 whose score gives the intervention under the baseline thresholds. */
const SCORE: Record<Intervention, number> = { ok: 0.9, nudge: 0.5, escalate: 0.35, block: 0.1, halt: 0.1 };

export interface EvalSpec {
  intervention: Intervention;
  flagged?: boolean;
  pre: number;
  delta: number;
  post: number;
  crossed?: string[];
  ts?: string | null;
  traceId?: string;
  blueprint?: string;
  provider?: string;
}

export function mkEval(s: EvalSpec): Record<string, unknown> {
  const score = SCORE[s.intervention];
  const e: Record<string, unknown> = {
    trace_id: s.traceId ?? 'trace-test',
    blueprint_id: s.blueprint ?? 'finance_qa@2.1',
    governance_tier: 'GT-2',
    ctq_dimensions: { reasoning_quality: { score, weight: 1, status: 'evaluated', contributors: ['x'] } },
    ctq_score: score,
    risk_score: Number((1 - score).toFixed(4)),
    tripwires_triggered: s.intervention === 'halt' ? ['unsafe_tool_call'] : [],
    intervention: s.intervention,
    flagged: s.flagged ?? false,
    runtime_posture: 'normal',
    review_required: false,
    trust_debt: {
      provider_id: s.provider ?? 'acgp.core.default@1',
      pre: s.pre,
      delta: s.delta,
      post: s.post,
      thresholds_crossed: s.crossed ?? [],
    },
  };
  if (s.ts !== null) e['timestamp'] = s.ts ?? '2026-05-04T09:00:00Z';
  return e;
}

export function run(
  value: unknown,
  mode: 'verify' | 'replay',
  options: EngineOptions = {},
  path = 'x.json',
): Promise<Report> {
  return runBytes(
    path,
    Buffer.isBuffer(value) ? value : Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)),
    mode,
    options,
  );
}

export function rules(r: Report, severity?: Finding['severity']): string[] {
  return r.findings.filter((f) => !severity || f.severity === severity).map((f) => f.rule);
}

export function findingOf(r: Report, rule: string): Finding {
  const f = r.findings.find((x) => x.rule === rule);
  if (!f) throw new Error(`no ${rule} in ${JSON.stringify(r.findings)}`);
  return f;
}

export async function tempFile(name: string, content: string | Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'reprise-acgp-'));
  const p = join(dir, name);
  await writeFile(p, content);
  return p;
}
