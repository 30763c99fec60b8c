/**
 * The exported-report kind (docs/report-kind.md): detected by content, its form checked,
 * its verdict word held to its findings, and with --artifact the artifact's hash and the
 * report made again (verify, or replay for a replay report) compared without run and path.
 * A failing report never verifies as PASS (RPR-RPT-006).
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { runCase } from '../../app/jobs/case.js';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runPath } from '../../app/engine/run.js';
import { runCli } from '../../app/cli/main.js';
import { buildExamples, writeExamples } from '../../app/examples/index.js';
import type { Report } from '../../shared/report.js';
import { makeKeys, tmp } from '../journal/helpers.js';
import { appendEntry, reportDigest } from '../../app/journal/index.js';

let ex = '';
let out = '';
const trustStore = () => join(ex, 'dumps', 'trust-store.json');
const rules = (r: Report) => r.findings.map((f) => f.rule);

/** Writes `report` as `reprise verify --json` would, and verifies that file with `options`. */
async function check(name: string, report: unknown, options: Record<string, string> = {}): Promise<Report> {
  const p = join(out, name);
  writeFileSync(p, JSON.stringify(report, null, 2) + '\n');
  return runPath(p, 'verify', options);
}

beforeAll(async () => {
  ex = tmp('reprise-rpt-');
  out = tmp('reprise-rpt-out-');
  await writeExamples(ex);
}, 120_000);

describe('an exported report', () => {
  it('of a passing dump, with its artifact and options: PASS, made again by verify', async () => {
    const art = join(ex, 'dumps', 'intact.dump.json');
    const rep = await runPath(art, 'verify', { trustStore: trustStore() });
    expect(rep.verdict).toBe('pass');
    const r = await check('pass.json', rep, { artifact: art, trustStore: trustStore() });
    expect(r.artifact.kind).toBe('reprise-report');
    expect(r.artifact.id).toBe(rep.artifact.sha256);
    expect(r.verdict).toBe('pass');
    expect(rules(r)).toEqual(['RPR-RPT-000']);
    expect(r.details?.['rerun']).toMatchObject({ mode: 'verify', total: 0 });
    expect(r.details?.['integrity']).toMatchObject({ verdict: 'pass' });
    expect(r.chain.map((n) => [n.id, n.status])).toEqual([
      ['report', 'match'],
      ['artifact', 'match'],
      ['reverified', 'match'],
    ]);
  });

  it('a report of a report edited to PASS beside the integrity FAIL it carries: RPR-RPT-002', async () => {
    const rep = await runPath(join(ex, 'dumps', 'intact.dump.json'), 'verify', { trustStore: trustStore() });
    const inner = await check('inner-edited.json', { ...rep, verdict: 'fail' });
    expect(inner.details?.['integrity']).toMatchObject({ verdict: 'fail' });
    const edited = { ...inner, verdict: 'pass', findings: [] };
    const r = await check('outer-edited.json', edited);
    const f = r.findings.find((x) => x.rule === 'RPR-RPT-002');
    expect(f).toMatchObject({ pointer: '/details/integrity/verdict', expected: 'fail', actual: 'pass' });
    expect(r.verdict).toBe('fail');
  });

  it('not strict JSON: RPR-RPT-001 says why the parse refused it, not a guess', async () => {
    const rep = await runPath(join(ex, 'dumps', 'intact.dump.json'), 'verify', { trustStore: trustStore() });
    const text = JSON.stringify(rep);
    const cases: [string, string, RegExp][] = [
      ['dup.json', text.replace('{', '{"verdict":"fail",'), /ERR_DUPLICATE_KEY: duplicate member name "verdict"/],
      ['surrogate.json', text.replace('"details":{', '"details":{"x":"\\ud800",'), /ERR_LONE_SURROGATE/],
      ['big.json', text.replace('"details":{', '"details":{"x":1e400,'), /ERR_NONFINITE: the number 1e400/],
    ];
    for (const [name, body, why] of cases) {
      const p = join(out, name);
      writeFileSync(p, body);
      const r = await runPath(p, 'verify', {});
      const f = r.findings.find((x) => x.rule === 'RPR-RPT-001');
      expect(f?.message, name).toMatch(why);
      expect(f?.message, name).not.toContain('a duplicate member?');
      expect(r.verdict).toBe('fail');
    }
  });

  it('made with other options than given: RPR-RPT-005 names the differences', async () => {
    const art = join(ex, 'dumps', 'intact.dump.json');
    const rep = await runPath(art, 'verify', { trustStore: trustStore() });
    const r = await check('options.json', rep, { artifact: art });
    expect(r.verdict).toBe('fail');
    const f = r.findings.find((x) => x.rule === 'RPR-RPT-005')!;
    expect(f.message).toMatch(/gives another report: \d+ difference\(s\), first /);
    expect(f.message).toContain('--trust-store');
    expect((r.details?.['rerun'] as { total: number }).total).toBeGreaterThan(0);
  });

  it('of a failing dump, intact: FAIL through RPR-RPT-006, its own checks PASS', async () => {
    const art = join(ex, 'dumps', 'fail', 'altered-artifact.dump.json');
    const rep = await runPath(art, 'verify', { trustStore: trustStore() });
    const r = await check('fail.json', rep, { artifact: art, trustStore: trustStore() });
    expect(r.verdict).toBe('fail');
    expect(rules(r)).toEqual(['RPR-RPT-000', 'RPR-RPT-006']);
    expect(r.findings.find((f) => f.rule === 'RPR-RPT-006')!.pointer).toBe(
      `/findings/${rep.findings.findIndex((f) => f.severity === 'fail')}`,
    );
    expect(r.details?.['integrity']).toMatchObject({ verdict: 'pass' });
    expect(r.details?.['carried']).toMatchObject({ verdict: 'fail', kind: 'replay-dump' });
  });

  it('of a replay: made again by replay when verify gives another report', async () => {
    const art = join(ex, 'tg', 'exact-intact', 'manifest.json');
    const rep = await runPath(art, 'replay', {});
    const r = await check('replay.json', rep, { artifact: art });
    expect(r.details?.['rerun']).toMatchObject({ mode: 'replay' });
    expect(rules(r)).not.toContain('RPR-RPT-005');
  });

  it('of a replay, edited: RPR-RPT-005 names the edit and the digest of the replay, not of a verification', async () => {
    const art = join(ex, 'dumps', 'whatif', 'drift.dump.json');
    const options = { providers: join(ex, 'dumps', 'providers.json'), trustStore: trustStore() };
    const rep = await runPath(art, 'replay', options);
    const edited = { ...rep, comparisons: rep.comparisons!.map((c, i) => (i === 0 ? { ...c, reason: 'edited' } : c)) };
    const r = await check('replay-edited.json', edited, { artifact: art, ...options });
    expect(r.verdict).toBe('fail');
    const f = r.findings.find((x) => x.rule === 'RPR-RPT-005')!;
    expect(f.message).toMatch(
      /^replaying the artifact again gives another report: 1 difference\(s\), first \S+ \/comparisons\/0\/reason /,
    );
    expect(f).toMatchObject({ pointer: '/comparisons/0/reason', actual: reportDigest(rep) });
    expect(r.details?.['rerun']).toMatchObject({ mode: null, against: 'replay', total: 1, digest: reportDigest(rep) });
    expect(r.chain.find((n) => n.id === 'reverified')).toMatchObject({ label: 'the report made again (replay)' });
  });

  it('of a verification holding comparisons (ACGP), edited: the differences are those of the verification', async () => {
    const art = join(ex, 'acgp', 'seed-eval.json');
    const rep = await runPath(art, 'verify', {});
    const edited = { ...rep, comparisons: rep.comparisons!.map((c, i) => (i === 0 ? { ...c, reason: 'edited' } : c)) };
    const r = await check('acgp-edited.json', edited, { artifact: art });
    expect(r.details?.['rerun']).toMatchObject({ against: 'verify', total: 1, digest: reportDigest(rep) });
  });

  it('with another artifact: RPR-RPT-004, and nothing is run again', async () => {
    const rep = await runPath(join(ex, 'dumps', 'intact.dump.json'), 'verify', {});
    const r = await check('other.json', rep, { artifact: join(ex, 'unknown', 'not-an-artifact.json') });
    expect(rules(r)).toContain('RPR-RPT-004');
    expect(r.details?.['rerun']).toBeNull();
    expect(r.chain.find((n) => n.id === 'artifact')?.status).toBe('mismatch');
  });

  it('without --artifact: undecided (never a PASS), as nothing ties it to its bytes', async () => {
    const rep = await runPath(join(ex, 'dumps', 'intact.dump.json'), 'verify', { trustStore: trustStore() });
    const r = await check('alone.json', rep);
    expect(r.verdict).toBe('unavailable');
    expect(r.findings.find((f) => f.rule === 'RPR-RPT-003')?.severity).toBe('unavailable');
    // A consistent edit of a failing report (its failing findings removed with its verdict) is no PASS either.
    const failing = await runPath(join(ex, 'dumps', 'fail', 'altered-artifact.dump.json'), 'verify', {
      trustStore: trustStore(),
    });
    const cleaned = { ...failing, verdict: 'pass', findings: failing.findings.filter((f) => f.severity !== 'fail') };
    expect((await check('cleaned-alone.json', cleaned)).verdict).toBe('unavailable');
  });

  it('edited: a verdict word, a finding removed after export, a member unknown, duplicate members', async () => {
    const art = join(ex, 'dumps', 'fail', 'altered-artifact.dump.json');
    const rep = await runPath(art, 'verify', { trustStore: trustStore() });
    const word = await check('word.json', { ...rep, verdict: 'pass' });
    expect(rules(word)).toContain('RPR-RPT-002');
    expect(word.verdict).toBe('fail');
    // A consistent edit (the failing findings removed) passes the form, and the artifact gives it away.
    const cleaned = { ...rep, verdict: 'pass', findings: rep.findings.filter((f) => f.severity !== 'fail') };
    const c = await check('cleaned.json', cleaned, { artifact: art, trustStore: trustStore() });
    expect(rules(c)).toContain('RPR-RPT-005');
    expect(c.verdict).toBe('fail');
    const extra = await check('extra.json', { ...rep, note: 'added' });
    expect(extra.findings.find((f) => f.rule === 'RPR-RPT-001')).toMatchObject({ pointer: '/note' });
    const p = join(out, 'dup.json');
    writeFileSync(p, JSON.stringify(rep).replace('{"schema":', '{"verdict":"pass","schema":'));
    expect(rules(await runPath(p, 'verify', {}))).toContain('RPR-RPT-001');
  });

  it('every reports/ example gives the verdict and rule it was made for', async () => {
    const files = (await buildExamples()).filter((f) => f.path.startsWith('reports/'));
    expect(files.length).toBe(4);
    for (const f of files) {
      const options = Object.fromEntries(Object.entries(f.options ?? {}).map(([k, v]) => [k, join(ex, v)]));
      const r = await runPath(join(ex, f.path), 'verify', options);
      expect(r.artifact.kind, f.path).toBe('reprise-report');
      expect(r.verdict, f.path).toBe(f.expect!.verdict);
      expect(rules(r), f.path).toContain(f.expect!.rule);
    }
    // One finding per problem: the missing chain is not reported again as "not an array".
    const noChain = await runPath(join(ex, 'reports', 'no-chain.report.json'), 'verify', {});
    expect(noChain.findings.filter((x) => x.rule === 'RPR-RPT-001').map((x) => x.message)).toEqual([
      'the report has no member "chain"',
    ]);
  });

  it('in a case, links to the artifact it is about by its SHA-256 (relation reported)', async () => {
    const dir = tmp('reprise-rpt-case-');
    const art = join(dir, 'intact.dump.json');
    writeFileSync(art, readFileSync(join(ex, 'dumps', 'intact.dump.json')));
    const rep = await runPath(art, 'verify', { trustStore: trustStore() });
    writeFileSync(join(dir, 'exported.json'), JSON.stringify(rep));
    const c = await runCase(dir, { options: { trustStore: trustStore() } });
    expect(c.artifacts.map((a) => [a.path, a.kind])).toEqual([
      ['exported.json', 'reprise-report'],
      ['intact.dump.json', 'replay-dump'],
    ]);
    const link = c.links.find((l) => l.relation === 'reported');
    expect(link).toMatchObject({
      from: { artifact: 'exported.json', pointer: '/artifact/sha256' },
      to: { artifact: 'intact.dump.json' },
      status: 'found',
    });
    expect(
      c.timeline.some(
        (e) => e.artifact === 'exported.json' && e.label === 'report made, as its run says (not covered by its digest)',
      ),
    ).toBe(true);
  });

  it('is made again read-only: a TG replay given --journal and --key anchors nothing', async () => {
    const art = join(ex, 'tg', 'banded-drift-material', 'manifest.json');
    const rep = await runPath(art, 'replay', {});
    const base = tmp('reprise-rpt-journal-');
    const keys = makeKeys(base);
    const journal = join(base, 'journal');
    await appendEntry(
      journal,
      { kind: 'replay-comparison', subject: { claimRef: 'c' }, body: { n: 1 } },
      keys.reviewer,
    );
    const before = readFileSync(join(journal, 'entries.jsonl'));
    await check('anchored.json', rep, { artifact: art, journal, key: keys.reviewerPem });
    expect(readFileSync(join(journal, 'entries.jsonl')).equals(before)).toBe(true);
  });
});

/** `reprise ARGS` in this process: its exit code and stderr. */
async function cli(...args: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const streams = { out: () => undefined, err: (t: string) => void (err += t), stderrIsTTY: false, cwd: out };
  return { code: await runCli(args, streams), err };
}

describe('--artifact on the command line', () => {
  it('for one file that is no exported report: refused in one line (exit 3), not ignored', async () => {
    const dump = join(ex, 'dumps', 'intact.dump.json');
    const other = join(ex, 'unknown', 'not-an-artifact.json');
    expect(await cli('verify', dump, '--artifact', other)).toEqual({
      code: 3,
      err: `reprise: --artifact applies to exported reports; ${dump} is of kind replay-dump\n`,
    });
    const journal = join(ex, 'journal', 'sample');
    expect(await cli('verify', journal, '--artifact', other)).toMatchObject({
      code: 3,
      err: `reprise: --artifact applies to exported reports; ${journal} is of kind journal\n`,
    });
  });

  it('in a folder, checks the reports among its files and leaves the rest as they are', async () => {
    const dir = join(out, 'folder');
    mkdirSync(dir, { recursive: true });
    const art = join(dir, 'intact.dump.json');
    copyFileSync(join(ex, 'dumps', 'intact.dump.json'), art);
    writeFileSync(join(dir, 'report.json'), JSON.stringify(await runPath(art, 'verify', { trustStore: trustStore() })));
    const r = await cli('verify', dir, '--artifact', art, '--trust-store', trustStore());
    expect(r).toEqual({ code: 0, err: '' });
  });

  it('a path that cannot be read is bad usage before anything is checked (exit 3), as for every file flag', async () => {
    const missing = join(out, 'missing.json');
    expect(await cli('verify', join(ex, 'reports', 'well-formed.report.json'), '--artifact', missing)).toEqual({
      code: 3,
      err: `reprise: cannot read --artifact ${missing}: ENOENT\n`,
    });
  });
});
