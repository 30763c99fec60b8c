/**
 * The kind result of a checked trace: the findings kept, then the summary findings (never
 * elided: private providers and those Reprise cannot re-execute, what the limits left out), and the details a
 * reviewer reads (counts, the thresholds and debt parameters used, the trajectory).
 */
import type { Finding, JsonValue } from '../../../shared/report.js';
import { authenticity } from '../../core/authenticity.js';
import { finding, info, unavailable, warning } from './findings.js';
import type { KindResult } from '../../core/report.js';
import type { DebtReplay } from './debt-replay.js';
import { DEBT_THRESHOLD_NAMES, DEFAULT_PROVIDER_ID, num4 } from './model.js';
import type { AcgpPolicy } from './policy.js';
import type { AcgpSink } from './sink.js';
import type { TraceOrder } from './trace-order.js';
import { PRIVATE_PROVIDERS_LIMIT } from './limits.js';

/**
 * A trust-debt provider the report names: its EVALs, and the index of the first, where its
 * finding points (the id is held cut when long, held-id.ts: the trace holds it whole there).
 */
export interface NamedProvider {
  evals: number;
  first: number;
}

/** A trust-debt provider neither acgp.core.default@1 nor declared private, and whether one of its EVALs declared it public. */
export interface OtherProvider extends NamedProvider {
  declaredPublic: boolean;
}

export interface CheckedTrace {
  replay: boolean;
  single: boolean;
  policy: AcgpPolicy;
  evals: number;
  sink: AcgpSink;
  trace: TraceOrder;
  debt: DebtReplay;
  /** The first `privateLimit` private providers, by name (heldId). */
  privateProviders: ReadonlyMap<string, NamedProvider>;
  /** EVALs of private providers past those named. */
  privateProviderEvals: number;
  /** The limit acgp-private-providers that held the names. */
  privateLimit: number;
  /** EVALs of the default provider. */
  defaultEvals: number;
  /** Providers neither the default nor declared private (RPR-ACGP-014), the first few by name (heldId). */
  otherProviders: ReadonlyMap<string, OtherProvider>;
  /** EVALs of such providers past those named. */
  otherProviderEvals: number;
}

/**
 * RPR-ACGP-015: `verify` checks each EVAL alone and never re-runs the default provider, so a
 * forged debt (pre 7.6, delta 0, post 7.6 where the provider gives 12.6) passes it: the report
 * says so as plainly as RPR-ACGP-013 says it of a private provider, not only in
 * details.debtRecomputed.
 */
function notReplayed(t: CheckedTrace): Finding[] {
  if (t.replay || t.defaultEvals === 0) return [];
  return [
    info(
      'RPR-ACGP-015',
      `verify did not replay the trust debt of ${DEFAULT_PROVIDER_ID}: the pre, delta, post and thresholds_crossed of ${t.defaultEvals} EVAL(s) were checked for form and post = pre + delta only, and were NOT recomputed (decay, accumulation, crossings); replay recomputes them`,
    ),
  ];
}

/**
 * RPR-ACGP-014: a provider neither acgp.core.default@1, the only one Reprise re-executes, nor
 * declared private (RECORDED by the seed's design). Its formulas are not here, and running the
 * default provider in its place would judge its debt by another provider's rules, so its
 * debt is never recomputed. Under replay that is unavailable. Under verify, which re-executes
 * no provider (RPR-ACGP-015 says so of the default one), the verdict stays what the rest
 * gives and a warning says what was checked, and that replay cannot close the gap either.
 */
function otherProviders(t: CheckedTrace): Finding[] {
  const out = [...t.otherProviders].map(([id, o]) =>
    otherProvider(
      t.replay,
      `trust-debt provider ${id} (${o.evals} EVAL(s)) is ${o.declaredPublic ? `declared public but is not ${DEFAULT_PROVIDER_ID}, the only provider Reprise re-executes` : `neither ${DEFAULT_PROVIDER_ID}, the only provider Reprise re-executes, nor declared private`}`,
      firstAt(t, o),
    ),
  );
  if (t.otherProviderEvals > 0)
    out.push(
      otherProvider(
        t.replay,
        `${t.otherProviderEvals} more EVAL(s) are of trust-debt providers beyond the ${t.otherProviders.size} named above that are neither ${DEFAULT_PROVIDER_ID} nor declared private`,
      ),
    );
  return out;
}

/** Where a named provider's finding points: its id in its first EVAL, whole even when the report cuts it. */
function firstAt(t: CheckedTrace, p: NamedProvider): { pointer: string } {
  return { pointer: t.sink.ptr(p.first, '/trust_debt/provider_id') };
}

function otherProvider(replay: boolean, who: string, at: { pointer?: string } = {}): Finding {
  if (replay)
    return unavailable(
      'RPR-ACGP-014',
      `${who}: the formulas are not available here, so the pre, delta, post and thresholds_crossed of those EVALs were NOT recomputed, and ${DEFAULT_PROVIDER_ID} was not run instead; only their form and post = pre + delta were checked (ctq, risk and the intervention were recomputed), and the EVAL after each starts again from its own recorded pre`,
      at,
    );
  return warning(
    'RPR-ACGP-014',
    `${who}: verify checked the pre, delta, post and thresholds_crossed of those EVALs for form and post = pre + delta only, and did NOT recompute them (decay, accumulation, crossings); replay cannot recompute them either, since the formulas are not available here (replay is UNAVAILABLE for them), and ${DEFAULT_PROVIDER_ID} is never run instead`,
    at,
  );
}

/** Whether any EVAL is a private provider's, named or not. */
function hasPrivate(t: CheckedTrace): boolean {
  return t.privateProviders.size > 0 || t.privateProviderEvals > 0;
}

/**
 * RPR-ACGP-013: each private provider, with its EVAL count. Past acgp-private-providers
 * providers one more 013 counts the EVALs of the others (how many providers they are is not
 * kept: that would be the unbounded memory the limit prevents), and names the limit that names
 * every one. Info, as each 013 it stands for: those EVALs were checked as the named ones'
 * were, only their providers' names were left out, and a limit never changes the verdict
 * (RPR-ACGP-034 carries the worst severity it leaves out for the same reason).
 */
function privateProviders(t: CheckedTrace): Finding[] {
  const handedOver = t.replay
    ? ", that each pre is the debt handed to it (replay: another provider's post before it, or the default provider's debt decayed; after its own EVAL, at most its post), that the debt does not go down within an EVAL (no negative delta)"
    : '';
  const checked = `Reprise checked only the descriptor form, the attestation digest form, post = pre + delta${handedOver}, and that no intervention was relaxed`;
  const out = [...t.privateProviders].map(([id, p]) =>
    info(
      'RPR-ACGP-013',
      `trust-debt provider ${id} is private: the pre, delta, post and thresholds_crossed of ${p.evals} EVAL(s) are RECORDED and were NOT recomputed; ${checked}`,
      firstAt(t, p),
    ),
  );
  const n = t.privateProviderEvals;
  if (n > 0)
    out.push(
      info(
        'RPR-ACGP-013',
        `${n} more EVAL(s) are of private trust-debt providers beyond the ${t.privateLimit} this report names (limit ${PRIVATE_PROVIDERS_LIMIT} = ${t.privateLimit}; --limit ${PRIVATE_PROVIDERS_LIMIT}=${t.privateLimit + n} names every one): their pre, delta, post and thresholds_crossed are RECORDED and were NOT recomputed either; ${checked}, as for the providers named`,
      ),
    );
  return out;
}

function summaryFindings(t: CheckedTrace): Finding[] {
  const { sink } = t;
  const findings: Finding[] = [...notReplayed(t), ...privateProviders(t)];
  findings.push(...otherProviders(t));
  if (sink.elidedFindings > 0)
    findings.push(
      finding(
        'RPR-ACGP-034',
        sink.elidedWorst ?? 'info',
        `${sink.elidedFindings} more finding(s) were left out of this report (limit acgp-findings = ${sink.limits.findings}); the worst of them is ${sink.elidedWorst}`,
      ),
    );
  if (sink.elidedRows > 0 || sink.elidedPoints > 0)
    findings.push(
      info(
        'RPR-ACGP-035',
        `${sink.elidedRows} comparison row(s) and ${sink.elidedPoints} trajectory point(s) were left out (limits acgp-comparisons, acgp-trajectory)`,
      ),
    );
  return findings;
}

function details(t: CheckedTrace): { [k: string]: JsonValue } {
  const debt = t.trace.firstDebt ?? t.policy.debt(null);
  const out: { [k: string]: JsonValue } = {
    evals: t.evals,
    provider: t.trace.firstProvider,
    debtRecomputed: t.replay && !hasPrivate(t) && t.otherProviders.size === 0,
    riskThresholds: t.trace.firstRisk,
    debtThresholds: Object.fromEntries(DEBT_THRESHOLD_NAMES.map((n) => [n, num4(debt.params.thresholds[n])])),
    debtParameters: {
      source: debt.source,
      decay_fraction: num4(debt.params.decay_fraction),
      period_hours: Number(debt.params.period_hours.toString()),
      min_debt: num4(debt.params.min_debt),
    },
    comparisonCounts: { ...t.sink.rowCounts },
    trajectory: t.sink.trajectory,
  };
  if (t.debt.startingState !== null) out['startingState'] = t.debt.startingState;
  // Providers whose debt no mode recomputes: the private ones and those Reprise cannot run (heldId).
  const notRecomputed = [...t.privateProviders.keys(), ...t.otherProviders.keys()];
  if (notRecomputed.length > 0) out['notRecomputed'] = notRecomputed;
  // The EVALs of private providers it does not list, past acgp-private-providers (RPR-ACGP-013).
  if (t.privateProviderEvals > 0) out['notRecomputedUnnamedEvals'] = t.privateProviderEvals;
  return out;
}

export function traceResult(t: CheckedTrace): KindResult {
  const findings = [...t.sink.findings, ...summaryFindings(t)];
  const why = `ACGP ${t.single ? 'evaluations' : 'traces'} carry no signature; Reprise checks their internal consistency${t.replay ? ' and recomputes the trust debt' : ''}${hasPrivate(t) ? ", and the private providers' attestation digests are checked for form only, never verified" : ''}.`;
  return {
    id: t.trace.traceId,
    findings,
    chain: [],
    comparisons: t.sink.comparisons,
    details: details(t),
    authenticity: authenticity.consistencyOnly(why),
  };
}
