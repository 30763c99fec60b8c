/**
 * Judging a case as a whole from the command line, as docs/evidence-bundle.md ("What binds a
 * case's reports") says: the case report written with the export's engine flags, its digest
 * from `reprise canonicalize --hash`, a judgement recorded on that digest with `journal
 * record`, then `export` and `verify`: the bundle's origin is the reviewer's signature over
 * case.json, no report is left unbound, and a bundle of another state of the case carries no
 * judgement on it.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeExamples } from '../../app/examples/index.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { makeKeys, tmp } from '../journal/helpers.js';

interface Verified {
  verdict: string;
  authenticity: { status: string; statement: string };
  findings: { rule: string }[];
  details: { judgements: { subject: string }[] };
}

describe.skipIf(!cliBuilt())('a judgement on the case, from the command line', () => {
  it('binds case.json and every report; the export of a changed case carries none on it', async () => {
    const base = tmp('reprise-case-judgement-cli-');
    const ex = join(base, 'ex');
    await writeExamples(ex);
    const keys = makeKeys(base);
    const store = (p: string) => (JSON.parse(readFileSync(p, 'utf8')) as { keys: unknown[] }).keys;
    const trust = join(base, 'trust.json');
    const keysBoth = [...store(join(ex, 'tg/trust-store.json')), ...store(keys.trustPath)];
    writeFileSync(trust, JSON.stringify({ type: 'reprise.trust-store/v1', keys: keysBoth }));
    const dir = join(base, 'case');
    mkdirSync(dir);
    copyFileSync(join(ex, 'tg/bundle.json'), join(dir, 'bundle.json'));
    copyFileSync(join(ex, 'tg/exact-intact/manifest.json'), join(dir, 'manifest.json'));
    const journal = join(base, 'journal');
    const caseJson = join(base, 'case.json');
    const run = await runCli(['verify', dir, '--case', caseJson, '--trust-store', trust]);
    expect(run.code, run.stderr).toBe(0);
    const digest = (await runCli(['canonicalize', caseJson, '--hash'])).stdout.trim();
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);
    const body = join(base, 'body.json');
    const rationale = 'The whole case was reviewed: its links and its timeline agree.';
    writeFileSync(
      body,
      JSON.stringify({
        type: 'reprise.judgement/v1',
        decision: 'accept',
        rationale,
        reportDigest: digest,
        pointer: '',
      }),
    );
    const rec = ['journal', 'record', journal, '--kind', 'review-rationale', '--claim', 'case:1', '--artifact'];
    const r = await runCli([...rec, digest, '--body-file', body, '--key', keys.reviewerPem, '--trust-store', trust]);
    expect(r.code, r.stderr).toBe(0);
    const zip = join(base, 'case.zip');
    const e = await runCli(['export', dir, '--journal', journal, '--out', zip, '--trust-store', trust]);
    expect(e.code, e.stderr).toBe(0);
    expect(e.stdout).toContain(`case ${digest}: PASS, 2 artifact(s)\n  1 judgement(s)`);
    const v = await runCli(['verify', zip, '--trust-store', trust, '--json']);
    expect(v.code, v.stderr).toBe(0);
    const got = JSON.parse(v.stdout) as Verified;
    expect(got.authenticity.status).toBe('trusted-signer');
    expect(got.authenticity.statement).toMatch(/which bind case\.json by its digest, and through it all 2 report\(s\)/);
    expect(got.findings.map((f) => f.rule)).not.toContain('RPR-EVB-015');
    expect(got.details.judgements.map((j) => j.subject)).toEqual([digest]);
    // Another state of the case (an artifact added) has another digest: the judgement is not on it.
    copyFileSync(join(ex, 'acgp/trace-clean.jsonl'), join(dir, 'trace-clean.jsonl'));
    const zip2 = join(base, 'case2.zip');
    const e2 = await runCli(['export', dir, '--journal', journal, '--out', zip2, '--trust-store', trust]);
    expect(e2.code, e2.stderr).toBe(0);
    expect(e2.stdout).toContain('0 judgement(s)');
    const v2 = JSON.parse((await runCli(['verify', zip2, '--trust-store', trust, '--json'])).stdout) as Verified;
    expect(v2.authenticity.status).toBe('consistency-only');
  });
});
