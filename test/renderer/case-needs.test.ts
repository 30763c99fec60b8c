/**
 * The Case view says which option the case ran without would decide its UNAVAILABLE
 * artifacts (CaseArtifact.needs), how many artifacts each, and where it is given: a field of
 * the Open view, an artifact the case holds, or the command line. Nothing is said when no
 * artifact needs one, nor for a FAIL artifact, which no option would turn. Rendered to
 * static markup; browser globals stubbed.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import { caseArtifact } from '../helpers/case-view';
import type { CaseArtifact, CaseNeed, CaseReport } from '../../shared/case';

stubBrowser();

const TRUST: CaseNeed = { option: 'trustStore', flag: 'trust-store', rules: ['RDS-007'] };
const ADAPTER: CaseNeed = { option: 'kernelAdapter', flag: 'kernel-adapter', rules: ['KERNEL_MISMATCH'] };
const POLICY: CaseNeed = { option: 'policy', flag: 'policy', rules: ['RPR-TG-043'] };

const undecided = (path: string, ...needs: CaseNeed[]): CaseArtifact => ({
  ...caseArtifact(path),
  verdict: 'unavailable',
  counts: { fail: 0, unavailable: 1, warning: 0, info: 0 },
  needs,
});

async function render(artifacts: CaseArtifact[]): Promise<string> {
  const { CaseResult } = await import('../../renderer/src/components/CaseView');
  const report = {
    schema: 'reprise.case/v1',
    verdict: 'unavailable',
    artifacts,
    links: [],
    timeline: [],
    judgements: [],
    findings: [],
  } as CaseReport;
  return renderToStaticMarkup(createElement(CaseResult, { report, openEvent: () => undefined }));
}

const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'");
/** The text of each option's item in the note. */
const items = (html: string) =>
  [...html.matchAll(/<li data-testid="case-need" data-option="(\w+)">(.*?)<\/li>/g)].map((m) => [m[1], text(m[2]!)]);

describe('the note on options the case ran without', () => {
  it('names each option, how many UNAVAILABLE artifacts it would decide, and where it is given', async () => {
    const html = await render([
      undecided('dump.json', TRUST),
      undecided('review', { ...TRUST, rules: ['RPR-JOURNAL-011'] }),
      undecided('dataset.nemosyne', ADAPTER),
      undecided('tg/manifest.json', POLICY),
      caseArtifact('trace.jsonl'),
    ]);
    expect(html).toContain('role="note"');
    expect(text(html)).toContain(
      '4 UNAVAILABLE artifacts have findings that an option the case ran without would decide:',
    );
    expect(items(html)).toEqual([
      [
        'trustStore',
        "--trust-store (Trust store) would decide findings (RDS-007, RPR-JOURNAL-011) of 2 artifacts: dump.json, review. Give it in the Trust store field of the Open view's engine options, then open the case again. Go to the Trust store field",
      ],
      [
        'kernelAdapter',
        "--kernel-adapter (Kernel adapter) would decide findings (KERNEL_MISMATCH) of 1 artifact: dataset.nemosyne. Give it in the Kernel adapter field of the Open view's engine options, then open the case again. Go to the Kernel adapter field",
      ],
      [
        'policy',
        '--policy would decide findings (RPR-TG-043) of 1 artifact: tg/manifest.json. The workbench has no field for it: run the case on the command line with --policy.',
      ],
    ]);
  });

  it('says an option a case gives from an artifact it holds, and counts the artifacts beyond the first three', async () => {
    const journal: CaseNeed = { option: 'journal', flag: 'journal', rules: ['RPR-TG-023'] };
    const html = await render(['a.json', 'b.json', 'c.json', 'd.json', 'e.json'].map((p) => undecided(p, journal)));
    expect(items(html)).toEqual([
      [
        'journal',
        '--journal would decide findings (RPR-TG-023) of 5 artifacts: a.json, b.json, c.json and 2 more. Put the journal holding the anchors in the case folder (a case gives it to the artifacts that name it), or run the case on the command line with --journal.',
      ],
    ]);
  });

  it('is not shown when no UNAVAILABLE artifact needs an option', async () => {
    const failing = { ...undecided('dump.json', TRUST), verdict: 'fail' } as CaseArtifact;
    for (const list of [[caseArtifact('dump.json')], [failing]])
      expect(await render(list)).not.toContain('data-testid="case-needs"');
  });

  it('shows a path as its escapes', async () => {
    const html = await render([undecided('x\u202egnp.exe', TRUST)]);
    expect(html).not.toContain('\u202e');
    expect(items(html)[0]![1]).toContain('1 artifact: x\\u202egnp.exe.');
  });

  it('reads a saved case report written by hand without failing: a malformed need is passed over, a flag shown escaped', async () => {
    const odd = [undefined, 'x', { option: 'trustStore', flag: 'trust-store', rules: null }] as unknown as CaseNeed[];
    const spoof: CaseNeed = { option: 'policy', flag: 'pol\u202eicy', rules: ['RPR-TG-043'] };
    const html = await render([undecided('a.json', ...odd), { ...undecided('b.json', spoof), needs: 'x' } as never]);
    expect(html).not.toContain('data-testid="case-needs"');
    const shown = await render([undecided('c.json', spoof)]);
    expect(shown).not.toContain('\u202e');
    expect(items(shown)[0]![1]).toContain('--pol\\u202eicy would decide');
  });
});
