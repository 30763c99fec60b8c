/**
 * An analysis event upstream could not have written is refused (RPR-NEM-041). Upstream writes
 * an analysis event with the AnalysisSpec and result of a kernel run (src/atlas/AtlasCore.ts,
 * applyAnalysis) or with the text of an intervention (src/atlas/domain/EvidenceLedger.ts,
 * recordIntervention), and its semantic replay (src/session/InvestigationReplayRunner.ts, the
 * RF-047 runner) refuses any other: "Malformed semantic-v2 analysis event at #i: missing result
 * and intervention", "Malformed analysis event at #i: missing executable AnalysisSpec".
 */
import { describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { buildPackageParts, packPackage, SAMPLE_COMMANDS } from '../../app/kinds/nemosyne/package-writer.js';
import { ENTRY } from '../../app/kinds/nemosyne/verify.js';
import { supportDir, verify } from './helpers.js';

const support = supportDir();
type Obj = Record<string, unknown>;

/** The sample ledger with its first analysis event (index 1) rewritten by `edit`. */
function ledgerWith(edit: (e: Obj) => void): unknown[] {
  const ledger = structuredClone(SAMPLE_COMMANDS) as Obj[];
  edit(ledger[1]!);
  return ledger;
}
const semantic = (v: 2 | 3 | 4, commands: unknown[]) =>
  verify(packPackage(buildPackageParts(v, { commands })), support.flags);
const legacy = (commands: unknown[]) => verify(packPackage(buildPackageParts(2, { digest: false, commands })));
const refusals = (r: Report) => r.findings.filter((f) => f.rule === 'RPR-NEM-041');

const NEITHER =
  'investigation/commands.log: the analysis event #1 (eventId "example:2") carries neither a result nor an intervention: upstream writes an analysis event with the AnalysisSpec and result of a kernel run, or with the text of an intervention, and its semantic replay refuses any other as a "Malformed semantic-v2 analysis event" (upstream\'s replay refuses the package)';

describe('an analysis event with neither a result nor an intervention (semantic-digest path)', () => {
  it.each([2, 3, 4] as const)('V%i: a fail naming the event, at its pointer', async (v) => {
    const r = await semantic(
      v,
      ledgerWith((e) => delete e['intervention']),
    );
    expect(r.verdict).toBe('fail');
    expect(refusals(r).map((f) => [f.severity, f.pointer, f.message])).toEqual([
      ['fail', `entry:${ENTRY.commands}#/1`, NEITHER],
    ]);
  });

  it('an empty or non-string intervention is none; a null or false result is none', async () => {
    for (const edit of [
      (e: Obj) => (e['intervention'] = ''),
      (e: Obj) => (e['intervention'] = 42),
      (e: Obj) => ((e['intervention'] = null), (e['result'] = null)),
      (e: Obj) => ((e['intervention'] = ['grouped']), (e['result'] = false)),
    ]) {
      const r = await semantic(3, ledgerWith(edit));
      expect(r.verdict).toBe('fail');
      expect(refusals(r).map((f) => f.message)).toEqual([NEITHER]);
    }
  });

  it('the shapes upstream writes pass: an intervention, or a result with its executable AnalysisSpec', async () => {
    expect(refusals(await semantic(3, SAMPLE_COMMANDS))).toEqual([]);
    const ran = await semantic(
      3,
      ledgerWith((e) => {
        delete e['intervention'];
        e['result'] = { resultId: 'r1', outputHash: 'abc', spec: e['command'] };
      }),
    );
    expect(refusals(ran)).toEqual([]);
    expect(ran.verdict).toBe('pass');
  });

  it('a result without an executable AnalysisSpec is refused ("missing executable AnalysisSpec")', async () => {
    for (const command of [
      undefined,
      { op: 'analysis' },
      { ...((SAMPLE_COMMANDS[1] as Obj)['command'] as Obj), datasetVersion: '0' },
    ]) {
      const r = await semantic(
        3,
        ledgerWith((e) => {
          delete e['intervention'];
          e['result'] = { outputHash: 'abc' };
          e['command'] = command;
        }),
      );
      expect(r.verdict).toBe('fail');
      expect(refusals(r).map((f) => f.message)).toEqual([
        'investigation/commands.log: the analysis event #1 (eventId "example:2") carries a result but no executable AnalysisSpec as its command (an operation object, a string algorithmVersion and datasetFingerprint, a numeric datasetVersion), which upstream\'s semantic replay re-runs (upstream\'s replay refuses the package)',
      ]);
    }
  });
});

describe('an analysis event on the legacy path (a V2 without a digest)', () => {
  it('neither result nor intervention is no refusal there: the legacy replay re-runs its command through the kernel', async () => {
    const r = await legacy(ledgerWith((e) => delete e['intervention']));
    expect(refusals(r)).toEqual([]);
    expect(r.verdict).toBe('pass');
  });

  it('an analysis event with no command is refused (upstream has nothing to re-run)', async () => {
    const r = await legacy([{ kind: 'load' }, { kind: 'analysis', timestamp: 1790000000000 }]);
    expect(r.verdict).toBe('fail');
    expect(refusals(r).map((f) => [f.pointer, f.message])).toEqual([
      [
        `entry:${ENTRY.commands}#/1`,
        "investigation/commands.log: the analysis event #1 has no command (the AnalysisSpec upstream's legacy replay re-runs) (upstream's replay refuses the package)",
      ],
    ]);
  });
});
