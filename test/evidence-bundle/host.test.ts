/**
 * The host API for judgements (main/host/judgement-ops.ts) through EngineHost, whose
 * journal operations run in the journal worker from dist/ (build:cli first).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATIONALE_RULE } from '../../shared/rationale.js';
import type { EngineHost } from '../../main/host/engine-host.js';
import { distHost } from '../helpers/dist-host.js';
import { bytesSource, jobReport } from '../helpers/job-report.js';
import { makeKeys, tmp } from '../journal/helpers.js';
import { ARTIFACT } from './helpers.js';
import { keyIdOf } from '../helpers/shown.js';

let host: EngineHost;
beforeAll(() => {
  host = distHost({ roots: [tmpdir()] });
});
afterAll(async () => host.close());

describe('host: judgements and the evidence bundle', () => {
  it('creates a journal, records a judgement (receipt after the write), lists it, exports and reopens the bundle', async () => {
    const dir = tmp('reprise-evb-host-');
    const k = makeKeys(dir);
    // The keys a person picked for signing (serve --key, or the native dialog).
    await host.grant({ keys: [k.reviewerPem, k.officerPem] });
    const journal = join(dir, 'journal');
    await expect(host.openJudgementJournal({ dir: journal, trustStore: k.trustPath })).rejects.toMatchObject({
      usage: true,
    });
    const opened = await host.openJudgementJournal({ dir: journal, trustStore: k.trustPath, create: true });
    expect([opened.entries, opened.verdict]).toEqual([0, 'pass']);
    const report = await jobReport(host, { source: bytesSource('a.json', ARTIFACT), mode: 'verify' });
    const req = {
      dir: journal,
      trustStore: k.trustPath,
      keyFile: k.reviewerPem,
      keyId: await keyIdOf(k.reviewerPem),
      report,
      pointer: '/findings/0',
      decision: 'note' as const,
      rationale: 'Expected: the file is of no known kind.',
    };
    // Refusals write nothing.
    await expect(host.recordJudgement({ ...req, rationale: 'short' })).rejects.toMatchObject({
      usage: true,
      message: expect.stringMatching(/characters/),
    });
    await expect(
      host.recordJudgement({ ...req, keyFile: k.officerPem, keyId: await keyIdOf(k.officerPem) }),
    ).rejects.toMatchObject({
      usage: true,
      message: expect.stringMatching(/reviewer key/),
    });
    await expect(host.recordJudgement({ ...req, keyFile: 'reviewer.pem' })).rejects.toMatchObject({ usage: true });
    expect((await host.journalStatus({ dir: journal, trustStore: k.trustPath })).entries).toBe(0);
    const receipt = await host.recordJudgement(req);
    expect(receipt).toMatchObject({
      seq: 0,
      role: 'reviewer',
      label: 'test reviewer',
      proofVerified: true,
      proofFindings: [],
      pointer: '/findings/0',
      checkpoint: { size: 1 },
    });
    const list = await host.listJudgements({
      dir: journal,
      trustStore: k.trustPath,
      artifact: report.artifact.sha256!,
      report,
    });
    expect(
      list.judgements.map((j) => [j.seq, j.decision, j.reportDigest === list.reportDigest, j.proofVerified]),
    ).toEqual([[0, 'note', true, true]]);
    const b = await host.exportBundle({ dir: journal, trustStore: k.trustPath, report });
    expect([b.judgements, b.checkpoint.size, b.reportDigest]).toEqual([1, 1, receipt.reportDigest]);
    const again = await jobReport(host, {
      source: { type: 'bytes', name: b.name, dataBase64: b.dataBase64 },
      mode: 'verify',
    });
    expect(again.artifact.kind).toBe('evidence-bundle');
    expect(again.findings.map((f) => f.rule)).toContain('RPR-EVB-011'); // a job on bytes takes no trust store
  });

  it('states the one rationale rule and the decisions', async () => {
    const r = await host.judgementRules();
    expect(r).toMatchObject({
      minChars: RATIONALE_RULE.minChars,
      minWords: RATIONALE_RULE.minWords,
      decisions: ['accept', 'reject', 'needs-review', 'note'],
    });
  });
});
