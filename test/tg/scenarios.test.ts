/** Every TG training scenario through the CLI: verdict, exit code, rules, comparisons, events and routing. */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventsOf, failRules, journalCopy, replayJson, rules, runCli, writeExamples } from './helpers.js';

const DRIFT = 'comp.TG.EVENT.REPLAY-DRIFT.v1_0';
const ROUTING = 'reprise.tg.routing/v1';
let ex = '';
const m = (name: string) => join(ex, 'tg', name, 'manifest.json');

beforeAll(async () => {
  ex = await writeExamples();
});

describe('TG scenarios (reprise replay)', () => {
  it('all EXACT and intact: pass, every comparison hash-identical, no events', async () => {
    const { r, report } = await replayJson([m('exact-intact')]);
    expect(r.code).toBe(0);
    expect(report.artifact.kind).toBe('tg-replay-manifest');
    expect(report.verdict).toBe('pass');
    expect(report.comparisons!.length).toBe(5);
    expect(report.comparisons!.every((c) => c.mode === 'EXACT' && c.status === 'pass')).toBe(true);
    expect(report.events).toEqual([]);
  });

  it('BANDED within ε (compute-shape jitter): pass with a small non-zero delta recorded against the governed ε', async () => {
    // The example's own option: the governed bundle (without it the embedded ε decides nothing, RPR-TG-043).
    const { r, report } = await replayJson([m('banded-within-epsilon'), '--policy', join(ex, 'tg', 'bundle.json')]);
    expect(r.code).toBe(0);
    const banded = report.comparisons!.filter((c) => c.mode === 'BANDED');
    expect(banded.map((c) => c.output).sort()).toEqual([
      'comp.TG.OUTPUT.CONFIDENCE-SCORE.v1_0',
      'comp.TG.OUTPUT.TRUST-SCORE.v1_0',
    ]);
    for (const c of banded) {
      expect(c.status).toBe('pass');
      expect(c.delta).toBeGreaterThan(0);
      expect(c.delta!).toBeLessThanOrEqual(c.epsilon!);
    }
    expect(banded.find((c) => c.output.includes('CONFIDENCE'))!.epsilon).toBe(0.03);
    expect(banded.find((c) => c.output.includes('TRUST-SCORE'))!.epsilon).toBe(0.02);
    expect(report.events).toEqual([]);
  });

  it('BANDED beyond ε, not decision-material: fail, REPLAY-DRIFT with every field, routed as calibration signal', async () => {
    const { r, report } = await replayJson([m('banded-drift-not-material')]);
    expect(r.code).toBe(1);
    expect(failRules(report)).toEqual(['RPR-TG-031']);
    const [d] = eventsOf(report, DRIFT);
    expect(d).toBeDefined();
    for (const k of [
      'claimRef',
      'output',
      'original',
      'replayed',
      'delta',
      'epsilon',
      'modelId',
      'originalModelVersion',
      'replayModelVersion',
      'decisionMaterial',
      'originalExit',
      'replayedExit',
    ])
      expect(d).toHaveProperty(k);
    expect(d!['claimRef']).toBe('claim:2026-11-0103');
    expect(d!['decisionMaterial']).toBe(false);
    expect(d!['originalExit']).toBe(d!['replayedExit']);
    expect(Math.abs((d!['replayed'] as number) - (d!['original'] as number))).toBeGreaterThan(d!['epsilon'] as number);
    expect(d!['routing']).toBe('CALIBRATION_SIGNAL');
    const routes = eventsOf(report, ROUTING);
    expect(routes.map((x) => x['route'])).toEqual(['CALIBRATION_SIGNAL']);
  });

  it('BANDED beyond ε and decision-material: fail, the exit changes, the claim routes to human review', async () => {
    const { r, report } = await replayJson([m('banded-drift-material')]);
    expect(r.code).toBe(1);
    expect(failRules(report)).toContain('RPR-TG-031');
    const drifts = eventsOf(report, DRIFT);
    const material = drifts.find((x) => x['decisionMaterial'] === true)!;
    expect(material).toBeDefined();
    expect(material['originalExit']).toBe('ACCEPT');
    expect(material['replayedExit']).not.toBe('ACCEPT');
    expect(material['routing']).toBe('HUMAN_REVIEW');
    expect(material['anchor']).toBeNull();
    const route = eventsOf(report, ROUTING).find((x) => x['route'] === 'HUMAN_REVIEW')!;
    expect(route['claimRef']).toBe('claim:2026-11-0104');
    expect(rules(report)).toContain('RPR-TG-041'); // not anchored without --journal
  });

  it('exit HUMAN_REVIEW: intact (pass) and routed to human review', async () => {
    const { r, report } = await replayJson([m('exit-human-review')]);
    expect(r.code).toBe(0);
    expect(report.comparisons!.find((c) => c.output === 'comp.TG.OUTPUT.DECISION.v1_0')!.replayed).toBe('HUMAN_REVIEW');
    expect(eventsOf(report, ROUTING)[0]!['route']).toBe('HUMAN_REVIEW');
    expect(rules(report)).toContain('RPR-TG-042');
  });

  it.each([
    ['missing-pin', 'RPR-TG-015'],
    ['epsilon-disagrees', 'RPR-TG-016'],
    ['scoring-before-policy', 'RPR-TG-013'],
    ['recorded-unanchored', 'RPR-TG-020'],
  ])('%s: fail with %s, the affected output not replayed', async (name, rule) => {
    const { r, report } = await replayJson([m(name)]);
    expect(r.code).toBe(1);
    expect(report.verdict).toBe('fail');
    expect(failRules(report)).toContain(rule);
    expect(
      report.comparisons!.some((c) => c.status === 'fail' && /not replayed|not replayable|anchor/.test(c.reason ?? '')),
    ).toBe(true);
  });

  it('epsilon-disagrees shows the governed and the recorded ε', async () => {
    const { report } = await replayJson([m('epsilon-disagrees')]);
    const f = report.findings.find((x) => x.rule === 'RPR-TG-016')!;
    expect(f.expected).toBe(0.03);
    expect(f.actual).toBe(0.05);
    expect(f.pointer).toMatch(/^\/executions\/\d+\/pins\/epsilon$/);
  });

  it('RECORDED with its anchor: unavailable without the journal, pass when the inclusion proof verifies', async () => {
    const a = await replayJson([m('recorded-anchored')]);
    expect(a.r.code).toBe(2);
    expect(rules(a.report)).toContain('RPR-TG-023');
    const b = await replayJson([
      m('recorded-anchored'),
      '--journal',
      join(ex, 'tg', 'journal'),
      '--trust-store',
      join(ex, 'tg', 'trust-store.json'),
    ]);
    expect(b.r.code).toBe(0);
    const rec = b.report.comparisons!.find((c) => c.mode === 'RECORDED')!;
    expect(rec.status).toBe('pass');
    expect(rec.replayed).toBe(rec.original);
    expect(b.report.chain.find((n) => n.id.startsWith('anchor:'))!.status).toBe('match');
  });

  it('RECORDED anchor against a tampered journal fails', async () => {
    const j = await journalCopy(ex);
    const { readFileSync, writeFileSync } = await import('node:fs');
    const p = join(j.dir, 'entries.jsonl');
    writeFileSync(p, readFileSync(p, 'utf8').replace('hand', 'eye!'));
    const { r, report } = await replayJson([m('recorded-anchored'), '--journal', j.dir, '--trust-store', j.trust]);
    expect(r.code).toBe(1);
    expect(failRules(report)).toContain('RPR-TG-021');
  });

  it('verify (no re-execution) passes an intact manifest and the bundle', async () => {
    const a = await runCli(['verify', m('banded-within-epsilon'), join(ex, 'tg', 'bundle.json'), '--json']);
    expect(a.code).toBe(0);
    const reports = JSON.parse(a.stdout) as { artifact: { kind: string }; verdict: string; comparisons?: unknown }[];
    expect(reports.map((x) => x.artifact.kind)).toEqual(['tg-replay-manifest', 'tg-policy-bundle']);
    expect(reports.every((x) => x.verdict === 'pass' && x.comparisons === undefined)).toBe(true);
  });
});

describe('routing through the journal (--journal DIR --key KEY)', () => {
  it('anchors decision-material drift, opens one case per routed claim, and the journal shows the cases afterwards', async () => {
    const j = await journalCopy(ex);
    const flags = ['--journal', j.dir, '--key', j.key, '--trust-store', j.trust];
    const mat = await replayJson([m('banded-drift-material'), ...flags]);
    expect(mat.r.code).toBe(1);
    const d = eventsOf(mat.report, DRIFT).find((x) => x['decisionMaterial'] === true)!;
    expect(d['anchor']).toMatchObject({
      seq: expect.any(Number),
      entryHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });
    const route = eventsOf(mat.report, ROUTING).find((x) => x['route'] === 'HUMAN_REVIEW')!;
    expect(route['case']).toMatchObject({ caseId: expect.stringMatching(/^case-\d+$/) });
    expect(rules(mat.report)).not.toContain('RPR-TG-041');

    const hr = await replayJson([m('exit-human-review'), ...flags]);
    expect(hr.r.code).toBe(0);
    expect(eventsOf(hr.report, ROUTING)[0]!['case']).not.toBeNull();

    // Replaying the same claim again does not open a second case.
    const again = await replayJson([m('banded-drift-material'), ...flags]);
    expect(eventsOf(again.report, ROUTING).find((x) => x['route'] === 'HUMAN_REVIEW')!['alreadyOpen']).toBe(true);

    const ver = await runCli(['journal', 'verify', j.dir, '--trust-store', j.trust]);
    expect(ver.code).toBe(0);
    // Replaying the journal afterwards (a pure fold of its entries) shows the two opened cases.
    const replayed = await runCli(['replay', j.dir, '--trust-store', j.trust, '--json']);
    expect(replayed.code).toBe(0);
    expect((JSON.parse(replayed.stdout) as { details: { cases: Record<string, number> } }).details.cases).toEqual({
      open: 2,
    });
    const list = await runCli(['quarantine', 'list', j.dir, '--trust-store', j.trust, '--json']);
    expect(list.code).toBe(0);
    const claims = JSON.stringify(JSON.parse(list.stdout));
    expect(claims).toContain('claim:2026-11-0104');
    expect(claims).toContain('claim:2026-11-0105');
    expect(claims.match(/claim:2026-11-0104/g)!.length).toBeGreaterThanOrEqual(1);
    const entries = (await import('node:fs'))
      .readFileSync(join(j.dir, 'entries.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; subject: { claimRef: string } });
    expect(
      entries
        .filter((e) => e.kind === 'quarantine-open')
        .map((e) => e.subject.claimRef)
        .sort(),
    ).toEqual(['claim:2026-11-0104', 'claim:2026-11-0105']);
    expect(entries.filter((e) => e.kind === 'replay-drift').length).toBeGreaterThanOrEqual(2);
  });

  it('a journal that does not verify: nothing is anchored onto it, the report says why, and the routing event says anchored: false', async () => {
    const j = await journalCopy(ex);
    const { readFileSync, writeFileSync } = await import('node:fs');
    const p = join(j.dir, 'entries.jsonl');
    const lines = readFileSync(p, 'utf8').split('\n');
    lines[0] = lines[0]!.replace('"seq":0', '"seq":0 ');
    writeFileSync(p, lines.join('\n'));
    const before = readFileSync(p);
    const mat = await replayJson([
      m('banded-drift-material'),
      '--journal',
      j.dir,
      '--key',
      j.key,
      '--trust-store',
      j.trust,
    ]);
    const refusal = mat.report.findings.find((f: { rule: string }) => f.rule === 'RPR-TG-040');
    expect(refusal?.message).toMatch(/does not verify/);
    expect(eventsOf(mat.report, ROUTING).find((x) => x['route'] === 'HUMAN_REVIEW')!['anchored']).toBe(false);
    expect(readFileSync(p).equals(before)).toBe(true);
  });

  it('with --workers 2 both workers anchor in the same journal (lock contention is waited out, never an error)', async () => {
    const j = await journalCopy(ex);
    const r = await runCli([
      'replay',
      join(ex, 'tg'),
      '--journal',
      j.dir,
      '--key',
      j.key,
      '--trust-store',
      j.trust,
      '--workers',
      '2',
      '--jsonl',
    ]);
    const reports = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { findings: { rule: string }[] });
    expect(reports.flatMap((x) => x.findings.map((f) => f.rule))).not.toContain('RPR-TG-040');
    const list = await runCli(['quarantine', 'list', j.dir, '--trust-store', j.trust, '--json']);
    const text = list.stdout;
    expect(text).toContain('claim:2026-11-0104');
    expect(text).toContain('claim:2026-11-0105');
    expect((await runCli(['journal', 'verify', j.dir, '--trust-store', j.trust])).code).toBe(0);
  });

  it('with --journal but no --key, routing that must be anchored is unavailable, not silent', async () => {
    const j = await journalCopy(ex);
    const { r, report } = await replayJson([m('exit-human-review'), '--journal', j.dir, '--trust-store', j.trust]);
    expect(r.code).toBe(2);
    expect(rules(report)).toContain('RPR-TG-040');
  });
});
