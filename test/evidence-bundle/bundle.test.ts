import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { parseTrustStore, trustStoreEntry } from '../../app/core/keys.js';
import { runBytes } from '../../app/engine/run.js';
import { recordJudgement, reportDigest } from '../../app/journal/index.js';
import { bundleFromJournal, verifyBundle, writeEvidenceBundle } from '../../app/kinds/evidence-bundle/index.js';
import { writeZip } from '../../app/zip/writer.js';
import { bundleOf, fixManifest, json, judged, put, unzip, type Files, type Judged } from './helpers.js';
import { withoutMainLandmark } from '../../shared/report-html.js';

/** The bundle's own failures: the fixture's report fails (RPR-EVB-016 says so, tested on its own below). */
async function rules(j: Judged, f: Files, trust = j.keys.trust): Promise<string[]> {
  const r = await verifyBundle(writeZip(f), trust);
  return r.findings.filter((x) => x.severity === 'fail' && x.rule !== 'RPR-EVB-016').map((x) => x.rule);
}

const proofName = (f: Files, i = 0) => f.filter((x) => x.name.startsWith('judgements/'))[i]!.name;

describe('evidence bundle', () => {
  it('round-trips: every judgement on the artifact, proven under the checkpoint, passes offline', async () => {
    const j = await judged();
    const bytes = await bundleOf(j);
    const f = await unzip(bytes);
    expect(f.map((x) => x.name)).toEqual([
      'reprise-evidence-bundle.json',
      'checkpoint.json',
      'judgements/000000000000.json',
      'judgements/000000000002.json',
      'report.html',
      'report.json',
    ]);
    const r = await verifyBundle(bytes, j.keys.trust);
    expect(r.findings.filter((x) => x.severity !== 'info').map((x) => x.rule)).toEqual(['RPR-EVB-016']);
    expect((r.details?.['judgements'] as unknown[]).length).toBe(2);
    // Detected by content through the engine, like any artifact.
    const rep = await runBytes('bundle.zip', bytes, 'verify', {});
    expect(rep.artifact.kind).toBe('evidence-bundle');
    // The report it carries fails; without a trust store the bundle itself is unavailable (its signers cannot be decided).
    expect(rep.verdict).toBe('fail');
    expect(rep.findings.map((x) => x.rule)).toContain('RPR-EVB-011');
    expect((rep.details as { integrity: { verdict: string } }).integrity.verdict).toBe('unavailable');
  });

  it('is byte-identical for the same inputs (whatever the report run times)', async () => {
    const j = await judged();
    const a = await bundleOf(j);
    const b = await bundleOf(j);
    expect(a.equals(b)).toBe(true);
    const later = { ...j.report, run: { ...j.report.run, startedAtUtc: '2030-01-01T00:00:00.000Z', durationMs: 999 } };
    expect((await bundleFromJournal(j.journal, later, j.keys.trust)).bytes.equals(a)).toBe(true);
  });

  it('the HTML page is self-contained, escaped and shows judgements', async () => {
    const j = await judged();
    const html = (await unzip(await bundleOf(j))).find((x) => x.name === 'report.html')!.data.toString('utf8');
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\//);
    expect(html).toContain('Judgements (2)');
    expect(html).toContain('This finding is expected');
    expect(html).toContain('/findings/0');
  });

  it('a member changed without its manifest digest fails RPR-EVB-003', async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    const m = f.find((x) => x.name === 'report.json')!;
    m.data = Buffer.from(m.data.toString('utf8').replace('"fail"', '"pass"'));
    expect(await rules(j, f)).toContain('RPR-EVB-003');
  });

  it("a report changed with a recomputed manifest fails on the judgements' signed digest (RPR-EVB-009) and the page (014)", async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    const report = json(f, 'report.json');
    report['verdict'] = 'pass';
    put(f, 'report.json', report);
    fixManifest(f, (m) => (m['reportDigest'] = reportDigest(report as never)));
    const r = await rules(j, f);
    expect(r).toContain('RPR-EVB-009');
    expect(r).toContain('RPR-EVB-014');
  });

  it('a proof whose audit path or index changed fails RPR-EVB-006', async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    const p = json(f, proofName(f));
    (p['auditPath'] as string[])[0] = 'sha256:' + '0'.repeat(64);
    put(f, proofName(f), p);
    fixManifest(f);
    expect(await rules(j, f)).toContain('RPR-EVB-006');
  });

  it('a changed checkpoint fails RPR-EVB-005 (signature) and RPR-EVB-006 (proofs not against it)', async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    const cp = json(f, 'checkpoint.json');
    cp['timestampUtc'] = '2026-11-02T09:31:00Z';
    put(f, 'checkpoint.json', cp);
    fixManifest(f);
    const r = await rules(j, f);
    expect(r).toContain('RPR-EVB-005');
    expect(r).toContain('RPR-EVB-006');
  });

  it('a judgement whose signature changed fails RPR-EVB-007', async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    const p = json(f, proofName(f));
    const e = JSON.parse(p['entry'] as string) as Record<string, unknown>;
    const other = await judged();
    const otherProof = json(await unzip(await bundleOf(other)), 'judgements/000000000000.json');
    e['sig'] = (JSON.parse(otherProof['entry'] as string) as { sig: string }).sig;
    p['entry'] = canonicalizeValue(e);
    put(f, proofName(f), p);
    fixManifest(f);
    expect(await rules(j, f)).toContain('RPR-EVB-007');
  });

  it('a signer whose key the trust store gives another role fails RPR-EVB-008', async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    const doc = {
      type: 'reprise.trust-store/v1',
      keys: [
        trustStoreEntry(j.keys.reviewer, 'trainer', 'now a trainer'),
        trustStoreEntry(j.keys.officer, 'quarantine-officer', 'officer'),
      ],
    };
    const trust = parseTrustStore(Buffer.from(JSON.stringify(doc)), 'roles.json');
    const r = await rules(j, f, trust);
    expect(r).toContain('RPR-EVB-008');
    expect(r).not.toContain('RPR-EVB-007');
  });

  it("a manifest without one of its type's members fails RPR-EVB-001, naming them", async () => {
    const j = await judged();
    for (const strip of [
      ({ checkpoint: _dropped, ...m }: Record<string, unknown>) => m,
      (m: Record<string, unknown>) => ({ ...m, reportDigest: 'not a digest' }),
      (m: Record<string, unknown>) => ({ ...m, members: [{ name: 'report.json', size: 1 }] }),
    ]) {
      const f = await unzip(await bundleOf(j));
      put(f, 'reprise-evidence-bundle.json', strip(json(f, 'reprise-evidence-bundle.json')));
      const r = await verifyBundle(writeZip(f), j.keys.trust);
      const shape = r.findings.find((x) => x.rule === 'RPR-EVB-001');
      expect(shape?.message).toMatch(/is not a reprise\.evidence-bundle\/v1 manifest \(type, artifact\.sha256/);
    }
  });

  it('a manifest that lists a member wrongly, or misses one, fails RPR-EVB-002 / 003', async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    const m = json(f, 'reprise-evidence-bundle.json');
    const members = m['members'] as { name: string; sha256: string }[];
    members[0]!.sha256 = 'sha256:' + 'a'.repeat(64);
    put(f, 'reprise-evidence-bundle.json', m);
    expect(await rules(j, f)).toContain('RPR-EVB-003');
    m['members'] = members.slice(1);
    put(f, 'reprise-evidence-bundle.json', m);
    expect(await rules(j, f)).toContain('RPR-EVB-002');
    // A member added to the archive and not listed.
    const g = await unzip(await bundleOf(j));
    g.push({ name: 'extra.txt', data: Buffer.from('x') });
    expect(await rules(j, g)).toContain('RPR-EVB-002');
  });

  it('a manifest member it does not define (001), a directory entry or members out of name order (002) fail', async () => {
    const j = await judged();
    const changes: ((f: Files) => Files)[] = [
      (f) => (put(f, 'reprise-evidence-bundle.json', { ...json(f, 'reprise-evidence-bundle.json'), x: 1 }), f),
      (f) => {
        const m = json(f, 'reprise-evidence-bundle.json');
        (m['artifact'] as Record<string, unknown>)['path'] = '/tmp/a';
        return (put(f, 'reprise-evidence-bundle.json', m), f);
      },
      (f) => [f[0]!, { name: 'judgements/', data: Buffer.alloc(0) }, ...f.slice(1)],
      (f) => [f[0]!, ...f.slice(1).reverse()],
    ];
    for (const [i, change] of changes.entries())
      expect(await rules(j, change(await unzip(await bundleOf(j)))), String(i)).toContain(
        i < 2 ? 'RPR-EVB-001' : 'RPR-EVB-002',
      );
  });

  it('a report that is not one as report.schema.json says fails RPR-EVB-004 naming the member, never a crash', async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    put(f, 'report.json', { ...json(f, 'report.json'), findings: [null] });
    fixManifest(f);
    const r = await verifyBundle(writeZip(f), j.keys.trust);
    expect(r.findings.find((x) => x.rule === 'RPR-EVB-004')?.message).toMatch(/\/findings\/0 must be a JSON object/);
  });

  it("a report of another artifact than the manifest's (its kind or id) fails RPR-EVB-004", async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    const m = json(f, 'reprise-evidence-bundle.json');
    (m['artifact'] as Record<string, unknown>)['kind'] = 'replay-dump';
    put(f, 'reprise-evidence-bundle.json', m);
    const r = await verifyBundle(writeZip(f), j.keys.trust);
    expect(r.findings.find((x) => x.rule === 'RPR-EVB-004')?.pointer).toBe('entry:report.json#/artifact/kind');
  });

  it('a dropped judgement is a dropped member (RPR-EVB-002), and a judgement on another artifact fails RPR-EVB-010', async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    expect(
      await rules(
        j,
        f.filter((x) => x.name !== proofName(f, 1)),
      ),
    ).toContain('RPR-EVB-002');
    const m = json(f, 'reprise-evidence-bundle.json');
    (m['artifact'] as Record<string, unknown>)['sha256'] = 'sha256:' + 'b'.repeat(64);
    put(f, 'reprise-evidence-bundle.json', m);
    expect(await rules(j, f)).toContain('RPR-EVB-010');
  });

  it('an edited HTML page with a recomputed manifest fails RPR-EVB-014', async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    const h = f.find((x) => x.name === 'report.html')!;
    h.data = Buffer.from(h.data.toString('utf8').replace('FAIL', 'PASS'));
    fixManifest(f);
    expect(await rules(j, f)).toEqual(['RPR-EVB-014']);
  });

  it('a page as the versions before its main landmark wrote it still verifies; edited, it fails', async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    const h = f.find((x) => x.name === 'report.html')!;
    h.data = Buffer.from(withoutMainLandmark(h.data.toString('utf8')));
    expect(h.data.toString('utf8')).not.toContain('<main>');
    fixManifest(f);
    expect(await rules(j, f)).toEqual([]);
    h.data = Buffer.from(h.data.toString('utf8').replace('FAIL', 'PASS'));
    fixManifest(f);
    expect(await rules(j, f)).toEqual(['RPR-EVB-014']);
  });

  it('a proof member that is not JSON is a finding of its own, never a thrown error', async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    f.find((x) => x.name === proofName(f))!.data = Buffer.from('not json\n');
    fixManifest(f);
    const failed = await rules(j, f);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed).not.toContain('RPR-EVB-014');
  });

  it('export refuses a judgement made on another report of the artifact', async () => {
    const j = await judged();
    const other = await runBytes(j.artifactPath, Buffer.from('{"hello": "world"}\n'), 'replay', {});
    await recordJudgement(
      j.journal,
      { report: other, pointer: '', decision: 'reject', rationale: 'The replay report says nothing more than this.' },
      j.keys.reviewer,
      j.keys.trust,
      { fsync: false },
    );
    await expect(bundleFromJournal(j.journal, j.report, j.keys.trust)).rejects.toThrow(/another report/);
    const b = await bundleFromJournal(j.journal, other, j.keys.trust).catch((e: Error) => e);
    expect(b).toBeInstanceOf(Error);
  });

  it('a bundle without judgements passes but says nothing binds the report (RPR-EVB-015)', async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    const cp = json(f, 'checkpoint.json');
    const bytes = writeEvidenceBundle({ report: json(f, 'report.json') as never, proofs: [], checkpoint: cp as never });
    const r = await verifyBundle(bytes, j.keys.trust);
    expect(r.findings.filter((x) => x.severity === 'fail').map((x) => x.rule)).toEqual(['RPR-EVB-016']);
    expect(r.findings.map((x) => x.rule)).toContain('RPR-EVB-015');
    // The checkpoint is trusted, but it signs nothing the bundle says about the report.
    expect(r.authenticity?.status).toBe('consistency-only');
    expect(r.authenticity?.statement).toMatch(/no judgement in the bundle names the report's digest/);
    // With its judgement, the same report is bound: trusted.
    expect((await verifyBundle(await bundleOf(j), j.keys.trust)).authenticity?.status).toBe('trusted-signer');
  });

  it('anything other than a clean archive is refused by the strict reader', async () => {
    const j = await judged();
    const bytes = await bundleOf(j);
    const cut = bytes.subarray(0, bytes.length - 10);
    const r = await verifyBundle(Buffer.from(cut), j.keys.trust);
    expect(r.findings.some((x) => x.severity === 'fail' && x.rule.startsWith('RPR-ZIP-'))).toBe(true);
    writeFileSync(join(j.dir, 'cut.zip'), cut);
  });

  it('an intact bundle carrying a failing report fails (RPR-EVB-016) and keeps the two verdicts apart in its details', async () => {
    const j = await judged();
    const r = await verifyBundle(await bundleOf(j), j.keys.trust);
    const carried = r.findings.filter((x) => x.rule === 'RPR-EVB-016');
    expect(carried).toHaveLength(1);
    expect(carried[0]).toMatchObject({ severity: 'fail', pointer: 'entry:report.json#/findings/0' });
    expect(carried[0]!.message).toMatch(/^the bundled report's verdict is FAIL: RPR-KIND-001 /);
    const d = r.details as Record<string, unknown> & {
      integrity: { verdict: string };
      carried: { verdict: string; decisive: { rule: string; index: number } };
      judgements: { decision: string; rationale: string; entryHash: string; proof: Record<string, unknown> }[];
    };
    expect(d.integrity.verdict).toBe('pass');
    expect(d.carried).toMatchObject({ verdict: 'fail', kind: 'unknown', decisive: { rule: 'RPR-KIND-001', index: 0 } });
    expect(d.judgements.map((x) => x.decision)).toEqual(['accept', 'note']);
    expect(d.judgements[0]!.rationale).toBe('The report was read in full and agrees with the file.');
    expect(d.judgements[0]!.entryHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(d.judgements[0]!.proof).toMatchObject({ leafIndex: 0, treeSize: 3, verified: true, problems: [] });
    // Without a trust store nothing is proven: the proof is not shown as verified.
    const bare = await verifyBundle(await bundleOf(j), null);
    const bj = (bare.details as typeof d).judgements[0]!.proof;
    expect(bj['verified']).toBe(false);
  });

  it("a damaged judgement's proof is shown unverified with its problem, and integrity fails", async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    const name = proofName(f);
    const p = json(f, name);
    p['auditPath'] = [`sha256:${'0'.repeat(64)}`, ...(p['auditPath'] as string[]).slice(1)];
    put(f, name, p);
    fixManifest(f);
    const r = await verifyBundle(writeZip(f), j.keys.trust);
    const d = r.details as {
      integrity: { verdict: string };
      judgements: { proof: { verified: boolean; problems: string[] } }[];
    };
    expect(d.integrity.verdict).toBe('fail');
    expect(d.judgements[0]!.proof.verified).toBe(false);
    expect(d.judgements[0]!.proof.problems.join('\n')).toMatch(/RPR-EVB-006/);
  });

  it('a bundle carrying a passing report passes, with no RPR-EVB-016', async () => {
    const j = await judged((r) => ({
      ...r,
      verdict: 'pass',
      findings: r.findings.map((f) => ({ ...f, severity: 'info' as const })),
    }));
    const r = await verifyBundle(await bundleOf(j), j.keys.trust);
    expect(r.findings.filter((x) => x.severity !== 'info')).toEqual([]);
    expect((r.details as { carried: { verdict: string; decisive: unknown } }).carried).toMatchObject({
      verdict: 'pass',
      decisive: null,
    });
  });

  it('a report whose verdict word was edited to PASS (manifest recomputed) fails RPR-EVB-004', async () => {
    const j = await judged();
    const f = await unzip(await bundleOf(j));
    const rep = json(f, 'report.json');
    rep['verdict'] = 'pass';
    put(f, 'report.json', rep);
    fixManifest(f, (m) => (m['reportDigest'] = reportDigest(rep as never)));
    const got = await rules(j, f);
    expect(got).toContain('RPR-EVB-004');
    const r = await verifyBundle(writeZip(f), j.keys.trust);
    expect(r.findings.find((x) => x.rule === 'RPR-EVB-004')?.pointer).toBe('entry:report.json#/verdict');
  });
});
