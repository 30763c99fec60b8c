/**
 * Links a case makes between a TG claim, the journal its replays wrote, and an evidence
 * bundle exported from that journal (docs/case.md, "Links by content"): a manifest is named
 * by H(manifest), as the replay's own entries name it, so those entries link to it and a
 * judgement on it is listed; every entry about a claim (drift, comparison, a quarantine
 * case) links to the manifest of that claim; and a bundled judgement links to the journal
 * entry it copies.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaseReport } from '../../shared/case.js';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { hashBytes } from '../../app/core/hash.js';
import { driveCase, inlineExecutor } from '../../app/engine/case/index.js';
import { runBytes, runPath } from '../../app/engine/run.js';
import { writeExamples } from '../../app/examples/index.js';
import { recordJudgement, recordNote } from '../../app/journal/index.js';
import { bundleFromJournal } from '../../app/kinds/evidence-bundle/index.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';

let dir = '';
let keys: Keys;
let report: CaseReport;
/** The two manifests' H(manifest) and claims. */
let material = { hash: '', claim: '' };
let notMaterial = { hash: '', claim: '' };
let noteHash = '';
let judgementHash = '';

function manifestIds(path: string): { hash: string; claim: string } {
  const m = JSON.parse(readFileSync(path, 'utf8')) as { claimRef: string };
  return { hash: hashBytes(canonicalizeValue(m)), claim: m.claimRef };
}

beforeAll(async () => {
  const root = tmp('reprise-case-claims-');
  const examples = join(root, 'examples');
  await writeExamples(examples);
  keys = makeKeys(root);
  dir = join(root, 'case');
  mkdirSync(join(dir, 'tg'), { recursive: true });
  const copy = (from: string, to: string) => cpSync(join(examples, from), join(dir, to));
  copy('tg/banded-drift-material/manifest.json', 'tg/material.json');
  copy('tg/banded-drift-not-material/manifest.json', 'tg/not-material.json');
  copy('tg/bundle.json', 'tg/policy.json');
  copy('dumps/intact.dump.json', 'dump.json');
  material = manifestIds(join(dir, 'tg/material.json'));
  notMaterial = manifestIds(join(dir, 'tg/not-material.json'));
  const journal = join(dir, 'review');
  const policy = join(dir, 'tg/policy.json');
  // Each replay writes its drift and comparison; the decision-material one opens a quarantine case on H(manifest).
  for (const m of ['tg/material.json', 'tg/not-material.json'])
    await runPath(join(dir, m), 'replay', { policy, journal, key: keys.officerPem, trustStore: keys.trustPath });
  const note = await recordNote(
    journal,
    { artifact: material.hash, text: 'The drift was checked against the provider log.' },
    keys.reviewer,
    keys.trust,
    { fsync: false },
  );
  noteHash = note.entryHash;
  const dumpReport = await runBytes('dump.json', readFileSync(join(dir, 'dump.json')), 'verify', {});
  const judged = await recordJudgement(
    journal,
    { report: dumpReport, pointer: '', decision: 'accept', rationale: 'The dump was replayed by hand.' },
    keys.reviewer,
    keys.trust,
    { fsync: false },
  );
  judgementHash = judged.entryHash;
  const bundle = await bundleFromJournal(journal, dumpReport, keys.trust, null);
  writeFileSync(join(dir, 'dump-evidence.zip'), bundle.bytes);
  report = await driveCase(dir, inlineExecutor, { options: { trustStore: keys.trustPath } });
}, 120_000);

const links = (from: string, relation: string) =>
  report.links.filter((l) => l.from.artifact === from && l.relation === relation);

/** The journal entry at a link's `from` pointer. */
function entryAt(pointer: string): { kind: string; subject: { claimRef: string; artifact?: string } } {
  const lines = readFileSync(join(dir, 'review/entries.jsonl'), 'utf8').split('\n');
  return JSON.parse(lines[Number(pointer.slice('line:'.length)) - 1]!) as ReturnType<typeof entryAt>;
}

describe('a TG claim, its replays in a journal, and a bundle of that journal', () => {
  it("names a manifest by H(manifest): the replay's entries on it link to it", () => {
    const onManifest = links('review', 'subject').filter((l) => l.value === material.hash);
    // The quarantine case the replay opened, and the reviewer's note.
    expect(onManifest.map((l) => entryAt(l.from.pointer).kind)).toEqual(['quarantine-open', 'review-rationale']);
    for (const l of onManifest)
      expect(l).toMatchObject({ to: { artifact: 'tg/material.json', pointer: null }, status: 'found' });
  });

  it("lists a judgement whose subject is H(manifest) among the manifest's", () => {
    expect(report.judgements.filter((j) => j.artifact === 'tg/material.json')).toMatchObject([
      { journal: 'review', entryHash: noteHash, subject: material.hash, decision: 'note' },
    ]);
  });

  it('links every entry about a claim to its manifest, not only the one that opened a case', () => {
    const claimLinks = links('review', 'claim');
    const byClaim = (c: { claim: string }) =>
      claimLinks.filter((l) => l.value === c.claim).map((l) => entryAt(l.from.pointer).kind);
    expect(byClaim(material)).toEqual(['replay-drift', 'quarantine-open', 'replay-comparison']);
    expect(byClaim(notMaterial)).toEqual(['replay-drift', 'replay-comparison']);
    for (const l of claimLinks) {
      const to = l.value === material.claim ? 'tg/material.json' : 'tg/not-material.json';
      expect(l).toMatchObject({ to: { artifact: to, pointer: '/claimRef' }, status: 'found' });
    }
    // A judgement's claimRef stands in for the judged artifact's id: its subject link names what it judges.
    expect(claimLinks.every((l) => entryAt(l.from.pointer).kind !== 'review-rationale')).toBe(true);
  });

  it('links a bundled judgement to the journal entry it was exported from', () => {
    const line = report.judgements.find((j) => j.entryHash === judgementHash)!;
    expect(links('dump-evidence.zip', 'bundled-judgement')).toEqual([
      {
        from: { artifact: 'dump-evidence.zip', pointer: `entry:judgements/${String(line.seq).padStart(12, '0')}.json` },
        relation: 'bundled-judgement',
        to: { artifact: 'review', pointer: expect.stringMatching(/^line:\d+$/) },
        value: judgementHash,
        status: 'found',
      },
    ]);
    const to = links('dump-evidence.zip', 'bundled-judgement')[0]!.to!.pointer!;
    expect(entryAt(to)).toMatchObject({ kind: 'review-rationale' });
    expect(report.findings).toEqual([]);
  });
});
