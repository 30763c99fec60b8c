/**
 * What each substitution of the trainer's sweep changed, in words a trainer can act on:
 * its rate in the unit the engine counted (outputs that differed from the recording, or a
 * TG replay's BANDED replays in the governed window, never "runs"), and every output that
 * differed without a numeric |Δ| and ε, which the chart of |Δ| against ε (SweepDeltaChart)
 * cannot hold. A dump replay is the case in point: it compares its expression EXACT,
 * recorded hash against replayed hash, so its difference is listed here with what changed
 * inside the expression (details.expression: tokens, text, log-probabilities, score).
 */
import { expressionOf, jsonObjectOf as obj, tgDriftRateIn } from '../../../shared/details/index.js';
import { shownValue, type Comparison, type JsonValue, type ReplayMode, type Report } from '../../../shared/report.js';
import { chartedRow, type Sweep, type SweepRun } from './sweep.js';

/** A share as a percentage, to one decimal. */
export const pct = (x: number): string => `${Math.round(x * 1000) / 10}%`;

/** One substitution's drift rate and what it counts. */
export interface SweepRate {
  whatIf: string;
  /** Drifted over compared; null when nothing could be replayed. */
  rate: number | null;
  drifted: number;
  compared: number;
  /** What was counted: a TG replay's BANDED replays in its governed window, else the report's outputs. */
  unit: 'output' | 'replay';
  why: string | null;
}

/** A substitution's first run with a report (its repeats replay the same thing), else its first that failed. */
function firstRuns(sweep: Sweep): SweepRun[] {
  return sweep.plan
    .map((w) => {
      const runs = sweep.runs.filter((r) => r.whatIf === w).sort((a, b) => a.repeat - b.repeat);
      return runs.find((r) => r.report) ?? runs.find((r) => !r.cancelled);
    })
    .filter((r): r is SweepRun => r !== undefined);
}

/** One run's rate: a TG replay's governed drift rate (every version it ran under summed), else its outputs that failed. */
function rateOf(whatIf: string, report: Report): SweepRate {
  const g = tgDriftRateIn(report);
  let drifted = 0;
  let compared = 0;
  if (g) {
    for (const v of g.versions) {
      drifted += v.drifted;
      compared += v.inWindow;
    }
  } else {
    const rows = report.comparisons ?? [];
    compared = rows.filter((c) => c.status !== 'unavailable').length;
    drifted = rows.filter((c) => c.status === 'fail').length;
  }
  const unit = g ? 'replay' : 'output';
  if (compared > 0) return { whatIf, rate: drifted / compared, drifted, compared, unit, why: null };
  const blocker = report.findings.find(
    (f) => f.severity === 'unavailable' && !/what-if replay: a demonstration/.test(f.message),
  );
  return {
    whatIf,
    rate: null,
    drifted,
    compared,
    unit,
    why: blocker ? `${blocker.rule}: ${blocker.message}` : 'nothing was replayed',
  };
}

/** One rate per substitution that has ended a run, and the governed maximum a TG replay names (else null). */
export function sweepRates(sweep: Sweep): { rates: SweepRate[]; maxRate: number | null } {
  let maxRate: number | null = null;
  const rates = firstRuns(sweep).map((run): SweepRate => {
    if (!run.report) return { whatIf: run.whatIf, rate: null, drifted: 0, compared: 0, unit: 'output', why: run.error };
    const g = tgDriftRateIn(run.report);
    if (g) maxRate = g.maxRate;
    return rateOf(run.whatIf, run.report);
  });
  return { rates, maxRate };
}

/** A rate in its own unit: "1 of 1 output differed (100%)", "1 of 3 BANDED replays in the governed window drifted (33.3%)". */
export function rateWords(r: SweepRate): string {
  const one = r.compared === 1;
  const what =
    r.unit === 'output'
      ? `${one ? 'output' : 'outputs'} differed`
      : `${one ? 'BANDED replay' : 'BANDED replays'} in the governed window drifted`;
  return `${r.drifted} of ${r.compared} ${what} (${r.rate === null ? 'none compared' : pct(r.rate)})`;
}

/** Substitutions of equal rate together, in plan order: "model=ref-2, shape=…: 1 of 1 output differed (100%); …". */
export function groupedRateWords(rates: readonly SweepRate[]): string {
  const groups = new Map<string, string[]>();
  for (const r of rates) groups.set(rateWords(r), [...(groups.get(rateWords(r)) ?? []), r.whatIf]);
  return [...groups].map(([words, names]) => `${names.join(', ')}: ${words}`).join('; ');
}

/** An output one substitution replayed otherwise than recorded, with no |Δ| and ε to chart it against. */
export interface DifferedOutput {
  output: string;
  mode: ReplayMode;
  /** Recorded and replayed as the report gives them, shortened (a hash to its first 12 hex digits). */
  recorded: string;
  replayed: string;
  /** What changed inside it, from the report's details (a dump's expression), or null when it says nothing more. */
  inside: string | null;
  /** Its runs with a report that replayed it otherwise than recorded, of those with a report. */
  differedIn: number;
  reported: number;
  /** Every run that differed replayed the same value. */
  sameEachRun: boolean;
}

/** Per substitution: its differing outputs the chart cannot hold, and whether nothing at all differed. */
export interface SweepDiffered {
  whatIf: string;
  /** Its runs with a report. */
  reported: number;
  outputs: DifferedOutput[];
  /** It has a run with a report, and no run of it gave any output otherwise than recorded. */
  unchanged: boolean;
}

const HASH = /^(sha256:)?([0-9a-f]{64})$/;

/** A value in brief: a hash to its first 12 hex digits, other text to its first 40 characters. */
export function brief(v: JsonValue | undefined): string {
  const s = shownValue(v ?? null);
  const h = HASH.exec(s);
  if (h) return `${h[1] ?? ''}${h[2]!.slice(0, 12)}…`;
  const chars = Array.from(s);
  return chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : s;
}

/** The differing rows the chart leaves out: failed, and without a numeric |Δ| and ε. */
const unchartedDiffers = (r: Report): Comparison[] =>
  (r.comparisons ?? []).filter((c) => c.status === 'fail' && !chartedRow(c));

/** Per planned substitution, the outputs its runs replayed otherwise than recorded that have no |Δ| against ε. */
export function sweepDiffered(sweep: Sweep): SweepDiffered[] {
  return sweep.plan.map((whatIf): SweepDiffered => {
    const reports = sweep.runs
      .filter((r) => r.whatIf === whatIf)
      .sort((a, b) => a.repeat - b.repeat)
      .flatMap((r) => (r.report ? [r.report] : []));
    const seen = new Map<string, { row: Comparison; report: Report; replayed: Set<string>; runs: number }>();
    for (const rep of reports)
      for (const c of unchartedDiffers(rep)) {
        const o = seen.get(c.output) ?? { row: c, report: rep, replayed: new Set<string>(), runs: 0 };
        o.replayed.add(JSON.stringify(c.replayed));
        o.runs++;
        seen.set(c.output, o);
      }
    const outputs = [...seen.values()].map((o): DifferedOutput => ({
      output: o.row.output,
      mode: o.row.mode,
      recorded: brief(o.row.original),
      replayed: brief(o.row.replayed),
      inside: o.row.output === 'expression' ? expressionChange(o.report) : null,
      differedIn: o.runs,
      reported: reports.length,
      sameEachRun: o.replayed.size === 1,
    }));
    const unchanged =
      reports.length > 0 && reports.every((r) => !(r.comparisons ?? []).some((c) => c.status === 'fail'));
    return { whatIf, reported: reports.length, outputs, unchanged };
  });
}

const numbers = (v: JsonValue | undefined): number[] | null =>
  Array.isArray(v) && v.every((x) => typeof x === 'number') ? (v as number[]) : null;

/** A number to three significant digits, for words; a small one with its exponent (1.66e-6, not 0.00000166). */
const about = (x: number): string =>
  x !== 0 && Math.abs(x) < 1e-3 ? x.toExponential(2) : String(Number(x.toPrecision(3)));

/** A score recorded against replayed; a change too small to show in three digits as its Δ. */
const scoreChange = (a: number, b: number): string =>
  about(a) === about(b) ? `score ${about(a)}, moved by ${about(b - a)}` : `score ${about(a)} → ${about(b)}`;

/** How the replayed tokens differ from the recorded ones, position by position; null when either is absent. */
function tokenChange(a: number[] | null, b: number[] | null): string | null {
  if (!a || !b) return null;
  const n = Math.max(a.length, b.length);
  let differ = 0;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) differ++;
  if (differ === 0) return `the same ${n} tokens`;
  const lengths = a.length === b.length ? '' : `${a.length} tokens recorded, ${b.length} replayed: `;
  return `${lengths}${differ} of ${n} token positions differ`;
}

/** The largest |Δ| of the log-probabilities, only where the tokens are the same (else they are of other tokens). */
function logprobChange(a: number[] | null, b: number[] | null, sameTokens: boolean): string | null {
  if (!a || !b || a.length !== b.length || !sameTokens) return null;
  let most = 0;
  for (let i = 0; i < a.length; i++) most = Math.max(most, Math.abs(a[i]! - b[i]!));
  return most === 0 ? null : `log-probabilities differ by up to ${about(most)} (no ε governs them)`;
}

/**
 * What changed inside a dump replay's expression (details.expression, recorded against
 * replayed): its tokens position by position, its text, its log-probabilities and its score.
 */
export function expressionChange(r: Report): string | null {
  const e = expressionOf(r);
  if (!e) return null;
  const rec = obj(e.recorded);
  const rep = obj(e.replayed);
  const text = (v: JsonValue | undefined, o: typeof rec) => (typeof v === 'string' ? v : o?.['text']);
  const [ta, tb] = [text(e.recorded, rec), text(e.replayed, rep)];
  const tokens = tokenChange(numbers(rec?.['tokens']), numbers(rep?.['tokens']));
  const sameTokens = tokens === null || tokens.startsWith('the same');
  const parts = [
    tokens,
    typeof ta === 'string' && typeof tb === 'string'
      ? ta === tb
        ? 'the same text'
        : `text "${brief(ta)}" replayed as "${brief(tb)}"`
      : null,
    logprobChange(numbers(rec?.['logprobs']), numbers(rep?.['logprobs']), sameTokens),
  ];
  const [sa, sb] = [rec?.['score'], rep?.['score']];
  if (typeof sa === 'number' && typeof sb === 'number' && sa !== sb) parts.push(scoreChange(sa, sb));
  const said = parts.filter((p): p is string => p !== null);
  return said.length ? said.join('; ') : null;
}

/** Over how many runs an output differed, and whether they agreed. */
export function differedRunsWords(o: DifferedOutput): string {
  const of = `${o.differedIn} of ${o.reported} ${o.reported === 1 ? 'run' : 'runs'}`;
  if (o.differedIn < 2) return of;
  return `${of}, ${o.sameEachRun ? 'the same replayed value each time' : 'a different replayed value between runs'}`;
}

/**
 * In words: which substitutions changed an output that has no |Δ| against ε, and that such a
 * difference is not numeric (compared equal or not), so it is listed, not charted; with
 * `measured` 0, that nothing in the sweep is charted against ε; and what did not change.
 */
export function differedWords(list: readonly SweepDiffered[], measured: number): string {
  const listed = list.filter((d) => d.outputs.length > 0);
  const modes = [...new Set(listed.flatMap((d) => d.outputs.map((o) => o.mode)))];
  const parts: string[] = [];
  if (listed.length)
    parts.push(
      `${listed.length} of ${list.length} substitutions replayed an output otherwise than recorded. Such an output is compared ${modes.join(' or ')} (recorded against replayed: equal or not), so its difference is not numeric: it has no |Δ| to chart against ε, and is listed below with what changed inside it.`,
    );
  if (listed.length && measured === 0)
    parts.push('No substitution has an output with a |Δ| and ε, so there is no |Δ| against ε chart for this sweep.');
  const unchanged = list.filter((d) => d.unchanged).map((d) => d.whatIf);
  if (unchanged.length) parts.push(`Nothing differed from the recording under ${unchanged.join(', ')}.`);
  return parts.join(' ');
}

/**
 * Why the open report has no chart, said of the open report (a verification has no replayed
 * outputs), and, when a sweep is shown, where its replays' differences are: the note sits
 * below the sweep and must not read as contradicting its rates.
 */
export function nothingToChartWords(swept: boolean): string {
  const open =
    'The open report has no numeric comparisons, drift events or trust-debt trajectory to chart: those come from the outputs of a replay ("Replay as recorded" or a what-if replay).';
  return swept ? `${open} The sweep above lists what each substitution's replays changed.` : open;
}
