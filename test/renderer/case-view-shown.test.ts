/**
 * The Case view (renderer/src/components/CaseView.tsx) as it renders: the judgements table
 * says whether each judgement counts in the notes list's words (a decision signed by a key
 * that may not sign one, a case run without a trust store, an edit that replaces nothing),
 * everything an artifact wrote is shown escaped (a finding's message naming a file, a
 * judgement's fields, the timeline's artifact filter and count), a missing link shows only its own
 * artifact's finding, and the notes panel names the artifact it is of. Rendered to static
 * markup; browser globals stubbed.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import { caseArtifact as artifact, sha } from '../helpers/case-view';
import type { CaseJudgement, CaseLink, CaseReport, TimelineEvent } from '../../shared/case';
import type { Finding } from '../../shared/report';

stubBrowser();

const RLO = '\u202e';
const SPOOF = `x${RLO}gnp.exe`;
const OFFICER_KEY = 'the key is a quarantine-officer key: a judgement is signed by a reviewer key';

function judgement(seq: number, over: Partial<CaseJudgement>): CaseJudgement {
  return {
    journal: 'review',
    seq,
    entryHash: sha(String(seq)),
    artifact: 'dump.json',
    subject: sha('d'),
    decision: 'accept',
    rationale: 'the replay matches the recorded run in every field',
    author: `ed25519:${'1'.repeat(64)}`,
    atUtc: '2026-12-05T10:00:00Z',
    supersedes: null,
    standing: 'counts',
    problem: null,
    ...over,
  };
}

const missing = (from: string): CaseLink =>
  ({
    from: { artifact: from, pointer: '/policyContext/bundleHash' },
    relation: 'policy-bundle',
    value: sha('e'),
    to: { artifact: null, pointer: null },
    status: 'missing',
  }) as unknown as CaseLink;

const event = (path: string): TimelineEvent =>
  ({
    atUtc: '2026-12-05T10:00:00Z',
    artifact: path,
    kind: 'replay-dump',
    label: 'dump created',
    severity: 'info',
    node: null,
    pointer: `/x${RLO}y`,
  }) as unknown as TimelineEvent;

function report(over: Partial<CaseReport>): CaseReport {
  return {
    schema: 'reprise.case/v1',
    verdict: 'pass',
    artifacts: [artifact('dump.json', 'd'), artifact('review', 'f')],
    links: [],
    timeline: [],
    judgements: [],
    findings: [],
    ...over,
  } as CaseReport;
}

async function render(r: CaseReport): Promise<string> {
  const { CaseResult } = await import('../../renderer/src/components/CaseView');
  return renderToStaticMarkup(createElement(CaseResult, { report: r, openEvent: () => undefined }));
}

const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'");

/** The text of each row of the judgements table's body. */
function judgementRows(html: string): string[] {
  const table = html.slice(html.indexOf('data-testid="case-judgements"'));
  const body = table.slice(table.indexOf('<tbody>'), table.indexOf('</table>'));
  return [...body.matchAll(/<tr>(.*?)<\/tr>/g)].map((m) => text(m[1]!));
}

describe('the judgements table', () => {
  it('says a decision signed by a key that may not sign one does not count, in the notes list’s words', async () => {
    const html = await render(
      report({ judgements: [judgement(1, { decision: 'reject', standing: 'does-not-count', problem: OFFICER_KEY })] }),
    );
    const [row] = judgementRows(html);
    expect(row).toContain(`rejectDoes not count: ${OFFICER_KEY}.`);
  });

  it('says who signed it was not checked when the case ran without a trust store', async () => {
    const [row] = judgementRows(await render(report({ judgements: [judgement(1, { standing: 'unchecked' })] })));
    expect(row).toContain('Not known to count: who signed it was not checked: the case ran without a trust store.');
  });

  it('an edit that does not count replaces nothing, and says why; one that counts supersedes', async () => {
    const [counted, refused] = judgementRows(
      await render(
        report({
          judgements: [
            judgement(1, { decision: 'note', supersedes: sha('0') }),
            judgement(2, { decision: 'note', supersedes: sha('0'), standing: 'does-not-count', problem: OFFICER_KEY }),
          ],
        }),
      ),
    );
    expect(counted).toContain('(supersedes an earlier note)');
    expect(refused).not.toContain('supersedes an earlier note');
    expect(refused).toContain('It claims to edit an earlier version, which it does not replace: it does not count.');
  });
});

describe('what an artifact wrote', () => {
  it('is shown escaped: a finding naming a file, a judgement’s fields, the timeline’s artifact filter and count', async () => {
    const unread = {
      rule: 'RPR-CASE-002',
      severity: 'fail',
      message: `${SPOOF} could not be verified: permission denied (EACCES)`,
    } as Finding;
    const unplaced = { rule: 'RPR-CASE-004', severity: 'warning', message: 'no time', pointer: `entry:${SPOOF}` };
    const html = await render(
      report({
        artifacts: [artifact(SPOOF, 'd'), artifact(`j${RLO}`, 'f')],
        findings: [unread, unplaced as Finding],
        judgements: [judgement(1, { artifact: SPOOF, decision: `ok${RLO}`, atUtc: `2026${RLO}`, journal: `j${RLO}` })],
        timeline: [event(SPOOF)],
      }),
    );
    expect(html).not.toContain(RLO);
    expect(text(html)).toContain('x\\u202egnp.exe could not be verified');
    expect(judgementRows(html)[0]).toMatch(/^x\\u202egnp\.exeok\\u202e.*2026\\u202ej\\u202e #1/);
    expect(html).toMatch(/<option value="x\\u202egnp.exe">x\\u202egnp.exe<\/option>/);
    expect(text(html)).toContain(
      "1 of 1 events; not every time of x\\u202egnp.exe is on it (the case's findings say which and why)",
    );
  });
});

describe('a missing link', () => {
  it('shows the finding of its own artifact only, when two name the same value', async () => {
    const finding = {
      rule: 'RPR-CASE-001',
      severity: 'warning',
      message: 'a.json names it',
      pointer: 'entry:a.json',
      expected: sha('e'),
      actual: '/policyContext/bundleHash',
    } as Finding;
    const html = await render(report({ links: [missing('a.json'), missing('b.json')], findings: [finding] }));
    const rows = [...html.matchAll(/<tr class="missing"[^>]*>(.*?)<\/tr>/g)].map((m) => text(m[1]!));
    expect(rows.map((r) => [r.startsWith('a.json'), r.includes('RPR-CASE-001')])).toEqual([
      [true, true],
      [false, false],
    ]);
  });
});

describe('the notes panel', () => {
  it('names the artifact it is of, escaped', async () => {
    const { CaseNotes } = await import('../../renderer/src/components/CaseNotes');
    const html = renderToStaticMarkup(
      createElement(CaseNotes, {
        journal: { dir: '/granted/mine', trustStore: '/granted/ts.json' },
        artifact: sha('f'),
        name: SPOOF,
        notes: [],
        verdicts: new Map(),
      }),
    );
    const heading = text(/<h3 id="case-notes-h">(.*?)<\/h3>/.exec(html)?.[1] ?? '');
    expect(heading).toBe('Notes on this artifact (0): x\\u202egnp.exe');
    expect(html).not.toContain(RLO);
  });
});
