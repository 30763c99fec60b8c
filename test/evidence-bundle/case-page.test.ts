/**
 * The case bundle's page says what each judgement is about (docs/evidence-bundle.md, "The
 * case bundle"): the artifact's path and SHA-256, so a reject and an accept on two artifacts
 * never read alike, and a note's edit marked both ways (the edit names the note it replaces,
 * the replaced note says it is superseded). Everything shown is escaped, controls included.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashBytes } from '../../app/core/hash.js';
import { runBytes } from '../../app/engine/run.js';
import { runCase } from '../../app/jobs/case.js';
import { recordJudgement, recordNote } from '../../app/journal/index.js';
import { openCaseBundle, verifyEvidence } from '../../app/kinds/evidence-bundle/index.js';
import type { Report } from '../../shared/report.js';
import { makeKeys, tmp } from '../journal/helpers.js';
import { fixManifest, unzip } from './helpers.js';
import { buildZip } from '../../app/zip/writer.js';

const A = Buffer.from('{"a": 1}\n');
const B = Buffer.from('{"b": 2}\n');
// A path a reader must see as written, never reordered by a bidi control.
const B_NAME = 'b\u202egnp.json';
let page = '';
let bundle: Buffer;
let trust: ReturnType<typeof makeKeys>['trust'];
let edited = '';
let original = '';

/** The judgement block of entry `seq`, as the page writes it. */
const block = (seq: number): string => page.split('<div class="judgement">').find((b) => b.includes(`seq ${seq} at`))!;

beforeAll(async () => {
  const base = tmp('reprise-case-page-');
  const keys = makeKeys(base);
  trust = keys.trust;
  const dir = join(base, 'case');
  mkdirSync(dir);
  writeFileSync(join(dir, 'a.json'), A);
  writeFileSync(join(dir, B_NAME), B);
  const journal = join(base, 'journal');
  const opts = { fsync: false };
  const judge = async (bytes: Buffer, decision: string, rationale: string) =>
    recordJudgement(
      journal,
      { report: await runBytes('x.json', bytes, 'verify', {}), pointer: '', decision, rationale } as Parameters<
        typeof recordJudgement
      >[1],
      keys.reviewer,
      trust,
      opts,
    );
  await judge(A, 'reject', 'The first file is not what the claim cites; it must not be relied on.');
  await judge(B, 'accept', 'The second file was read in full and agrees with the claim it supports.');
  const note = await recordNote(
    journal,
    { artifact: hashBytes(A), text: 'First reading: the file may be a draft of the cited one.' },
    keys.reviewer,
    trust,
    opts,
  );
  original = note.entryHash;
  const edit = await recordNote(
    journal,
    { artifact: hashBytes(A), text: 'Second reading: the file is a draft, not the cited one.', supersedes: original },
    keys.reviewer,
    trust,
    opts,
  );
  edited = edit.entryHash;
  const reports = new Map<string, Report>();
  const c = await runCase(dir, { onArtifact: (o) => o.ok && o.report && reports.set(o.part.artifact.path, o.report) });
  bundle = (await openCaseBundle(journal, trust))(c, reports).bytes;
  page = (await unzip(bundle)).find((f) => f.name === 'case.html')!.data.toString('utf8');
}, 60_000);

describe("the case page's judgements", () => {
  it('name the artifact each is on, by path and SHA-256', () => {
    expect(block(0)).toContain('reject');
    expect(block(0)).toMatch(new RegExp(`<dt>on</dt><dd>a\\.json <code>${hashBytes(A)}</code></dd>`));
    expect(block(1)).toContain('accept');
    // The bidi control in the name is shown as its escape, never given raw to the reader.
    expect(block(1)).toContain(`b&#92;u202egnp.json <code>${hashBytes(B)}</code>`);
    expect(page).not.toContain('\u202e');
  });

  it("mark a note's edit and the note it superseded", () => {
    expect(block(2)).toContain(`<dt>superseded</dt><dd>by its edit, seq 3: no longer the note&#39;s text</dd>`);
    expect(block(2)).not.toContain('edit of');
    expect(block(3)).toContain(`<dt>edit of</dt><dd>the note of seq 2 <code>${original}</code></dd>`);
    expect(block(3)).not.toContain('<dt>superseded</dt>');
    expect(page).toContain(edited);
  });

  it('and the page verifies: the verifier rebuilds the same page', async () => {
    const r = await verifyEvidence(bundle, trust);
    expect(r.findings.filter((f) => f.rule === 'RPR-EVB-014')).toEqual([]);
  });

  it('and a bundle of the versions before, whose page named no artifact, still verifies; an edited page does not', async () => {
    const files = await unzip(bundle);
    const html = files.find((f) => f.name === 'case.html')!;
    // The page as versions before wrote it: each judgement block without its "on" and edit lines.
    const before = page.replace(/<dt>(on|edit of|superseded)<\/dt><dd>.*?<\/dd>/g, '');
    expect(before).not.toBe(page);
    const rezip = async (text: string) => {
      html.data = Buffer.from(text, 'utf8');
      fixManifest(files);
      return (await verifyEvidence(buildZip({ entries: files }), trust)).findings.filter(
        (f) => f.rule === 'RPR-EVB-014',
      );
    };
    expect(await rezip(before)).toEqual([]);
    expect(await rezip(before.replace('reject', 'accept'))).toHaveLength(1);
  });
});
