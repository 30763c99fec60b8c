/**
 * Issue 17's fuzz: for every input kind the registry knows, hostile variants of its
 * built-in example (test/hardening/fuzz/) through the built CLI, each run held to a
 * verdict or a one-line error, exit 0-3 (never a signal), no stack trace, under 10 s and
 * 512 MiB. Deterministic from REPRISE_FUZZ_SEED (printed on failure); REPRISE_FUZZ_N
 * multiplies the number of random cases (docs/performance.md, "Hostile inputs").
 * Runs sequentially in one file: the children must not compete with each other for time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeExamples } from '../../app/examples/index.js';
import { kindNames } from '../../app/kinds/registry.js';
import { cliBuilt } from '../helpers/cli.js';
import { canMeasureRss } from '../helpers/measured-cli.js';
import { bundleOf, caseBundleOf, judged } from '../evidence-bundle/helpers.js';
import { fuzzKinds, type FuzzKind } from './fuzz/kinds.js';
import { FUZZ_N, FUZZ_SEED, runBatch, runOne, worst } from './fuzz/runner.js';

/** Random cases per kind and per batch (one child verifies a batch), and replays per kind. */
const SMALL = 16 * FUZZ_N;
const BATCH = 16;
const REPLAYS = 2 * FUZZ_N;

let dir: string;
let kinds: FuzzKind[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reprise-fuzz-'));
  const ex = join(dir, 'examples');
  await writeExamples(ex);
  const j = await judged();
  kinds = await fuzzKinds(ex, {
    bytes: await bundleOf(j),
    trustPath: j.keys.trustPath,
    caseBytes: await caseBundleOf(j, join(dir, 'case')),
  });
});
afterAll(() => {
  for (const [kind, w] of worst)
    console.log(
      `fuzz ${kind}: ${w.cases} case(s) in ${w.runs} run(s), worst ${w.ms} ms (${w.cpuMs.toFixed(0)} ms CPU), ${w.rssMiB.toFixed(0)} MiB peak RSS`,
    );
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!cliBuilt() || !canMeasureRss())(`fuzz every input kind (seed ${FUZZ_SEED}, x${FUZZ_N})`, () => {
  it('covers every kind the registry knows', () => {
    const covered = kinds.map((k) => k.name.split(' ')[0]);
    for (const k of [...kindNames(), 'unknown']) expect(covered, k).toContain(k);
  });

  it('random variants: verify in batches, replay one by one', async () => {
    for (const k of kinds) {
      const cases = k.small(SMALL);
      for (let i = 0; i < cases.length; i += BATCH) await runBatch(k.name, dir, cases.slice(i, i + BATCH), k.args);
      for (const c of k.replays?.(REPLAYS) ?? []) await runOne(k.name, dir, c, ['replay'], k.args);
    }
  }, 600_000);

  it('huge counts of tiny items, each alone', async () => {
    for (const k of kinds) for (const h of k.huge) await runOne(k.name, dir, h.case, h.command, k.args);
  }, 600_000);

  it('long single tokens and wide objects (issue 27), each alone', async () => {
    for (const k of kinds) for (const c of k.bounds) await runOne(k.name, dir, c, ['verify'], k.args);
  }, 900_000);
});
