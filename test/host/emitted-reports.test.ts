/**
 * The host signs only on what it showed (main/host/emitted-reports.ts): a judgement on a
 * report a job returned, byte for byte, and a note on an artifact a job or case named. A
 * saved report opened in the window, a report changed by the page, or an artifact never
 * opened is refused as the user's, and nothing is written. Through EngineHost, whose
 * journal worker runs from dist/ (build:cli first).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineHost } from '../../main/host/engine-host.js';
import { distHost } from '../helpers/dist-host.js';
import { EmittedReports } from '../../main/host/emitted-reports.js';
import type { ApiEvent } from '../../shared/api.js';
import type { Report } from '../../shared/report.js';
import { bytesSource, jobReport } from '../helpers/job-report.js';
import { makeKeys, tmp } from '../journal/helpers.js';
import { keyIdOf } from '../helpers/shown.js';

let host: EngineHost;
beforeAll(() => {
  host = distHost({ roots: [tmpdir()] });
});
afterAll(async () => host.close());

/** The report as the window holds it: one JSON round trip, as the web host's transport makes. */
const asSent = (r: Report): Report => JSON.parse(JSON.stringify(r)) as Report;

describe('the host signs only on what it showed', () => {
  it('refuses a judgement, a note and an export on a report or artifact it did not return; accepts its own', async () => {
    const dir = tmp('reprise-emitted-');
    const k = makeKeys(dir);
    await host.grant({ keys: [k.reviewerPem] });
    const journal = join(dir, 'journal');
    await host.openJudgementJournal({ dir: journal, trustStore: k.trustPath, create: true });
    const report = asSent(await jobReport(host, { source: bytesSource('a.json', '{"x": 1}\n'), mode: 'verify' }));
    const base = { dir: journal, trustStore: k.trustPath, keyFile: k.reviewerPem, keyId: await keyIdOf(k.reviewerPem) };
    const judge = (r: Report) =>
      host.recordJudgement({ ...base, report: r, pointer: '', decision: 'accept', rationale: 'Read it whole; fine.' });
    // A saved report edited to pass: never returned by a job.
    const edited = { ...report, verdict: 'pass', findings: [] } as Report;
    await expect(judge(edited)).rejects.toMatchObject({
      usage: true,
      message: expect.stringMatching(/Nothing was signed/),
    });
    await expect(host.exportBundle({ dir: journal, trustStore: k.trustPath, report: edited })).rejects.toMatchObject({
      usage: true,
    });
    const unknown = `sha256:${'b'.repeat(64)}`;
    await expect(
      host.recordNote({ ...base, artifact: unknown, text: 'A note on nothing seen.', supersedes: null }),
    ).rejects.toMatchObject({ usage: true, message: expect.stringMatching(/not one of them/) });
    expect((await host.journalStatus({ dir: journal, trustStore: k.trustPath })).entries).toBe(0);
    // The report as returned, and its artifact: signed.
    expect((await judge(report)).seq).toBe(0);
    const note = await host.recordNote({
      ...base,
      artifact: report.artifact.sha256!,
      text: 'Seen and noted here.',
      supersedes: null,
    });
    expect(note.seq).toBe(1);
  });
});

describe('EmittedReports', () => {
  const reportOf = (n: number) =>
    ({ schema: 'reprise.report/v1', artifact: { sha256: `sha256:${String(n).padStart(64, '0')}` } }) as Report;
  const done = (r: Report): ApiEvent => ({ type: 'job-done', jobId: 'j', report: r, unread: [] }) as ApiEvent;

  it('remembers a bounded number, forgetting the oldest', () => {
    const e = new EmittedReports(2);
    for (const n of [1, 2, 3]) e.see(done(reportOf(n)));
    expect(() => e.checkReport(reportOf(1), 'A judgement')).toThrow(/Nothing was signed/);
    expect(() => e.checkArtifact(reportOf(1).artifact.sha256, 'A note')).toThrow(/not one of them/);
    e.checkReport(asSent(reportOf(2)), 'A judgement');
    e.checkReport(reportOf(3), 'A judgement');
  });

  it('takes a case’s artifacts for notes, not as reports', () => {
    const e = new EmittedReports();
    const sha = `sha256:${'c'.repeat(64)}`;
    e.see({ type: 'case-done', caseId: 'c', report: { artifacts: [{ sha256: sha }, { sha256: null }] } } as ApiEvent);
    e.checkArtifact(sha, 'A note');
    expect(() => e.checkArtifact(null, 'A note')).toThrow(/this one/);
  });
});
