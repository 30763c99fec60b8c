/**
 * Deterministic generator of EVAL traces that follow the spec (used by the examples, the
 * property tests and the benchmark): scores on a 2-decimal grid, weights summing to 1,
 * ctq/risk exact, the intervention the thresholds give (or a stricter one), and the trust
 * debt of the default provider (or, for a private provider, RECORDED values).
 */
import { hashBytes } from '../../core/hash.js';
import {
  DEFAULT_PROVIDER_ID,
  ONE,
  ZERO,
  dec,
  epochNs,
  interventionForRisk,
  num4,
  rank,
  round4,
  type Dec,
  type Intervention,
} from './model.js';
import { AcgpPolicy } from './policy.js';
import { DefaultTrustDebtProvider, accumulateFrom, step, type TrustDebtState } from './provider.js';

export type Eval = Record<string, unknown>;

/** mulberry32: a tiny seeded PRNG (deterministic output for the examples). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface StepPlan {
  /** The intervention the scores should give (the recorded one is never lower, unless `force`). */
  target: Intervention;
  flagged?: boolean;
  /** Minutes since the previous EVAL. */
  gapMinutes: number;
  /** Recorded as the intervention whatever the thresholds give (to build relaxed examples). */
  force?: Intervention;
  /** Record this EVAL without a timestamp. */
  noTimestamp?: boolean;
}

export interface GenOptions {
  count: number;
  seed?: number;
  traceId?: string;
  blueprintId?: string;
  tier?: string;
  start?: string;
  startDebt?: number;
  policy?: AcgpPolicy;
  private?: boolean;
  plan?: (i: number, rnd: () => number) => StepPlan;
}

const DIMS = [
  'reasoning_quality',
  'knowledge_grounding',
  'ethical_alignment',
  'tool_safety',
  'context_awareness',
] as const;
const WEIGHT_SETS = [
  ['0.25', '0.20', '0.20', '0.20', '0.15'],
  ['0.20', '0.20', '0.20', '0.20', '0.20'],
  ['0.30', '0.20', '0.20', '0.15', '0.15'],
  ['0.35', '0.25', '0.40', '0', '0'],
];
/** ctq ranges (in hundredths) that give each intervention with the baseline thresholds. */
const CTQ_RANGE: Record<Intervention, [number, number]> = {
  ok: [62, 97],
  nudge: [46, 59],
  escalate: [31, 44],
  block: [5, 28],
  halt: [5, 97],
};

export function randomPlan(i: number, rnd: () => number): StepPlan {
  const r = rnd();
  const target: Intervention =
    r < 0.55 ? 'ok' : r < 0.75 ? 'nudge' : r < 0.88 ? 'escalate' : r < 0.97 ? 'block' : 'halt';
  return { target, flagged: rnd() < 0.1, gapMinutes: Math.floor(rnd() * 300) };
}

function fmtTime(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

export function generateTrace(o: GenOptions): Eval[] {
  const rnd = prng(o.seed ?? 1);
  const policy = o.policy ?? AcgpPolicy.baseline();
  const blueprintId = o.blueprintId ?? 'finance_qa@2.1';
  const tier = o.tier ?? 'GT-2';
  const { thresholds } = policy.risk(blueprintId, tier);
  const provider = new DefaultTrustDebtProvider(
    o.private ? { ...policy.debt(blueprintId).params, decay_fraction: dec(0.1) } : policy.debt(blueprintId).params,
  );
  const providerId = o.private ? 'urn:acgp:ext:trust-debt-private@1' : DEFAULT_PROVIDER_ID;
  let t = Date.parse(o.start ?? '2026-05-04T09:00:00Z');
  let state: TrustDebtState | null = null;
  const out: Eval[] = [];
  for (let i = 0; i < o.count; i++) {
    const p = (o.plan ?? randomPlan)(i, rnd);
    t += p.gapMinutes * 60_000;
    const weights = WEIGHT_SETS[Math.floor(rnd() * WEIGHT_SETS.length)]!;
    const [lo, hi] = CTQ_RANGE[p.target];
    const base = lo + Math.floor(rnd() * (hi - lo + 1));
    const dims: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    let ctq = ZERO;
    DIMS.forEach((name, k) => {
      const w = weights[k]!;
      const jitter = Math.floor(rnd() * 5) - 2;
      const score = dec(Math.min(100, Math.max(0, base + jitter))).div(100);
      const evaluated = w !== '0';
      dims[name] = {
        score: Number(score.toString()),
        weight: evaluated ? Number(w) : 0.1,
        status: evaluated ? 'evaluated' : 'not_applicable',
        contributors: [`${name}_check`],
      };
      if (evaluated) ctq = ctq.plus(score.times(dec(Number(w))));
    });
    const risk = round4(ONE.minus(ctq));
    const computed = interventionForRisk(risk, thresholds);
    const tripwire = p.target === 'halt';
    let recorded: Intervention = p.force ?? (rank(p.target) > rank(computed) ? p.target : computed);
    if (tripwire && !p.force) recorded = 'halt';
    const flagged = p.flagged ?? false;
    const tsNs = p.noTimestamp ? null : epochNs(fmtTime(t));
    let s;
    if (state !== null) s = step(provider, state, tsNs, recorded, flagged, 0);
    if (!s) {
      // Start (or restart after a missing timestamp) from the recorded state, as the replay does.
      const startPre: Dec = state === null ? dec(o.startDebt ?? 0) : round4(state.current_debt);
      s = accumulateFrom(provider, provider.initial(startPre, tsNs), recorded, flagged, null);
    }
    state = s.state;
    const e: Eval = {
      trace_id: o.traceId ?? 'trace-gen-0001',
      blueprint_id: blueprintId,
      governance_tier: tier,
      ctq_dimensions: dims,
      ctq_score: num4(ctq),
      risk_score: num4(risk),
      tripwires_triggered: tripwire ? [{ id: 'unsafe_tool_call', action: 'halt' }] : [],
      intervention: recorded,
      flagged,
      runtime_posture: rank(recorded) >= rank('block') ? 'restricted' : 'normal',
      review_required: rank(recorded) >= rank('escalate'),
      trust_debt: {
        provider_id: providerId,
        pre: num4(s.pre),
        delta: num4(s.delta),
        post: num4(s.post),
        thresholds_crossed: s.crossed,
      },
    };
    if (o.private)
      e['trust_debt_extended'] = {
        provider: { id: providerId, visibility: 'private', fail_mode: 'deny' },
        attestation: {
          digest: hashBytes('reprise example attestation of ' + providerId),
          issued_by: 'did:example:steward',
        },
      };
    if (!p.noTimestamp) e['timestamp'] = fmtTime(t);
    out.push(e);
  }
  return out;
}
