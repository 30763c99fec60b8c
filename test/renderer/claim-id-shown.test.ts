/**
 * The officer's window shows a claim id as `quarantine list|show` print it (shared/claim-id.ts,
 * RPR-QUAR-008): one that is not NFC, has whitespace at an end or holds a control character is
 * shown escaped (`claim:A\x20`, `claim:cafe\u0301`), its escapes marked, in the queue and the
 * confirmation, and the confirmation warns that it may draw as another claim's; a plain claim
 * draws no warning. Rendered to static markup; browser globals stubbed. The lib's side (the
 * warnings, the queue's search) is in test/workbench/officer-shown.test.ts.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from './browser-stubs';
import { textOf } from './markup-text';
import { CaseQueue } from '../../renderer/src/components/CaseQueue';
import { ConfirmDecision } from '../../renderer/src/components/ConfirmDecision';
import { ClaimShown } from '../../renderer/src/components/Shown';
import { caseView as view } from '../helpers/case-view';

stubBrowser();
// The dialog notes the element focused before it opened (SignDialog): none, in a test.
beforeAll(() => vi.stubGlobal('HTMLElement', class {}));

/** Claim ids that draw as `claim:A` or `claim:café`, each with the escape the window shows (as `quarantine list` prints it). */
const LOOKALIKES: [string, string][] = [
  ['claim:A ', 'claim:A\\x20'],
  ['claim:A\u00a0', 'claim:A\\xa0'],
  ['claim:cafe\u0301', 'claim:cafe\\u0301'],
  ['claim:\u212b', 'claim:\\u212b'],
  ['claim:\u202egnp.exe', 'claim:\\u202egnp.exe'],
];
const WARNING = "so it may draw as another claim's";

function confirm(claim: string): string {
  const what = {
    c: view('case-1', claim),
    decision: 'release' as const,
    rationale: 'Replayed twice with the pinned model; the drift is within the band.',
    key: null,
    keyPath: '/k',
    journal: '/j',
  };
  return renderToStaticMarkup(
    createElement(ConfirmDecision, { what, refused: null, onSign: () => undefined, onCancel: () => undefined }),
  );
}

describe('a claim id that may draw as another claim, in the window', () => {
  it('is shown escaped, each escape marked; a plain claim and an NFC one as they are', () => {
    for (const [claim, shown] of LOOKALIKES) {
      const html = renderToStaticMarkup(createElement(ClaimShown, { claim }));
      expect(textOf(html), JSON.stringify(claim)).toBe(shown);
      expect(html).toContain('<span class="control-escape"');
    }
    for (const plain of ['claim:A', 'claim:caf\u00e9'])
      expect(renderToStaticMarkup(createElement(ClaimShown, { claim: plain }))).toBe(`<bdi>${plain}</bdi>`);
  });

  it('the queue shows each lookalike apart from the claim it draws as, and says why in its title', () => {
    const claims = ['claim:A', 'claim:caf\u00e9', ...LOOKALIKES.map(([c]) => c)];
    const cases = claims.map((claim, i) => view(`case-${i}`, claim));
    const html = renderToStaticMarkup(createElement(CaseQueue, { cases, chosen: null, choose: () => undefined }));
    const text = textOf(html);
    for (const [claim, shown] of LOOKALIKES) {
      expect(text, JSON.stringify(claim)).toContain(shown);
      expect(html).not.toContain(claim);
    }
    expect(html).toContain(
      'title="this claim id begins or ends with whitespace, so it may draw as another claim&#x27;s',
    );
    expect(html.split(WARNING.replace("'", '&#x27;')).length - 1).toBe(LOOKALIKES.length);
  });

  it('the confirmation shows it escaped and warns what is wrong with it; a plain claim draws no warning', () => {
    for (const [claim, shown] of LOOKALIKES) {
      const text = textOf(confirm(claim));
      expect(text, JSON.stringify(claim)).toContain(shown);
      expect(text, JSON.stringify(claim)).toContain(`this claim id`);
      expect(text, JSON.stringify(claim)).toContain(WARNING);
    }
    expect(textOf(confirm('claim:A '))).toContain(
      "this claim id begins or ends with whitespace, so it may draw as another claim's",
    );
    expect(textOf(confirm('claim:cafe\u0301'))).toContain('this claim id is not in Unicode normalization form NFC');
    for (const plain of ['claim:A', 'claim:caf\u00e9']) expect(confirm(plain)).not.toContain('this claim id');
  });

  it('the confirmation warns of a bidi claim in one sentence: shown escaped, and why it may draw as another claim', () => {
    const html = confirm('claim:\u202egnp.exe');
    const warnings = [...html.matchAll(/data-testid="confirm-decision-claim-warning">(.*?)<\/span>/g)];
    expect(warnings).toHaveLength(1);
    expect(textOf(warnings[0]![1]!)).toBe(
      " (this claim id holds the control character U+202E, so it may draw as another claim's: read it as shown, escaped; the signed claim is these code points (RPR-QUAR-008: no new case is opened for such an id))",
    );
    expect(textOf(html).split('this claim id').length - 1).toBe(1);
  });
});
