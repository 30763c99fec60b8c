/**
 * The case bundle (docs/evidence-bundle.md, "The case bundle"): `reprise export DIR
 * --journal J` writes one bundle of a whole case, `reprise verify case.zip` checks it
 * offline; any member tampered with (and the manifest's digests recomputed, so only the
 * deeper checks can catch it) fails, each under its own rule.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parseTrustStore } from '../../app/core/keys.js';
import { hashBytes } from '../../app/core/hash.js';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaseReport } from '../../shared/case.js';
import { verdictOf, type Report } from '../../shared/report.js';
import { runPath } from '../../app/engine/run.js';
import { writeExamples } from '../../app/examples/index.js';
import { runCase } from '../../app/jobs/case.js';
import { recordJudgement, recordNote } from '../../app/journal/index.js';
import { openCaseBundle, verifyEvidence } from '../../app/kinds/evidence-bundle/index.js';
import { caseBundleHtml, PAGE_ROWS } from '../../app/kinds/evidence-bundle/case-html.js';
import { writeZip } from '../../app/zip/writer.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { fixManifest, json, put, unzip, type Files } from './helpers.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';

let base = '';
let dir = '';
let journal = '';
let keys: Keys;
let options: { trustStore: string };
let bundle: Buffer;

/** The bundle's own failures (the case it carries fails: RPR-EVB-016 is tested on its own). */
async function rules(f: Files): Promise<string[]> {
  const r = await verifyEvidence(writeZip(f), keys.trust);
  return r.findings.filter((x) => x.severity === 'fail' && x.rule !== 'RPR-EVB-016').map((x) => x.rule);
}

async function exportCase(): Promise<{ bytes: Buffer; caseReport: CaseReport }> {
  const reports = new Map<string, Report>();
  const caseReport = await runCase(dir, {
    options,
    onArtifact: (o) => o.ok && o.report && reports.set(o.part.artifact.path, o.report),
  });
  return { bytes: (await openCaseBundle(journal, keys.trust))(caseReport, reports).bytes, caseReport };
}

beforeAll(async () => {
  base = tmp('reprise-case-bundle-');
  const ex = join(base, 'examples');
  await writeExamples(ex);
  dir = join(base, 'case');
  mkdirSync(dir);
  copyFileSync(join(ex, 'dumps/intact.dump.json'), join(dir, 'intact.dump.json'));
  copyFileSync(join(ex, 'dumps/fail/altered-artifact.dump.json'), join(dir, 'altered.dump.json'));
  copyFileSync(join(ex, 'acgp/trace-clean.jsonl'), join(dir, 'trace.jsonl'));
  // One trust store names the dumps' signers and the reviewer, as a reviewer's would.
  keys = makeKeys(base);
  const merged = join(base, 'merged-trust-store.json');
  const keysOf = (p: string) => (JSON.parse(readFileSync(p, 'utf8')) as { keys: unknown[] }).keys;
  const doc = {
    type: 'reprise.trust-store/v1',
    keys: [...keysOf(join(ex, 'dumps/trust-store.json')), ...keysOf(keys.trustPath)],
  };
  writeFileSync(merged, JSON.stringify(doc));
  options = { trustStore: merged };
  keys = { ...keys, trust: parseTrustStore(Buffer.from(JSON.stringify(doc)), merged), trustPath: merged };
  journal = join(base, 'journal');
  const altered = await runPath(join(dir, 'altered.dump.json'), 'verify', options);
  await recordJudgement(
    journal,
    {
      report: altered,
      pointer: '',
      decision: 'reject',
      rationale: 'The artifact was altered after the dump was signed.',
    },
    keys.reviewer,
    keys.trust,
    { fsync: false },
  );
  const intact = await runPath(join(dir, 'intact.dump.json'), 'verify', options);
  await recordNote(
    journal,
    { artifact: intact.artifact.sha256!, text: 'The intact dump is the one the claim cites; kept as reference.' },
    keys.reviewer,
    keys.trust,
    { fsync: false },
  );
  bundle = (await exportCase()).bytes;
}, 120_000);

describe('the case bundle', () => {
  it('holds the case report, every report, every judgement with its proof, the checkpoint; verifies offline', async () => {
    const f = await unzip(bundle);
    expect(f.map((x) => x.name)).toEqual([
      'reprise-evidence-bundle.json',
      'case.html',
      'case.json',
      'checkpoint.json',
      'judgements/000000000000.json',
      'judgements/000000000001.json',
      'reports/000000.json',
      'reports/000001.json',
      'reports/000002.json',
    ]);
    const r = await verifyEvidence(bundle, keys.trust);
    // The case holds a failing dump: the bundle's verdict is FAIL, its own checks all pass. The
    // reports no judgement names by digest (a note names none) are bound by nothing signed: 015.
    // The reviewer's reject of the failing dump is in force, and said (019).
    expect(r.findings.filter((x) => x.severity !== 'info').map((x) => [x.rule, x.pointer])).toEqual([
      ['RPR-EVB-015', 'entry:reports/000001.json'],
      ['RPR-EVB-015', 'entry:reports/000002.json'],
      ['RPR-EVB-016', expect.stringMatching(/^entry:reports\/000000\.json#\/findings\/\d+$/)],
      ['RPR-EVB-019', 'entry:judgements/000000000000.json'],
    ]);
    expect(r.findings.at(-1)!.message).toMatch(/^a signed reject is in force: entry 0, by reviewer/);
    expect(r.authenticity?.statement).toMatch(
      /its 2 judgement\(s\) \(which bind 1 of 3 report\(s\) by digest; nothing signs case\.json\)/,
    );
    const carriedFinding = r.findings.find((x) => x.rule === 'RPR-EVB-016')!;
    expect(carriedFinding.message).toMatch(/^the bundled case's verdict is FAIL: RDS-F001 altered\.dump\.json: /);
    expect(carriedFinding.pointer).toMatch(/^entry:reports\/\d{6}\.json#\/findings\/\d+$/);
    const d = r.details as {
      integrity: { verdict: string };
      carried: { verdict: string; kind: string };
      caseBundle: { reports: { path: string; verdict: string }[] };
      judgements: { decision: string; proof: { verified: boolean } }[];
    };
    expect(d.integrity.verdict).toBe('pass');
    expect(d.carried).toMatchObject({ verdict: 'fail', kind: 'case' });
    expect(d.caseBundle.reports.map((x) => [x.path, x.verdict])).toEqual([
      ['altered.dump.json', 'fail'],
      ['intact.dump.json', 'pass'],
      ['trace.jsonl', 'pass'],
    ]);
    expect(d.judgements.map((j) => [j.decision, j.proof.verified])).toEqual([
      ['reject', true],
      ['note', true],
    ]);
    // Detected through the engine like any artifact.
    writeFileSync(join(base, 'case.zip'), bundle);
    const viaEngine = await runPath(join(base, 'case.zip'), 'verify', { trustStore: keys.trustPath });
    expect(viaEngine.artifact.kind).toBe('evidence-bundle');
    expect(viaEngine.verdict).toBe('fail');
  });

  it('holds a page of the case for a reader without Reprise: no script, every text escaped, rebuilt by verify', async () => {
    const f = await unzip(bundle);
    const page = f.find((x) => x.name === 'case.html')!.data.toString('utf8');
    const c = json(f, 'case.json') as unknown as CaseReport;
    expect(page).toMatch(/^<!doctype html>/);
    expect(page).not.toMatch(/<script|src=|href=|@import|url\(/i);
    expect(page).toContain('Case evidence bundle <span class="verdict fail">FAIL</span>');
    for (const [i, a] of c.artifacts.entries()) {
      expect(page).toContain(`<td>${a.path}</td>`);
      expect(page).toContain(`<code>reports/${String(i).padStart(6, '0')}.json</code>`);
      expect(page).toContain(a.reportDigest);
    }
    expect(page).toContain(`<h2>Timeline (${c.timeline.length})</h2>`);
    expect(page).toContain('The artifact was altered after the dump was signed.');
    expect(page).toContain('<h2>Judgements (2)</h2>');
    const m = json(f, 'reprise-evidence-bundle.json') as { case: { digest: string } };
    expect(page).toContain(m.case.digest);
    // How the case ran; a case report of the versions before `mode` (none) gives the page they wrote, without it.
    expect(c.mode).toBe('verify');
    expect(page).toContain('<dt>run</dt><dd>verified</dd>');
    const { mode: _mode, ...older } = c;
    const proofs = f.filter((x) => x.name.startsWith('judgements/')).map((x) => JSON.parse(x.data.toString('utf8')));
    const cp = json(f, 'checkpoint.json');
    expect(caseBundleHtml(older, m.case.digest, proofs as never, cp as never)).toBe(
      page.replace('<dt>run</dt><dd>verified</dd>', ''),
    );
    // A page that says something else, or none at all, fails under the page's rule.
    const edited = await unzip(bundle);
    const member = edited.find((x) => x.name === 'case.html')!;
    member.data = Buffer.from(page.replace('class="verdict fail">FAIL', 'class="verdict pass">PASS'), 'utf8');
    fixManifest(edited);
    expect(await rules(edited)).toEqual(['RPR-EVB-014']);
    const without = (await unzip(bundle)).filter((x) => x.name !== 'case.html');
    const mm = json(without, 'reprise-evidence-bundle.json');
    mm['members'] = (mm['members'] as { name: string }[]).filter((x) => x.name !== 'case.html');
    put(without, 'reprise-evidence-bundle.json', mm);
    fixManifest(without);
    expect(await rules(without)).toEqual(['RPR-EVB-014']);
  });

  it("escapes what the case's artifacts named, and lists at most PAGE_ROWS links and events", () => {
    const f = '<img src=x onerror=alert(1)>.json';
    const event = {
      atUtc: '2026-01-01T00:00:00Z',
      artifact: f,
      kind: 'replay-dump',
      node: null,
      pointer: '/a',
      label: '<b>',
      severity: 'info' as const,
    };
    const c: CaseReport = {
      schema: 'reprise.case/v1',
      verdict: 'pass',
      artifacts: [
        {
          path: f,
          kind: 'replay-dump',
          sha256: '',
          verdict: 'pass',
          id: null,
          reportDigest: 'sha256:00',
          counts: { fail: 0, unavailable: 0, warning: 0, info: 0 },
        },
      ],
      links: [],
      timeline: Array.from({ length: PAGE_ROWS + 2 }, () => event),
      judgements: [],
      findings: [],
    };
    const cp = { treeSize: 1, rootHash: 'sha256:11', timestampUtc: '2026-01-01T00:00:00Z', signer: '"x"' } as never;
    const page = caseBundleHtml(c, 'sha256:22', [], cp);
    expect(page).not.toContain('<img');
    expect(page).not.toContain('<b>');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;.json');
    expect(page).toContain('<h2>Timeline (1002)</h2>');
    expect(page.match(/<td>2026-01-01T00:00:00Z<\/td>/g)).toHaveLength(PAGE_ROWS);
    expect(page).toContain('<p>2 more in case.json.</p>');
  });

  it('is byte-identical for the same case and journal', async () => {
    expect((await exportCase()).bytes.equals(bundle)).toBe(true);
  });

  it('fails a member that is JSON null or not an object under its rule, never skipping it as already failed', async () => {
    // null was also what told the checks a finding had been made: a null case.json, report,
    // checkpoint or manifest was skipped without one, and the bundle read PASS.
    for (const [name, rule] of [
      ['case.json', 'RPR-EVB-017'],
      ['reports/000000.json', 'RPR-EVB-004'],
      ['checkpoint.json', 'RPR-EVB-005'],
      ['judgements/000000000000.json', 'RPR-EVB-006'],
      ['reprise-evidence-bundle.json', 'RPR-EVB-001'],
    ] as const)
      for (const v of [null, [], 'x', 1]) {
        const f = await unzip(bundle);
        put(f, name, v);
        if (name !== 'reprise-evidence-bundle.json') fixManifest(f);
        const r = await verifyEvidence(writeZip(f), keys.trust);
        expect(verdictOf(r.findings), `${name} = ${JSON.stringify(v)}`).toBe('fail');
        expect(r.findings.find((x) => x.pointer === `entry:${name}`)?.rule, `${name} = ${JSON.stringify(v)}`).toBe(
          rule,
        );
      }
    // A judgement that is an object but no proof: a finding, not an internal error drawing the page.
    const f = await unzip(bundle);
    put(f, 'judgements/000000000000.json', {});
    fixManifest(f);
    expect(await rules(f)).toContain('RPR-EVB-006');
  });

  it('fails when any member is tampered with, each under its rule', async () => {
    const cases: [string, (f: Files) => void, string][] = [
      ['case.json', (f) => put(f, 'case.json', { ...json(f, 'case.json'), verdict: 'pass' }), 'RPR-EVB-017'],
      [
        'a report',
        (f) => {
          const r = json(f, 'reports/000000.json');
          put(f, 'reports/000000.json', { ...r, findings: [], verdict: 'pass' });
        },
        'RPR-EVB-004',
      ],
      [
        'the checkpoint',
        (f) => put(f, 'checkpoint.json', { ...json(f, 'checkpoint.json'), timestampUtc: '2030-01-01T00:00:00Z' }),
        'RPR-EVB-005',
      ],
      [
        'a judgement',
        (f) => {
          const p = json(f, 'judgements/000000000000.json');
          put(f, 'judgements/000000000000.json', { ...p, entry: String(p['entry']).replace('altered', 'changed') });
        },
        'RPR-EVB-006',
      ],
      [
        'the manifest',
        (f) => {
          const m = json(f, 'reprise-evidence-bundle.json');
          put(f, 'reprise-evidence-bundle.json', { ...m, case: { ...(m['case'] as object), verdict: 'pass' } });
        },
        'RPR-EVB-017',
      ],
    ];
    for (const [what, tamper, rule] of cases) {
      const f = await unzip(bundle);
      tamper(f);
      if (what !== 'the manifest') fixManifest(f);
      expect(await rules(f), what).toContain(rule);
    }
    // A member changed without its digest, one dropped, one added.
    const changed = await unzip(bundle);
    changed.find((x) => x.name === 'reports/000002.json')!.data = Buffer.from('{}\n');
    expect(await rules(changed)).toContain('RPR-EVB-003');
    const dropped = (await unzip(bundle)).filter((x) => x.name !== 'judgements/000000000001.json');
    expect(await rules(dropped)).toContain('RPR-EVB-002');
    const added = await unzip(bundle);
    const extra = { name: 'reports/000009.json', data: Buffer.from('{}\n') };
    added.push(extra);
    fixManifest(added, (m) =>
      (m['members'] as unknown[]).push({ name: extra.name, sha256: hashBytes(extra.data), size: extra.data.length }),
    );
    expect(await rules(added)).toContain('RPR-EVB-002');
    // A manifest without one of its type's members (its list of reports, a report's path).
    for (const strip of [
      ({ reports: _dropped, ...m }: Record<string, unknown>) => m,
      (m: Record<string, unknown>) => ({ ...m, reports: [{ member: 'reports/000000.json' }] }),
      (m: Record<string, unknown>) => ({ ...m, members: [{ name: 'case.json' }] }),
    ]) {
      const f = await unzip(bundle);
      put(f, 'reprise-evidence-bundle.json', strip(json(f, 'reprise-evidence-bundle.json')));
      const r = await verifyEvidence(writeZip(f), keys.trust);
      const shape = r.findings.find((x) => x.rule === 'RPR-EVB-001');
      expect(shape?.message).toMatch(/is not a reprise\.case-bundle\/v1 manifest \(type, case, reports/);
    }
  });

  it('in a case of its own, names each artifact whose report it carries (bundled-report)', async () => {
    const again = join(base, 'case-again');
    mkdirSync(again);
    for (const f of ['intact.dump.json', 'altered.dump.json']) copyFileSync(join(dir, f), join(again, f));
    writeFileSync(join(again, 'case.zip'), bundle);
    const c = await runCase(again, { options: { trustStore: keys.trustPath } });
    const links = c.links.filter((l) => l.from.artifact === 'case.zip' && l.relation === 'bundled-report');
    expect(links.map((l) => [l.to.artifact, l.status])).toEqual([
      ['altered.dump.json', 'found'],
      ['intact.dump.json', 'found'],
      [null, 'missing'],
    ]);
    expect(c.timeline.filter((e) => e.artifact === 'case.zip').map((e) => e.label)).toContain(
      'bundled judgement: reject',
    );
  });

  it.skipIf(!cliBuilt())('the CLI: export DIR --journal J --out case.zip, then verify case.zip', async () => {
    const out = join(base, 'cli-case.zip');
    const e = await runCli(['export', dir, '--journal', journal, '--out', out, '--trust-store', options.trustStore]);
    expect(e.code, e.stderr).toBe(0);
    expect(e.stdout).toMatch(
      /case bundle .*\n {2}case sha256:[0-9a-f]{64}: FAIL, 3 artifact\(s\)\n {2}2 judgement\(s\)/,
    );
    const v = await runCli(['verify', out, '--trust-store', keys.trustPath, '--json']);
    expect(v.code).toBe(1);
    expect((JSON.parse(v.stdout) as { details: { integrity: { verdict: string } } }).details.integrity.verdict).toBe(
      'pass',
    );
    // Verified in two worker threads, the bundle is the same bytes.
    const threaded = join(base, 'cli-case-threads.zip');
    const t = await runCli([
      'export',
      dir,
      '--journal',
      journal,
      '--out',
      threaded,
      '--trust-store',
      options.trustStore,
      '--workers',
      '2',
    ]);
    expect(t.code, t.stderr).toBe(0);
    expect(readFileSync(threaded).equals(readFileSync(out))).toBe(true);
    const one = await runCli([
      'export',
      join(dir, 'intact.dump.json'),
      '--journal',
      journal,
      '--out',
      threaded,
      '--workers',
      '2',
    ]);
    expect(one.code).toBe(3);
    expect(one.stderr).toMatch(/--workers is for a case folder/);
    const inside = await runCli(['export', dir, '--journal', journal, '--out', join(dir, 'case.zip')]);
    expect(inside.code).toBe(3);
    expect(inside.stderr).toMatch(/inside the case folder/);
    const replay = await runCli(['export', dir, '--journal', journal, '--out', out, '--replay']);
    expect(replay.code).toBe(3);
  });

  it.skipIf(!cliBuilt())('the CLI refuses a journal that cannot prove judgements before the case runs', async () => {
    // The case is a folder that holds no file: had the case run first, its walk's refusal would be the one said.
    const empty = join(base, 'empty-case');
    mkdirSync(empty);
    const tampered = join(base, 'tampered-journal');
    mkdirSync(tampered);
    const lines = readFileSync(join(journal, 'entries.jsonl'), 'utf8').split('\n');
    lines[0] = lines[0]!.replace('"reject"', '"accept"');
    writeFileSync(join(tampered, 'entries.jsonl'), lines.join('\n'));
    for (const j of ['checkpoints.jsonl', 'checkpoint.json'])
      if (existsSync(join(journal, j))) copyFileSync(join(journal, j), join(tampered, j));
    const out = join(base, 'never.zip');
    for (const [j, said] of [
      [join(base, 'no-such-journal'), /^reprise: .*no-such-journal holds no journal entries\n$/],
      [tampered, /^reprise: journal .*tampered-journal does not verify \(RPR-JOURNAL-\d+: /],
    ] as const)
      for (const w of ['0', '2']) {
        const r = await runCli([
          'export',
          empty,
          '--journal',
          j,
          '--out',
          out,
          '--trust-store',
          options.trustStore,
          '--workers',
          w,
        ]);
        expect(r.code, r.stderr).toBe(3);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(said);
      }
    expect(existsSync(out)).toBe(false);
  });
});
