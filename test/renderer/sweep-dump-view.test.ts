/**
 * The trainer's sweep of a what-if dump as TrainerView renders it: the dump's one comparison
 * is its expression compared EXACT by hash (app/kinds/replay-dump/replay.ts), so no |Δ|
 * against ε is charted; the view lists the expression as differing per substitution, with
 * what changed inside it, says the difference is not numeric, and words its rate in outputs
 * under a heading that counts runs. Reports in the engine's shape (the values of a real
 * ref-2 replay are in test/workbench/sweep-dump-outputs.test.ts). Static markup.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import type { JsonValue, Report } from '../../shared/report';
import type { Sweep, SweepRun } from '../../renderer/src/lib/sweep';
import { SweepDifferences } from '../../renderer/src/components/SweepDeltaChart';
import { SweepResult } from '../../renderer/src/components/TrainerView';
import { sweepDiffered } from '../../renderer/src/lib/sweep-outputs';

stubBrowser();

const RECORDED = {
  logprobs: [-1.69, -0.0002, -0.12],
  score: -0.604,
  text: 'reviewer replayed token',
  tokens: [27, 46, 56],
};
const hash = (c: string) => `sha256:${c.repeat(64)}`;

/** A dump replay's report under `whatIf`: its expression's hash compared EXACT, and the expression in details. */
function dumpReport(whatIf: string, replayed: typeof RECORDED, replayedHash: string): Report {
  const same = replayedHash === hash('1');
  return {
    findings: [],
    comparisons: [
      {
        output: 'expression',
        mode: 'EXACT',
        original: hash('1'),
        replayed: replayedHash,
        status: same ? 'pass' : 'fail',
        ...(same ? {} : { reason: 'the replayed expression differs from the recorded one' }),
      },
    ],
    details: {
      encoding: 'json',
      whatIf: { demonstration: true, substitutions: { [whatIf.split('=')[0]!]: whatIf.split('=')[1]! } },
      expression: { recorded: RECORDED, recordedHash: hash('1'), replayed, replayedHash } as JsonValue,
    },
  } as unknown as Report;
}

const OTHER = { logprobs: [-0.008, -2.1], score: -1.05, text: 'signature buffer', tokens: [22, 30] };
const LOW_BITS = { ...RECORDED, logprobs: [-1.6900001, -0.0002, -0.12], score: -0.60400003 };

function sweepOf(): Sweep {
  const reports: [string, Report][] = [
    ['model=ref-2', dumpReport('model=ref-2', OTHER, hash('2'))],
    ['model=ref-1', dumpReport('model=ref-1', RECORDED, hash('1'))],
    ['shape=advisor.cpu_v1/4/fp32', dumpReport('shape=advisor.cpu_v1/4/fp32', LOW_BITS, hash('3'))],
  ];
  const runs: SweepRun[] = reports.flatMap(([whatIf, report]) =>
    [0, 1].map((repeat) => ({ whatIf, repeat, report, error: null, cancelled: false })),
  );
  return {
    plan: reports.map(([w]) => w),
    repeats: 2,
    runs,
    done: 6,
    planned: 6,
    running: false,
    cancelled: false,
  };
}

describe("a what-if dump's sweep in TrainerView", () => {
  const html = renderToStaticMarkup(createElement(SweepResult, { sweep: sweepOf() }));

  it('counts runs in the heading and outputs in the rates, never "1 of 1 = 100%" under a heading of runs', () => {
    expect(html).toContain('2 runs each (6 of 6 runs replayed)');
    expect(html).toContain('model=ref-2, shape=advisor.cpu_v1/4/fp32: 1 of 1 output differed (100%)');
    expect(html).toContain('model=ref-1: 0 of 1 output differed (0%)');
    expect(html).not.toContain('= 100%');
  });

  it('has no |Δ| against ε chart, and says why: the difference is not numeric', () => {
    expect(html).not.toContain('data-testid="chart-sweep"');
    expect(html).toContain('2 of 3 substitutions replayed an output otherwise than recorded.');
    expect(html).toContain('so its difference is not numeric: it has no |Δ| to chart against ε');
    expect(html).toContain('Nothing differed from the recording under model=ref-1.');
  });

  it('lists the differing expression per substitution: hashes in brief, what changed, over how many runs', () => {
    expect(html).toContain('data-testid="sweep-differed"');
    expect(html).toContain('sha256:111111111111…');
    expect(html).toContain('sha256:222222222222…');
    expect(html).toContain(
      '3 tokens recorded, 2 replayed: 3 of 3 token positions differ; text &quot;reviewer replayed token&quot; replayed as &quot;signature buffer&quot;; score -0.604 → -1.05',
    );
    expect(html).toContain(
      'the same 3 tokens; the same text; log-probabilities differ by up to 1.00e-7 (no ε governs them); score -0.604, moved by -3.00e-8',
    );
    expect(html.match(/2 of 2 runs, the same replayed value each time/g)).toHaveLength(2);
    expect(html).toContain('EXACT, not numeric');
  });

  it('lists nothing when nothing differed', () => {
    const none = sweepOf();
    none.plan = ['model=ref-1'];
    none.runs = none.runs.filter((r) => r.whatIf === 'model=ref-1');
    const out = renderToStaticMarkup(createElement(SweepDifferences, { differed: sweepDiffered(none), measured: 0 }));
    expect(out).not.toContain('data-testid="sweep-differed"');
    expect(out).toContain('Nothing differed from the recording under model=ref-1.');
  });
});
