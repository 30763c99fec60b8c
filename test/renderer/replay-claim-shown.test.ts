/**
 * A TG replay's claim id (a routing event's `claimRef`) is shown in the Replay view as the
 * officer's views show it (shared/claim-id.ts, RPR-QUAR-008): in the routing table and in the
 * note of what the replay anchored, a claim id that is not NFC, has whitespace at an end or
 * holds a control, bidirectional or invisible character is shown escaped, its escapes marked,
 * with the confirmation's warning in words; a plain claim as it is, with none. An event the
 * view does not sort is shown with its controls escaped. Rendered to static markup; browser
 * globals stubbed.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import { textOf } from './markup-text';
import type { JsonValue, Report } from '../../shared/report';
import { AnchoredWords, anchoring } from '../../renderer/src/components/ReplayNotes';
import { ReplayView } from '../../renderer/src/components/ReplayView';

stubBrowser();

/** Claim ids that draw as another claim, each as the officer's views show it, and the warning's words. */
const LOOKALIKES: [string, string, string][] = [
  ['claim:\u202egnp.exe', 'claim:\\u202egnp.exe', 'this claim id holds the control character U+202E'],
  ['claim:A ', 'claim:A\\x20', 'this claim id begins or ends with whitespace'],
  ['claim:cafe\u0301', 'claim:cafe\\u0301', 'this claim id is not in Unicode normalization form NFC'],
  ['claim:loan\ufe0f-1', 'claim:loan\\ufe0f-1', 'this claim id holds invisible characters, shown escaped'],
];
const PLAIN = 'claim:2026-11-0104';
const RULE = 'RPR-QUAR-008';

const routing = (claimRef: string, i: number): JsonValue => ({
  type: 'reprise.tg.routing/v1',
  claimRef,
  route: 'HUMAN_REVIEW',
  reasons: ['decision-material drift of out (x3)'],
  case: { seq: i, entryHash: `sha256:${'e'.repeat(64)}`, caseId: `case-${i}` },
  alreadyOpen: false,
  anchored: true,
});

const reportOf = (events: JsonValue[]): Report =>
  ({
    schema: 'reprise.report/v1',
    artifact: { path: '/d/m.json', kind: 'tg-replay-manifest', id: 'm', sha256: `sha256:${'a'.repeat(64)}` },
    verdict: 'pass',
    findings: [],
    chain: [],
    comparisons: [],
    events,
  }) as unknown as Report;

/** The routing table's cell of each claim, in order. */
const claimCells = (html: string): string[] =>
  [...html.matchAll(/<tr><td class="mono small">(.*?)<\/td>/g)].map((m) => m[1]!);

describe("a TG replay's claim id in the Replay view", () => {
  it('the routing table shows each lookalike escaped and marked, warned of in words; a plain claim as it is', () => {
    const claims = [PLAIN, ...LOOKALIKES.map(([c]) => c)];
    const html = renderToStaticMarkup(createElement(ReplayView, { report: reportOf(claims.map(routing)) }));
    const cells = claimCells(html.slice(html.indexOf('data-testid="routing-events"')));
    expect(cells).toHaveLength(claims.length);
    expect(cells[0]).toBe(`<bdi>${PLAIN}</bdi>`);
    LOOKALIKES.forEach(([claim, shown, why], i) => {
      const cell = cells[i + 1]!;
      expect(cell, JSON.stringify(claim)).not.toContain(claim);
      expect(cell).toContain('<span class="control-escape"');
      expect(textOf(cell)).toContain(`${shown} (${why}`);
    });
    expect(textOf(cells[1]!)).toContain(`so it may draw as another claim's`);
    expect(textOf(cells[1]!)).toContain(RULE);
  });

  it("the note of what it anchored shows the claim of the case it opened and of one already open as the officer's views do", () => {
    const [bidi, bidiShown, bidiWhy] = LOOKALIKES[0]!;
    const [space, spaceShown, spaceWhy] = LOOKALIKES[1]!;
    const already = { ...(routing(space, 9) as object), case: null, alreadyOpen: true };
    const a = anchoring(reportOf([routing(bidi, 2), routing(PLAIN, 3), already]))!;
    const html = renderToStaticMarkup(createElement(AnchoredWords, { a, journal: '/j' }));
    expect(html).not.toContain(bidi);
    expect(html).not.toContain(space);
    expect(html).toContain('<span class="control-escape"');
    expect(textOf(html)).toBe(
      `Anchored in the journal /j: 0 drift event(s); Human Review case case-2 opened for ${bidiShown} (${bidiWhy}, ` +
        `so it may draw as another claim's: read it as shown, escaped; the signed claim is these code points (${RULE}: ` +
        `no new case is opened for such an id)), case-3 opened for ${PLAIN}; a case was already open for ${spaceShown} ` +
        `(${spaceWhy}, so it may draw as another claim's: read it as shown, escaped; the signed claim is these code ` +
        `points (${RULE}: no new case is opened for such an id)).`,
    );
  });

  it('an event the view does not sort is shown with its controls escaped', () => {
    const [bidi] = LOOKALIKES[0]!;
    const html = renderToStaticMarkup(
      createElement(ReplayView, { report: reportOf([{ type: 'SOMETHING-ELSE', claimRef: bidi }]) }),
    );
    const other = html.slice(html.indexOf('data-testid="other-events"'));
    expect(other).not.toContain(bidi);
    expect(textOf(other)).toContain('"claimRef":"claim:\\u202egnp.exe"');
  });
});
