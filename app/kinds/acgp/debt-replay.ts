/**
 * `replay`: the default trust-debt provider re-run over the trace, EVAL by EVAL, and its
 * pre, delta, post and thresholds_crossed compared EXACT with the recorded ones. A private
 * provider's values are RECORDED (post = pre + delta is checked, and its pre against the debt
 * handed to it); an unknown one's cannot be replayed. The state is anchored on a recorded pre
 * where the trace starts or where the EVAL before could not be replayed.
 */
import type { Comparison, JsonValue } from '../../../shared/report.js';
import { fail, info, unavailable, type RuleId } from './findings.js';
import { DEFAULT_PROVIDER_ID, dec, eq4, exactJson, num4, round4, type DebtParams, type Dec } from './model.js';
import type { CheckedEval, RecordedNumber } from './eval-form.js';
import type { AcgpPolicy } from './policy.js';
import { heldId } from './held-id.js';
import { DefaultTrustDebtProvider, accumulateFrom, step, type Step, type TrustDebtState } from './provider.js';
import type { EvalScope } from './recompute.js';

/** The values replayed for one EVAL (its trajectory point shows them). */
export type Replayed = { pre: number; delta: number; post: number; thresholdsCrossed: string[] };

type DebtKey = 'pre' | 'delta' | 'post' | 'thresholds_crossed';
const DEBT_KEYS: readonly DebtKey[] = ['pre', 'delta', 'post', 'thresholds_crossed'];

/** The recorded post of a private provider's EVAL: the debt the next EVAL continues from. */
interface PrivatePost {
  post: number;
  /** Whole, to tell the same provider exactly: one id, held until the next EVAL only. */
  providerId: string | null;
}

/**
 * How a private EVAL's pre was held to the debt handed to it: by the default provider's state
 * (`default`), by another private provider's EVAL before it (`private`), or by its own
 * provider's EVAL before it (`own`); `kept` when it is that debt (for `own`, at most that
 * debt). Null when no debt precedes it (the trace's start, or after an EVAL that could not be
 * replayed).
 */
type Handover = { from: 'default' | 'private' | 'own'; kept: boolean } | null;

export class DebtReplay {
  /** The trace's starting state: the first anchor's recorded pre. */
  startingState: number | null = null;
  private state: TrustDebtState | null = null;
  /** The state is a private provider's recorded post (afterPrivate), not a replayed one. */
  private privatePost = false;
  /** The EVAL before was a private provider's without a time: the next one's decay cannot be told (afterPrivate). */
  private untimedPrivate = false;
  /** The EVAL before was a private provider's, with this recorded post, timed or not (afterPrivate). */
  private privateBefore: PrivatePost | null = null;
  private safe = 0;
  private anchors = 0;
  private readonly providers = new Map<DebtParams, DefaultTrustDebtProvider>();

  constructor(private readonly policy: AcgpPolicy) {}

  /** The next EVAL cannot follow from the state: it is anchored anew. */
  reset(): void {
    this.state = null;
    this.untimedPrivate = false;
    this.privateBefore = null;
  }

  /** Replays one EVAL's trust debt; the replayed values when the default provider ran. */
  replay(s: EvalScope, f: CheckedEval): Replayed | null {
    const pointerAt = (k: string) => s.at(`/trust_debt/${k}`);
    const orig: Record<DebtKey, JsonValue> = {
      pre: f.pre,
      delta: f.delta,
      post: f.post,
      thresholds_crossed: f.crossed,
    };
    const all = (status: Comparison['status'], reason: string) => {
      for (const k of DEBT_KEYS)
        s.sink.row(status, () => ({
          output: pointerAt(k),
          mode: 'EXACT',
          original: orig[k],
          replayed: null,
          status,
          reason,
        }));
    };
    if (f.provider === 'private') {
      const handover = this.privateBefore ? this.fromPrivate(s, f, this.privateBefore) : this.intoPrivate(s, f);
      recorded(s, f, orig, handover, loweredWithin(s, f));
      this.state = this.afterPrivate(f);
      return null;
    }
    if (f.provider === 'unknown') {
      // Counted by the checker (RPR-ACGP-014); never re-run under the default provider in its place.
      all('unavailable', `provider ${heldId(f.providerId ?? '(none)')} is not available here`);
      this.reset();
      return null;
    }
    if (f.pre === null || f.intervention === null || f.flagged === null) {
      all('unavailable', 'the EVAL did not pass its form checks');
      this.reset();
      return null;
    }
    return this.recompute(s, f, f.pre, f.intervention, f.flagged);
  }

  /**
   * A private provider's EVAL after the default provider's: its recorded pre must be the
   * default provider's state decayed to its time, the debt it takes over (decay is the only
   * way down). Its own formulas are withheld, so a pre that is not that (a debt of 12.6 taken
   * over as 0) cannot be decided either way: unavailable, never passed (the reverse change is
   * `unreconciled`). Null when no default state precedes it.
   */
  private intoPrivate(s: EvalScope, f: CheckedEval): Handover {
    if (this.state === null || this.privatePost || f.pre === null) return null;
    const provider = this.provider(this.policy.debt(f.blueprintId).params);
    const d = provider.decay(this.state, f.tsNs);
    const decayed = d ? provider.apply_recovery(d.state, this.safe).current_debt : null;
    if (decayed !== null && eq4(f.pre, decayed)) return { from: 'default', kept: true };
    const pointer = s.at('/trust_debt/pre');
    const handed =
      decayed === null ? 'cannot be decayed to it (a timestamp is missing)' : `decayed is ${num4(decayed)}`;
    s.sink.push(
      unavailable(
        'RPR-ACGP-026',
        `${s.which}: its private provider's recorded pre ${f.pre} is not the debt the default provider hands over (its state ${handed}): the private provider's formulas are withheld, so whether the debt was reset across the change of provider cannot be decided`,
        { pointer, expected: decayed === null ? null : num4(decayed), actual: f.pre },
      ),
    );
    return { from: 'default', kept: false };
  }

  /**
   * A private EVAL after a private EVAL. Another private provider takes over the recorded post
   * before it, as it stood: it cannot know that provider's decay, so any other pre (a debt of
   * 12.6 taken over as 0, then the default provider going on from 0) is unavailable, the rule
   * of the change between the default and a private provider (intoPrivate, unreconciled).
   * The same provider decays its own debt by formulas it withholds (RECORDED): its pre may be
   * at most its post before (decay is the only way down, ACGP-3's observable constraint), and
   * a pre above it cannot be decided either.
   */
  private fromPrivate(s: EvalScope, f: CheckedEval, before: PrivatePost): Handover {
    if (f.pre === null) return null;
    const own = before.providerId === f.providerId;
    const from = own ? 'own' : 'private';
    const pre = dec(f.pre);
    if (own ? pre.lte(dec(before.post)) : pre.eq(dec(before.post))) return { from, kept: true };
    const by = own ? 'the same private provider' : `private provider ${heldId(before.providerId ?? '?')}`;
    const moved = pre.lt(dec(before.post)) ? 'was reset' : 'rose';
    s.sink.push(
      unavailable(
        'RPR-ACGP-026',
        `${s.which}: its private provider's recorded pre ${f.pre} is not the recorded post ${before.post} of the EVAL before it (${by})${own ? ' nor below it' : ''}: private decay and compounding are withheld, so whether the debt ${moved} between the two cannot be decided`,
        { pointer: s.at('/trust_debt/pre'), expected: before.post, actual: f.pre },
      ),
    );
    return { from, kept: false };
  }

  /**
   * The state a private provider's EVAL leaves: its recorded post, at its time. Its values are
   * RECORDED, not recomputed, but what it recorded is the debt the next EVAL decays from:
   * re-anchoring on the next EVAL's own pre instead let one private EVAL reset the default
   * provider's debt to 0 (decay is the only way down). Null, re-anchored as before, when the
   * post or the time is missing.
   */
  private afterPrivate(f: CheckedEval): TrustDebtState | null {
    // What a private EVAL after it takes over needs no time: no decay is applied to it (fromPrivate).
    this.privateBefore = f.post === null ? null : { post: f.post, providerId: f.providerId };
    // Without its time, what the next EVAL decays from is known but not for how long: that
    // EVAL is RPR-ACGP-024 (anchor), never re-anchored in silence on its own pre, which let a
    // private EVAL with no timestamp (the spec allows one) reset the debt to 0 unseen.
    this.untimedPrivate = f.post !== null && f.tsNs === null;
    if (f.post === null || f.tsNs === null) return null;
    this.safe = 0;
    this.privatePost = true;
    return this.provider(this.policy.debt(f.blueprintId).params).initial(dec(f.post), f.tsNs);
  }

  private provider(params: DebtParams): DefaultTrustDebtProvider {
    let p = this.providers.get(params);
    if (!p) this.providers.set(params, (p = new DefaultTrustDebtProvider(params)));
    return p;
  }

  private recompute(
    s: EvalScope,
    f: CheckedEval,
    pre: number,
    intervention: NonNullable<CheckedEval['intervention']>,
    flagged: boolean,
  ): Replayed {
    const provider = this.provider(this.policy.debt(f.blueprintId).params);
    let r: Step | null = null;
    if (this.state !== null) r = step(provider, this.state, f.tsNs, intervention, flagged, this.safe);
    // After a private provider's post, a pre that is not it decayed is re-anchored, unavailable.
    const unreconciled = r !== null && this.privatePost && !eq4(pre, r.pre);
    this.privatePost = false;
    this.privateBefore = null;
    if (unreconciled) this.unreconciled(s, pre, r!.pre);
    else if (!r) this.anchor(s, f, pre);
    this.untimedPrivate = false;
    const anchored = unreconciled || r === null;
    if (anchored) r = accumulateFrom(provider, provider.initial(dec(pre), f.tsNs), intervention, flagged, null);
    return this.compared(s, f, r!, anchored, intervention, flagged);
  }

  /** Compares a step's values with the recorded ones and moves the state on. */
  private compared(
    s: EvalScope,
    f: CheckedEval,
    r: Step,
    anchored: boolean,
    intervention: NonNullable<CheckedEval['intervention']>,
    flagged: boolean,
  ): Replayed {
    if (!anchored) compareNum(s, 'pre', 'RPR-ACGP-020', f.pre, r.pre, r.periods);
    compareNum(s, 'delta', 'RPR-ACGP-021', f.delta, r.delta, null);
    compareNum(s, 'post', 'RPR-ACGP-022', f.post, r.post, null);
    compareCrossed(s, f.crossed, r);
    this.state = r.state;
    this.safe = intervention === 'ok' && !flagged ? this.safe + 1 : 0;
    return { pre: num4(r.pre), delta: num4(r.delta), post: num4(r.post), thresholdsCrossed: r.crossed };
  }

  /**
   * After a private provider's EVAL, a recorded pre that is not its post decayed: the debt
   * may have been reset across the change of provider (decay is the only way down), or the
   * private provider decays otherwise; its formulas are withheld, so neither is decided.
   * Unavailable, never taken as given: the recorded pre is the state from here.
   */
  private unreconciled(s: EvalScope, pre: number, decayed: Dec): void {
    const pointer = s.at('/trust_debt/pre');
    s.sink.push(
      unavailable(
        'RPR-ACGP-026',
        `${s.which}: its recorded pre ${pre} is not the private provider's recorded post decayed (${num4(decayed)}): whether the debt was reset across the change of provider cannot be decided; the recorded pre is the state from here`,
        { pointer, expected: num4(decayed), actual: pre },
      ),
    );
    s.sink.row('unavailable', () => ({
      output: pointer,
      mode: 'EXACT',
      original: pre,
      replayed: num4(decayed),
      status: 'unavailable',
      reason: "not the private provider's post decayed",
    }));
    this.anchors++;
  }

  /** Anchors on this EVAL's recorded pre: the trace's start, or after a step that could not be recomputed. */
  private anchor(s: EvalScope, f: CheckedEval, pre: number): void {
    const pointer = s.at('/trust_debt/pre');
    if (this.state !== null || this.untimedPrivate) {
      const missing =
        f.tsNs === null
          ? `${s.which} has no ${f.timestampPresent ? 'valid ' : ''}timestamp`
          : this.untimedPrivate
            ? `the private provider's EVAL before ${s.which}, whose recorded post it decays from, has no timestamp`
            : `the EVAL before ${s.which} has no timestamp`;
      s.sink.push(
        unavailable(
          'RPR-ACGP-024',
          `decay needs the timestamps of both EVALs: ${missing}; pre was not recomputed (no guess), and the recorded pre is taken as the state from here`,
          { pointer: s.at('/timestamp') },
        ),
      );
      s.sink.row('unavailable', () => ({
        output: pointer,
        mode: 'EXACT',
        original: pre,
        replayed: null,
        status: 'unavailable',
        reason: 'timestamp missing where decay needs one',
      }));
    } else {
      if (this.anchors === 0) {
        this.startingState = pre;
        s.sink.push(
          info(
            'RPR-ACGP-025',
            `the trace's starting state is ${s.which}'s recorded pre ${pre}, taken as given; every later value is recomputed`,
            { pointer },
          ),
        );
      } else
        s.sink.push(
          info(
            'RPR-ACGP-026',
            `${s.which}: the state is re-anchored on its recorded pre ${pre} (taken as given) because the EVAL before it could not be replayed`,
            { pointer },
          ),
        );
      s.sink.row('pass', () => ({
        output: pointer,
        mode: 'RECORDED',
        original: pre,
        replayed: pre,
        status: 'pass',
        reason: 'starting state, taken as given',
      }));
    }
    this.anchors++;
  }
}

/** Why a private EVAL's pre row has its status: the debt it was held to, and whether it is that debt. */
function handoverReason(h: NonNullable<Handover>): string {
  if (h.from === 'default')
    return h.kept
      ? "private provider: RECORDED; the default provider's debt decayed, as handed over"
      : 'not the debt the default provider hands over';
  if (h.from === 'own')
    return h.kept
      ? 'private provider: RECORDED; at most the recorded post of its EVAL before (its decay is withheld)'
      : 'above the recorded post of its EVAL before';
  return h.kept
    ? 'private provider: RECORDED; the recorded post of the private EVAL before, carried over'
    : 'not the recorded post of the private EVAL before';
}

/**
 * A private EVAL whose debt goes down within it: a negative delta. `pre` is the debt after
 * decay, and decay is the only way down (ACGP-3's observable constraint, which the seed
 * requires private providers to keep), so a delta of -10.8 wiped a debt past
 * re_tiering_review to 0 and the default provider went on from 0. The provider's formulas are
 * withheld (it may book its own decay there), so, as for a pre that is not the debt handed to
 * it, this is unavailable (RPR-ACGP-026), never a pass. A post below pre with a delta that is
 * not negative already fails post = pre + delta (RPR-ACGP-010). True when said.
 */
function loweredWithin(s: EvalScope, f: CheckedEval): boolean {
  if (f.delta === null || f.delta >= 0) return false;
  s.sink.push(
    unavailable(
      'RPR-ACGP-026',
      `${s.which}: its recorded delta ${f.delta} is negative: the debt went down within the EVAL, where decay (already in pre) is the only way down; the private provider's formulas are withheld, so whether the debt was reset cannot be decided`,
      { pointer: s.at('/trust_debt/delta'), actual: f.delta },
    ),
  );
  return true;
}

/**
 * A private provider: RECORDED, not recomputed; post = pre + delta is checked exactly (never
 * through a double: pre 1 + delta 1e-150 is not post 1), a pre taking over a debt
 * (`handover`: DebtReplay.intoPrivate, fromPrivate) is that debt, and its delta is not
 * negative (`lowered` when it is: loweredWithin).
 */
function recorded(
  s: EvalScope,
  f: CheckedEval,
  orig: Record<DebtKey, JsonValue>,
  handover: Handover,
  lowered: boolean,
): void {
  const pointerAt = (k: string) => s.at(`/trust_debt/${k}`);
  for (const k of ['pre', 'delta', 'thresholds_crossed'] as const) {
    const held = k === 'pre' ? handover : null;
    const down = k === 'delta' && lowered;
    const status = held?.kept === false || down ? 'unavailable' : 'pass';
    s.sink.row(status, () => ({
      output: pointerAt(k),
      mode: 'RECORDED',
      original: orig[k],
      replayed: null,
      status,
      reason: held
        ? handoverReason(held)
        : down
          ? 'negative: decay is the only way down'
          : 'private provider: RECORDED, not recomputed',
    }));
  }
  recordedPost(s, f, lowered);
}

/** The private post row: post = pre + delta exactly (fail otherwise), unavailable when a negative delta lowered it. */
function recordedPost(s: EvalScope, f: CheckedEval, lowered: boolean): void {
  const sum = f.pre !== null && f.delta !== null ? dec(f.pre).plus(dec(f.delta)) : null;
  const postOk = sum !== null && f.post !== null && dec(f.post).eq(sum);
  const status = !postOk ? 'fail' : lowered ? 'unavailable' : 'pass';
  s.sink.row(status, () => ({
    output: s.at('/trust_debt/post'),
    mode: 'RECORDED',
    original: f.post,
    replayed: sum === null ? null : exactJson(sum),
    status,
    reason: lowered
      ? 'private provider: RECORDED; lowered by a negative delta (decay is the only way down)'
      : 'private provider: RECORDED; only post = pre + delta was checked',
  }));
}

function compareNum(
  s: EvalScope,
  k: 'pre' | 'delta' | 'post',
  rule: RuleId,
  recordedValue: RecordedNumber,
  exact: Dec,
  periods: Dec | null,
): void {
  const pointer = s.at(`/trust_debt/${k}`);
  const pass = recordedValue !== null && eq4(recordedValue, exact);
  s.sink.row(pass ? 'pass' : 'fail', () => ({
    output: pointer,
    mode: 'EXACT',
    original: recordedValue,
    replayed: num4(exact),
    status: pass ? 'pass' : 'fail',
  }));
  if (!pass && recordedValue !== null) {
    const how =
      k === 'pre'
        ? ` (after decay over ${periods?.toString() ?? '?'} whole period(s))`
        : k === 'delta'
          ? ' (accumulation for the recorded intervention and flag)'
          : ' (pre + delta)';
    s.sink.push(
      fail(
        rule,
        `${s.which}: trust_debt.${k} replayed by ${DEFAULT_PROVIDER_ID} is ${round4(exact).toFixed(4)}${how}, not the recorded ${recordedValue}`,
        { pointer, expected: num4(exact), actual: recordedValue },
      ),
    );
  }
}

function compareCrossed(s: EvalScope, crossed: string[] | null, r: Step): void {
  const pointer = s.at('/trust_debt/thresholds_crossed');
  const ok = crossed !== null && sameSet(crossed, r.crossed);
  s.sink.row(ok ? 'pass' : 'fail', () => ({
    output: pointer,
    mode: 'EXACT',
    original: crossed,
    replayed: r.crossed,
    status: ok ? 'pass' : 'fail',
  }));
  if (!ok && crossed !== null)
    s.sink.push(
      fail(
        'RPR-ACGP-023',
        `${s.which}: thresholds_crossed are the thresholds t with pre < t ≤ post (${round4(r.pre).toFixed(4)} < t ≤ ${round4(r.post).toFixed(4)})`,
        {
          pointer,
          expected: r.crossed,
          actual: crossed,
        },
      ),
    );
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((x) => set.has(x));
}
