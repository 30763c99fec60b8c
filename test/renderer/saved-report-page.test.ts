/**
 * "Save report as HTML" of a saved report (an exported reprise.report/v1 opened with "View a
 * saved report", OpenArtifact.savedReport) says on the page what the verdict banner says:
 * the verdict as stated, not re-verified, in no verdict's colour, and its claims marked as
 * its own (shared/report-html.ts reportPage, shared/stated-words.ts). A report the engine
 * made here renders as it did. The reports are the engine's own (fixtures/), and an evidence
 * bundle's report around one with a trusted signer and a verified proof, as a forger keeps them.
 */
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import intactReport from './fixtures/intact.report.json';
import alteredReport from './fixtures/altered-artifact.report.json';
import { carriedVerdictOf } from '../../shared/details/carried';
import { reportPage } from '../../shared/report-html';
import { sha256TextHex } from '../../shared/sha256';
import { AS_STATED, SAVED_LEAD } from '../../shared/stated-words';
import type { Report } from '../../shared/report';

stubBrowser();

const intact = () => structuredClone(intactReport) as unknown as Report;
const altered = () => structuredClone(alteredReport) as unknown as Report;
const HASH = (c: string) => `sha256:${c.repeat(64)}`;

/** An evidence bundle's report carrying the intact dump's, with one judgement whose proof it says verified. */
function bundleReport(): Report {
  const carried = intact();
  const r = intact();
  r.artifact = { path: '/cases/17/bundle.zip', kind: 'evidence-bundle', id: null, sha256: HASH('b') };
  r.findings = [
    { rule: 'RPR-EVB-000', severity: 'info', message: '1 judgement(s) proven under the signed checkpoint' },
  ];
  r.chain = [];
  r.details = {
    integrity: { verdict: 'pass', trustStore: true, statement: 'every member intact' },
    bundle: { artifact: { sha256: HASH('a'), kind: 'replay-dump', id: null }, reportDigest: HASH('d') },
    carried: carriedVerdictOf(carried),
    judgements: [
      {
        seq: 0,
        member: 'judgements/000000000000.json',
        entryHash: HASH('1'),
        recordedAtUtc: '2026-11-02T09:30:00Z',
        author: r.authenticity!.keyId,
        role: 'reviewer',
        label: 'test reviewer',
        subject: HASH('a'),
        decision: 'accept',
        supersedes: null,
        pointer: '',
        rationale: 'Read in full.',
        reportDigest: HASH('d'),
        proof: { leafIndex: 0, treeSize: 1, auditPath: [], verified: true, problems: [] },
      },
    ],
    report: carried,
  } as never;
  return r;
}

/** The page "Save report as HTML" writes for `doc` opened with "View a saved report". */
async function savedPage(doc: unknown): Promise<string> {
  const { useStore } = await import('../../renderer/src/store');
  const { reportHtml } = await import('../../renderer/src/components/ExportView');
  useStore.setState({ api: null, artifact: null, report: null, error: null } as never);
  await useStore.getState().openSavedReport(new File([JSON.stringify(doc)], 'saved.report.json'));
  const s = useStore.getState();
  expect(s.error).toBeNull();
  expect(s.artifact?.savedReport).toBe(true);
  return reportHtml(s.report!, s.artifact);
}

const h1 = (page: string): string => /<h1>(.*?)<\/h1>/s.exec(page)![1]!;

describe('the HTML page of a saved report', () => {
  it('says its PASS as stated, in no verdict colour, with no tick, its claims marked as its own', async () => {
    const page = await savedPage(bundleReport());
    expect(h1(page)).toBe('Report <strong>PASS</strong> as stated (not re-verified)');
    expect(page).not.toMatch(/class="verdict /);
    expect(page).not.toContain('✓');
    expect(page).not.toContain('inclusion verified');
    expect(page).toContain(SAVED_LEAD);
    expect(page).toContain('its verdict, authenticity, proofs and judgements are its own claims, none checked here');
    expect(page).toContain(`<dt>origin (${AS_STATED})</dt><dd>Trusted signer:`);
    expect(page).toContain(`<dt>made by (${AS_STATED})</dt>`);
    expect(page).toContain(`<h2>Hash chain (${AS_STATED})</h2>`);
    expect(page).toContain('<title>Reprise report: /cases/17/bundle.zip (saved report, not re-verified)</title>');
  });

  it('says a FAIL as stated too, never in the fail colour', async () => {
    const page = await savedPage(altered());
    expect(h1(page)).toBe('Report <strong>FAIL</strong> as stated (not re-verified)');
    expect(page).not.toMatch(/class="verdict /);
  });

  it('one that names no run (optional to a saved report) is written, saying so', async () => {
    const { run: _run, ...noRun } = intact();
    const page = await savedPage(noRun);
    expect(page).toContain(`<dt>made by (${AS_STATED})</dt><dd>not stated: the report has no &quot;run&quot;</dd>`);
  });
});

describe('the HTML page of a report the engine made here', () => {
  it('is the page it was: its verdict in its colour, nothing said as stated', async () => {
    const { reportHtml } = await import('../../renderer/src/components/ExportView');
    const artifact = { name: 'intact.dump.json', source: { type: 'example', path: 'dumps/intact.dump.json' } } as const;
    const page = reportHtml(intact(), artifact as never);
    expect(page).toBe(reportPage(intact()));
    expect(h1(page)).toBe('Report <span class="verdict pass">PASS</span>');
    expect(page).not.toContain('as stated');
    expect(page).not.toContain(AS_STATED);
    // The bytes this page had before a saved report's page was told apart.
    expect(sha256TextHex(page)).toBe('28ea77a71d918db063c9973ae13af5c4114cf5fb03fdc10b8a9f9d864450d09c');
    expect(sha256TextHex(reportHtml(altered(), null))).toBe(
      'ab0b4a91b63da42ee53606ae8dc413115b680eef4b666cff6adef854052453ac',
    );
  });
});
