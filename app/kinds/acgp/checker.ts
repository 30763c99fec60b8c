/**
 * Checks EVAL payloads one at a time (so a trace of any length streams through in
 * constant memory), each concern in its own module: one EVAL's form and recomputed
 * arithmetic (eval-form.ts, recompute.ts), the trace's order (trace-order.ts), for
 * `replay` the default trust-debt provider re-run over the trace (debt-replay.ts), the
 * providers it cannot re-run (counted here, under both modes), and the
 * result (result.ts); every finding, row and point goes through the bounded sink (sink.ts).
 */
import { isPlainObject as isObj } from '../../core/closed.js';
import { cutShort } from '../../core/findings.js';
import { fail, info, changedNumbers } from './findings.js';
import type { JsonValue } from '../../../shared/report.js';
import type { JcsWarning } from '../../core/jcs.js';
import type { KindResult } from '../../core/report.js';
import { DebtReplay } from './debt-replay.js';
import { checkEval, type CheckedEval } from './eval-form.js';
import type { AcgpPolicy } from './policy.js';
import type { EvalScope } from './recompute.js';
import { heldId, quotedId } from './held-id.js';
import { traceResult, type NamedProvider, type OtherProvider } from './result.js';
import { AcgpSink } from './sink.js';
import { TraceOrder } from './trace-order.js';
import { ACGP_LIMITS, PRIVATE_PROVIDERS_LIMIT } from './limits.js';

export type AcgpMode = 'verify' | 'replay';

/** The normative baseline a blueprint the policy does not hold is checked against (spec/acgp.md). */
const BASELINE_NAME = 'clarity.baseline@1.0';
/** Blueprints (or tiers) named one by one in a trace (a trace of a thousand blueprints is no real one; the EVALs of the rest are counted). */
const UNKNOWN_SAID = 8;
/**
 * Names of one kind the policy does not hold (blueprints, tiers): each said once, those past
 * UNKNOWN_SAID counted; held as heldId, so a long one costs no more than a short one.
 */
class Unheld {
  private readonly said = new Set<string>();
  /** EVALs of the names past UNKNOWN_SAID, said at the end. */
  unnamedEvals = 0;

  /** True when `id` is to be said now: its first EVAL, among the first UNKNOWN_SAID names. */
  first(id: string): boolean {
    const key = heldId(id);
    if (this.said.has(key)) return false;
    if (this.said.size >= UNKNOWN_SAID) {
      this.unnamedEvals++;
      return false;
    }
    this.said.add(key);
    return true;
  }
}

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

export class AcgpChecker {
  private readonly sink: AcgpSink;
  private readonly trace: TraceOrder;
  private readonly debt: DebtReplay;
  /** Private providers (RPR-ACGP-013) by heldId, the first acgp-private-providers of them. */
  private readonly privateProviders = new Map<string, NamedProvider>();
  /** EVALs of private providers past those named. */
  private privateProviderEvals = 0;
  private readonly privateLimit: number;
  /** Providers neither the default nor declared private, under both modes (RPR-ACGP-014), by heldId. */
  private readonly otherProviders = new Map<string, OtherProvider>();
  /** EVALs of such providers past the first UNKNOWN_SAID of them. */
  private otherProviderEvals = 0;
  /** EVALs of the default provider (verify says it did not replay their debt: RPR-ACGP-015). */
  private defaultEvals = 0;
  /** Blueprints the policy does not hold (RPR-ACGP-042). */
  private readonly unknownBlueprints = new Unheld();
  /** Tiers the policy does not define, when it defines any (RPR-ACGP-043). */
  private readonly unknownTiers = new Unheld();
  private count = 0;

  constructor(private readonly options: CheckerOptions) {
    this.sink = new AcgpSink(options.single, options.jsonl === true, options.limits);
    this.trace = new TraceOrder(options.policy);
    this.debt = new DebtReplay(options.policy);
    this.privateLimit = options.limits?.[PRIVATE_PROVIDERS_LIMIT] ?? ACGP_LIMITS[PRIVATE_PROVIDERS_LIMIT];
    if (options.policyNote) this.sink.push(info('RPR-ACGP-041', options.policyNote));
  }

  /**
   * RPR-ACGP-042: an EVAL's blueprint that the policy does not hold is checked against the
   * baseline (spec/acgp.md: "without either, the baseline's"), but upstream lets a blueprint
   * override the thresholds and the trust-debt parameters, so a stricter blueprint could
   * fail what passes here: the report says which blueprint that was, once, where it first
   * appears; past UNKNOWN_SAID of them, the EVALs of the others are counted (said at the
   * end). The baseline itself overrides nothing.
   */
  private blueprintHeld(s: EvalScope, id: string | null): void {
    if (id === null || id === BASELINE_NAME || this.options.policy.blueprints.has(id)) return;
    if (!this.unknownBlueprints.first(id)) return;
    const given =
      this.options.policy.source !== null
        ? 'the --policy does not name it'
        : this.options.policyNote
          ? 'the --policy file is not an ACGP policy (RPR-ACGP-041)'
          : 'no --policy was given';
    this.sink.push(
      info(
        'RPR-ACGP-042',
        `${s.which} is of blueprint ${quotedId(id)}, and ${given}: its risk thresholds and trust-debt parameters were taken as the baseline's (${BASELINE_NAME}); a blueprint may override them, and a stricter one could fail what passes here (give its policy with --policy)`,
        { pointer: s.at('/blueprint_id') },
      ),
    );
  }

  /**
   * RPR-ACGP-043: a governance_tier the policy does not define, when it defines tiers. Its
   * thresholds were not applied (the blueprint's were, or the baseline's), and a tier that
   * differs from the policy's by a character ("GT-2 " for "GT-2") escaped the stricter
   * thresholds of the tier it names, unsaid, where an unknown blueprint got RPR-ACGP-042. Said
   * once per tier, as 042 is per blueprint. A policy with no tiers leaves every tier to the
   * blueprint's or the baseline's thresholds, which 042 already says when they are the baseline's.
   */
  private tierHeld(s: EvalScope, tier: string | null): void {
    const { tiers } = this.options.policy;
    if (tier === null || tiers.size === 0 || tiers.has(tier) || !this.unknownTiers.first(tier)) return;
    const names = [...tiers.keys()];
    const defined = names.slice(0, UNKNOWN_SAID).map(quotedId).join(', ') + (names.length > UNKNOWN_SAID ? ', …' : '');
    this.sink.push(
      info(
        'RPR-ACGP-043',
        `${s.which} is of governance_tier ${quotedId(tier)}, which the --policy does not define (it defines ${defined}; names match exactly): no tier's risk thresholds were applied to it, only its blueprint's or the baseline's, and the tier it means could be stricter`,
        { pointer: s.at('/governance_tier') },
      ),
    );
  }

  /** The EVALs of blueprints and tiers past the first UNKNOWN_SAID: counted, never unsaid. */
  private unnamed(): void {
    if (this.unknownBlueprints.unnamedEvals > 0)
      this.sink.push(
        info(
          'RPR-ACGP-042',
          `${this.unknownBlueprints.unnamedEvals} more EVAL(s) are of blueprints the policy does not hold beyond the ${UNKNOWN_SAID} named above, and were held to the baseline's (${BASELINE_NAME}) thresholds and parameters too`,
        ),
      );
    if (this.unknownTiers.unnamedEvals > 0)
      this.sink.push(
        info(
          'RPR-ACGP-043',
          `${this.unknownTiers.unnamedEvals} more EVAL(s) are of governance tiers the policy does not define beyond the ${UNKNOWN_SAID} named above, and no tier's thresholds were applied to them either`,
        ),
      );
  }

  /** A trace element (or line) that is not JSON Reprise accepts; `cut` says why it looks cut short. */
  parseError(i: number, message: string, pointer?: string, cut?: string): void {
    const what = `${this.sink.where(i)} is not valid I-JSON`;
    this.refuse(i, cut ? `${cutShort(what)}: ${cut}: ${message}` : `${what}: ${message}`, pointer);
  }

  /**
   * A run of `n` blank lines from line index `from`, before a line that is not blank: no EVAL,
   * so named as lines, never as "EVAL 36" (blank lines at the end are allowed: LineFeeder.end).
   * The debt goes on across them: no EVAL was skipped.
   */
  blankLines(from: number, n: number): void {
    const lines = n === 1 ? `line ${from + 1} is blank` : `lines ${from + 1} to ${from + n} are blank`;
    this.sink.push(
      fail('RPR-ACGP-001', `${lines}: a JSON Lines trace holds one EVAL per line, and blank lines only at its end`, {
        pointer: `line:${from + 1}`,
      }),
    );
  }

  /** A JSON Lines line longer than the line limit, refused unread (lines.ts says why). */
  lineTooLong(i: number, bytes: number, limit: number): void {
    this.refuse(
      i,
      `${this.sink.where(i)} is ${bytes} bytes long, more than an EVAL line may hold (limit acgp-line-bytes = ${limit}); it was not parsed`,
    );
  }

  private refuse(i: number, message: string, pointer?: string): void {
    this.count = Math.max(this.count, i + 1);
    this.sink.push(
      fail('RPR-ACGP-001', message, {
        pointer: pointer ?? (this.options.jsonl ? `line:${i + 1}` : this.sink.ptr(i, '')),
      }),
    );
    this.debt.reset();
  }

  /** The whole document is not I-JSON (its loose parse is still checked, so a reviewer sees everything). */
  documentError(message: string, pointer: string | undefined): void {
    this.sink.push(
      fail('RPR-ACGP-001', `the document is not valid I-JSON: ${message}`, pointer !== undefined ? { pointer } : {}),
    );
  }

  /**
   * Numbers the strict parse changed (an integer beyond 2^53 that is not its text, or a
   * non-zero number that underflows to 0): a fail, as spec/common.md requires of input that
   * is not I-JSON. The checks would read the double, which is not what the trace says:
   * `pre + delta = post` held for 9007199254740993 + 0 = 9007199254740992, a delta of 1e-400
   * read as the 0 an ok EVAL accumulates.
   */
  precision(i: number, ws: readonly JcsWarning[]): void {
    const rule = {
      rule: 'RPR-ACGP-017',
      subject: this.sink.where(i),
      severity: 'fail',
      note: "the value checked would be the double's, not the text's",
    } as const;
    for (const f of changedNumbers(ws, rule, this.options.single ? '' : `/${i}`)) this.sink.push(f);
  }

  add(i: number, v: unknown): void {
    this.count = Math.max(this.count, i + 1);
    const sink = this.sink;
    if (!isObj(v)) {
      sink.push(
        fail('RPR-ACGP-032', `${sink.where(i)} is not an EVAL object`, {
          pointer: sink.ptr(i, ''),
          actual: Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v,
        }),
      );
      this.debt.reset();
      return;
    }
    const s: EvalScope = { sink, i, which: sink.where(i), at: (p) => sink.ptr(i, p) };
    const f = checkEval(s, this.options.policy, v);
    this.trace.check(s, f);
    this.blueprintHeld(s, f.blueprintId);
    this.tierHeld(s, f.tier);
    if (f.provider === 'default') this.defaultEvals++;
    if (f.provider === 'private') this.privateProvider(i, f.providerId ?? '?');
    if (f.provider === 'unknown') this.otherProvider(i, f);
    const replay = this.options.mode === 'replay';
    const replayed = replay ? this.debt.replay(s, f) : null;
    sink.point(() => {
      const p: { [k: string]: JsonValue } = {
        index: i,
        timestamp: f.timestamp,
        intervention: f.intervention,
        flagged: f.flagged,
        pre: f.pre,
        delta: f.delta,
        post: f.post,
        thresholdsCrossed: f.crossed,
      };
      if (replay) p['replayed'] = replayed;
      return p;
    });
  }

  /**
   * An EVAL of a private provider, counted for RPR-ACGP-013. Past acgp-private-providers
   * providers the EVALs of the others are counted only, so a trace naming a new private
   * provider on every line still streams in constant memory; those EVALs are checked all the
   * same (debt-replay.ts keeps no per-provider state), only their providers go unnamed. Each
   * is held by heldId, with its first EVAL `i` (where its 013 points: the id whole is there).
   */
  private privateProvider(i: number, id: string): void {
    const key = heldId(id);
    const p = this.privateProviders.get(key);
    if (p) p.evals++;
    else if (this.privateProviders.size >= this.privateLimit) this.privateProviderEvals++;
    else this.privateProviders.set(key, { evals: 1, first: i });
  }

  /**
   * An EVAL of a provider Reprise cannot re-execute: counted, and whether it was declared
   * public, for RPR-ACGP-014. Past UNKNOWN_SAID providers the EVALs of the others are counted
   * only, so a trace naming a new provider on every line still streams in constant memory.
   * Each is held by heldId, with its first EVAL `i`, as a private one is.
   */
  private otherProvider(i: number, f: CheckedEval): void {
    const key = heldId(f.providerId ?? '(none)');
    const o = this.otherProviders.get(key);
    if (o) {
      o.evals++;
      o.declaredPublic ||= f.visibility === 'public';
    } else if (this.otherProviders.size >= UNKNOWN_SAID) this.otherProviderEvals++;
    else this.otherProviders.set(key, { evals: 1, first: i, declaredPublic: f.visibility === 'public' });
  }

  result(): KindResult {
    this.unnamed();
    const { mode, single, policy } = this.options;
    return traceResult({
      replay: mode === 'replay',
      single,
      policy,
      evals: this.count,
      sink: this.sink,
      trace: this.trace,
      debt: this.debt,
      privateProviders: this.privateProviders,
      privateProviderEvals: this.privateProviderEvals,
      privateLimit: this.privateLimit,
      otherProviders: this.otherProviders,
      otherProviderEvals: this.otherProviderEvals,
      defaultEvals: this.defaultEvals,
    });
  }
}
