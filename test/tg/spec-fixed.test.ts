/**
 * What the spec fixes, a manifest cannot change (found by a red team, each a PASS before):
 * an output Reprise recomputes declared RECORDED (an anchored ACCEPT standing in for the
 * decision), an embedded bundle standing in for the governed one given with --policy, and
 * claim inputs of another claim, or two of them, read by different engines.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashValue } from '../../app/core/hash.js';
import { CLAIM_INPUTS_TYPE, CSI } from '../../app/kinds/tg/constants.js';
import { failRules, journalCopy, replayJson, runCli, writeExamples } from './helpers.js';
import { cliIn } from '../cli/in-process.js';

// A manifest edited as the red team edited it: any member, any depth.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;
let ex = '';
let work = '';
const load = (name: string): Obj => JSON.parse(readFileSync(join(ex, 'tg', name, 'manifest.json'), 'utf8')) as Obj;
const save = (name: string, v: unknown): string => {
  const p = join(work, name);
  writeFileSync(p, JSON.stringify(v, null, 2));
  return p;
};
const messages = (findings: { rule: string; message: string }[], rule: string) =>
  findings.filter((f) => f.rule === rule).map((f) => f.message);

/** The hash of the manifest's claim-inputs artifact. */
const claimInputsOf = (m: Obj): string =>
  Object.keys(m['artifacts']).find((k) => m['artifacts'][k].json?.type === CLAIM_INPUTS_TYPE)!;

/** Adds `json` as an artifact and returns its key (its hash). */
function embed(m: Obj, json: Obj): string {
  const h = hashValue(json);
  m['artifacts'][h] = { mediaType: 'application/json', json };
  return h;
}

beforeAll(async () => {
  ex = await writeExamples();
  work = mkdtempSync(join(tmpdir(), 'reprise-tg-spec-'));
});

describe('what the spec fixes', () => {
  it('TG-DECISION declared RECORDED, its profile agreeing, is RPR-TG-014: the spec fixes it EXACT', async () => {
    const m = load('exact-intact');
    m['replayProfiles']['TG-DECISION'].outputs = { [CSI.DECISION]: 'RECORDED' };
    const d = m['executions'].find((e: Obj) => e.output === CSI.DECISION);
    d.replayMode = 'RECORDED';
    d.artifactHash = embed(m, { decision: 'ACCEPT' });
    d.anchor = { seq: 0, entryHash: `sha256:${'1'.repeat(64)}` };
    delete d.value;
    const { r, report } = await replayJson([save('decision-recorded.json', m)]);
    expect(messages(report.findings, 'RPR-TG-014').join('\n')).toContain('the spec fixes it EXACT');
    expect(r.code).toBe(1);
  });

  it('the rule evaluator declared RECORDED by its profile default is RPR-TG-014 too', async () => {
    const m = load('exact-intact');
    m['replayProfiles']['TG-RULE-EVALUATOR'] = { specification: 'TG-RP', default: 'RECORDED', outputs: {} };
    const v = m['executions'].find((e: Obj) => e.output === CSI.TRUST_VECTOR);
    v.replayMode = 'RECORDED';
    v.artifactHash = embed(m, { S: 1, I: 1, Q: 1, P: 1, R: 1, F: 1 });
    v.anchor = { seq: 0, entryHash: `sha256:${'1'.repeat(64)}` };
    delete v.value;
    const { report } = await replayJson([save('vector-recorded.json', m)]);
    expect(messages(report.findings, 'RPR-TG-014').join('\n')).toContain('TG-RULE-EVALUATOR');
    expect(report.verdict).toBe('fail');
  });

  it('--policy is the governed bundle: an embedded bundle does not stand in for it (RPR-TG-012)', async () => {
    const p = join(ex, 'tg', 'exact-intact', 'manifest.json');
    const other = JSON.parse(readFileSync(join(ex, 'tg', 'bundle.json'), 'utf8')) as Obj;
    other['version'] = '4';
    const { r, report } = await replayJson([p, '--policy', save('other-bundle.json', other)]);
    expect(failRules(report)).toContain('RPR-TG-012');
    expect(r.code).toBe(1);
    // The same bundle given with --policy still passes.
    const same = await replayJson([p, '--policy', join(ex, 'tg', 'bundle.json')]);
    expect(same.r.code).toBe(0);
  });

  it("a bundle given only with --policy may be named in POLICY-RESOLUTION's inputs, as an embedded one is", async () => {
    const m = load('exact-intact');
    delete m['artifacts'][m['policyContext'].bundleHash];
    expect(m['executions'][0].inputs).toEqual([m['policyContext'].bundleHash]);
    const { r, report } = await replayJson([
      save('bundle-by-policy.json', m),
      '--policy',
      join(ex, 'tg', 'bundle.json'),
    ]);
    expect(failRules(report)).toEqual([]);
    expect(r.code).toBe(0);
  });

  it('a manifest with nothing to replay is not a PASS (RPR-TG-024, unavailable)', async () => {
    const none = load('exact-intact');
    none['executions'] = [];
    const a = await replayJson([save('no-executions.json', none)]);
    expect(a.report.findings.map((f) => f.rule)).toContain('RPR-TG-024');
    expect(a.r.code).toBe(2);
    const policyOnly = load('exact-intact');
    policyOnly['executions'] = policyOnly['executions'].slice(0, 1);
    const b = await replayJson([save('policy-only.json', policyOnly)]);
    expect(b.report.findings.find((f) => f.rule === 'RPR-TG-024')?.message).toContain('only its policy resolution');
    expect(b.r.code).toBe(2);
  });

  it('claim inputs of another claim are RPR-TG-033', async () => {
    const m = load('exact-intact');
    const old = claimInputsOf(m);
    const json = { ...m['artifacts'][old].json, claimRef: 'claim:SOMEONE-ELSE' };
    delete m['artifacts'][old];
    const h = embed(m, json);
    for (const e of m['executions']) e.inputs = e.inputs.map((i: string) => (i === old ? h : i));
    const { report } = await replayJson([save('claim-other.json', m)]);
    expect(messages(report.findings, 'RPR-TG-033').join('\n')).toContain("not of the manifest's claim");
    expect(report.verdict).toBe('fail');
  });

  it('two claim-inputs artifacts, read by different engines, are RPR-TG-033', async () => {
    const m = load('exact-intact');
    const old = claimInputsOf(m);
    const json = m['artifacts'][old].json as Obj;
    const h = embed(m, { ...json, data: { ...json['data'], sourceAgeDays: 10 } });
    const scoring = m['executions'].filter((e: Obj) => e.engine === 'TG-SCORE-TRUST');
    for (const e of scoring) e.inputs = e.inputs.map((i: string) => (i === old ? h : i));
    const { report } = await replayJson([save('claim-split.json', m)]);
    expect(messages(report.findings, 'RPR-TG-033').join('\n')).toContain('a claim has one');
    expect(report.verdict).toBe('fail');
  });

  /** A trainer key made into the journal copy's trust store. */
  const trainerKey = async (trust: string, name: string): Promise<string> => {
    const key = join(work, name);
    expect((await runCli(['keys', 'generate', '--out', key, '--role', 'trainer', '--trust-store', trust])).code).toBe(
      0,
    );
    return key;
  };

  /** A review rationale on `artifact` recorded in the journal copy with `keyArgs`: its entry, without its signature. */
  const recordReview = async (dir: string, claim: string, artifact: string, rationale: string, keyArgs: string[]) => {
    const body = save(`review-${Math.random().toString(36).slice(2)}.json`, { decision: 'accept', rationale });
    const rec = ['journal', 'record', dir, '--kind', 'review-rationale', '--claim', claim, '--body-file', body];
    const w = await runCli([...rec, '--artifact', artifact, ...keyArgs]);
    expect(w.code, w.stderr).toBe(0);
    const lines = readFileSync(join(dir, 'entries.jsonl'), 'utf8').trim().split('\n');
    const { sig: _sig, ...entry } = JSON.parse(lines[lines.length - 1]!) as Obj;
    return entry;
  };

  it('a RECORDED anchor must record a human judgement by its role: a trainer\'s "review rationale" is RPR-TG-021', async () => {
    const j = await journalCopy(ex);
    const trainer = await trainerKey(j.trust, 'trainer.pem');
    const m = load('recorded-anchored');
    const x = m['executions'].find((e: Obj) => e.replayMode === 'RECORDED');
    // Written without --trust-store, which is what lets a trainer key sign it at all.
    const entry = await recordReview(j.dir, m['claimRef'], x.artifactHash, 'written by a trainer key, not a reviewer', [
      '--key',
      trainer,
    ]);
    x.anchor = { seq: entry['seq'], entryHash: hashValue(entry) };
    m['createdAtUtc'] = entry['recordedAtUtc'];
    const { r, report } = await replayJson([
      save('trainer-anchor.json', m),
      '--journal',
      j.dir,
      '--trust-store',
      j.trust,
    ]);
    expect(messages(report.findings, 'RPR-TG-021').join('\n')).toMatch(
      /cannot anchor a RECORDED output: .* is a trainer key/,
    );
    expect(r.code).toBe(1);
  });

  it('a replay-drift entry anchors only the decision-material drift event it holds, never a review rationale (RPR-TG-021)', async () => {
    const j = await journalCopy(ex);
    const trainer = await trainerKey(j.trust, 'trainer-drift.pem');
    const m = load('recorded-anchored');
    const x = m['executions'].find((e: Obj) => e.replayMode === 'RECORDED');
    const record = async (body: Obj, artifact: string): Promise<{ seq: unknown; entryHash: string; at: unknown }> => {
      const file = save(`drift-${Math.random().toString(36).slice(2)}.json`, body);
      const args = [
        'journal',
        'record',
        j.dir,
        '--kind',
        'replay-drift',
        '--claim',
        m['claimRef'],
        '--body-file',
        file,
      ];
      const w = await runCli([...args, '--artifact', artifact, '--key', trainer, '--trust-store', j.trust]);
      expect(w.code, w.stderr).toBe(0);
      const lines = readFileSync(join(j.dir, 'entries.jsonl'), 'utf8').trim().split('\n');
      const { sig: _sig, ...entry } = JSON.parse(lines[lines.length - 1]!) as Obj;
      return { seq: entry['seq'], entryHash: hashValue(entry), at: entry['recordedAtUtc'] };
    };
    const anchored = async (a: { seq: unknown; entryHash: string; at: unknown }) => {
      x.anchor = { seq: a.seq, entryHash: a.entryHash };
      m['createdAtUtc'] = a.at;
      return replayJson([save(`drift-anchor-${a.seq}.json`, m), '--journal', j.dir, '--trust-store', j.trust]);
    };
    // Any body, the review rationale's hash as its subject: a forged "accept" (it passed).
    const forged = await anchored(await record({ note: 'anything', decisionMaterial: false }, x.artifactHash));
    expect(forged.r.code).toBe(1);
    expect(messages(forged.report.findings, 'RPR-TG-021').join('\n')).toMatch(
      /cannot anchor a RECORDED output: a replay-drift entry anchors only the drift event it holds, and its body is no comp\.TG\.EVENT\.REPLAY-DRIFT\.v1_0 event/,
    );
    // A true drift event's body, still about the rationale: its subject is not its own event.
    const event = { type: 'comp.TG.EVENT.REPLAY-DRIFT.v1_0', claimRef: m['claimRef'], decisionMaterial: true };
    const aside = await anchored(await record(event, x.artifactHash));
    expect(aside.r.code).toBe(1);
    expect(messages(aside.report.findings, 'RPR-TG-021').join('\n')).toMatch(
      /its subject is another artifact than that event/,
    );
  });

  it('a TRUST-SCORE recorded under another engine, anchored, does not stand in for the recomputed score (RPR-TG-039)', async () => {
    const j = await journalCopy(ex);
    const m = load('exact-intact');
    const score = 0.95;
    const h = hashValue(score);
    m['artifacts'][h] = { mediaType: 'application/json', json: score };
    m['replayProfiles']['TG-REVIEW'] = { specification: 'TG-RP', default: 'RECORDED', outputs: {} };
    const rationale = 'The score of this claim was reviewed by hand and found to be high.';
    const entry = await recordReview(j.dir, m['claimRef'], h, rationale, ['--key', j.key, '--trust-store', j.trust]);
    m['createdAtUtc'] = entry['recordedAtUtc'];
    const x2 = m['executions'].find((e: Obj) => e.output === CSI.TRUST_VECTOR);
    const forged = {
      executionId: 'x9',
      engine: 'TG-REVIEW',
      engineCmi: 'tg-review@1',
      configSnapshotRef: x2.configSnapshotRef,
      output: CSI.TRUST_SCORE,
      replayMode: 'RECORDED',
      inputs: [x2.executionId],
      artifactHash: h,
      anchor: { seq: entry['seq'], entryHash: hashValue(entry) },
    };
    // The recomputed score and its explanation go; the decision reads the recorded "score" and says ACCEPT.
    const kept = m['executions'].filter((e: Obj) => e.engine !== 'TG-SCORE-TRUST' || e.output === CSI.CONFIDENCE_SCORE);
    const decision = kept.find((e: Obj) => e.output === CSI.DECISION);
    decision.inputs = ['x9'];
    decision.value = 'ACCEPT';
    m['executions'] = [...kept.filter((e: Obj) => e !== decision), forged, decision];
    // In process: the rule is checked on the source, whatever dist/ holds.
    const args = ['replay', save('score-by-review.json', m), '--journal', j.dir, '--trust-store', j.trust, '--json'];
    const r = await cliIn(work, ...args);
    const report = JSON.parse(r.out) as { findings: { rule: string; message: string }[] };
    expect(messages(report.findings, 'RPR-TG-039').join('\n')).toContain(
      `x9 records ${CSI.TRUST_SCORE} under engine TG-REVIEW, but the spec assigns that output to TG-SCORE-TRUST`,
    );
    expect(r.code).toBe(1);
  });
});
