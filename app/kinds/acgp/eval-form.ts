/**
 * One EVAL's checks, in the order its findings appear: the form of its members, its
 * recomputed arithmetic (recompute.ts), the form of its trust debt and of the provider
 * descriptor. What passed is handed on as a CheckedEval to the trace-level checks.
 */
import { isPlainObject as isObj } from '../../core/closed.js';
import { fail } from './findings.js';
import { isHashString } from '../../core/hash.js';
import { isRfc3339Utc, whyNotRfc3339Utc } from '../../core/time.js';
import {
  DEBT_THRESHOLD_NAMES,
  DEFAULT_PROVIDER_ID,
  LADDER,
  dec,
  epochNs,
  exactJson,
  isIntervention,
  type Intervention,
} from './model.js';
import type { AcgpPolicy } from './policy.js';
import { heldId } from './held-id.js';
import {
  checkCtq,
  checkIntervention,
  checkRisk,
  isNum,
  jsonOf,
  type EvalScope,
  type RiskSeen,
  type Tripwire,
} from './recompute.js';

type Obj = Record<string, unknown>;
export type RecordedNumber = number | null;
export type ProviderKind = 'default' | 'private' | 'unknown';
/** The visibility trust_debt_extended.provider declares, null when it declares none (or one that is not public or private). */
export type Visibility = 'public' | 'private' | null;

interface DebtForm {
  providerId: string | null;
  pre: RecordedNumber;
  delta: RecordedNumber;
  post: RecordedNumber;
  crossed: string[] | null;
}

/** What a checked EVAL hands to the trace-level checks. */
export interface CheckedEval extends DebtForm {
  traceId: string | null;
  blueprintId: string | null;
  tier: string | null;
  tsNs: bigint | null;
  timestampPresent: boolean;
  timestamp: string | null;
  intervention: Intervention | null;
  flagged: boolean | null;
  provider: ProviderKind;
  visibility: Visibility;
  /** The risk thresholds the intervention was checked against (null when risk_score could not be recomputed). */
  riskSeen: RiskSeen | null;
}

export function checkEval(s: EvalScope, policy: AcgpPolicy, e: Obj): CheckedEval {
  const str = (k: string): string | null => {
    const v = e[k];
    if (typeof v !== 'string' || v === '') {
      s.sink.push(
        fail('RPR-ACGP-002', `${s.which}: ${k} must be a non-empty string`, {
          pointer: s.at(`/${k}`),
          actual: jsonOf(v),
        }),
      );
      return null;
    }
    return v;
  };
  const bool = (k: string): boolean | null => {
    const v = e[k];
    if (typeof v !== 'boolean') {
      s.sink.push(
        fail('RPR-ACGP-002', `${s.which}: ${k} must be true or false`, { pointer: s.at(`/${k}`), actual: jsonOf(v) }),
      );
      return null;
    }
    return v;
  };
  const traceId = str('trace_id');
  const blueprintId = str('blueprint_id');
  const tier = str('governance_tier');
  str('runtime_posture');
  const flagged = bool('flagged');
  bool('review_required');
  const ts = e['timestamp'];
  const tsNs = timestampNs(s, ts);
  let intervention: Intervention | null = null;
  if (isIntervention(e['intervention'])) intervention = e['intervention'];
  else
    s.sink.push(
      fail(
        'RPR-ACGP-002',
        `${s.which}: intervention must be one of ${LADDER.join(', ')} (flag is the separate member flagged)`,
        { pointer: s.at('/intervention'), actual: jsonOf(e['intervention']) },
      ),
    );

  const tripwires = checkTripwires(s, e['tripwires_triggered']);
  const risk = checkRisk(s, e, checkCtq(s, e));
  let riskSeen: RiskSeen | null = null;
  if (intervention !== null) riskSeen = checkIntervention(s, policy, intervention, risk, tripwires, blueprintId, tier);
  else
    s.sink.row('unavailable', () => ({
      output: s.at('/intervention'),
      mode: 'EXACT',
      original: jsonOf(e['intervention']),
      replayed: null,
      status: 'unavailable',
      reason: 'the recorded intervention is malformed',
    }));

  const debt = checkDebtForm(s, e);
  const visibility = checkDescriptor(s, e, debt.providerId);
  return {
    traceId,
    blueprintId,
    tier,
    tsNs,
    timestampPresent: ts !== undefined,
    timestamp: typeof ts === 'string' ? ts : null,
    intervention,
    flagged,
    provider: providerKind(debt.providerId, visibility),
    visibility,
    riskSeen,
    ...debt,
  };
}

/** The timestamp is optional; decay needs it. */
function timestampNs(s: EvalScope, ts: unknown): bigint | null {
  if (ts === undefined) return null;
  if (isRfc3339Utc(ts)) return epochNs(ts);
  s.sink.push(
    fail('RPR-ACGP-009', `${s.which}: timestamp is not RFC 3339 UTC (${whyNotRfc3339Utc(ts)})`, {
      pointer: s.at('/timestamp'),
      actual: jsonOf(ts),
    }),
  );
  return null;
}

function checkTripwires(s: EvalScope, v: unknown): Tripwire[] {
  const out: Tripwire[] = [];
  if (!Array.isArray(v)) {
    s.sink.push(
      fail('RPR-ACGP-002', `${s.which}: tripwires_triggered must be an array`, {
        pointer: s.at('/tripwires_triggered'),
        actual: jsonOf(v),
      }),
    );
    return out;
  }
  v.forEach((t, k) => {
    if (typeof t === 'string' && t !== '') out.push({ name: t, action: null });
    else if (isObj(t)) out.push(...tripwireObject(s, t, k));
    else malformedTripwire(s, t, k);
  });
  return out;
}

function malformedTripwire(s: EvalScope, t: unknown, k: number): void {
  s.sink.push(
    fail('RPR-ACGP-002', `${s.which}: a triggered tripwire is a name or an object with an id`, {
      pointer: s.at(`/tripwires_triggered/${k}`),
      actual: jsonOf(t),
    }),
  );
}

/**
 * A tripwire object {id, name?, action?}: one entry per name it gives. `id` and `name` that
 * differ are RPR-ACGP-002 (which one the policy's rule is for is not known), and both are held to
 * the policy, since reading `id` alone let {"name": "pii_leak", "id": "other", "action": "ok"}
 * pass beside a policy's pii_leak: halt.
 */
function tripwireObject(s: EvalScope, t: Obj, k: number): Tripwire[] {
  const given = [t['id'], t['name']].filter((x) => x !== undefined && x !== null);
  if (given.length === 0 || !given.every((x) => typeof x === 'string' && x !== '')) {
    malformedTripwire(s, t, k);
    return [];
  }
  const names = [...new Set(given as string[])];
  if (names.length > 1)
    s.sink.push(
      fail(
        'RPR-ACGP-002',
        `${s.which}: a triggered tripwire's id and name differ (${names.map((n) => JSON.stringify(n)).join(' and ')}): which tripwire it is cannot be told, so both are held to the policy`,
        { pointer: s.at(`/tripwires_triggered/${k}`), actual: jsonOf(t) },
      ),
    );
  const action = t['action'];
  // An action that is no intervention leaves what the tripwire requires unknown: never read as none.
  if (action !== undefined && !isIntervention(action)) {
    s.sink.push(
      fail(
        'RPR-ACGP-002',
        `${s.which}: a triggered tripwire's action must be an intervention (ok, nudge, escalate, block, halt)`,
        { pointer: s.at(`/tripwires_triggered/${k}/action`), actual: jsonOf(action) },
      ),
    );
    return [];
  }
  return names.map((name) => ({ name, action: action ?? null }));
}

function checkDebtForm(s: EvalScope, e: Obj): DebtForm {
  const td = e['trust_debt'];
  if (!isObj(td)) {
    s.sink.push(
      fail(
        'RPR-ACGP-002',
        `${s.which}: trust_debt must be an object {provider_id, pre, delta, post, thresholds_crossed}`,
        { pointer: s.at('/trust_debt'), actual: jsonOf(td) },
      ),
    );
    return { providerId: null, pre: null, delta: null, post: null, crossed: null };
  }
  let providerId: string | null = null;
  if (typeof td['provider_id'] === 'string' && td['provider_id'] !== '') providerId = td['provider_id'];
  else
    s.sink.push(
      fail('RPR-ACGP-002', `${s.which}: trust_debt.provider_id must be a non-empty string`, {
        pointer: s.at('/trust_debt/provider_id'),
        actual: jsonOf(td['provider_id']),
      }),
    );
  const pre = debtNumber(s, td, 'pre');
  const delta = debtNumber(s, td, 'delta');
  const post = debtNumber(s, td, 'post');
  if (delta !== null && delta < 0 && providerId === DEFAULT_PROVIDER_ID) negativeDefaultDelta(s, delta);
  const crossed = debtCrossed(s, td['thresholds_crossed']);
  if (pre !== null && delta !== null && post !== null) checkPostSum(s, pre, delta, post);
  return { providerId, pre, delta, post, crossed };
}

function debtNumber(s: EvalScope, td: Obj, k: 'pre' | 'delta' | 'post'): RecordedNumber {
  const v = td[k];
  if (isNum(v) && (k === 'delta' || v >= 0)) return v;
  s.sink.push(
    fail('RPR-ACGP-002', `${s.which}: trust_debt.${k} must be a ${k === 'delta' ? '' : 'non-negative '}number`, {
      pointer: s.at(`/trust_debt/${k}`),
      actual: jsonOf(v),
    }),
  );
  return null;
}

/**
 * The default provider's delta is its accumulation (ok 0 up to halt 5, plus 0.1 when flagged),
 * never negative: its decay is in pre, and decay is the only way down. Said under verify too,
 * which replays nothing, since one EVAL shows it (replay also gives RPR-ACGP-021 with the
 * accumulation). A private provider's negative delta is replay's RPR-ACGP-026 (debt-replay.ts).
 */
function negativeDefaultDelta(s: EvalScope, delta: number): void {
  s.sink.push(
    fail(
      'RPR-ACGP-002',
      `${s.which}: trust_debt.delta of ${DEFAULT_PROVIDER_ID} is an accumulation, never negative (decay, the only way down, is in pre)`,
      { pointer: s.at('/trust_debt/delta'), actual: delta },
    ),
  );
}

/**
 * thresholds_crossed: distinct names, each one of the trust-debt thresholds. The names are
 * ACGP-3's (a policy overrides their values, never their names: parsePolicy refuses others), for
 * every provider; `verify` does not replay the debt, so a name no threshold has ("bogus") passed
 * it unseen. The array is kept for replay's comparison even when a name is unknown.
 */
function debtCrossed(s: EvalScope, tc: unknown): string[] | null {
  const pointer = s.at('/trust_debt/thresholds_crossed');
  if (!Array.isArray(tc) || !tc.every((x) => typeof x === 'string') || new Set(tc).size !== tc.length) {
    s.sink.push(
      fail('RPR-ACGP-002', `${s.which}: trust_debt.thresholds_crossed must be an array of distinct threshold names`, {
        pointer,
        actual: jsonOf(tc),
      }),
    );
    return null;
  }
  const unknown = (tc as string[]).filter((n) => !(DEBT_THRESHOLD_NAMES as readonly string[]).includes(n));
  if (unknown.length > 0)
    s.sink.push(
      fail(
        'RPR-ACGP-002',
        `${s.which}: trust_debt.thresholds_crossed names ${unknown.map((n) => JSON.stringify(n)).join(', ')}, no trust-debt threshold (${DEBT_THRESHOLD_NAMES.join(', ')})`,
        { pointer, expected: [...DEBT_THRESHOLD_NAMES], actual: tc as string[] },
      ),
    );
  return tc as string[];
}

/** The observable post = pre + delta, exact for every provider (a double would take pre 1 + delta 1e-150 for post 1). */
function checkPostSum(s: EvalScope, pre: number, delta: number, post: number): void {
  const sum = dec(pre).plus(dec(delta));
  if (!sum.eq(dec(post)))
    s.sink.push(
      fail(
        'RPR-ACGP-010',
        `${s.which}: trust_debt.post must equal pre + delta (${pre} + ${delta} = ${sum.toString()})`,
        { pointer: s.at('/trust_debt/post'), expected: exactJson(sum), actual: post },
      ),
    );
}

/** Only acgp.core.default@1 is re-executed; a non-default provider declared private is RECORDED; any other is unknown here. */
function providerKind(providerId: string | null, visibility: Visibility): ProviderKind {
  if (providerId === DEFAULT_PROVIDER_ID) return 'default';
  return visibility === 'private' ? 'private' : 'unknown';
}

/**
 * trust_debt_extended: provider descriptor {id, visibility, fail_mode?} and attestation
 * {digest, issued_by}. The visibility it declares (null without a valid one).
 */
function checkDescriptor(s: EvalScope, e: Obj, providerId: string | null): Visibility {
  const pointerAt = (p: string) => s.at(`/trust_debt_extended${p}`);
  const which = s.which;
  const x = e['trust_debt_extended'];
  if (x === undefined) return null;
  if (!isObj(x)) {
    s.sink.push(
      fail('RPR-ACGP-011', `${which}: trust_debt_extended must be an object {provider, attestation?}`, {
        pointer: pointerAt(''),
        actual: jsonOf(x),
      }),
    );
    return null;
  }
  const p = x['provider'];
  let visibility: Visibility = null;
  if (!isObj(p))
    s.sink.push(
      fail('RPR-ACGP-011', `${which}: trust_debt_extended.provider must be an object {id, visibility}`, {
        pointer: pointerAt('/provider'),
        actual: jsonOf(p),
      }),
    );
  else {
    if (typeof p['id'] !== 'string' || p['id'] === '')
      s.sink.push(
        fail('RPR-ACGP-011', `${which}: the provider descriptor's id must be a non-empty string`, {
          pointer: pointerAt('/provider/id'),
          actual: jsonOf(p['id']),
        }),
      );
    else if (providerId !== null && p['id'] !== providerId)
      s.sink.push(
        fail('RPR-ACGP-011', `${which}: the provider descriptor names another provider than trust_debt.provider_id`, {
          pointer: pointerAt('/provider/id'),
          expected: heldId(providerId),
          actual: heldId(p['id']),
        }),
      );
    if (p['visibility'] === 'public' || p['visibility'] === 'private') visibility = p['visibility'];
    else
      s.sink.push(
        fail('RPR-ACGP-011', `${which}: the provider's visibility must be public or private`, {
          pointer: pointerAt('/provider/visibility'),
          actual: jsonOf(p['visibility']),
        }),
      );
    if (p['fail_mode'] !== undefined && p['fail_mode'] !== 'deny' && p['fail_mode'] !== 'allow')
      s.sink.push(
        fail('RPR-ACGP-011', `${which}: the provider's fail_mode must be deny or allow`, {
          pointer: pointerAt('/provider/fail_mode'),
          actual: jsonOf(p['fail_mode']),
        }),
      );
    if (visibility === 'private' && providerId === DEFAULT_PROVIDER_ID)
      s.sink.push(
        fail('RPR-ACGP-011', `${which}: ${DEFAULT_PROVIDER_ID} is the public default provider; it cannot be private`, {
          pointer: pointerAt('/provider/visibility'),
          expected: 'public',
          actual: 'private',
        }),
      );
  }
  const a = x['attestation'];
  if (a !== undefined) {
    if (!isObj(a))
      s.sink.push(
        fail('RPR-ACGP-012', `${which}: the attestation must be an object {digest, issued_by}`, {
          pointer: pointerAt('/attestation'),
          actual: jsonOf(a),
        }),
      );
    else {
      if (!isHashString(a['digest']))
        s.sink.push(
          fail('RPR-ACGP-012', `${which}: the attestation digest must be sha256: followed by 64 lowercase hex digits`, {
            pointer: pointerAt('/attestation/digest'),
            expected: 'sha256:<64 lowercase hex>',
            actual: jsonOf(a['digest']),
          }),
        );
      if (typeof a['issued_by'] !== 'string' || a['issued_by'] === '')
        s.sink.push(
          fail('RPR-ACGP-012', `${which}: the attestation's issued_by must be a non-empty string`, {
            pointer: pointerAt('/attestation/issued_by'),
            actual: jsonOf(a['issued_by']),
          }),
        );
    }
  }
  return visibility;
}
