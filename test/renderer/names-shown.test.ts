/**
 * A name the window did not write (a file's path or id from the artifact or a link, a link's
 * parameter quoted in a refusal, a pointer or found value) is shown as Shown shows a journal's
 * values: every control and bidirectional character as its escape, marked, so a file named
 * `\u202enosj.pmud.tcatni` never reads as `…intact.dump.json` in the verdict banner, and a
 * refusal never quotes a parameter reversed. Rendered to static markup; browser globals stubbed.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { stubBrowser } from './browser-stubs';
import type { Report } from '../../shared/report';

const at = { hash: '' };
stubBrowser(at);

const RLO = '\u202e';
const SPOOF = `/granted/dumps/${RLO}nosj.pmud.tcatni`;
const ESCAPED =
  '<span class="control-escape" title="a control or bidirectional character, shown escaped">\\u202e</span>';

const report = {
  schema: 'reprise.report/v1',
  artifact: { path: SPOOF, kind: 'replay-dump', id: `dump${RLO}100`, sha256: `sha256:${'a'.repeat(64)}` },
  verdict: 'fail',
  findings: [
    {
      rule: 'RDS-F001',
      severity: 'fail',
      message: 'm',
      pointer: `/x${RLO}y`,
      actual: `short ${RLO}value`,
    },
  ],
  chain: [],
} as unknown as Report;

describe('names from an artifact or a link, shown escaped', () => {
  it('the verdict banner: the file, its id and the value found', async () => {
    const { VerdictBanner } = await import('../../renderer/src/components/VerdictBanner');
    const html = renderToStaticMarkup(createElement(VerdictBanner, { report, artifact: null }));
    expect(html).not.toContain(RLO);
    expect(html).toContain(`/granted/dumps/${ESCAPED}nosj.pmud.tcatni`);
    expect(html).toContain(`dump${ESCAPED}100`);
    expect(html).toContain(`short ${ESCAPED}value`);
  });

  it('a copied value shows escaped and copies as it is', async () => {
    const { CopyValue } = await import('../../renderer/src/components/Copy');
    const html = renderToStaticMarkup(createElement(CopyValue, { value: `/a${RLO}b`, label: 'the pointer' }));
    expect(html).toContain(`/a${ESCAPED}b`);
    expect(html).toContain(`data-copy="/a${RLO}b"`);
  });

  it('the decisive finding’s pointer, quoted from the artifact', async () => {
    const { VerdictBanner } = await import('../../renderer/src/components/VerdictBanner');
    const html = renderToStaticMarkup(createElement(VerdictBanner, { report, artifact: null }));
    expect(html).toContain(`The artifact fails: m (at /x${ESCAPED}y).`);
  });

  it('a refusal quotes a link’s parameter as written, for the window to show escaped', async () => {
    const { linkTrouble } = await import('../../renderer/src/lib/deep-link');
    // Not as a JSON string: its escape would be escaped again when shown, and read as typed text.
    expect(linkTrouble(`#view=findings&x${RLO}\u0001yz=1`, [], ['findings'])).toBe(
      `This link is not one this workbench understands: "x${RLO}\u0001yz" is no part of a link, so nothing was opened.`,
    );
  });
});

describe('what an artifact wrote into a finding or a chain node, shown escaped', () => {
  const quoted = {
    ...report,
    findings: [{ rule: 'RDS-F001', severity: 'fail', message: `the id "a${RLO}b" differs`, pointer: '/x' }],
    chain: [
      { id: 'n1', label: `node ${RLO}1`, pointer: '/x', status: 'fail', recorded: null, recomputed: null, parents: [] },
    ],
  } as unknown as Report;

  it('the findings table: a message quoting the artifact', async () => {
    const { FindingsView } = await import('../../renderer/src/components/FindingsView');
    const html = renderToStaticMarkup(createElement(FindingsView, { report: quoted }));
    expect(html).not.toContain(RLO);
    expect(html).toContain(`the id &quot;a${ESCAPED}b&quot; differs`);
  });

  it('the chain view: a node’s label', async () => {
    const { ChainView } = await import('../../renderer/src/components/ChainView');
    const html = renderToStaticMarkup(createElement(ChainView, { report: quoted }));
    expect(html).not.toContain(RLO);
    expect(html).toContain(`node ${ESCAPED}1`);
  });
});
