/**
 * Forged case bundles (docs/evidence-bundle.md, "The case bundle"): bundles rebuilt with the
 * project's own writer after a transform, so every digest and the page are consistent and only
 * what the verifier recomputes, or what is signed, can tell. Each forgery must fail under its
 * rule, or, where nothing signed binds what was changed, say so (RPR-EVB-015); a malformed
 * case.json is a finding naming its field, never a crash.
 */
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashBytes, hashValue } from '../../app/core/hash.js';
import { parseTrustStore, type TrustStore } from '../../app/core/keys.js';
import { writeExamples } from '../../app/examples/index.js';
import { runCase } from '../../app/jobs/case.js';
import { appendEntry, recordJudgement, recordNote, reportDigest } from '../../app/journal/index.js';
import { openCaseBundle, verifyEvidence, writeCaseBundle } from '../../app/kinds/evidence-bundle/index.js';
import type { CaseBundleInput } from '../../app/kinds/evidence-bundle/write-case.js';
import type { KindResult } from '../../app/core/report.js';
import { writeZip } from '../../app/zip/writer.js';
import type { CaseReport } from '../../shared/case.js';
import type { Report } from '../../shared/report.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';
import { fixManifest, json, put, unzip, type Files } from './helpers.js';

let base = '';
let ex = '';
let keys: Keys;
/** The reviewer's keys and the TG example's, as one reviewer's trust store would hold them. */
let trust: TrustStore;
let trustPath = '';
/** A failing case (eps.json fails) judged in a journal outside it: a note and an accept with no report digest. */
let failing: Buffer;
/** A passing case holding the journal it is judged in, so case.json lists the judgements. */
let listing: Buffer;

type Input = Omit<CaseBundleInput, 'reports'> & { reports: Map<string, Report> };
const sha = (p: string) => hashBytes(readFileSync(p));

async function exportCase(dir: string, journal: string): Promise<Buffer> {
  const reports = new Map<string, Report>();
  const caseReport = await runCase(dir, {
    options: { trustStore: trustPath },
    onArtifact: (o) => o.ok && o.report && reports.set(o.part.artifact.path, o.report),
  });
  return (await openCaseBundle(journal, trust))(caseReport, reports).bytes;
}

/** The bundle's parts as the writer takes them, changed by `edit`, written again: every digest and the page consistent. */
async function forged(bytes: Buffer, edit: (s: Input) => void): Promise<Buffer> {
  const f = await unzip(bytes);
  const caseReport = json(f, 'case.json') as unknown as CaseReport;
  const reports = new Map<string, Report>();
  caseReport.artifacts.forEach((a, i) =>
    reports.set(a.path, json(f, `reports/${String(i).padStart(6, '0')}.json`) as unknown as Report),
  );
  const proofs = f.filter((x) => x.name.startsWith('judgements/')).map((x) => json(f, x.name)) as unknown[];
  const s = { caseReport, reports, proofs, checkpoint: json(f, 'checkpoint.json') } as unknown as Input;
  edit(s);
  for (const a of s.caseReport.artifacts) a.reportDigest = reportDigest(s.reports.get(a.path)!);
  return writeCaseBundle(s);
}

/** case.json changed as `edit` says with only the manifest's digests made to agree (the writer would not draw its page). */
async function patched(bytes: Buffer, edit: (c: Record<string, unknown>) => void): Promise<Buffer> {
  const f = await unzip(bytes);
  const c = json(f, 'case.json');
  edit(c);
  put(f, 'case.json', c);
  fixManifest(f, (m) => ((m['case'] as Record<string, unknown>)['digest'] = hashValue(c)));
  return writeZip(f);
}

/** A case of the policy bundle and the failing eps.json manifest in folder `name`: its report and each artifact's. */
async function epsCase(name: string): Promise<{ reports: Map<string, Report>; caseReport: CaseReport }> {
  const dir = join(base, name);
  mkdirSync(dir);
  copyFileSync(join(ex, 'tg/bundle.json'), join(dir, 'bundle.json'));
  copyFileSync(join(ex, 'tg/epsilon-disagrees/manifest.json'), join(dir, 'eps.json'));
  const reports = new Map<string, Report>();
  const caseReport = await runCase(dir, {
    options: { trustStore: trustPath },
    onArtifact: (o) => o.ok && o.report && reports.set(o.part.artifact.path, o.report),
  });
  return { reports, caseReport };
}

const verify = (b: Buffer): Promise<KindResult> => verifyEvidence(b, trust);
const failures = (r: KindResult) =>
  r.findings.filter((x) => x.severity === 'fail' && x.rule !== 'RPR-EVB-016').map((x) => [x.rule, x.pointer]);

/** The eps.json manifest's FAIL turned into a PASS, in its report and everywhere case.json says it. */
function flip(s: Input): void {
  const a = s.caseReport.artifacts.find((x) => x.path === 'eps.json')!;
  const r = s.reports.get('eps.json')!;
  r.findings = r.findings.filter((x) => x.severity !== 'fail');
  r.verdict = 'pass';
  a.verdict = 'pass';
  a.counts.fail = 0;
  for (const e of s.caseReport.timeline) if (e.artifact === 'eps.json') e.severity = 'info';
  s.caseReport.verdict = 'pass';
}

beforeAll(async () => {
  base = tmp('reprise-case-forgery-');
  ex = join(base, 'ex');
  await writeExamples(ex);
  keys = makeKeys(base);
  const keysOf = (p: string) => (JSON.parse(readFileSync(p, 'utf8')) as { keys: unknown[] }).keys;
  const doc = {
    type: 'reprise.trust-store/v1',
    keys: [...keysOf(join(ex, 'tg/trust-store.json')), ...keysOf(keys.trustPath)],
  };
  trustPath = join(base, 'trust-store.json');
  writeFileSync(trustPath, JSON.stringify(doc));
  trust = parseTrustStore(Buffer.from(JSON.stringify(doc)), trustPath);
  const c = join(base, 'c');
  mkdirSync(c);
  copyFileSync(join(ex, 'tg/bundle.json'), join(c, 'bundle.json'));
  copyFileSync(join(ex, 'tg/exact-intact/manifest.json'), join(c, 'manifest.json'));
  copyFileSync(join(ex, 'acgp/trace-clean.jsonl'), join(c, 'trace-clean.jsonl'));
  copyFileSync(join(ex, 'tg/epsilon-disagrees/manifest.json'), join(c, 'eps.json'));
  const j = join(base, 'j');
  const opts = { fsync: false };
  // As `reprise journal record` and `journal note` write them: no report digest.
  await appendEntry(
    j,
    {
      kind: 'review-rationale',
      subject: { claimRef: 'c', artifact: sha(join(c, 'trace-clean.jsonl')) },
      body: { decision: 'accept', rationale: 'the trace was reviewed and it is consistent' },
    },
    keys.reviewer,
    opts,
  );
  await recordNote(
    j,
    { artifact: sha(join(c, 'manifest.json')), text: 'A note on the manifest, version one' },
    keys.reviewer,
    keys.trust,
    opts,
  );
  failing = await exportCase(c, j);
  const c5 = join(base, 'c5');
  mkdirSync(c5);
  for (const n of ['bundle.json', 'manifest.json', 'trace-clean.jsonl']) copyFileSync(join(c, n), join(c5, n));
  cpSync(j, join(c5, 'journal'), { recursive: true });
  listing = await exportCase(c5, join(c5, 'journal'));
}, 180_000);

describe('a forged case bundle', () => {
  it('D1: says, report by report, that nothing signed binds it, and never that the case report is signed', async () => {
    const r = await verify(await forged(failing, flip));
    const unbound = r.findings.filter((x) => x.rule === 'RPR-EVB-015');
    expect(unbound.map((x) => [x.severity, x.pointer])).toEqual(
      [0, 1, 2, 3].map((i) => ['warning', `entry:reports/00000${i}.json`]),
    );
    expect(unbound[1]!.message).toMatch(/^eps\.json: no judgement in the bundle names this report's digest/);
    // A trusted checkpoint that binds none of the reports signs nothing the case says: consistency only.
    expect(r.authenticity?.status).toBe('consistency-only');
    expect(r.authenticity?.statement).toMatch(
      /^Consistency only, origin not established: the bundle's checkpoint verifies under ed25519:[0-9a-f]{64}, a key in the trust store, but none of its \d+ judgement\(s\) names any of the case's 4 report\(s\) by digest, and nothing signs case\.json/,
    );
    const d = r.details as { integrity: { statement: string }; caseBundle: { reports: { bound: boolean }[] } };
    expect(d.integrity.statement).toMatch(/nothing signs case\.json/);
    expect(d.caseBundle.reports.map((x) => x.bound)).toEqual([false, false, false, false]);
  });

  it('D1: a case of no artifact, nothing signing its case.json, is consistency only, never a trusted signer', async () => {
    const empty = await forged(failing, (s) => {
      s.caseReport.artifacts = [];
      s.caseReport.links = [];
      s.caseReport.timeline = [];
      s.reports.clear();
    });
    const r = await verify(empty);
    expect(r.authenticity?.status).toBe('consistency-only');
    expect(r.authenticity?.statement).toMatch(
      /a key in the trust store, but the case holds no report, and none of its \d+ judgement\(s\) names case\.json's digest/,
    );
  });

  it('D1: a report a judgement names by digest is bound, and a forged one then fails (RPR-EVB-009)', async () => {
    const { reports, caseReport } = await epsCase('bound');
    const j = join(base, 'bound-journal');
    await recordJudgement(
      j,
      { report: reports.get('eps.json')!, pointer: '', decision: 'reject', rationale: 'The epsilon was edited.' },
      keys.reviewer,
      keys.trust,
      { fsync: false },
    );
    const bytes = (await openCaseBundle(j, trust))(caseReport, reports).bytes;
    const r = await verify(bytes);
    expect(r.findings.filter((x) => x.rule === 'RPR-EVB-015').map((x) => x.pointer)).toEqual([
      'entry:reports/000000.json',
    ]);
    expect(r.authenticity).toMatchObject({
      status: 'trusted-signer',
      statement: expect.stringMatching(/which bind 1 of 2 report\(s\)/),
    });
    const flipped = await verify(
      await forged(bytes, (s) => {
        flip(s);
        s.caseReport.findings = [];
      }),
    );
    expect(failures(flipped).map((x) => x[0])).toContain('RPR-EVB-009');
  });

  it('D1: a judgement on the case (its digest) binds case.json and through it every report; any forgery then fails', async () => {
    const { reports, caseReport } = await epsCase('whole');
    const digest = hashValue(caseReport);
    const j = join(base, 'whole-journal');
    const judge = (reportDigest: string) =>
      appendEntry(
        j,
        {
          kind: 'review-rationale',
          subject: { claimRef: 'case:whole', artifact: digest },
          body: {
            type: 'reprise.judgement/v1',
            decision: 'reject',
            rationale: 'The epsilon was edited.',
            reportDigest,
            pointer: '',
          },
        },
        keys.reviewer,
        { fsync: false, trustStore: keys.trust },
      );
    await judge(digest);
    const bytes = (await openCaseBundle(j, trust))(caseReport, reports).bytes;
    const r = await verify(bytes);
    expect(failures(r)).toEqual([]);
    expect(r.findings.filter((x) => x.rule === 'RPR-EVB-015')).toEqual([]);
    expect(r.authenticity).toMatchObject({
      status: 'trusted-signer',
      statement: expect.stringMatching(/which bind case\.json by its digest, and through it all 2 report\(s\)/),
    });
    const d = r.details as { caseBundle: { reports: { bound: boolean }[] } };
    expect(d.caseBundle.reports.map((x) => x.bound)).toEqual([true, true]);
    const page = (await unzip(bytes)).find((x) => x.name === 'case.html')!.data.toString('utf8');
    expect(page).toContain(`the case as a whole (case.json) <code>${digest}</code>`);
    // What nothing signed before: the case's own words (a timeline label, a link, the verdict), rewritten consistently.
    const forgeries: ((s: Input) => void)[] = [
      (s) => (s.caseReport.timeline[0]!.label = 'a label the case never had'),
      (s) => (s.caseReport.links = s.caseReport.links.filter((l) => l.status === 'found')),
      flip,
    ];
    for (const edit of forgeries) {
      const f = await verify(await forged(bytes, edit));
      expect(failures(f)).toContainEqual(['RPR-EVB-010', 'entry:judgements/000000000000.json']);
      expect(f.authenticity?.status).not.toBe('trusted-signer');
    }
    // A report's path is outside its digest: swapping two reports' paths keeps the case's digest, and fails 004.
    const swapped = await verify(
      await forged(bytes, (x) => {
        x.reports.get('eps.json')!.artifact.path = 'bundle.json';
        x.reports.get('bundle.json')!.artifact.path = 'eps.json';
      }),
    );
    expect(failures(swapped)).toEqual([
      ['RPR-EVB-004', 'entry:reports/000000.json#/artifact/path'],
      ['RPR-EVB-004', 'entry:reports/000001.json#/artifact/path'],
    ]);
    // A judgement on the case that names another digest is about a report the bundle does not hold: refused.
    await judge(`sha256:${'cd'.repeat(32)}`);
    await expect(openCaseBundle(j, trust).then((b) => b(caseReport, reports))).rejects.toThrow(
      /seq 1 .*on the case itself, a digest other than its own/,
    );
  });

  it('D1: a judgement pointing at no item of the report it judges is refused at export (its bundle would fail 012)', async () => {
    const { reports, caseReport } = await epsCase('pointer');
    const digest = hashValue(caseReport);
    const j = join(base, 'pointer-journal');
    const body = { type: 'reprise.judgement/v1', decision: 'reject', rationale: 'The epsilon was edited.' };
    await appendEntry(
      j,
      {
        kind: 'review-rationale',
        subject: { claimRef: 'case:p', artifact: digest },
        body: { ...body, reportDigest: digest, pointer: '/findings/99' },
      },
      keys.reviewer,
      { fsync: false, trustStore: keys.trust },
    );
    await expect(openCaseBundle(j, trust).then((b) => b(caseReport, reports))).rejects.toThrow(
      /seq 0 \(the report has no item \/findings\/99\) point at no item of the report they judge/,
    );
  });

  it("D2: a report swapped for another artifact's fails RPR-EVB-004, naming what differs", async () => {
    const r = await verify(
      await forged(failing, (s) => {
        flip(s);
        const a = s.reports.get('manifest.json')!;
        s.reports.set('manifest.json', s.reports.get('trace-clean.jsonl')!);
        s.reports.set('trace-clean.jsonl', a);
      }),
    );
    expect(failures(r)).toEqual(
      expect.arrayContaining([
        ['RPR-EVB-004', 'entry:reports/000002.json#/artifact/sha256'],
        ['RPR-EVB-004', 'entry:reports/000002.json#/artifact/kind'],
        ['RPR-EVB-004', 'entry:reports/000002.json#/artifact/id'],
        ['RPR-EVB-004', 'entry:reports/000003.json#/artifact/kind'],
      ]),
    );
  });

  it('D3: case.json edited against its schema or its bundle fails RPR-EVB-017 (or 004 for a report)', async () => {
    const edits: [string, (s: Input) => void, string, string][] = [
      [
        'a link to nothing',
        (s) => (s.caseReport.links[0]!.from.artifact = 'nope.json'),
        'RPR-EVB-017',
        '#/links/0/from/artifact',
      ],
      [
        'an event of nothing',
        (s) => (s.caseReport.timeline[0]!.artifact = 'nope.json'),
        'RPR-EVB-017',
        '#/timeline/0/artifact',
      ],
      [
        'an event of another kind',
        (s) => (s.caseReport.timeline[0]!.kind = 'journal'),
        'RPR-EVB-017',
        '#/timeline/0/kind',
      ],
      ['a timeline of [{}]', (s) => (s.caseReport.timeline = [{}] as never), 'RPR-EVB-017', '#/timeline/0'],
      ['no judgements', (s) => delete (s.caseReport as Partial<CaseReport>).judgements, 'RPR-EVB-017', ''],
      ['an extra member', (s) => ((s.caseReport as never as Record<string, unknown>)['x'] = 1), 'RPR-EVB-017', '#/x'],
      [
        'counts of -5',
        (s) => (s.caseReport.artifacts[0]!.counts.fail = -5),
        'RPR-EVB-017',
        '#/artifacts/0/counts/fail',
      ],
      [
        'counts of "x"',
        (s) => (s.caseReport.artifacts[0]!.counts.fail = 'x' as never),
        'RPR-EVB-017',
        '#/artifacts/0/counts/fail',
      ],
      ['a mode outside the enum', (s) => (s.caseReport.mode = 'guess' as never), 'RPR-EVB-017', '#/mode'],
      ['no artifact', (s) => (s.caseReport.artifacts = []), 'RPR-EVB-017', '#/artifacts'],
      ['a kind edited', (s) => (s.caseReport.artifacts[0]!.kind = 'journal'), 'RPR-EVB-004', ''],
      ['an id edited', (s) => (s.caseReport.artifacts[0]!.id = 'other'), 'RPR-EVB-004', ''],
      ['a count edited', (s) => (s.caseReport.artifacts[0]!.counts.info += 1), 'RPR-EVB-004', ''],
      ['a verdict edited', (s) => (s.caseReport.verdict = 'pass'), 'RPR-EVB-017', '#/verdict'],
    ];
    for (const [what, edit, rule, at] of edits) {
      const r = await verify(await forged(failing, edit).catch(() => patchedBy(edit)));
      const hit = failures(r).find((x) => x[0] === rule);
      expect(hit, what).toBeDefined();
      if (rule === 'RPR-EVB-017') expect(hit![1], what).toBe(`entry:case.json${at}`);
    }
  });

  it("D3/D6: the manifest's list of reports must be case.json's, SHA-256 included", async () => {
    const f = await unzip(failing);
    const m = json(f, 'reprise-evidence-bundle.json');
    (m['reports'] as { sha256: string }[])[0]!.sha256 = `sha256:${'0'.repeat(64)}`;
    put(f, 'reprise-evidence-bundle.json', m);
    expect(failures(await verify(writeZip(f)))).toContainEqual(['RPR-EVB-017', 'entry:reprise-evidence-bundle.json']);
  });

  it('D4: a listed judgement that says other than its signed entry fails RPR-EVB-017; one no proof carries is said (018)', async () => {
    expect(failures(await verify(listing))).toEqual([]);
    const r = await verify(
      await forged(listing, (s) => {
        for (const j of s.caseReport.judgements) {
          if (j.decision === 'note') j.rationale = 'FORGED note text';
          if (j.decision === 'accept') j.decision = 'reject';
        }
      }),
    );
    expect(failures(r)).toEqual([
      ['RPR-EVB-017', 'entry:case.json#/judgements/0/decision'],
      ['RPR-EVB-017', 'entry:case.json#/judgements/1/rationale'],
    ]);
    const unproven = await verify(
      await forged(listing, (s) => {
        s.caseReport.judgements[1]!.rationale = 'FORGED note text';
        s.caseReport.judgements[1]!.entryHash = `sha256:${'1'.repeat(64)}`;
      }),
    );
    expect(unproven.findings.find((x) => x.rule === 'RPR-EVB-018')).toMatchObject({
      severity: 'warning',
      pointer: 'entry:case.json#/judgements/1',
    });
  });

  it('D5: a case.json that lacks or breaks a member is a finding naming it, never a crash', async () => {
    const edits: [(c: Record<string, unknown>) => void, string][] = [
      // A missing member is named at the object that lacks it (no pointer names what is not there).
      [(c) => delete c['links'], 'entry:case.json'],
      [(c) => delete c['timeline'], 'entry:case.json'],
      [(c) => (c['links'] = null), 'entry:case.json#/links'],
      [(c) => delete (c['artifacts'] as Record<string, unknown>[])[0]!['counts'], 'entry:case.json#/artifacts/0'],
      [(c) => (c['links'] = [1]), 'entry:case.json#/links/0'],
      [(c) => (c['findings'] = [null]), 'entry:case.json#/findings/0'],
      [(c) => (c['judgements'] = [null]), 'entry:case.json#/judgements/0'],
      [(c) => (c['artifacts'] = 'x'), 'entry:case.json#/artifacts'],
    ];
    for (const [edit, at] of edits) {
      const r = await verify(await patched(listing, edit));
      expect(failures(r), at).toContainEqual(['RPR-EVB-017', at]);
    }
  });

  it.skipIf(!cliBuilt())('D5: the CLI says FAIL with exit 1, never an internal error', async () => {
    const out = join(base, 'no-links.zip');
    writeFileSync(out, await patched(listing, (c) => delete c['links']));
    const v = await runCli(['verify', out, '--trust-store', trustPath]);
    expect(v.code, v.stderr).toBe(1);
    expect(v.stderr).not.toMatch(/internal error/);
    expect(v.stdout).toMatch(/RPR-EVB-017 {2}case\.json is not a reprise\.case\/v1 report: \/ has no member "links"/);
  });
});

/** A bundle whose case.json the writer would not take (it draws the page from it): the same edit, patched in. */
async function patchedBy(edit: (s: Input) => void): Promise<Buffer> {
  return patched(failing, (c) => edit({ caseReport: c } as unknown as Input));
}

describe('the layout of a case bundle (D6)', () => {
  const layouts: [string, (f: Files) => Files, string][] = [
    [
      'an unknown member of the manifest',
      (f) => (put(f, 'reprise-evidence-bundle.json', { ...json(f, 'reprise-evidence-bundle.json'), x: 1 }), f),
      'RPR-EVB-001',
    ],
    [
      'an unknown member of a manifest entry',
      (f) => {
        const m = json(f, 'reprise-evidence-bundle.json');
        (m['reports'] as Record<string, unknown>[])[0]!['note'] = 'x';
        put(f, 'reprise-evidence-bundle.json', m);
        return f;
      },
      'RPR-EVB-001',
    ],
    ['a directory entry', (f) => [f[0]!, { name: 'judgements/', data: Buffer.alloc(0) }, ...f.slice(1)], 'RPR-EVB-002'],
    ['members out of name order', (f) => [f[0]!, ...f.slice(1).reverse()], 'RPR-EVB-002'],
  ];
  for (const [what, change, rule] of layouts)
    it(`${what} fails ${rule}`, async () => {
      const f = change(await unzip(listing));
      expect(failures(await verify(writeZip(f))).map((x) => x[0])).toContain(rule);
    });
});

describe('a judgement on a part of a case artifact (D9)', () => {
  let dir = '';
  let part = '';
  beforeAll(() => {
    dir = join(base, 'c14');
    mkdirSync(dir);
    copyFileSync(join(ex, 'tg/recorded-anchored/manifest.json'), join(dir, 'r.json'));
    copyFileSync(join(ex, 'tg/bundle.json'), join(dir, 'bundle.json'));
    cpSync(join(ex, 'tg/journal'), join(dir, 'journal'), { recursive: true });
    // The artifact the manifest embeds, which the journal's judgement is on.
    const entries = readFileSync(join(dir, 'journal/entries.jsonl'), 'utf8').split('\n');
    part = (JSON.parse(entries[0]!) as { subject: { artifact: string } }).subject.artifact;
  });

  it('is bundled, and verifies as about the artifact that holds the part', async () => {
    const bytes = await exportCase(dir, join(dir, 'journal'));
    const f = await unzip(bytes);
    expect(f.map((x) => x.name)).toContain('judgements/000000000000.json');
    const r = await verify(bytes);
    expect(failures(r)).toEqual([]);
    const d = r.details as { judgements: { subject: string; proof: { verified: boolean } }[] };
    expect(d.judgements.map((j) => [j.subject, j.proof.verified])).toEqual([[part, true]]);
  });

  it('from a journal outside the case too; one naming a report the case does not hold is refused', async () => {
    const j = join(base, 'outside');
    const body = { decision: 'accept', rationale: 'the embedded artifact was read in full' };
    const subject = { claimRef: 'c', artifact: part };
    await appendEntry(j, { kind: 'review-rationale', subject, body }, keys.reviewer, { fsync: false });
    const r = await verify(await exportCase(dir, j));
    expect(failures(r)).toEqual([]);
    expect((r.details as { judgements: unknown[] }).judgements).toHaveLength(1);
    const other = { ...body, type: 'reprise.judgement/v1', reportDigest: `sha256:${'ab'.repeat(32)}`, pointer: '' };
    await appendEntry(j, { kind: 'review-rationale', subject, body: other }, keys.reviewer, { fsync: false });
    await expect(exportCase(dir, j)).rejects.toThrow(/seq 1 .*name a report the case does not hold/);
  });

  it("held by two artifacts: one judged on the second holder's report verifies, and the case names that holder", async () => {
    const two = join(base, 'c15');
    mkdirSync(two);
    for (const n of ['r.json', 'bundle.json']) copyFileSync(join(dir, n), join(two, n));
    // The same manifest written again with other white space: other bytes, another report, the same part.
    writeFileSync(join(two, 's.json'), JSON.stringify(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8')), null, 1));
    const j = join(base, 'two-holders');
    const first = await runCase(two, { options: { trustStore: trustPath } });
    const second = first.artifacts.find((a) => a.path === 's.json')!.reportDigest;
    expect(second).not.toBe(first.artifacts.find((a) => a.path === 'r.json')!.reportDigest);
    const body = {
      type: 'reprise.judgement/v1',
      decision: 'accept',
      rationale: 'the embedded artifact of s.json was read',
      reportDigest: second,
      pointer: '',
    };
    await appendEntry(
      j,
      { kind: 'review-rationale', subject: { claimRef: 'c', artifact: part }, body },
      keys.reviewer,
      { fsync: false },
    );
    cpSync(j, join(two, 'journal'), { recursive: true });
    const judged = await runCase(two, { options: { trustStore: trustPath } });
    expect(judged.judgements.map((x) => [x.subject, x.artifact])).toEqual([[part, 's.json']]);
    const r = await verify(await exportCase(two, join(two, 'journal')));
    expect(failures(r)).toEqual([]);
  });
});
