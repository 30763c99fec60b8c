/**
 * Checks EVAL payloads one at a time (so a trace of any length streams through in
 * constant memory): form, exact CTQ / risk / intervention recomputation, the provider
 * descriptor, and for `replay` the default trust-debt provider re-run over the trace.
 * One small function per check, each yielding findings with a rule id, expected and
 * actual (after sigstore-js verify).
 */
import { ACGP_LIMITS } from './limits.js';
import { authenticity } from '../../core/authenticity.js';
import { escapePointerToken, isPlainObject as isObj } from '../../core/closed.js';
import type { Comparison, Finding, JsonValue, Severity } from '../../../shared/report.js';
import { changedNumbers, fail, info, unavailable, warning } from '../../core/findings.js';
import { isHashString } from '../../core/hash.js';
import type { JcsWarning } from '../../core/jcs.js';
import type { KindResult } from '../../core/report.js';
import { isRfc3339Utc, whyNotRfc3339Utc } from '../../core/time.js';
import {
  DEBT_THRESHOLD_NAMES,
  DEFAULT_PROVIDER_ID,
  LADDER,
  ONE,
  ZERO,
  dec,
  epochNs,
  eq4,
  interventionForRisk,
  isIntervention,
  num4,
  rank,
  round4,
  type DebtParams,
  type Dec,
  type Intervention,
} from './model.js';
import type { AcgpPolicy } from './policy.js';
import { DefaultTrustDebtProvider, accumulateFrom, step, type TrustDebtState } from './provider.js';

export type AcgpMode = 'verify' | 'replay';

export interface CheckerOptions {
  mode: AcgpMode;
  policy: AcgpPolicy;
  /** Set when --policy named a file that is not an ACGP policy. */
  policyNote?: string | null;
  /** One EVAL (pointers `/member`) rather than a trace (pointers `/i/member`). */
  single: boolean;
  /** JSON Lines: messages name the line. */
  jsonl?: boolean;
  limits?: Record<string, number> | undefined;
}

type RecordedNumber = number | null;

/** What a checked EVAL hands to the trace-level checks. */
interface CheckedEval {
  traceId: string | null;
  blueprintId: string | null;
  tsNs: bigint | null;
  timestampPresent: boolean;
  timestamp: string | null;
  intervention: Intervention | null;
  flagged: boolean | null;
  provider: 'default' | 'private' | 'unknown';
  providerId: string | null;
  pre: RecordedNumber;
  delta: RecordedNumber;
  post: RecordedNumber;
  crossed: string[] | null;
}

type Obj = Record<string, unknown>;

function isNum(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}
function jsonOf(v: unknown): JsonValue {
  return v === undefined ? null : (v as JsonValue);
}


export class AcgpChecker {
  readonly findings: Finding[] = [];
  readonly comparisons: Comparison[] = [];
  readonly trajectory: JsonValue[] = [];
  private readonly limits: { findings: number; comparisons: number; trajectory: number };
  private elidedFindings = 0;
  private elidedWorst: Severity | null = null;
  private elidedRows = 0;
  private elidedPoints = 0;
  private readonly rowCounts = { pass: 0, fail: 0, unavailable: 0 };
  private count = 0;
  private traceId: string | null = null;
  private lastNs: bigint | null = null;
  private state: TrustDebtState | null = null;
  private safe = 0;
  private readonly providers = new Map<DebtParams, DefaultTrustDebtProvider>();
  private readonly privateProviders = new Map<string, number>();
  private readonly unknownProviders = new Map<string, number>();
  private firstDebt: { params: DebtParams; source: string } | null = null;
  private firstRisk: { source: string; ok: number; nudge: number; escalate: number } | null = null;
  private firstProvider: string | null = null;
  private startingState: number | null = null;
  private anchors = 0;

  constructor(private readonly options: CheckerOptions) {
    const l = options.limits ?? {};
    this.limits = {
      findings: l['acgp-findings'] ?? ACGP_LIMITS['acgp-findings'],
      comparisons: l['acgp-comparisons'] ?? ACGP_LIMITS['acgp-comparisons'],
      trajectory: l['acgp-trajectory'] ?? ACGP_LIMITS['acgp-trajectory'],
    };
    if (options.policyNote) this.push(info('RPR-ACGP-041', options.policyNote));
  }

  // ---------------------------------------------------------------- sinks

  private push(f: Finding): void {
    if (this.findings.length < this.limits.findings) {
      this.findings.push(f);
      return;
    }
    this.elidedFindings++;
    const order: Severity[] = ['info', 'warning', 'unavailable', 'fail'];
    if (this.elidedWorst === null || order.indexOf(f.severity) > order.indexOf(this.elidedWorst)) this.elidedWorst = f.severity;
  }

  /** Counts a comparison row and builds it only when the report keeps it (long traces). */
  private row(status: Comparison['status'], make: () => Comparison): void {
    this.rowCounts[status]++;
    if (this.comparisons.length < this.limits.comparisons) this.comparisons.push(make());
    else this.elidedRows++;
  }

  private ptr(i: number, path: string): string {
    return this.options.single ? path : `/${i}${path}`;
  }

  private where(i: number): string {
    if (this.options.single) return 'the EVAL';
    return this.options.jsonl ? `EVAL ${i} (line ${i + 1})` : `EVAL ${i}`;
  }

  // ---------------------------------------------------------------- input

  /** A trace element (or line) that is not JSON Reprise accepts. */
  parseError(i: number, message: string, pointer?: string): void {
    this.count = Math.max(this.count, i + 1);
    this.push(fail('RPR-ACGP-001', `${this.where(i)} is not valid I-JSON: ${message}`, { pointer: pointer ?? (this.options.jsonl ? `line:${i + 1}` : this.ptr(i, '')) }));
    this.state = null;
  }

  /** The whole document is not I-JSON (its loose parse is still checked, so a reviewer sees everything). */
  documentError(message: string, pointer: string | undefined): void {
    this.push(fail('RPR-ACGP-001', `the document is not valid I-JSON: ${message}`, pointer !== undefined ? { pointer } : {}));
  }

  /**
   * Numbers the strict parse changed (more digits than a double keeps, or an underflow to
   * 0): a warning, not a fail, because a trace is checked, never hashed or signed, and the
   * checks read the double's value, which the report shows.
   */
  precision(i: number, ws: readonly JcsWarning[]): void {
    const rule = { rule: 'RPR-ACGP-017', subject: this.where(i), severity: 'warning', note: "the value checked is the double's shortest decimal form" } as const;
    for (const f of changedNumbers(ws, rule, this.options.single ? '' : `/${i}`)) this.push(f);
  }

  add(i: number, v: unknown): void {
    this.count = Math.max(this.count, i + 1);
    if (!isObj(v)) {
      this.push(fail('RPR-ACGP-032', `${this.where(i)} is not an EVAL object`, { pointer: this.ptr(i, ''), actual: Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v }));
      this.state = null;
      return;
    }
    const facts = this.checkEval(i, v);
    if (this.firstDebt === null && facts.blueprintId !== null) this.firstDebt = this.options.policy.debt(facts.blueprintId);
    this.checkTraceOrder(i, facts);
    if (facts.provider === 'private') {
      const id = facts.providerId ?? '?';
      this.privateProviders.set(id, (this.privateProviders.get(id) ?? 0) + 1);
    }
    if (this.options.mode === 'replay') this.replayDebt(i, facts);
    this.point(i, facts);
  }

  // ---------------------------------------------------------------- one EVAL

  private checkEval(i: number, e: Obj): CheckedEval {
    const pointerAt = (p: string) => this.ptr(i, p);
    const which = this.where(i);
    const str = (k: string, required: boolean): string | null => {
      const v = e[k];
      if (v === undefined && !required) return null;
      if (typeof v !== 'string' || v === '') {
        this.push(fail('RPR-ACGP-002', `${which}: ${k} must be a non-empty string`, { pointer: pointerAt(`/${k}`), actual: jsonOf(v) }));
        return null;
      }
      return v;
    };
    const bool = (k: string): boolean | null => {
      const v = e[k];
      if (typeof v !== 'boolean') {
        this.push(fail('RPR-ACGP-002', `${which}: ${k} must be true or false`, { pointer: pointerAt(`/${k}`), actual: jsonOf(v) }));
        return null;
      }
      return v;
    };
    const traceId = str('trace_id', true);
    const blueprintId = str('blueprint_id', true);
    const tier = str('governance_tier', true);
    str('runtime_posture', true);
    const flagged = bool('flagged');
    bool('review_required');

    // timestamp (optional; decay needs it)
    let tsNs: bigint | null = null;
    const ts = e['timestamp'];
    if (ts !== undefined) {
      if (isRfc3339Utc(ts)) tsNs = epochNs(ts);
      else this.push(fail('RPR-ACGP-009', `${which}: timestamp is not RFC 3339 UTC (${whyNotRfc3339Utc(ts)})`, { pointer: pointerAt('/timestamp'), actual: jsonOf(ts) }));
    }

    // intervention
    let intervention: Intervention | null = null;
    if (isIntervention(e['intervention'])) intervention = e['intervention'];
    else this.push(fail('RPR-ACGP-002', `${which}: intervention must be one of ${LADDER.join(', ')} (flag is the separate member flagged)`, { pointer: pointerAt('/intervention'), actual: jsonOf(e['intervention']) }));

    const tripwires = this.tripwires(i, e['tripwires_triggered']);
    const ctq = this.ctq(i, e);
    const risk = this.risk(i, e, ctq);
    if (intervention !== null) this.intervention(i, intervention, risk, tripwires, blueprintId, tier);
    else this.row('unavailable', () => ({ output: pointerAt('/intervention'), mode: 'EXACT', original: jsonOf(e['intervention']), replayed: null, status: 'unavailable', reason: 'the recorded intervention is malformed' }));

    const debt = this.debtForm(i, e);
    const provider = this.descriptor(i, e, debt.providerId);
    return {
      traceId,
      blueprintId,
      tsNs,
      timestampPresent: ts !== undefined,
      timestamp: typeof ts === 'string' ? ts : null,
      intervention,
      flagged,
      provider: provider.kind,
      providerId: debt.providerId,
      pre: debt.pre,
      delta: debt.delta,
      post: debt.post,
      crossed: debt.crossed,
    };
  }

  private tripwires(i: number, v: unknown): { name: string; action: Intervention | null }[] {
    const out: { name: string; action: Intervention | null }[] = [];
    if (!Array.isArray(v)) {
      this.push(fail('RPR-ACGP-002', `${this.where(i)}: tripwires_triggered must be an array`, { pointer: this.ptr(i, '/tripwires_triggered'), actual: jsonOf(v) }));
      return out;
    }
    v.forEach((t, k) => {
      if (typeof t === 'string' && t !== '') out.push({ name: t, action: null });
      else if (isObj(t) && typeof (t['id'] ?? t['name']) === 'string') out.push({ name: String(t['id'] ?? t['name']), action: isIntervention(t['action']) ? t['action'] : null });
      else this.push(fail('RPR-ACGP-002', `${this.where(i)}: a triggered tripwire is a name or an object with an id`, { pointer: this.ptr(i, `/tripwires_triggered/${k}`), actual: jsonOf(t) }));
    });
    return out;
  }

  /** ctq_score = Σ score × weight over the evaluated dimensions, exact; weights must sum to 1. */
  private ctq(i: number, e: Obj): Dec | null {
    const pointerAt = (p: string) => this.ptr(i, p);
    const which = this.where(i);
    const dims = e['ctq_dimensions'];
    let exact: Dec | null = null;
    if (!isObj(dims) || Object.keys(dims).length === 0) {
      this.push(fail('RPR-ACGP-002', `${which}: ctq_dimensions must be a non-empty object`, { pointer: pointerAt('/ctq_dimensions'), actual: jsonOf(dims) }));
    } else {
      let ok = true;
      let sum = ZERO;
      let weights = ZERO;
      let evaluated = 0;
      for (const [name, d] of Object.entries(dims)) {
        const dp = pointerAt(`/ctq_dimensions/${escapePointerToken(name)}`);
        if (!isObj(d)) {
          this.push(fail('RPR-ACGP-003', `${which}: dimension ${name} must be an object {score, weight, status, contributors}`, { pointer: dp, actual: jsonOf(d) }));
          ok = false;
          continue;
        }
        const bad = (m: string, k: string) => {
          this.push(fail('RPR-ACGP-003', `${which}: dimension ${name}: ${m}`, { pointer: `${dp}/${k}`, actual: jsonOf(d[k]) }));
          ok = false;
        };
        if (typeof d['status'] !== 'string' || d['status'] === '') bad('status must be a non-empty string', 'status');
        if (d['contributors'] !== undefined && (!Array.isArray(d['contributors']) || !d['contributors'].every((c) => typeof c === 'string')))
          bad('contributors must be an array of strings', 'contributors');
        if (d['status'] !== 'evaluated') continue;
        const s = d['score'];
        const w = d['weight'];
        if (!isNum(s) || s < 0 || s > 1) bad('score must be a number in [0, 1]', 'score');
        if (!isNum(w) || w < 0 || w > 1) bad('weight must be a number in [0, 1]', 'weight');
        if (!ok) continue;
        const wd = dec(w as number);
        sum = sum.plus(dec(s as number).times(wd));
        weights = weights.plus(wd);
        evaluated++;
      }
      if (ok && evaluated === 0) {
        this.push(fail('RPR-ACGP-016', `${which}: no dimension has status "evaluated"; ctq_score cannot be computed`, { pointer: pointerAt('/ctq_dimensions') }));
        ok = false;
      }
      if (ok && !weights.eq(ONE)) {
        this.push(fail('RPR-ACGP-004', `${which}: the weights of the ${evaluated} evaluated dimensions sum to ${weights.toString()}, not 1`, { pointer: pointerAt('/ctq_dimensions'), expected: 1, actual: Number(weights.toString()) }));
        ok = false;
      }
      if (ok) exact = sum;
    }
    const rec = e['ctq_score'];
    if (!isNum(rec)) this.push(fail('RPR-ACGP-002', `${which}: ctq_score must be a number`, { pointer: pointerAt('/ctq_score'), actual: jsonOf(rec) }));
    if (exact === null) {
      this.row('unavailable', () => ({ output: pointerAt('/ctq_score'), mode: 'EXACT', original: jsonOf(rec), replayed: null, status: 'unavailable', reason: 'the dimensions did not pass their checks' }));
      return null;
    }
    const pass = isNum(rec) && eq4(rec, exact);
    this.row(pass ? 'pass' : 'fail', () => ({ output: pointerAt('/ctq_score'), mode: 'EXACT', original: jsonOf(rec), replayed: num4(exact), status: pass ? 'pass' : 'fail' }));
    if (!pass && isNum(rec))
      this.push(
        fail('RPR-ACGP-005', `${which}: ctq_score is Σ score × weight = ${exact.toString()} exactly (${round4(exact).toFixed(4)} rounded half-even to 4 places), not the recorded ${rec}`, {
          pointer: pointerAt('/ctq_score'),
          expected: num4(exact),
          actual: rec,
        }),
      );
    return exact;
  }

  /** risk_score = 1 − ctq_score (exact), rounded half-even to 4 places. */
  private risk(i: number, e: Obj, ctq: Dec | null): Dec | null {
    const pointer = this.ptr(i, '/risk_score');
    const rec = e['risk_score'];
    if (!isNum(rec)) this.push(fail('RPR-ACGP-002', `${this.where(i)}: risk_score must be a number`, { pointer, actual: jsonOf(rec) }));
    if (ctq === null) {
      this.row('unavailable', () => ({ output: pointer, mode: 'EXACT', original: jsonOf(rec), replayed: null, status: 'unavailable', reason: 'ctq_score could not be recomputed' }));
      return null;
    }
    const risk = round4(ONE.minus(ctq));
    const pass = isNum(rec) && eq4(rec, risk);
    this.row(pass ? 'pass' : 'fail', () => ({ output: pointer, mode: 'EXACT', original: jsonOf(rec), replayed: num4(risk), status: pass ? 'pass' : 'fail' }));
    if (!pass && isNum(rec)) this.push(fail('RPR-ACGP-006', `${this.where(i)}: risk_score is 1 − ctq_score = ${risk.toFixed(4)}, not the recorded ${rec}`, { pointer, expected: num4(risk), actual: rec }));
    return risk;
  }

  /** The intervention the risk thresholds (and known tripwire actions) give; a lower recorded one is a fail. */
  private intervention(i: number, recorded: Intervention, risk: Dec | null, tripwires: { name: string; action: Intervention | null }[], blueprintId: string | null, tier: string | null): void {
    const pointer = this.ptr(i, '/intervention');
    const which = this.where(i);
    if (recorded === 'halt' && tripwires.length === 0) this.push(warning('RPR-ACGP-008', `${which}: halt is recorded but no tripwire was triggered (upstream: halt comes only from tripwires)`, { pointer }));
    if (risk === null) {
      this.row('unavailable', () => ({ output: pointer, mode: 'EXACT', original: recorded, replayed: null, status: 'unavailable', reason: 'risk_score could not be recomputed' }));
      return;
    }
    const { thresholds: t, source } = this.options.policy.risk(blueprintId, tier);
    if (this.firstRisk === null) this.firstRisk = { source, ok: num4(t.ok), nudge: num4(t.nudge), escalate: num4(t.escalate) };
    const byRisk = interventionForRisk(risk, t);
    let computed = byRisk;
    let tripwhy = '';
    for (const tw of tripwires) {
      const a = tw.action ?? this.options.policy.tripwire(blueprintId, tw.name) ?? null;
      if (a !== null && rank(a) > rank(computed)) {
        computed = a;
        tripwhy += `; tripwire ${tw.name} requires ${a}`;
      }
    }
    const pass = rank(recorded) >= rank(computed);
    this.row(pass ? 'pass' : 'fail', () => ({ output: pointer, mode: 'EXACT', original: recorded, replayed: computed, status: pass ? 'pass' : 'fail', ...(pass && recorded !== computed ? { reason: 'stricter than computed: allowed (trust debt may tighten scrutiny)' } : {}) }));
    if (!pass) {
      const why = `risk ${risk.toFixed(4)} with the ${source} thresholds (ok ≤ ${t.ok}, nudge ≤ ${t.nudge}, escalate ≤ ${t.escalate}) gives ${byRisk}${tripwhy}`;
      this.push(fail('RPR-ACGP-007', `${which}: trust debt never relaxes an intervention: ${why}, but ${recorded} is recorded`, { pointer, expected: computed, actual: recorded }));
    }
  }

  private debtForm(i: number, e: Obj): { providerId: string | null; pre: RecordedNumber; delta: RecordedNumber; post: RecordedNumber; crossed: string[] | null } {
    const pointerAt = (p: string) => this.ptr(i, `/trust_debt${p}`);
    const which = this.where(i);
    const td = e['trust_debt'];
    const none = { providerId: null, pre: null, delta: null, post: null, crossed: null };
    if (!isObj(td)) {
      this.push(fail('RPR-ACGP-002', `${which}: trust_debt must be an object {provider_id, pre, delta, post, thresholds_crossed}`, { pointer: pointerAt(''), actual: jsonOf(td) }));
      return none;
    }
    let providerId: string | null = null;
    if (typeof td['provider_id'] === 'string' && td['provider_id'] !== '') providerId = td['provider_id'];
    else this.push(fail('RPR-ACGP-002', `${which}: trust_debt.provider_id must be a non-empty string`, { pointer: pointerAt('/provider_id'), actual: jsonOf(td['provider_id']) }));
    const n = (k: 'pre' | 'delta' | 'post'): RecordedNumber => {
      const v = td[k];
      if (!isNum(v) || (k !== 'delta' && v < 0)) {
        this.push(fail('RPR-ACGP-002', `${which}: trust_debt.${k} must be a ${k === 'delta' ? '' : 'non-negative '}number`, { pointer: pointerAt(`/${k}`), actual: jsonOf(v) }));
        return null;
      }
      return v;
    };
    const pre = n('pre');
    const delta = n('delta');
    const post = n('post');
    let crossed: string[] | null = null;
    const tc = td['thresholds_crossed'];
    if (Array.isArray(tc) && tc.every((x) => typeof x === 'string') && new Set(tc).size === tc.length) crossed = tc as string[];
    else this.push(fail('RPR-ACGP-002', `${which}: trust_debt.thresholds_crossed must be an array of distinct threshold names`, { pointer: pointerAt('/thresholds_crossed'), actual: jsonOf(tc) }));
    if (pre !== null && delta !== null && post !== null) {
      const sum = dec(pre).plus(dec(delta));
      if (!sum.eq(dec(post))) this.push(fail('RPR-ACGP-010', `${which}: trust_debt.post must equal pre + delta (${pre} + ${delta} = ${sum.toString()})`, { pointer: pointerAt('/post'), expected: Number(sum.toString()), actual: post }));
    }
    return { providerId, pre, delta, post, crossed };
  }

  /** trust_debt_extended: provider descriptor {id, visibility, fail_mode?} and attestation {digest, issued_by}. */
  private descriptor(i: number, e: Obj, providerId: string | null): { kind: CheckedEval['provider'] } {
    const pointerAt = (p: string) => this.ptr(i, `/trust_debt_extended${p}`);
    const which = this.where(i);
    const x = e['trust_debt_extended'];
    const byId = (): CheckedEval['provider'] => (providerId === DEFAULT_PROVIDER_ID ? 'default' : 'unknown');
    if (x === undefined) return { kind: byId() };
    if (!isObj(x)) {
      this.push(fail('RPR-ACGP-011', `${which}: trust_debt_extended must be an object {provider, attestation?}`, { pointer: pointerAt(''), actual: jsonOf(x) }));
      return { kind: byId() };
    }
    const p = x['provider'];
    let visibility: string | null = null;
    if (!isObj(p)) this.push(fail('RPR-ACGP-011', `${which}: trust_debt_extended.provider must be an object {id, visibility}`, { pointer: pointerAt('/provider'), actual: jsonOf(p) }));
    else {
      if (typeof p['id'] !== 'string' || p['id'] === '') this.push(fail('RPR-ACGP-011', `${which}: the provider descriptor's id must be a non-empty string`, { pointer: pointerAt('/provider/id'), actual: jsonOf(p['id']) }));
      else if (providerId !== null && p['id'] !== providerId)
        this.push(fail('RPR-ACGP-011', `${which}: the provider descriptor names another provider than trust_debt.provider_id`, { pointer: pointerAt('/provider/id'), expected: providerId, actual: p['id'] }));
      if (p['visibility'] === 'public' || p['visibility'] === 'private') visibility = p['visibility'];
      else this.push(fail('RPR-ACGP-011', `${which}: the provider's visibility must be public or private`, { pointer: pointerAt('/provider/visibility'), actual: jsonOf(p['visibility']) }));
      if (p['fail_mode'] !== undefined && p['fail_mode'] !== 'deny' && p['fail_mode'] !== 'allow')
        this.push(fail('RPR-ACGP-011', `${which}: the provider's fail_mode must be deny or allow`, { pointer: pointerAt('/provider/fail_mode'), actual: jsonOf(p['fail_mode']) }));
      if (visibility === 'private' && providerId === DEFAULT_PROVIDER_ID)
        this.push(fail('RPR-ACGP-011', `${which}: ${DEFAULT_PROVIDER_ID} is the public default provider; it cannot be private`, { pointer: pointerAt('/provider/visibility'), expected: 'public', actual: 'private' }));
    }
    const a = x['attestation'];
    if (a !== undefined) {
      if (!isObj(a)) this.push(fail('RPR-ACGP-012', `${which}: the attestation must be an object {digest, issued_by}`, { pointer: pointerAt('/attestation'), actual: jsonOf(a) }));
      else {
        if (!isHashString(a['digest']))
          this.push(fail('RPR-ACGP-012', `${which}: the attestation digest must be sha256: followed by 64 lowercase hex digits`, { pointer: pointerAt('/attestation/digest'), expected: 'sha256:<64 lowercase hex>', actual: jsonOf(a['digest']) }));
        if (typeof a['issued_by'] !== 'string' || a['issued_by'] === '')
          this.push(fail('RPR-ACGP-012', `${which}: the attestation's issued_by must be a non-empty string`, { pointer: pointerAt('/attestation/issued_by'), actual: jsonOf(a['issued_by']) }));
      }
    }
    if (visibility === 'private' && providerId !== DEFAULT_PROVIDER_ID) return { kind: 'private' };
    return { kind: byId() };
  }

  // ---------------------------------------------------------------- trace

  private checkTraceOrder(i: number, f: CheckedEval): void {
    if (f.traceId !== null) {
      if (this.traceId === null) this.traceId = f.traceId;
      else if (f.traceId !== this.traceId) this.push(fail('RPR-ACGP-031', `${this.where(i)} belongs to another trace`, { pointer: this.ptr(i, '/trace_id'), expected: this.traceId, actual: f.traceId }));
    }
    if (f.tsNs !== null) {
      if (this.lastNs !== null && f.tsNs < this.lastNs) this.push(fail('RPR-ACGP-030', `${this.where(i)} is earlier than the EVAL before it: a trace is in time order`, { pointer: this.ptr(i, '/timestamp'), actual: f.timestamp }));
      this.lastNs = f.tsNs;
    }
    if (this.firstProvider === null && f.providerId !== null) this.firstProvider = f.providerId;
  }

  private provider(params: DebtParams): DefaultTrustDebtProvider {
    let p = this.providers.get(params);
    if (!p) this.providers.set(params, (p = new DefaultTrustDebtProvider(params)));
    return p;
  }

  /** replay: re-run the trust-debt provider for this EVAL and compare pre, delta, post, thresholds_crossed EXACT. */
  private replayDebt(i: number, f: CheckedEval): void {
    const pointerAt = (k: string) => this.ptr(i, `/trust_debt/${k}`);
    const which = this.where(i);
    const orig = { pre: f.pre, delta: f.delta, post: f.post, thresholds_crossed: f.crossed };
    const all = (status: Comparison['status'], mode: Comparison['mode'], reason: string, replayed: Partial<Record<keyof typeof orig, JsonValue>> = {}) => {
      for (const k of ['pre', 'delta', 'post', 'thresholds_crossed'] as const) this.row(status, () => ({ output: pointerAt(k), mode, original: orig[k], replayed: replayed[k] ?? null, status, reason }));
    };
    if (f.provider === 'private') {
      const sum = f.pre !== null && f.delta !== null ? Number(dec(f.pre).plus(dec(f.delta)).toString()) : null;
      for (const k of ['pre', 'delta', 'thresholds_crossed'] as const) this.row('pass', () => ({ output: pointerAt(k), mode: 'RECORDED', original: orig[k], replayed: null, status: 'pass', reason: 'private provider: RECORDED, not recomputed' }));
      const postOk = sum !== null && f.post !== null && dec(f.post).eq(dec(sum));
      this.row(postOk ? 'pass' : 'fail', () => ({
        output: pointerAt('post'),
        mode: 'RECORDED',
        original: f.post,
        replayed: sum,
        status: postOk ? 'pass' : 'fail',
        reason: 'private provider: RECORDED; only post = pre + delta was checked',
      }));
      this.state = null;
      return;
    }
    if (f.provider === 'unknown') {
      const id = f.providerId ?? '(none)';
      this.unknownProviders.set(id, (this.unknownProviders.get(id) ?? 0) + 1);
      all('unavailable', 'EXACT', `provider ${id} is not available here`);
      this.state = null;
      return;
    }
    if (f.pre === null || f.intervention === null || f.flagged === null) {
      all('unavailable', 'EXACT', 'the EVAL did not pass its form checks');
      this.state = null;
      return;
    }
    const debt = this.options.policy.debt(f.blueprintId);
    const provider = this.provider(debt.params);
    let s;
    let anchored = false;
    if (this.state !== null) s = step(provider, this.state, f.tsNs, f.intervention, f.flagged, this.safe);
    if (!s) {
      // Anchor on this EVAL's recorded pre: the trace's start, or after a step that could not be recomputed.
      anchored = true;
      if (this.state !== null) {
        const missing = f.tsNs === null ? `${which} has no ${f.timestampPresent ? 'valid ' : ''}timestamp` : `the EVAL before ${which} has no timestamp`;
        this.push(unavailable('RPR-ACGP-024', `decay needs the timestamps of both EVALs: ${missing}; pre was not recomputed (no guess), and the recorded pre is taken as the state from here`, { pointer: this.ptr(i, '/timestamp') }));
        this.row('unavailable', () => ({ output: pointerAt('pre'), mode: 'EXACT', original: f.pre, replayed: null, status: 'unavailable', reason: 'timestamp missing where decay needs one' }));
      } else {
        if (this.anchors === 0) {
          this.startingState = f.pre;
          this.push(info('RPR-ACGP-025', `the trace's starting state is ${which}'s recorded pre ${f.pre}, taken as given; every later value is recomputed`, { pointer: pointerAt('pre') }));
        } else this.push(info('RPR-ACGP-026', `${which}: the state is re-anchored on its recorded pre ${f.pre} (taken as given) because the EVAL before it could not be replayed`, { pointer: pointerAt('pre') }));
        this.row('pass', () => ({ output: pointerAt('pre'), mode: 'RECORDED', original: f.pre, replayed: f.pre, status: 'pass', reason: 'starting state, taken as given' }));
      }
      this.anchors++;
      s = accumulateFrom(provider, provider.initial(dec(f.pre), f.tsNs), f.intervention, f.flagged, null);
    }
    if (!anchored) this.compareNum(i, 'pre', 'RPR-ACGP-020', f.pre, s.pre, s.periods);
    this.compareNum(i, 'delta', 'RPR-ACGP-021', f.delta, s.delta, null);
    this.compareNum(i, 'post', 'RPR-ACGP-022', f.post, s.post, null);
    const crossedOk = f.crossed !== null && sameSet(f.crossed, s.crossed);
    this.row(crossedOk ? 'pass' : 'fail', () => ({ output: pointerAt('thresholds_crossed'), mode: 'EXACT', original: f.crossed, replayed: s.crossed, status: crossedOk ? 'pass' : 'fail' }));
    if (!crossedOk && f.crossed !== null)
      this.push(
        fail('RPR-ACGP-023', `${which}: thresholds_crossed are the thresholds t with pre < t ≤ post (${round4(s.pre).toFixed(4)} < t ≤ ${round4(s.post).toFixed(4)})`, {
          pointer: pointerAt('thresholds_crossed'),
          expected: s.crossed,
          actual: f.crossed,
        }),
      );
    this.state = s.state;
    this.safe = f.intervention === 'ok' && !f.flagged ? this.safe + 1 : 0;
    this.lastReplayed = { pre: num4(s.pre), delta: num4(s.delta), post: num4(s.post), thresholdsCrossed: s.crossed };
  }

  private lastReplayed: { pre: number; delta: number; post: number; thresholdsCrossed: string[] } | null = null;

  private compareNum(i: number, k: 'pre' | 'delta' | 'post', rule: string, recorded: RecordedNumber, exact: Dec, periods: Dec | null): void {
    const pointer = this.ptr(i, `/trust_debt/${k}`);
    const pass = recorded !== null && eq4(recorded, exact);
    this.row(pass ? 'pass' : 'fail', () => ({ output: pointer, mode: 'EXACT', original: recorded, replayed: num4(exact), status: pass ? 'pass' : 'fail' }));
    if (!pass && recorded !== null) {
      const how = k === 'pre' ? ` (after decay over ${periods?.toString() ?? '?'} whole period(s))` : k === 'delta' ? ' (accumulation for the recorded intervention and flag)' : ' (pre + delta)';
      this.push(fail(rule, `${this.where(i)}: trust_debt.${k} replayed by ${DEFAULT_PROVIDER_ID} is ${round4(exact).toFixed(4)}${how}, not the recorded ${recorded}`, { pointer, expected: num4(exact), actual: recorded }));
    }
  }

  private point(i: number, f: CheckedEval): void {
    const replayed = this.lastReplayed;
    this.lastReplayed = null;
    if (this.trajectory.length >= this.limits.trajectory) {
      this.elidedPoints++;
      return;
    }
    const p: { [k: string]: JsonValue } = { index: i, timestamp: f.timestamp, intervention: f.intervention, flagged: f.flagged, pre: f.pre, delta: f.delta, post: f.post, thresholdsCrossed: f.crossed };
    if (this.options.mode === 'replay') p['replayed'] = replayed;
    this.trajectory.push(p);
  }

  // ---------------------------------------------------------------- result

  result(): KindResult {
    // Summary findings are never elided.
    const findings = this.findings.slice();
    for (const [id, n] of this.privateProviders)
      findings.push(
        info(
          'RPR-ACGP-013',
          `trust-debt provider ${id} is private: the pre, delta, post and thresholds_crossed of ${n} EVAL(s) are RECORDED and were NOT recomputed; Reprise checked only the descriptor form, the attestation digest form, post = pre + delta, and that no intervention was relaxed`,
        ),
      );
    for (const [id, n] of this.unknownProviders)
      findings.push(
        unavailable('RPR-ACGP-014', `trust-debt provider ${id} (${n} EVAL(s)) is neither ${DEFAULT_PROVIDER_ID} nor declared private; its formulas are not available here, so its debt values cannot be replayed`),
      );
    if (this.elidedFindings > 0)
      findings.push({
        rule: 'RPR-ACGP-034',
        severity: this.elidedWorst ?? 'info',
        message: `${this.elidedFindings} more finding(s) were left out of this report (limit acgp-findings = ${this.limits.findings}); the worst of them is ${this.elidedWorst}`,
      });
    if (this.elidedRows > 0 || this.elidedPoints > 0)
      findings.push(info('RPR-ACGP-035', `${this.elidedRows} comparison row(s) and ${this.elidedPoints} trajectory point(s) were left out (limits acgp-comparisons, acgp-trajectory)`));
    const debt = this.firstDebt ?? this.options.policy.debt(null);
    const details: { [k: string]: JsonValue } = {
      evals: this.count,
      provider: this.firstProvider,
      debtRecomputed: this.options.mode === 'replay' && this.privateProviders.size === 0 && this.unknownProviders.size === 0,
      riskThresholds: this.firstRisk,
      debtThresholds: Object.fromEntries(DEBT_THRESHOLD_NAMES.map((n) => [n, num4(debt.params.thresholds[n])])),
      debtParameters: { source: debt.source, decay_fraction: num4(debt.params.decay_fraction), period_hours: Number(debt.params.period_hours.toString()), min_debt: num4(debt.params.min_debt) },
      comparisonCounts: { ...this.rowCounts },
      trajectory: this.trajectory,
    };
    if (this.startingState !== null) details['startingState'] = this.startingState;
    if (this.privateProviders.size > 0) details['notRecomputed'] = [...this.privateProviders.keys()];
    const why = `ACGP ${this.options.single ? 'evaluations' : 'traces'} carry no signature; Reprise checks their internal consistency${this.options.mode === 'replay' ? ' and recomputes the trust debt' : ''}${this.privateProviders.size > 0 ? ', and the private providers\' attestation digests are checked for form only, never verified' : ''}.`;
    return { id: this.traceId, findings, chain: [], comparisons: this.comparisons, details, authenticity: authenticity.consistencyOnly(why) };
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const s = new Set(a);
  return b.every((x) => s.has(x));
}
