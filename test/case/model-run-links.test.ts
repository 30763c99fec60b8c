/**
 * A TG BANDED execution and the replay dump of its model run (docs/case.md, relation
 * `model-run`): the execution's pins (provider, model version, prompt, seed, temperature,
 * topP, and maxTokens when pinned) name a dump whose frozen conditions are the same. A dump
 * of the same prompt under another seed or model is another run and is not linked, so one
 * prompt shared by many runs does not fan out.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaseReport } from '../../shared/case.js';
import { driveCase, inlineExecutor } from '../../app/engine/case/index.js';
import { writeExamples } from '../../app/examples/index.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { sampleSpec } from '../../app/kinds/replay-dump/examples.js';
import { buildDump, sampleSigner, type DumpSpec } from '../../app/kinds/replay-dump/writer.js';
import { tmp } from '../journal/helpers.js';

interface Pins {
  modelId: string;
  modelVersion: string;
  promptHash: string;
  inferenceParams: { temperature: number; topP: number; seed: number; maxTokens?: number };
}
interface Manifest {
  executions: { executionId: string; replayMode: string; pins?: Pins }[];
  artifacts: Record<string, { text?: string }>;
}

let report: CaseReport;
/** Every BANDED execution's pins (A's, and TRUST-SCORE's, which is BANDED because A is in it: the same run). */
let pointers: string[] = [];
let pins: Pins;

async function dumpOf(dir: string, name: string, m: Manifest, change: (s: DumpSpec) => DumpSpec): Promise<void> {
  const spec = sampleSpec({
    seed: pins.inferenceParams.seed,
    inferenceParameters: {
      maxTokens: 24,
      temperature: pins.inferenceParams.temperature,
      topP: pins.inferenceParams.topP,
    },
    prompt: { mediaType: 'text/plain', text: m.artifacts[pins.promptHash]!.text! },
  });
  spec.lockedProviderInfo = { ...spec.lockedProviderInfo, providerId: pins.modelId, modelId: pins.modelVersion };
  writeFileSync(join(dir, name), encodeJson(await buildDump(change(spec), sampleSigner('active'))));
}

/** A case folder holding the BANDED example's manifest (changed by `change`), and the manifest. */
async function manifestCase(prefix: string, change: (m: Manifest) => void = () => {}): Promise<[string, Manifest]> {
  const root = tmp(prefix);
  await writeExamples(join(root, 'examples'));
  const dir = join(root, 'case');
  mkdirSync(dir);
  const m = JSON.parse(readFileSync(join(root, 'examples/tg/banded-drift-material/manifest.json'), 'utf8')) as Manifest;
  change(m);
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
  return [dir, m];
}

beforeAll(async () => {
  const [dir, m] = await manifestCase('reprise-case-run-');
  pointers = m.executions.flatMap((e, i) => (e.replayMode === 'BANDED' ? [`/executions/${i}/pins`] : []));
  pins = m.executions.find((e) => e.replayMode === 'BANDED')!.pins!;
  expect(pointers).toHaveLength(2);
  // The pins leave maxTokens to the provider: a dump's own maxTokens does not keep it from being the run.
  expect(pins.inferenceParams.maxTokens).toBeUndefined();
  await dumpOf(dir, 'the-run.dump.json', m, (s) => s);
  await dumpOf(dir, 'other-seed.dump.json', m, (s) => ({ ...s, seed: s.seed + 1 }));
  await dumpOf(dir, 'other-model.dump.json', m, (s) => ({
    ...s,
    lockedProviderInfo: { ...s.lockedProviderInfo, modelId: 'ref-2' },
  }));
  await dumpOf(dir, 'other-topp.dump.json', m, (s) => ({
    ...s,
    inferenceParameters: { ...s.inferenceParameters, topP: 0.5 },
  }));
  report = await driveCase(dir, inlineExecutor, { options: {} });
}, 120_000);

describe('a BANDED execution and the dump of its run', () => {
  it('links the pins to the one dump whose frozen conditions they are, and to no other run of the prompt', () => {
    const runs = report.links.filter((l) => l.relation === 'model-run');
    expect(runs).toEqual(
      pointers.map((pointer) => ({
        from: { artifact: 'manifest.json', pointer },
        to: { artifact: 'the-run.dump.json', pointer: null },
        relation: 'model-run',
        value: expect.stringContaining(`"promptHash":"${pins.promptHash}"`),
        status: 'found',
      })),
    );
    expect(JSON.parse(runs[0]!.value.slice('run:'.length))).toEqual({
      modelId: pins.modelId,
      modelVersion: pins.modelVersion,
      promptHash: pins.promptHash,
      seed: pins.inferenceParams.seed,
      temperature: pins.inferenceParams.temperature,
      topP: pins.inferenceParams.topP,
    });
    // The prompt alone would have named all four dumps.
    const sameprompt = report.artifacts.filter((a) => a.path.endsWith('.dump.json'));
    expect(sameprompt).toHaveLength(4);
  });

  it('lists the run as missing, without a finding, when the case holds no dump of it', async () => {
    const [dir] = await manifestCase('reprise-case-run-alone-');
    const alone = await driveCase(dir, inlineExecutor, { options: {} });
    expect(alone.links.filter((l) => l.relation === 'model-run')).toMatchObject(
      pointers.map((pointer) => ({ from: { pointer }, to: { artifact: null, pointer: null }, status: 'missing' })),
    );
    expect(alone.findings.filter((f) => f.message.includes('run:'))).toEqual([]);
  });

  it('keys a pinned maxTokens too: a dump of another maxTokens is another run', async () => {
    const [dir, m] = await manifestCase('reprise-case-run-max-', (x) => {
      for (const e of x.executions) if (e.pins) e.pins.inferenceParams.maxTokens = 24;
    });
    await dumpOf(dir, 'max-24.dump.json', m, (s) => s);
    await dumpOf(dir, 'max-12.dump.json', m, (s) => ({
      ...s,
      inferenceParameters: { ...s.inferenceParameters, maxTokens: 12 },
    }));
    const r = await driveCase(dir, inlineExecutor, { options: {} });
    const to = r.links.filter((l) => l.relation === 'model-run').map((l) => l.to.artifact);
    expect(to).toEqual(pointers.map(() => 'max-24.dump.json'));
  });
});
