/**
 * `quarantine list|show` give the journal-level RPR-QUAR-008 warning `journal verify` gives
 * (docs/journal.md, "Claim ids"): in its words, once per distinct claim id out of form whatever
 * entry names it (a replay-drift, a case), at the first entry naming it, bounded as `journal
 * verify` bounds it; beside each listed case's own warning, in the text and in `--json`.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppendInput } from '../../app/journal/index.js';
import type { EntryKind } from '../../app/journal/format.js';
import { MAX_FINDINGS_PER_RULE } from '../../app/core/findings.js';
import { cliIn } from '../cli/in-process.js';
import { forgeEntry } from './forge.helpers.js';
import { makeKeys, tmp, type Keys } from './helpers.js';

const REASON = { reason: 'decision-material drift on the replayed score', source: 'manual' };
const entry = (kind: EntryKind, claimRef: string): AppendInput => ({
  kind,
  subject: { claimRef },
  body: kind === 'quarantine-open' ? REASON : { n: 1 },
});

type Doc = { verdict: string; findings: { rule: string; message: string; pointer?: string; caseId?: string }[] };
const journalLevel = (d: Doc) => d.findings.filter((f) => /^entry at line \d+ \(/.test(f.message));

/** A journal naming `claim:A ` on a replay-drift entry first, then on a case; a plain case; `claim:\u202egnp` on a case. */
function held(k: Keys): string {
  const dir = join(tmp('reprise-quar-claims-'), 'J');
  mkdirSync(dir, { recursive: true });
  forgeEntry(dir, entry('replay-drift', 'claim:A '), k.reviewer); // line 1
  forgeEntry(dir, entry('quarantine-open', 'claim:A '), k.reviewer); // line 2: case-1
  forgeEntry(dir, entry('quarantine-open', 'claim:B'), k.reviewer); // line 3: case-2
  forgeEntry(dir, entry('quarantine-open', 'claim:\u202egnp'), k.reviewer); // line 4: case-3
  forgeEntry(dir, entry('replay-comparison', 'claim:A '), k.reviewer); // line 5: claim:A again
  return dir;
}

/** `journal verify DIR --json`'s RPR-QUAR-008 warnings and the RPR-REPORT-001 that counts those left out. */
async function verifyWarnings(dir: string, k: Keys): Promise<Doc['findings']> {
  const v = JSON.parse(
    (await cliIn(tmp(), 'journal', 'verify', dir, '--trust-store', k.trustPath, '--json')).out,
  ) as Doc;
  return v.findings.filter((f) => f.rule === 'RPR-QUAR-008' || f.rule === 'RPR-REPORT-001');
}

describe("`quarantine list|show` give `journal verify`'s own claim id warning", () => {
  it('the text: the same words as `journal verify`, once per id, the case named when the entry is one', async () => {
    const k = makeKeys(tmp());
    const dir = held(k);
    const r = await cliIn(tmp(), 'quarantine', 'list', dir, '--trust-store', k.trustPath);
    expect(r.code).toBe(0);
    const verify = await cliIn(tmp(), 'journal', 'verify', dir, '--trust-store', k.trustPath);
    const said = verify.out.split('\n').filter((l) => l.includes('RPR-QUAR-008  entry at line'));
    expect(said).toHaveLength(2);
    // Line 4 opens case-3, whose own warning below names that entry: it is said once, as the case's.
    expect(r.err).toContain(said[0]);
    expect(r.err).not.toContain(said[1]);
    expect(r.err).toContain(
      String.raw`RPR-QUAR-008  entry at line 1 (replay-drift): the claim id "claim:A\\x20" begins or ends with whitespace, so it may draw as another claim's (3 entries name it, this one first): read it as shown here, escaped. The writer signs no new entry naming it but a decision on a case opened under it  [line:1]`,
    );
    expect(r.err.match(/entry at line \d+ \(/g)).toHaveLength(1);
    // Each listed case still gets its own warning; the verdict is journal verify's.
    expect(r.err).toContain('the claim id of case-1 begins or ends with whitespace');
    expect(r.err).toContain('the claim id of case-3');
    expect(r.err).toContain('journal verdict PASS with 3 warnings');
  });

  it('--json carries them in `findings`, as `journal verify --json` does, with the case their entry opened', async () => {
    const k = makeKeys(tmp());
    const dir = held(k);
    const doc = JSON.parse(
      (await cliIn(tmp(), 'quarantine', 'list', dir, '--trust-store', k.trustPath, '--json')).out,
    ) as Doc;
    expect(doc.verdict).toBe('pass');
    const verify = await verifyWarnings(dir, k);
    // Those at an entry a listed case's own warning names (case-3's opening, line 4) are said once, as the case's.
    expect(journalLevel(doc).map((f) => [f.rule, f.message, f.pointer])).toEqual(
      verify.filter((f) => f.pointer !== 'line:4').map((f) => [f.rule, f.message, f.pointer]),
    );
    expect(journalLevel(doc).map((f) => [f.pointer, f.caseId])).toEqual([['line:1', undefined]]);
    expect(doc.findings.filter((f) => f.pointer === 'line:4').map((f) => f.caseId)).toEqual(['case-3']);
    // `show` of a plain case gives the journal's warnings too (they are the journal's), and none of its own.
    const show = await cliIn(tmp(), 'quarantine', 'show', dir, 'case-2', '--trust-store', k.trustPath, '--json');
    const shown = JSON.parse(show.out) as Doc;
    expect(journalLevel(shown)).toHaveLength(2);
    expect(shown.findings.filter((f) => f.caseId === 'case-2')).toEqual([]);
  });

  it('bounded as `journal verify` bounds them: ids beyond the findings a rule keeps counted in one RPR-REPORT-001', async () => {
    const k = makeKeys(tmp());
    const dir = join(tmp('reprise-quar-claims-many-'), 'J');
    mkdirSync(dir, { recursive: true });
    for (let i = 0; i <= MAX_FINDINGS_PER_RULE + 1; i++)
      forgeEntry(dir, entry('replay-drift', `claim:${i} `), k.reviewer);
    const doc = JSON.parse(
      (await cliIn(tmp(), 'quarantine', 'list', dir, '--trust-store', k.trustPath, '--json')).out,
    ) as Doc;
    const said = doc.findings.filter((f) => f.rule === 'RPR-QUAR-008' || f.rule === 'RPR-REPORT-001');
    expect(said).toHaveLength(MAX_FINDINGS_PER_RULE + 1);
    expect(said[MAX_FINDINGS_PER_RULE]!.message).toMatch(/^2 more entries of RPR-QUAR-008, from line 101 on/);
    expect(said.map((f) => f.message)).toEqual((await verifyWarnings(dir, k)).map((f) => f.message));
  }, 60_000);
});
