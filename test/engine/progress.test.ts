/**
 * Long ACGP traces and TG manifests move the workbench's job bar while they run: the kind
 * tells the engine's onProgress how far it is, at most once per 50 ms (a clock that
 * advances 10 ms whenever it is read makes that deterministic here, whatever the machine's
 * load), with fractions that never go back, a label, and 1 at the end. A short job tells
 * nothing at all.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { runBytes, type Mode } from '../../app/engine/run.js';
import { writeExamples } from '../../app/examples/index.js';
import { generateTrace } from '../../app/kinds/acgp/generate.js';

let ex = '';
beforeAll(async () => {
  ex = mkdtempSync(join(tmpdir(), 'reprise-progress-'));
  await writeExamples(ex);
});
afterAll(() => rmSync(ex, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** A clock that moves `step` ms each time it is read. */
function ticking(step: number): void {
  let t = Date.now();
  vi.spyOn(Date, 'now').mockImplementation(() => (t += step));
}

async function told(bytes: Buffer, mode: Mode): Promise<{ fraction: number; label: string | undefined }[]> {
  const seen: { fraction: number; label: string | undefined }[] = [];
  const r = await runBytes('x', bytes, mode, {}, (fraction, label) => seen.push({ fraction, label }));
  expect(r.verdict).toBe('pass');
  return seen;
}

function expectMoving(seen: { fraction: number; label: string | undefined }[], labels: string[]): void {
  const fractions = seen.map((s) => s.fraction);
  // Several steps before the end, never back, and 1 at the end.
  expect(fractions.filter((f) => f > 0 && f < 1).length).toBeGreaterThan(5);
  for (let i = 1; i < fractions.length; i++) expect(fractions[i]).toBeGreaterThanOrEqual(fractions[i - 1]!);
  expect(fractions.at(-1)).toBe(1);
  expect(fractions.filter((f) => f === 1).length).toBe(1);
  for (const s of seen) expect(labels).toContain(s.label);
}

const evals = generateTrace({ count: 300, seed: 7 });

describe('an ACGP trace tells its progress through its EVALs', () => {
  for (const mode of ['verify', 'replay'] as const) {
    it(`JSON Lines, ${mode}`, async () => {
      ticking(10);
      expectMoving(await told(Buffer.from(evals.map((e) => JSON.stringify(e)).join('\n') + '\n'), mode), ['EVALs']);
    });
    it(`a JSON array, ${mode}`, async () => {
      ticking(10);
      expectMoving(await told(Buffer.from(JSON.stringify(evals)), mode), ['EVALs']);
    });
  }
});

describe('a TG manifest tells its progress through its executions', () => {
  /** The intact example with 300 more copies of its trust-vector execution, each replayed EXACT. */
  const manifest = (): Buffer => {
    const doc = JSON.parse(readFileSync(join(ex, 'tg', 'exact-intact', 'manifest.json'), 'utf8')) as {
      executions: { executionId: string; engine: string }[];
    };
    const vector = doc.executions.find((e) => e.engine === 'TG-RULE-EVALUATOR')!;
    return Buffer.from(
      JSON.stringify({
        ...doc,
        executions: [
          ...doc.executions,
          ...Array.from({ length: 300 }, (_, i) => ({ ...vector, executionId: `copy${i}` })),
        ],
      }),
    );
  };
  it('verify', async () => {
    ticking(10);
    expectMoving(await told(manifest(), 'verify'), ['executions', 'rules and anchors', 'manifest hash']);
  });
  it('replay: verification first, then the executions', async () => {
    ticking(10);
    const seen = await told(manifest(), 'replay');
    expectMoving(seen, ['executions', 'rules and anchors', 'manifest hash']);
    // The replay's own executions are told after the verification's stages.
    const replaying = seen.findIndex((s) => s.fraction >= 0.5 && s.fraction < 1 && s.label === 'executions');
    expect(replaying).toBeGreaterThan(0);
    expect(seen.slice(0, replaying).some((s) => s.fraction < 0.5)).toBe(true);
  });
});

it('a job shorter than the interval tells nothing', async () => {
  ticking(0);
  expect(await told(Buffer.from(evals.map((e) => JSON.stringify(e)).join('\n') + '\n'), 'replay')).toEqual([]);
  expect(await told(readFileSync(join(ex, 'tg', 'exact-intact', 'manifest.json')), 'replay')).toEqual([]);
});
