/**
 * The window's journal view gives the journal-level RPR-QUAR-008 warning `journal verify` gives
 * (docs/workbench.md, the officer's queue; docs/journal.md, "Claim ids"): the host lists it
 * among the journal's findings, in the engine's words (app/journal/claim-ids.ts), once per
 * distinct claim id, outside the verdict; the view shows it as it shows every finding.
 * Rendered to static markup; browser globals stubbed.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { stubBrowser } from '../renderer/browser-stubs.js';
import { textOf } from '../renderer/markup-text.js';
import { verifyJournal, type AppendInput } from '../../app/journal/index.js';
import { journalStatus } from '../../main/host/journal-ops.js';
import type { JournalStatus } from '../../shared/api.js';
import { escapeControls } from '../../shared/controls.js';
import { forgeEntry } from '../journal/forge.helpers.js';
import { makeKeys, tmp } from '../journal/helpers.js';

stubBrowser();

/**
 * The window's JournalVerification, loaded through Vite, which compiles its TSX: the tests' own
 * type-check (tsconfig.test.json) has no JSX, so it is named by a path tsc does not follow.
 */
async function journalVerification(): Promise<ComponentType<{ st: JournalStatus }>> {
  const file = 'JournalView.tsx';
  const m = (await import(`../../renderer/src/components/${file}`)) as {
    JournalVerification: ComponentType<{ st: JournalStatus }>;
  };
  return m.JournalVerification;
}

const opening = (claimRef: string): AppendInput => ({
  kind: 'quarantine-open',
  subject: { claimRef },
  body: { reason: 'decision-material drift on the replayed score', source: 'manual' },
});

describe("the journal view gives `journal verify`'s claim id warning", () => {
  it('once per distinct id, in the engine’s words, the verdict still pass; shown among the findings', async () => {
    const k = makeKeys(tmp());
    const dir = join(tmp('reprise-view-claims-'), 'J');
    mkdirSync(dir, { recursive: true });
    forgeEntry(dir, { kind: 'replay-drift', subject: { claimRef: 'claim:A ' }, body: { n: 1 } }, k.reviewer);
    forgeEntry(dir, opening('claim:A '), k.reviewer);
    forgeEntry(dir, opening('claim:B'), k.reviewer);
    forgeEntry(dir, opening('claim:cafe\u0301'), k.reviewer);
    const st = await journalStatus({ dir, trustStore: k.trustPath });
    const v = await verifyJournal(dir, k.trust);
    expect(st.verdict).toBe('pass');
    const said = st.findings.filter((f) => f.rule === 'RPR-QUAR-008');
    expect(said.map((f) => [f.severity, f.pointer, f.message])).toEqual(
      v.claimIds.map((f) => ['warning', f.pointer, f.message]),
    );
    expect(said.map((f) => f.pointer)).toEqual(['line:1', 'line:4']);
    expect(said[0]!.message).toContain(`the claim id "claim:A\\x20" begins or ends with whitespace`);

    const html = renderToStaticMarkup(createElement(await journalVerification(), { st }));
    const items = [...html.matchAll(/<li data-rule="RPR-QUAR-008"[^>]*>(.*?)<\/li>/g)].map((m) => textOf(m[1]!));
    expect(items).toHaveLength(2);
    // Each as the window shows a finding: its severity in words, its rule, its message (a
    // backslash doubled where the text holds an escape, as the terminal prints it), where.
    expect(items[0]).toBe(`warning RPR-QUAR-008 ${escapeControls(said[0]!.message)} at line:1`);
    expect(items[1]).toContain(String.raw`the claim id "claim:cafe\\u0301" is not in Unicode normalization form NFC`);
  });
});
