/**
 * The workbench's journal operations on a journal that fails verification (the examples'
 * tampered journal, with their trust store): opening it only reads it and shows its
 * findings (no writer, no file created), and a case decision or a judgement sent anyway
 * (a stale window, a script holding the token) is refused by the engine with the failing
 * rule, nothing written; the window's reason names that same rule. Opening a folder that is no journal is a usage error unless asked
 * to create one. A finding of the case fold is listed once.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { journalWriter } from '../../app/kinds/journal/examples.js';
import { UsageError } from '../../app/core/errors.js';
import { loadSigner, loadTrustStore } from '../../app/core/keys.js';
import { verifyJournal } from '../../app/journal/index.js';
import { forgeEntry } from '../journal/forge.helpers.js';
import { decide, journalStatus } from '../../main/host/journal-ops.js';
import { openJudgementJournal, recordJudgement } from '../../main/host/judgement-ops.js';
import { signingRefusal } from '../../renderer/src/lib/sign-gate.js';
import { REPORT_SCHEMA, type Report } from '../../shared/report.js';
import { keyIdOf } from '../helpers/shown.js';

/** The opening entry hash the window showed for a case (the journal's verification lists it even when it fails). */
const openHashOf = async (dir: string, caseId: string): Promise<string> =>
  (await journalStatus({ dir, trustStore })).cases.find((c) => c.caseId === caseId)?.openHash ??
  `sha256:${'0'.repeat(64)}`;

const RATIONALE = 'Replayed twice under the locked environment; the drift stays within reviewer tolerance.';
let ex: string;
let trustStore: string;

beforeAll(async () => {
  ex = await mkdtemp(join(tmpdir(), 'reprise-unverified-'));
  for (const f of journalWriter.build() as { path: string; bytes: string }[]) {
    await mkdir(dirname(join(ex, f.path)), { recursive: true });
    await writeFile(join(ex, f.path), f.bytes);
  }
  trustStore = join(ex, 'journal', 'trust-store.json');
});

/** A fresh copy of one example journal (sample or tampered). */
async function copyOf(name: 'sample' | 'tampered'): Promise<string> {
  const dir = join(await mkdtemp(join(tmpdir(), 'reprise-unverified-copy-')), name);
  await cp(join(ex, 'journal', name), dir, { recursive: true });
  return dir;
}

const snapshot = async (dir: string) => ({
  files: (await readdir(dir)).sort(),
  entries: await readFile(join(dir, 'entries.jsonl')),
  checkpoints: await readFile(join(dir, 'checkpoints.jsonl')),
});

describe('a journal that fails verification, in the workbench host', () => {
  it('is opened read-only: FAILS with its findings, first RPR-JOURNAL-007 at line:2, and no file created or changed', async () => {
    const dir = await copyOf('tampered');
    const before = await snapshot(dir);
    const st = await openJudgementJournal({ dir, trustStore });
    expect(st.verdict).toBe('fail');
    expect(st.findings.find((f) => f.severity === 'fail')).toMatchObject({
      rule: 'RPR-JOURNAL-007',
      pointer: 'line:2',
    });
    // The window's reason names the rule the writer's refusal names (below).
    expect(signingRefusal(st)).toMatch(
      /^Signing is off: this journal FAILS verification \(RPR-JOURNAL-007 at line:2: .*; and 9 more failing findings\)/,
    );
    expect(await snapshot(dir)).toEqual(before);
  });

  it('refuses a case decision sent anyway: UNVERIFIED naming the rule, entries and checkpoints byte-identical', async () => {
    const dir = await copyOf('tampered');
    const before = await snapshot(dir);
    const keyFile = join(ex, 'journal', 'keys', 'quarantine-officer.pem');
    const openHash = await openHashOf(dir, 'case-5');
    const shown = { openHash, shownLast: openHash, keyId: await keyIdOf(keyFile) };
    const refused = decide({
      dir,
      trustStore,
      keyFile,
      ...shown,
      caseId: 'case-5',
      decision: 'release',
      rationale: RATIONALE,
    });
    await expect(refused).rejects.toMatchObject({
      code: 'UNVERIFIED',
      message: expect.stringMatching(
        /does not verify, so nothing can be signed onto it: RPR-JOURNAL-007 at line:2.*Nothing was written/,
      ),
    });
    await expect(refused).rejects.toBeInstanceOf(UsageError);
    const after = await snapshot(dir);
    expect(after.entries.equals(before.entries)).toBe(true);
    expect(after.checkpoints.equals(before.checkpoints)).toBe(true);
  });

  it('refuses a judgement sent anyway, the same way', async () => {
    const dir = await copyOf('tampered');
    const before = await snapshot(dir);
    const report = {
      schema: REPORT_SCHEMA,
      artifact: { kind: 'replay-dump', sha256: `sha256:${'ab'.repeat(32)}` },
      findings: [],
    } as unknown as Report;
    const keyFile = join(ex, 'journal', 'keys', 'reviewer.pem');
    await expect(
      recordJudgement({
        dir,
        trustStore,
        keyFile,
        keyId: await keyIdOf(keyFile),
        report,
        pointer: '',
        decision: 'note',
        rationale: RATIONALE,
      }),
    ).rejects.toMatchObject({ code: 'UNVERIFIED' });
    expect((await snapshot(dir)).entries.equals(before.entries)).toBe(true);
  });
});

describe('opening a journal in the workbench host', () => {
  it('a folder that is no journal: a usage error, unless asked to create one (which verifies, empty)', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'reprise-unverified-new-')), 'journal');
    await expect(openJudgementJournal({ dir, trustStore })).rejects.toThrow(/is not a journal \(no entries\.jsonl\)/);
    const st = await openJudgementJournal({ dir, trustStore, create: true });
    expect([st.verdict, st.entries]).toEqual(['pass', 0]);
  });

  it('lists a finding of the case fold once, as the verification has it', async () => {
    // A release signed by the reviewer, written past the quarantine rules: the fold refuses it (role).
    const dir = await copyOf('sample');
    const reviewer = await loadSigner(join(ex, 'journal', 'keys', 'reviewer.pem'));
    const open = (await verifyJournal(dir, null)).cases.cases.find((c) => c.caseId === 'case-5')!;
    forgeEntry(
      dir,
      {
        kind: 'quarantine-release',
        subject: { ...open.subject },
        body: { case: open.openHash, decision: 'release', rationale: RATIONALE },
      },
      reviewer,
    );
    const v = await verifyJournal(dir, await loadTrustStore(trustStore));
    const st = await journalStatus({ dir, trustStore });
    expect(v.cases.findings.length).toBeGreaterThan(0);
    expect(st.findings.map((f) => f.rule)).toEqual(v.findings.map((f) => f.rule));
  });
});
