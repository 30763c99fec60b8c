/* eslint-disable @typescript-eslint/no-explicit-any -- the tests edit parsed JSON fixtures freely */
/** Manifest and bundle checks that are not training scenarios: tampering, policy by hash, --out, bad input, determinism, workers. */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { failRules, replayJson, runCli, writeExamples } from './helpers.js';

let ex = '';
let work = '';
const load = (name: string) =>
  JSON.parse(readFileSync(join(ex, 'tg', name, 'manifest.json'), 'utf8')) as Record<string, any>;
const save = (name: string, v: unknown) => {
  const p = join(work, name);
  writeFileSync(p, typeof v === 'string' ? v : JSON.stringify(v, null, 2));
  return p;
};
const strip = (r: Report) => JSON.stringify({ ...r, run: null });

beforeAll(async () => {
  ex = await writeExamples();
  work = mkdtempSync(join(tmpdir(), 'reprise-tg-m-'));
});

describe('tampering and policy resolution', () => {
  it('an edited recorded EXACT value is a defect (RPR-TG-030) with expected and actual', async () => {
    const m = load('exact-intact');
    const i = m['executions'].findIndex((e: any) => e.output === 'comp.TG.OUTPUT.DECISION.v1_0');
    m['executions'][i].value = m['executions'][i].value === 'ACCEPT' ? 'ACCEPT_WITH_CONDITIONS' : 'ACCEPT';
    const { r, report } = await replayJson([save('edited.json', m)]);
    expect(r.code).toBe(1);
    const f = report.findings.find((x) => x.rule === 'RPR-TG-030')!;
    expect(f.pointer).toBe(`/executions/${i}/value`);
    expect(f.expected).not.toEqual(f.actual);
  });

  it('a trust score edited by less than ε is caught by the exact aggregation check (RPR-TG-032)', async () => {
    const m = load('banded-within-epsilon');
    const ts = m['executions'].find((e: any) => e.output === 'comp.TG.OUTPUT.TRUST-SCORE.v1_0');
    ts.value = ts.value + 0.001;
    const { report } = await replayJson([save('ts.json', m)]);
    expect(failRules(report)).toContain('RPR-TG-032');
  });

  it('an artifact that does not hash to its key is RPR-TG-010 and nothing is re-executed', async () => {
    const m = load('exact-intact');
    const key = Object.keys(m['artifacts']).find((k) => m['artifacts'][k].json?.type === 'tg.claim-inputs/v1')!;
    m['artifacts'][key].json.data.sourceAgeDays = 999;
    const { report } = await replayJson([save('art.json', m)]);
    expect(failRules(report)).toContain('RPR-TG-010');
    expect(report.chain.find((n) => n.id === key)!.status).toBe('mismatch');
    expect(report.comparisons!.every((c) => c.status === 'fail')).toBe(true);
  });

  it('a bundle that is not embedded resolves by hash from --policy; another bundle is refused (RPR-TG-012); none is RPR-TG-011', async () => {
    const m = load('exact-intact');
    delete m['artifacts'][m['policyContext'].bundleHash];
    m['executions'][0].inputs = [];
    const p = save('noembed.json', m);
    const none = await replayJson([p]);
    expect(failRules(none.report)).toContain('RPR-TG-011');
    const ok = await replayJson([p, '--policy', join(ex, 'tg', 'bundle.json')]);
    expect(ok.r.code).toBe(0);
    const other = JSON.parse(readFileSync(join(ex, 'tg', 'bundle.json'), 'utf8'));
    other.version = '4';
    const wrong = await replayJson([p, '--policy', save('other-bundle.json', other)]);
    expect(failRules(wrong.report)).toContain('RPR-TG-012');
    const missing = await runCli(['replay', p, '--policy', join(work, 'nope.json')]);
    expect(missing.code).toBe(3);
  });

  it('bundle checks: weights must sum to 1 exactly, exits strictly decrease, closed format', async () => {
    const b = JSON.parse(readFileSync(join(ex, 'tg', 'bundle.json'), 'utf8'));
    const run = async (v: unknown) =>
      JSON.parse((await runCli(['verify', save('b.json', v), '--json'])).stdout) as Report;
    expect((await run({ ...b, weights: { ...b.weights, A: 0.25 } })).findings.map((f) => f.rule)).toContain(
      'RPR-TG-003',
    );
    expect((await run({ ...b, exits: { ...b.exits, HUMAN_REVIEW: 0.7 } })).findings.map((f) => f.rule)).toContain(
      'RPR-TG-004',
    );
    expect((await run({ ...b, extra: 1 })).findings.map((f) => f.rule)).toContain('RPR-TG-002');
    expect((await run(b)).verdict).toBe('pass');
  });

  it('a mode that disagrees with the replay profile, and an undeclared engine, are RPR-TG-014', async () => {
    const m = load('exact-intact');
    m['replayProfiles']['TG-RULE-EVALUATOR'].default = 'RECORDED';
    delete m['replayProfiles']['TG-DECISION'];
    const { report } = await replayJson([save('prof.json', m)]);
    expect(report.findings.filter((f) => f.rule === 'RPR-TG-014').length).toBe(2);
  });
});

describe('bad input never crashes', () => {
  it.each([
    [
      'duplicate member',
      '{"type":"comp.TG.OUTPUT.REPLAY-MANIFEST.v1_0","type":"comp.TG.OUTPUT.REPLAY-MANIFEST.v1_0"}',
      'RPR-TG-001',
    ],
    [
      'wrong shapes',
      JSON.stringify({
        type: 'comp.TG.OUTPUT.REPLAY-MANIFEST.v1_0',
        claimRef: 5,
        createdAtUtc: '2026-02-30T00:00:00Z',
        policyContext: [],
        replayProfiles: 1,
        executions: {},
        artifacts: null,
      }),
      'RPR-TG-002',
    ],
    [
      'execution garbage',
      JSON.stringify({
        ...JSON.parse('{}'),
        type: 'comp.TG.OUTPUT.REPLAY-MANIFEST.v1_0',
        claimRef: 'c',
        createdAtUtc: '2026-01-01T00:00:00Z',
        policyContext: { bundleRef: 'x', bundleHash: 'sha256:' + '0'.repeat(64) },
        replayProfiles: {},
        executions: [null, 1, { replayMode: 'WEIRD' }],
        artifacts: {},
      }),
      'RPR-TG-002',
    ],
  ])('%s: a fail finding, exit 1, no stack trace', async (_name, text, rule) => {
    const r = await runCli(['replay', save('bad.json', text), '--json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as Report;
    expect(report.artifact.kind).toBe('tg-replay-manifest');
    expect(report.findings.map((f) => f.rule)).toContain(rule);
    expect(r.stderr).toBe('');
  });

  it('a pinned topP outside 0..1 is a structure finding at its pointer; 0 and 1 are fine', async () => {
    const { checkManifest } = await import('../../app/kinds/tg/manifest.js');
    const { buildScenario } = await import('../../app/kinds/tg/examples.js');
    const m: any = await buildScenario({ claimRef: 'claim:top-p' });
    const i = m.executions.findIndex((e: any) => e.pins?.inferenceParams);
    expect(i).toBeGreaterThanOrEqual(0);
    const at = `/executions/${i}/pins/inferenceParams/topP`;
    const findingsWith = (topP: number) => {
      const edited = structuredClone(m);
      edited.executions[i].pins.inferenceParams.topP = topP;
      return checkManifest(edited).findings.filter((f) => f.pointer === at);
    };
    expect(findingsWith(1.5)).toEqual([
      expect.objectContaining({ severity: 'fail', expected: 'a number from 0 to 1' }),
    ]);
    expect(findingsWith(-0.1)).toHaveLength(1);
    expect(findingsWith(0)).toEqual([]);
    expect(findingsWith(1)).toEqual([]);
  });

  it('a hostile JsonLogic ruleset (method/log operators) is refused as a finding, not executed', async () => {
    const m = load('exact-intact');
    const key = Object.keys(m['artifacts']).find((k) => m['artifacts'][k].json?.type === 'tg.ruleset/v1')!;
    const rs = m['artifacts'][key].json;
    rs.rules.S = { method: [{ var: 'source' }, 'constructor'] };
    const { createHash } = await import('node:crypto');
    const { canonicalizeValue } = await import('../../app/core/jcs.js');
    const h = 'sha256:' + createHash('sha256').update(canonicalizeValue(rs)).digest('hex');
    delete m['artifacts'][key];
    m['artifacts'][h] = { mediaType: 'application/json', json: rs };
    m['executions'][1].inputs = [h, m['executions'][1].inputs[1]];
    const { r, report } = await replayJson([save('hostile.json', m)]);
    expect(r.code).toBe(1);
    expect(report.findings.find((f) => f.rule === 'RPR-TG-033')!.message).toMatch(/Unrecognized operation method/);
  });
});

describe('providers', () => {
  it('a registry without the pinned provider makes A unavailable (no substitution) and what depends on it unavailable; a broken registry is exit 3', async () => {
    const empty = save('empty-providers.json', { type: 'reprise.providers/v1', providers: [] });
    const { r, report } = await replayJson([
      join(ex, 'tg', 'banded-within-epsilon', 'manifest.json'),
      '--providers',
      empty,
    ]);
    expect(r.code).toBe(2);
    expect(report.findings.map((f) => f.rule)).toContain('RPR-TG-034');
    expect(report.comparisons!.filter((c) => c.mode === 'BANDED').map((c) => c.status)).toEqual([
      'unavailable',
      'unavailable',
    ]);
    const broken = save('broken-providers.json', { type: 'reprise.providers/v1', providers: 5 });
    const b = await runCli(['replay', join(ex, 'tg', 'banded-within-epsilon', 'manifest.json'), '--providers', broken]);
    expect(b.code).toBe(3);
    expect(b.stderr).toMatch(/refused/);
  });
});

describe('what-if (training)', () => {
  it('--what-if model=ref-2 re-runs A under another model version: labelled a demonstration, never a pass; a bad what-if is exit 3', async () => {
    const { r, report } = await replayJson([
      join(ex, 'tg', 'banded-within-epsilon', 'manifest.json'),
      '--what-if',
      'model=ref-2',
    ]);
    expect(r.code).toBe(2);
    expect(report.verdict).not.toBe('pass');
    expect(report.findings.map((f) => f.rule)).toContain('RPR-TG-037');
    expect(report.details!['whatIf']).toMatchObject({ demonstration: true, substitutions: { model: 'ref-2' } });
    const a = report.comparisons!.find((c) => c.output === 'comp.TG.OUTPUT.CONFIDENCE-SCORE.v1_0')!;
    expect(a.delta).toBeGreaterThan(0.001); // another model version moves A materially, not in its low bits
    expect(
      (await runCli(['replay', join(ex, 'tg', 'exact-intact', 'manifest.json'), '--what-if', 'shape=nonsense'])).code,
    ).toBe(3);
  });
});

describe('output', () => {
  it('replay --out writes the comparison artifact (mode composition, hashes, a row per output)', async () => {
    const out = join(work, 'comparison.json');
    const r = await runCli([
      'replay',
      join(ex, 'tg', 'banded-drift-not-material', 'manifest.json'),
      '--out',
      out,
      '--json',
    ]);
    expect(r.code).toBe(1);
    const c = JSON.parse(readFileSync(out, 'utf8'));
    expect(c.type).toBe('comp.TG.OUTPUT.REPLAY-COMPARISON.v1_0');
    expect(c.modeComposition).toEqual({ EXACT: 4, BANDED: 2, RECORDED: 0 });
    expect(c.manifestHash).toMatch(/^sha256:/);
    expect(c.policyContext.bundleHash).toMatch(/^sha256:/);
    expect(c.outputs).toHaveLength(6);
    expect(c.outputs.find((o: any) => o.executionId === 'x3').status).toBe('fail');
    expect(c.verdict).toBe('fail');
    expect((await runCli(['verify', join(ex, 'tg', 'exact-intact', 'manifest.json'), '--out', out])).code).toBe(3);
  });

  // Several artifacts would race for one file (the last writer won, or a mix was left); the
  // input is evidence; a kind that writes nothing would leave the user waiting for a file.
  it('replay --out refuses several artifacts, its own input, and kinds that write no comparison (exit 3)', async () => {
    const out = join(work, 'refused.json');
    const many = await runCli(['replay', join(ex, 'tg'), '--out', out, '--workers', '2']);
    expect(many.code).toBe(3);
    expect(many.stderr).toMatch(/--out holds one TG replay comparison: give one manifest \(\d+ artifacts were given\)/);
    const input = join(work, 'input-manifest.json');
    writeFileSync(input, readFileSync(join(ex, 'tg', 'exact-intact', 'manifest.json')));
    const self = await runCli(['replay', input, '--out', input]);
    expect(self.code).toBe(3);
    expect(self.stderr).toMatch(/is the artifact being replayed; Reprise never overwrites its input/);
    expect(readFileSync(input, 'utf8')).toBe(readFileSync(join(ex, 'tg', 'exact-intact', 'manifest.json'), 'utf8'));
    const dump = await runCli([
      'replay',
      join(ex, 'dumps', 'intact.dump.json'),
      '--trust-store',
      join(ex, 'dumps', 'trust-store.json'),
      '--out',
      out,
    ]);
    expect(dump.code).toBe(3);
    expect(dump.stderr).toMatch(/is a replay-dump, whose replay writes no file/);
    expect(existsSync(out)).toBe(false);
  });

  it('reports are deterministic, and identical with --workers 2', async () => {
    const dir = join(ex, 'tg');
    const a = await runCli(['replay', dir, '--jsonl']);
    const b = await runCli(['replay', dir, '--jsonl', '--workers', '2']);
    const norm = (s: string) =>
      s
        .trim()
        .split('\n')
        .map((l) => strip(JSON.parse(l) as Report))
        .join('\n');
    expect(norm(a.stdout)).toBe(norm(b.stdout));
    expect(a.code).toBe(b.code);
    const c = await runCli(['replay', join(dir, 'banded-within-epsilon', 'manifest.json'), '--json']);
    const d = await runCli(['replay', join(dir, 'banded-within-epsilon', 'manifest.json'), '--json']);
    expect(strip(JSON.parse(c.stdout))).toBe(strip(JSON.parse(d.stdout)));
  });
});
