/**
 * A journal whose entry line was tampered with (one character of an entry's `sig` flipped):
 * its Merkle tree no longer matches its latest checkpoint, so no inclusion proof can be built.
 * Its judgements are still listed (judgementsIn), each without a proof and not verified,
 * saying why in the engine's words; an evidence bundle of them is refused, naming the journal,
 * never written without its proofs.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBytes } from '../../app/engine/run.js';
import { JournalError, judgementsIn, recordJudgement, verifyJournal } from '../../app/journal/index.js';
import { bundleFromJournal, provenProofs } from '../../app/kinds/evidence-bundle/write.js';
import { openCaseBundle } from '../../app/kinds/evidence-bundle/write-case.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { recordNote } from '../../app/journal/notes.js';
import { makeKeys, tmp } from './helpers.js';

const RATIONALE = 'The finding was checked against the file by hand.';

/** A journal holding two judgements on one report, and that report. */
async function judged() {
  const base = tmp('reprise-judge-damaged-');
  const keys = makeKeys(base);
  const report = await runBytes(join(base, 'a.json'), Buffer.from('{"hello": "world"}\n'), 'verify', {});
  const journal = join(base, 'journal');
  for (const decision of ['needs-review', 'accept'] as const)
    await recordJudgement(journal, { report, pointer: '', decision, rationale: RATIONALE }, keys.reviewer, keys.trust, {
      fsync: false,
    });
  return { keys, report, journal, artifact: report.artifact.sha256! };
}

/** One base64 character of the first entry's signature flipped: the entry line, hence the tree, changes. */
function flipFirstEntrySig(journal: string): void {
  const path = join(journal, 'entries.jsonl');
  const lines = readFileSync(path, 'utf8').split('\n');
  const sig = (JSON.parse(lines[0]!) as { sig: string }).sig;
  const i = sig.length - 10;
  lines[0] = lines[0]!.replace(sig, `${sig.slice(0, i)}${sig[i] === 'A' ? 'B' : 'A'}${sig.slice(i + 1)}`);
  writeFileSync(path, lines.join('\n'));
}

describe('judgements of a journal whose tree no longer matches its checkpoint', () => {
  it('are listed, each without a proof, not verified, with the reason', async () => {
    const { keys, journal, artifact } = await judged();
    const before = judgementsIn(await verifyJournal(journal, keys.trust), artifact, keys.trust);
    expect(before.map((j) => [j.proof?.leafIndex, j.proofVerified, j.proofFindings])).toEqual([
      [0, true, []],
      [1, true, []],
    ]);
    flipFirstEntrySig(journal);
    const after = judgementsIn(await verifyJournal(journal, keys.trust), artifact, keys.trust);
    expect(after.map((j) => [j.seq, j.decision, j.proof, j.proofVerified])).toEqual([
      [0, 'needs-review', null, false],
      [1, 'accept', null, false],
    ]);
    for (const j of after) expect(j.proofFindings).toEqual([expect.stringMatching(/root does not match the journal/)]);
  });

  it('lets an error that is no JournalError through, never taking it for a missing proof', async () => {
    const { keys, journal, artifact } = await judged();
    const v = await verifyJournal(journal, keys.trust);
    const broken = {
      ...v,
      tree: {
        root: () => {
          throw new TypeError('a bug, not damage');
        },
      },
    } as unknown as typeof v;
    expect(() => judgementsIn(broken, artifact, keys.trust)).toThrow(TypeError);
  });

  it('refuses an evidence bundle of them, naming the journal and why; nothing is bundled without its proof', async () => {
    const { keys, report, journal, artifact } = await judged();
    flipFirstEntrySig(journal);
    for (const trust of [keys.trust, null]) {
      await expect(bundleFromJournal(journal, report, trust)).rejects.toThrow(JournalError);
      await expect(bundleFromJournal(journal, report, trust)).rejects.toThrow(journal);
      await expect(openCaseBundle(journal, trust)).rejects.toThrow(journal);
    }
    // Both writers take their proofs through provenProofs: past the journal's own check, it refuses too.
    const listed = judgementsIn(await verifyJournal(journal, keys.trust), artifact, keys.trust);
    let refused: unknown = null;
    try {
      provenProofs(journal, listed);
    } catch (e) {
      refused = e;
    }
    expect(refused).toBeInstanceOf(JournalError);
    expect(refused).toMatchObject({ code: 'DAMAGED' });
    expect((refused as Error).message).toContain(`journal ${journal} cannot prove judgement(s) seq 0, seq 1`);
    expect((refused as Error).message).toMatch(/root does not match the journal/);
  });
});

describe.skipIf(!cliBuilt())('journal notes on a journal whose tree no longer matches its checkpoint', () => {
  it('lists every note, each saying its proof is not verified and why, and exits 1', async () => {
    const { keys, journal, artifact } = await judged();
    for (const text of ['A first note on the report.', 'A second note on the report.'])
      await recordNote(journal, { artifact, text }, keys.reviewer, keys.trust, { fsync: false });
    flipFirstEntrySig(journal);
    const args = ['journal', 'notes', journal, '--artifact', artifact, '--trust-store', keys.trustPath];
    const text = await runCli(args);
    expect(text.code).toBe(1);
    expect(text.stderr).toMatch(/^journal verdict FAIL: the notes below are only as good as the journal\n/);
    const said = text.stdout.split('\n').filter((l) => l.startsWith('  proof NOT verified: '));
    expect(said).toHaveLength(2);
    for (const l of said) expect(l).toMatch(/root does not match the journal/);
    const json = await runCli([...args, '--json']);
    const notes = (JSON.parse(json.stdout) as { notes: { proofVerified: boolean; proofFindings: string[] }[] }).notes;
    expect(notes.map((n) => [n.proofVerified, n.proofFindings.length])).toEqual([
      [false, 1],
      [false, 1],
    ]);
  });
});

describe.skipIf(!cliBuilt())('notes and judgements no checkpoint covers (the last checkpoint and note cut off)', () => {
  it('are listed without a proof, saying so, and an export leaves them out naming each (exit 2)', async () => {
    const { keys, journal, artifact, report } = await judged();
    for (const text of ['A first note on the report.', 'A second note on the report.'])
      await recordNote(journal, { artifact, text }, keys.reviewer, keys.trust, { fsync: false });
    for (const f of ['checkpoints.jsonl', 'notes.jsonl']) {
      const path = join(journal, f);
      const lines = readFileSync(path, 'utf8')
        .split('\n')
        .filter((l) => l !== '');
      writeFileSync(path, lines.slice(0, -1).join('\n') + '\n');
    }
    const v = await verifyJournal(journal, keys.trust);
    expect(v.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    const listed = judgementsIn(v, artifact, keys.trust);
    expect(listed.map((j) => [j.seq, j.proof === null])).toEqual([
      [0, false],
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(listed[3]!.proofFindings).toEqual([expect.stringMatching(/no entry 3 under the latest checkpoint/)]);
    const notes = await runCli(['journal', 'notes', journal, '--artifact', artifact, '--trust-store', keys.trustPath]);
    expect(notes.stdout).toContain('A second note on the report.');
    expect(notes.stdout.match(/proof NOT verified: no entry 3 under the latest checkpoint/g)).toHaveLength(1);
    // The export carries the three proven entries and names the fourth.
    const saved = join(journal, '..', 'report.json');
    writeFileSync(saved, JSON.stringify(report));
    const art = join(journal, '..', 'a.json');
    writeFileSync(art, '{"hello": "world"}\n');
    const out = join(journal, '..', 'b.zip');
    const e = await runCli([
      'export',
      art,
      '--journal',
      journal,
      '--report',
      saved,
      '--out',
      out,
      '--trust-store',
      keys.trustPath,
      '--json',
    ]);
    // Written without it, the bundle is incomplete: exit 2 (docs/evidence-bundle.md, "What a bundle leaves out").
    expect(e.code, e.stderr).toBe(2);
    expect(e.stderr).toMatch(
      /left out entry seq 3 \(sha256:[0-9a-f]{64}\), signed by ed25519:[0-9a-f]{64}: no inclusion proof can be built for it/,
    );
    expect((JSON.parse(e.stdout) as { omitted: { seq: number }[] }).omitted.map((o) => o.seq)).toEqual([3]);
  });
});
