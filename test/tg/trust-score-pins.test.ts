/**
 * A BANDED TRUST-SCORE is BANDED only through its A input, and repeats A's model pins
 * (docs/tg-replay.md): pins of another model, version, prompt or inference parameters are
 * invalid and fail replay (RPR-TG-015), and its pinned prompt resolves as A's must
 * (RPR-TG-018). A red team's TRUST-SCORE pinned another model version: it replayed PASS, and
 * when the score drifted, the REPLAY-DRIFT event named that version as the original model.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildScenario, type ScenarioOptions } from '../../app/kinds/tg/examples.js';
import { CSI, DRIFT_EVENT_TYPE } from '../../app/kinds/tg/constants.js';
import { tmp } from '../journal/helpers.js';
import { cliIn } from '../cli/in-process.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the tests edit manifests freely */
const work = tmp('reprise-tg-ts-pins-');

/** The TRUST-SCORE execution of a scenario manifest (x4) and its index. */
function trustScore(m: any): { e: any; i: number } {
  const i = m.executions.findIndex((e: any) => e.output === CSI.TRUST_SCORE);
  return { e: m.executions[i], i };
}

/** The scenario with its TRUST-SCORE pins edited, replayed in this process: exit code and report. */
async function replayed(
  name: string,
  o: Partial<ScenarioOptions>,
  edit: (pins: any) => void,
): Promise<{ code: number; report: any; i: number }> {
  let i = -1;
  const m = await buildScenario({
    claimRef: `claim:pins-${name}`,
    ...o,
    mutate: (x) => {
      const t = trustScore(x);
      edit(t.e.pins);
      i = t.i;
    },
  });
  const path = join(work, `${name}.json`);
  writeFileSync(path, JSON.stringify(m, null, 2));
  const r = await cliIn(work, 'replay', path, '--json');
  return { code: r.code, report: JSON.parse(r.out), i };
}

const at = (report: any, rule: string) =>
  report.findings.filter((f: any) => f.rule === rule && f.severity === 'fail').map((f: any) => f.pointer);

type Edit = [pin: string, edit: (pins: any) => void];
const edits: Edit[] = [
  ['modelId', (p) => (p.modelId = 'another.provider')],
  ['modelVersion', (p) => (p.modelVersion = 'ref-0')],
  ['promptHash', (p) => (p.promptHash = `sha256:${'a'.repeat(64)}`)],
  ['inferenceParams', (p) => (p.inferenceParams = { ...p.inferenceParams, seed: 8 })],
  ['embeddingVersion', (p) => (p.embeddingVersion = 'emb-2')],
];

describe("a BANDED TRUST-SCORE repeats its A input's model pins", () => {
  it.each(edits)('a TRUST-SCORE pinning another %s than its A: fail, RPR-TG-015, not replayed', async (pin, edit) => {
    const { code, report, i } = await replayed(pin, {}, edit);
    expect(code).toBe(1);
    expect(at(report, 'RPR-TG-015')).toEqual([`/executions/${i}/pins/${pin}`]);
    const row = report.comparisons[i];
    expect([row.status, row.replayed]).toEqual(['fail', null]);
  });

  it('a pinned prompt that is no artifact of the manifest is RPR-TG-018, as for A', async () => {
    const { report, i } = await replayed('prompt', {}, (p) => (p.promptHash = `sha256:${'b'.repeat(64)}`));
    expect(at(report, 'RPR-TG-018')).toEqual([`/executions/${i}/pins/promptHash`]);
  });

  it('a drifting score pinned to another version: no REPLAY-DRIFT names a model version that never ran', async () => {
    const { code, report, i } = await replayed(
      'drift',
      // A 0.2 above its replay: A drifts, and the score with it (0.2 × weight × factor > its ε).
      { recordedADelta: 0.2 },
      (p) => (p.modelVersion = 'ref-0'),
    );
    expect(code).toBe(1);
    expect(at(report, 'RPR-TG-015')).toEqual([`/executions/${i}/pins/modelVersion`]);
    const drifts = (report.events ?? []).filter((e: any) => e.type === DRIFT_EVENT_TYPE);
    expect(drifts.length).toBeGreaterThan(0);
    for (const d of drifts) expect([d.modelId, d.originalModelVersion]).toEqual(['reprise.reference', 'ref-1']);
  });
});
