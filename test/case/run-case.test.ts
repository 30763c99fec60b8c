/**
 * runCase (app/jobs/case.ts), the entry point of the CLI and the workbench host, on the
 * built engine's worker pool: each artifact lands once with the progress over the whole
 * case, the report equals the inline one, and an aborted case stops and rejects.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaseReport } from '../../shared/case.js';
import type { CaseOutcome, CaseProgress } from '../../app/engine/case/index.js';
import type { RunCaseOptions } from '../../app/jobs/case.js';
import { cliBuilt } from '../helpers/cli.js';
import { caseFixture, type CaseFixture } from './fixture.js';

type RunCase = (dir: string, run?: RunCaseOptions) => Promise<CaseReport>;
let runCase: RunCase;
let fx: CaseFixture;

beforeAll(async () => {
  if (!cliBuilt()) throw new Error("the CLI is not built: run 'npm run build:cli' first");
  // The pool's worker threads run the built engine, so runCase is the built one too.
  ({ runCase } = (await import(new URL('../../dist/app/jobs/case.js', import.meta.url).href)) as { runCase: RunCase });
  fx = await caseFixture();
}, 120_000);

describe('runCase on the worker pool', () => {
  it('lands every artifact once (and a rechecked one again), counts progress over the case, and equals the inline report', async () => {
    const landed: CaseOutcome[] = [];
    const progress: CaseProgress[] = [];
    const options = { trustStore: fx.keys.trustPath };
    const pooled = await runCase(fx.dir, {
      workers: 2,
      options,
      onArtifact: (o) => landed.push(o),
      onProgress: (p) => progress.push(p),
    });
    const inline = await runCase(fx.dir, { workers: 0, options });
    expect(JSON.stringify(pooled)).toBe(JSON.stringify(inline));
    const all = landed.map((o) => (o.ok ? o.part.artifact.path : o.unreadable.path));
    // The manifest lands again when the case runs it with the journal holding its anchor (rechecks.ts); progress counts it once.
    expect(all.filter((p) => p === 'tg/manifest.json')).toHaveLength(2);
    const paths = [...new Set(all)].sort();
    expect(paths).toEqual(pooled.artifacts.map((a) => a.path));
    expect(progress[0]).toEqual({ done: 0, total: paths.length });
    expect(progress.map((p) => p.done)).toEqual([...Array(paths.length + 1).keys()]);
    expect(progress.slice(1).every((p) => p.artifact !== undefined && p.total === paths.length)).toBe(true);
  }, 120_000);

  it('stops when its signal aborts: nothing more lands, and the promise rejects', async () => {
    const ac = new AbortController();
    let landed = 0;
    const running = runCase(fx.dir, {
      workers: 1,
      signal: ac.signal,
      onArtifact: () => {
        landed++;
        ac.abort();
      },
    });
    await expect(running).rejects.toThrow();
    expect(landed).toBeGreaterThan(0);
    expect(landed).toBeLessThan(10);
    const before = new AbortController();
    before.abort();
    await expect(runCase(fx.dir, { workers: 1, signal: before.signal })).rejects.toThrow();
  }, 120_000);
});
