import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalizeValue } from '../../app/core/jcs.js';
import {
  caseStates,
  escalateCase,
  JournalError,
  listCases,
  MIN_RATIONALE_CHARS,
  openCase,
  rationaleProblem,
  releaseCase,
  upholdCase,
  verifyJournal,
  type CaseState,
} from '../../app/journal/index.js';
import { cli, makeKeys, tmp } from './helpers.js';
import { forgeEntry } from './forge.helpers.js';

const GOOD = 'Replayed with the recalibrated band; drift is not decision-material.';

describe('rationale content', () => {
  it('refuses blank, short, too few words or too few distinct characters; accepts real content', () => {
    expect(rationaleProblem(undefined)).toMatch(/missing/);
    expect(rationaleProblem('   \n\t ')).toMatch(/blank/);
    expect(rationaleProblem('ok fine')).toMatch(new RegExp(`at least ${MIN_RATIONALE_CHARS}`));
    expect(rationaleProblem('abcdefghijklmnopqrstuvwxyz')).toMatch(/word/);
    expect(rationaleProblem('aaaa aaaa aaaa aaaa aaaa aaaa')).toMatch(/distinct/);
    expect(rationaleProblem(GOOD)).toBeNull();
  });
});

describe('quarantine workflow', () => {
  it('opens, escalates, releases and upholds; only officers release; refusals leave no entry', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    const snapshots: { size: number; cases: CaseState[] }[] = [];
    const snap = async () => {
      const v = await verifyJournal(dir, k.trust);
      snapshots.push({ size: v.entryLines, cases: structuredClone(v.cases.cases) });
    };
    const a = await openCase(
      dir,
      {
        claimRef: 'claim:loan-42',
        artifact: 'sha256:' + 'a'.repeat(64),
        reason: 'decision exit HUMAN_REVIEW',
        source: 'routing',
      },
      k.reviewer,
    );
    expect(a.caseId).toBe('case-0');
    expect(a.case.state).toBe('open');
    await snap();
    const b = await openCase(
      dir,
      { claimRef: 'claim:loan-43', reason: 'decision-material drift on score' },
      k.reviewer,
    );
    await snap();
    // A reviewer may not release.
    await expect(releaseCase(dir, 'case-0', GOOD, k.reviewer, k.trust)).rejects.toMatchObject({
      code: 'REFUSED',
      message: expect.stringContaining('RPR-QUAR-003'),
    });
    // An officer may not release without a real rationale.
    await expect(releaseCase(dir, 'case-0', 'looks fine', k.officer, k.trust)).rejects.toMatchObject({
      code: 'REFUSED',
      message: expect.stringContaining('RPR-QUAR-004'),
    });
    // A key outside the trust store is refused.
    await expect(upholdCase(dir, 'case-0', GOOD, k.outsider, k.trust)).rejects.toMatchObject({ code: 'REFUSED' });
    expect((await verifyJournal(dir, k.trust)).entryLines).toBe(2);
    const e = await escalateCase(
      dir,
      'case-0',
      'Needs the model owner to confirm the recalibration.',
      k.reviewer,
      k.trust,
    );
    expect(e.case.state).toBe('escalated');
    await snap();
    const r = await releaseCase(dir, a.case.openHash, GOOD, k.officer, k.trust);
    expect(r.case.state).toBe('released');
    expect(r.case.history.map((h) => h.decision)).toEqual(['open', 'escalate', 'release']);
    await snap();
    await expect(upholdCase(dir, 'case-0', GOOD, k.officer, k.trust)).rejects.toMatchObject({
      message: expect.stringContaining('RPR-QUAR-002'),
    });
    const u = await upholdCase(
      dir,
      String(b.seq),
      'The drift changes the decision; keep it quarantined.',
      k.reviewer,
      k.trust,
    );
    expect(u.case.state).toBe('upheld');
    await snap();
    await expect(releaseCase(dir, 'case-99', GOOD, k.officer, k.trust)).rejects.toBeInstanceOf(JournalError);

    // Case state is a pure function of the journal: fold it again, from a byte copy, and
    // from every prefix: the same states every time, equal to those seen when written.
    const v = await verifyJournal(dir, k.trust);
    expect(v.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    const once = canonicalizeValue(v.cases.cases);
    const copy = join(base, 'copy');
    mkdirSync(copy);
    for (const f of ['entries.jsonl', 'checkpoints.jsonl']) copyFileSync(join(dir, f), join(copy, f));
    for (let i = 0; i < 3; i++) expect(canonicalizeValue((await listCases(copy, k.trust)).cases)).toBe(once);
    const hashed = v.entries.map((p) => ({ entry: p.entry, hash: p.hash, line: p.line }));
    for (const s of snapshots) expect(caseStates(hashed.slice(0, s.size), k.trust).cases).toEqual(s.cases);
    expect(v.cases.cases.map((c) => [c.caseId, c.state])).toEqual([
      ['case-0', 'released'],
      ['case-1', 'upheld'],
    ]);
  });

  it('a forged release (signed by a reviewer, written around the workflow) is a finding and changes nothing', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    const a = await openCase(dir, { claimRef: 'claim:x', reason: 'opened by hand for a second look' }, k.reviewer);
    // Written around the writer, which refuses both (JournalWriter.append applies the workflow).
    forgeEntry(
      dir,
      {
        kind: 'quarantine-release',
        subject: { claimRef: 'claim:x' },
        body: { case: a.case.openHash, decision: 'release', rationale: GOOD },
      },
      k.reviewer,
    );
    forgeEntry(
      dir,
      {
        kind: 'quarantine-release',
        subject: { claimRef: 'claim:x' },
        body: { case: a.case.openHash, decision: 'release', rationale: '   ' },
      },
      k.officer,
    );
    const v = await verifyJournal(dir, k.trust);
    expect(v.findings.filter((f) => f.severity === 'fail').map((f) => `${f.rule}@${f.pointer}`)).toEqual([
      'RPR-QUAR-003@line:2',
      'RPR-QUAR-004@line:3',
    ]);
    expect(v.cases.cases[0]!.state).toBe('open');
  });
});

describe('reprise quarantine CLI', () => {
  it('open, list, show, release (officer only, real rationale), uphold, escalate', () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    const o = cli([
      'quarantine',
      'open',
      dir,
      '--claim',
      'claim:7',
      '--reason',
      'routing exit HUMAN_REVIEW',
      '--key',
      k.reviewerPem,
      '--json',
    ]);
    expect(o.status, o.stderr).toBe(0);
    expect(JSON.parse(o.stdout).caseId).toBe('case-0');
    const noRole = cli([
      'quarantine',
      'release',
      dir,
      'case-0',
      '--rationale',
      GOOD,
      '--key',
      k.reviewerPem,
      '--trust-store',
      k.trustPath,
    ]);
    expect(noRole.status).toBe(1);
    expect(noRole.stderr).toContain('quarantine-officer');
    const blank = cli([
      'quarantine',
      'release',
      dir,
      'case-0',
      '--rationale',
      '  ',
      '--key',
      k.officerPem,
      '--trust-store',
      k.trustPath,
    ]);
    expect(blank.status).toBe(1);
    expect(blank.stderr).toContain('blank');
    const noTrust = cli(['quarantine', 'release', dir, 'case-0', '--rationale', GOOD, '--key', k.officerPem]);
    expect(noTrust.status).toBe(3);
    const rel = cli([
      'quarantine',
      'release',
      dir,
      'case-0',
      '--rationale',
      GOOD,
      '--key',
      k.officerPem,
      '--trust-store',
      k.trustPath,
      '--json',
    ]);
    expect(rel.status, rel.stderr).toBe(0);
    expect(JSON.parse(rel.stdout).state).toBe('released');
    const list = cli(['quarantine', 'list', dir, '--trust-store', k.trustPath, '--json']);
    expect(list.status).toBe(0);
    expect(JSON.parse(list.stdout).cases.map((c: CaseState) => c.state)).toEqual(['released']);
    const show = cli(['quarantine', 'show', dir, 'case-0', '--trust-store', k.trustPath]);
    expect(show.status).toBe(0);
    expect(show.stdout).toContain(GOOD);
    // list on a tampered journal does not exit 0
    const lines = readFileSync(join(dir, 'entries.jsonl'), 'utf8');
    writeFileSync(join(dir, 'entries.jsonl'), lines.replace('routing exit HUMAN_REVIEW', 'routing exit HUMAN_REVIEX'));
    const bad = cli(['quarantine', 'list', dir, '--trust-store', k.trustPath]);
    expect(bad.status).toBe(1);
  });
});
