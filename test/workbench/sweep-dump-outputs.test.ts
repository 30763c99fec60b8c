/**
 * The trainer's sweep of the built-in what-if dump (dumps/whatif/drift.dump.json, with the
 * examples' trust store and provider registry), every run a real replay by the engine in
 * this process: a dump compares its expression EXACT, recorded hash against replayed hash,
 * so nothing of it has a |Δ| against ε to chart. What the sweep must still say per
 * substitution: which outputs differed from the recording, recorded against replayed in
 * brief with what changed inside the expression, that the difference is not numeric, and
 * its rate counted in outputs, never in runs. A TG manifest keeps its |Δ| against ε chart.
 * (How TrainerView renders it: test/renderer/sweep-dump-view.test.ts.)
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { runPath } from '../../app/engine/run.js';
import { examplesIn } from '../cli/in-process.js';
import { sweepDeltas, type Sweep, type SweepRun } from '../../renderer/src/lib/sweep.js';
import {
  differedWords,
  expressionChange,
  groupedRateWords,
  nothingToChartWords,
  rateWords,
  sweepDiffered,
  sweepRates,
} from '../../renderer/src/lib/sweep-outputs.js';

const PLAN = ['model=ref-2', 'model=ref-1', 'shape=advisor.cpu_v1/4/fp32', 'shape=advisor.cpu_v1/1/fp32'];
const SHAPE = 'shape=advisor.cpu_v1/4/fp32';
let examples: string;
let dump: Sweep;

/** A finished sweep of `plan`, each substitution replayed twice by the engine under `options`. */
async function sweepOf(path: string, plan: string[], options: object): Promise<Sweep> {
  const runs: SweepRun[] = [];
  for (const whatIf of plan)
    for (const repeat of [0, 1]) {
      const report: Report = await runPath(path, 'replay', { ...options, whatIf: [whatIf] });
      runs.push({ whatIf, repeat, report, error: null, cancelled: false });
    }
  return { plan, repeats: 2, runs, done: runs.length, planned: runs.length, running: false, cancelled: false };
}

beforeAll(async () => {
  examples = await examplesIn('reprise-sweep-dump-');
  dump = await sweepOf(join(examples, 'dumps/whatif/drift.dump.json'), PLAN, {
    trustStore: join(examples, 'dumps/trust-store.json'),
    providers: join(examples, 'dumps/providers.json'),
  });
});

describe("a what-if dump's sweep says what drifted, per substitution", () => {
  it('counts its rate in outputs, not runs: "1 of 1 output differed (100%)"', () => {
    const { rates, maxRate } = sweepRates(dump);
    expect(maxRate).toBeNull();
    const ref2 = rates.find((r) => r.whatIf === 'model=ref-2')!;
    expect(ref2).toMatchObject({ drifted: 1, compared: 1, unit: 'output', rate: 1 });
    expect(rateWords(ref2)).toBe('1 of 1 output differed (100%)');
    const words = groupedRateWords(rates);
    expect(words).toContain(`model=ref-2, ${SHAPE}: 1 of 1 output differed (100%)`);
    expect(words).toContain('model=ref-1, shape=advisor.cpu_v1/1/fp32: 0 of 1 output differed (0%)');
    expect(words).not.toMatch(/\brun/);
  });

  it('names the output that differed, recorded against replayed in brief, over both runs', () => {
    const d = sweepDiffered(dump);
    const ref2 = d.find((x) => x.whatIf === 'model=ref-2')!;
    expect(ref2.outputs).toHaveLength(1);
    const o = ref2.outputs[0]!;
    expect(o).toMatchObject({ output: 'expression', mode: 'EXACT', differedIn: 2, reported: 2, sameEachRun: true });
    const row = dump.runs[0]!.report!.comparisons![0]!;
    expect(o.recorded).toBe(`${String(row.original).slice(0, 19)}…`);
    expect(o.replayed).toBe(`${String(row.replayed).slice(0, 19)}…`);
    expect(o.recorded).not.toBe(o.replayed);
  });

  it('says what changed inside the expression: its tokens and text under another model, only low bits under a shape', () => {
    const byWhatIf = (w: string) => dump.runs.find((r) => r.whatIf === w)!.report!;
    const model = expressionChange(byWhatIf('model=ref-2'))!;
    expect(model).toBe(
      '24 tokens recorded, 13 replayed: 24 of 24 token positions differ; text "reviewer replayed token audit compared c…" replayed as "signature buffer prompt bound restored a…"; score -0.511 → -0.66',
    );
    const shape = expressionChange(byWhatIf(SHAPE))!;
    expect(shape).toMatch(
      /^the same 24 tokens; the same text; log-probabilities differ by up to \d\.\d\de-\d \(no ε governs them\); score -0\.511, moved by -?\d\.\d\de-\d+$/,
    );
  });

  it('names what did not change, and says plainly that the difference is not numeric and why nothing is charted', () => {
    // Its one comparison is the expression's hash, compared EXACT: no |Δ| against ε is measured.
    expect(dump.runs[0]!.report!.comparisons).toEqual([
      expect.objectContaining({ output: 'expression', mode: 'EXACT', status: 'fail' }),
    ]);
    expect(sweepDeltas(dump).every((d) => d.worst === null)).toBe(true);
    const d = sweepDiffered(dump);
    expect(d.filter((x) => x.unchanged).map((x) => x.whatIf)).toEqual(['model=ref-1', 'shape=advisor.cpu_v1/1/fp32']);
    const words = differedWords(d, 0);
    expect(words).toContain('2 of 4 substitutions replayed an output otherwise than recorded.');
    expect(words).toContain(
      'compared EXACT (recorded against replayed: equal or not), so its difference is not numeric: it has no |Δ| to chart against ε',
    );
    expect(words).toContain('there is no |Δ| against ε chart for this sweep');
    expect(words).toContain('Nothing differed from the recording under model=ref-1, shape=advisor.cpu_v1/1/fp32.');
  });

  it('the note on the open report is said of the open report, and points to the sweep', () => {
    expect(nothingToChartWords(true)).toMatch(/^The open report has no numeric comparisons/);
    expect(nothingToChartWords(true)).toContain("The sweep above lists what each substitution's replays changed.");
    expect(nothingToChartWords(false)).not.toContain('sweep');
  });
});

describe("a TG manifest's sweep keeps its |Δ| against ε chart", () => {
  it('charts its BANDED outputs, lists nothing as not numeric, and counts replays in the governed window', async () => {
    const tg = await sweepOf(join(examples, 'tg/banded-drift-material/manifest.json'), ['model=ref-1'], {});
    expect(sweepDeltas(tg)[0]!.worst).toBeGreaterThan(1);
    const d = sweepDiffered(tg);
    expect(d[0]!.outputs).toEqual([]);
    expect(differedWords(d, 1)).toBe('');
    const { rates, maxRate } = sweepRates(tg);
    expect(maxRate).toBe(0.1);
    expect(rateWords(rates[0]!)).toBe('1 of 1 BANDED replay in the governed window drifted (100%)');
  });
});
