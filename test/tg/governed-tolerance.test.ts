/**
 * Whose tolerance judges a replay (docs/tg-replay.md, "Whose ε decides"): a manifest's
 * embedded policy bundle is the artifact's own word, so its ε never turns a BANDED row into a
 * PASS (RPR-TG-043, unavailable) unless `--policy` gives the governed bundle; a modifier's
 * factor is bounded to [0, 1] (RPR-TG-006); an ε governed for an output recorded EXACT is said
 * to have no effect (RPR-TG-025). A red team's manifest embedded a bundle of ε 0.5: A drifted
 * 0.2 from its replay and the replay said PASS.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Bundle } from '../../app/kinds/tg/bundle.js';
import { checkBundle } from '../../app/kinds/tg/bundle.js';
import { CSI } from '../../app/kinds/tg/constants.js';
import { buildScenario, EXAMPLE_BUNDLE, type ScenarioOptions } from '../../app/kinds/tg/examples.js';
import { tmp } from '../journal/helpers.js';
import { cliIn } from '../cli/in-process.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- the tests read reports freely */
const work = tmp('reprise-tg-governed-');

/** The governed bundle, as the reviewer's --policy file. */
const governed = join(work, 'governed-bundle.json');
writeFileSync(governed, JSON.stringify(EXAMPLE_BUNDLE));

const file = (name: string, value: unknown): string => {
  const path = join(work, `${name}.json`);
  writeFileSync(path, JSON.stringify(value, null, 2));
  return path;
};

async function manifest(name: string, o: Partial<ScenarioOptions> = {}): Promise<string> {
  return file(name, await buildScenario({ claimRef: `claim:governed-${name}`, ...o }));
}

async function replay(path: string, ...options: string[]): Promise<{ code: number; report: any }> {
  const r = await cliIn(work, 'replay', path, '--json', ...options);
  return { code: r.code, report: JSON.parse(r.out) };
}

const row = (report: any, output: string) => report.comparisons.find((c: any) => c.output === output);
const findings = (report: any, rule: string) => report.findings.filter((f: any) => f.rule === rule);
const A = CSI.CONFIDENCE_SCORE;
const TS = CSI.TRUST_SCORE;

/** The example bundle with every ε widened to `epsilon`. */
const widened = (epsilon: number): Bundle => ({ ...EXAMPLE_BUNDLE, epsilon: { [TS]: epsilon, [A]: epsilon } });

describe("an embedded bundle's ε decides no BANDED pass (RPR-TG-043)", () => {
  it('a manifest widening its own ε: 0.2 of drift is not a PASS without --policy, and the governed bundle refuses it', async () => {
    const path = await manifest('widened', { bundle: widened(0.5), recordedADelta: 0.2 });
    const own = await replay(path);
    expect(own.code).toBe(2);
    expect(own.report.verdict).toBe('unavailable');
    for (const output of [A, TS]) expect(row(own.report, output).status).toBe('unavailable');
    const f = findings(own.report, 'RPR-TG-043');
    expect(f.map((x: any) => x.severity)).toEqual(['unavailable', 'unavailable']);
    expect(f[0].message).toContain('within ε 0.5 only by the policy bundle the manifest embeds');
    expect(f[0].message).toContain('whose origin is not established');
    expect(f[0].actual).toBe(0.2);
    expect(own.report.details.tg.bundleSource).toBe('embedded');

    const held = await replay(path, '--policy', governed);
    expect(held.code).toBe(1);
    expect(findings(held.report, 'RPR-TG-012')).toHaveLength(1);
  });

  it('no --policy: a zero delta passes, a delta within the embedded ε is undecided, one beyond it is drift', async () => {
    const same = await replay(await manifest('same'));
    expect([same.code, row(same.report, A).status, findings(same.report, 'RPR-TG-043')]).toEqual([0, 'pass', []]);

    const within = await replay(await manifest('within', { recordedADelta: 0.01 }));
    expect(within.code).toBe(2);
    expect(row(within.report, A).status).toBe('unavailable');
    expect(row(within.report, A).delta).toBe(0.01);
    expect(row(within.report, A).reason).toContain('--policy');

    const beyond = await replay(await manifest('beyond', { recordedADelta: 0.05 }));
    expect(beyond.code).toBe(1);
    expect(row(beyond.report, A).status).toBe('fail');
    expect(findings(beyond.report, 'RPR-TG-031').length).toBeGreaterThan(0);
  });

  it('--policy naming the bundle the manifest binds: the governed ε decides, and the row passes', async () => {
    const path = await manifest('governed', { recordedADelta: 0.01 });
    const bare = await replay(path);
    expect(bare.code).toBe(2);
    const r = await replay(path, '--policy', governed);
    expect(r.code).toBe(0);
    expect([row(r.report, A).status, row(r.report, A).delta]).toEqual(['pass', 0.01]);
    expect(r.report.details.tg.bundleSource).toBe('policy-file');
  });

  it('reprise drift counts no undecided A: said, by execution, and unavailable; with --policy it counts', async () => {
    const path = await manifest('drift', { recordedADelta: 0.01 });
    const bare = await cliIn(work, 'drift', path, '--json');
    expect(bare.code).toBe(2);
    const doc = JSON.parse(bare.out);
    expect(doc.observations).toBe(0);
    expect(doc.findings.map((f: any) => [f.rule, f.severity])).toEqual([['RPR-TG-043', 'unavailable']]);
    expect(doc.findings[0].message).toContain('x3 is not counted');
    const held = await cliIn(work, 'drift', path, '--policy', governed, '--json');
    expect([held.code, JSON.parse(held.out).observations]).toEqual([0, 1]);
  });
});

describe("a modifier's factor is in [0, 1] (RPR-TG-006)", () => {
  const withFactor = (factor: number): Bundle => ({
    ...EXAMPLE_BUNDLE,
    modifiers: [{ ...EXAMPLE_BUNDLE.modifiers[0]!, factor }],
  });

  it('refuses a factor above 1 at its pointer, and accepts 0 and 1', () => {
    for (const factor of [1e9, 2, 1.0000000000000002]) {
      const c = checkBundle(withFactor(factor));
      expect(c.bundle).toBeNull();
      expect(c.findings.map((f) => [f.rule, f.severity, f.pointer, f.actual])).toEqual([
        ['RPR-TG-006', 'fail', '/modifiers/0/factor', factor],
      ]);
      expect(c.findings[0]!.message).toContain('is outside [0, 1]');
    }
    for (const factor of [0, 1, 0.9]) expect(checkBundle(withFactor(factor)).findings).toEqual([]);
  });

  it('verify of such a bundle fails (exit 1); a manifest embedding it, or replayed with it as --policy, is not replayed', async () => {
    const bundle = withFactor(1e9);
    const v = await cliIn(work, 'verify', file('factor-bundle', bundle), '--json');
    expect(v.code).toBe(1);
    expect(JSON.parse(v.out).findings.map((f: any) => f.rule)).toEqual(['RPR-TG-006']);

    const path = await manifest('factor', { bundle });
    const embedded = await replay(path);
    expect(embedded.code).toBe(1);
    expect(findings(embedded.report, 'RPR-TG-006')[0].pointer).toMatch(
      /^\/artifacts\/sha256:[0-9a-f]{64}\/json\/modifiers\/0\/factor$/,
    );
    expect(embedded.report.comparisons).toEqual([]);

    const policy = await replay(path, '--policy', file('factor-policy', bundle));
    expect(policy.code).toBe(1);
    expect(findings(policy.report, 'RPR-TG-006')[0].message).toMatch(/^the --policy file: modifier factor 1000000000/);
  });
});

describe('an ε governed for an output recorded EXACT has no effect (RPR-TG-025)', () => {
  it('is a warning at the EXACT execution, in verify and replay; the verdict stands; a BANDED one has none', async () => {
    const path = await manifest('exact', { withA: false });
    const i = JSON.parse(readFileSync(path, 'utf8')).executions.findIndex((e: any) => e.output === TS);
    const r = await replay(path);
    expect([r.code, r.report.verdict]).toEqual([0, 'pass']);
    const w = findings(r.report, 'RPR-TG-025');
    expect(w.map((f: any) => [f.severity, f.pointer, f.actual])).toEqual([
      ['warning', `/executions/${i}/replayMode`, 0.02],
    ]);
    expect(w[0].message).toContain(`governs ε 0.02 for ${TS}`);
    expect(w[0].message).toContain('the ε has no effect on it');
    const v = await cliIn(work, 'verify', path, '--json');
    expect(findings(JSON.parse(v.out), 'RPR-TG-025')).toHaveLength(1);

    const banded = await replay(await manifest('banded'));
    expect(findings(banded.report, 'RPR-TG-025')).toEqual([]);
  });
});
