/**
 * `reprise export PATH --report FILE` bundles a saved report only when the report kind's
 * checks (`verify FILE --artifact PATH`) find it well-formed, its verdict the one its
 * findings make, and no better than the artifact gives again: a report edited before export
 * (its failing findings removed and its verdict made PASS, or only its verdict flipped, or
 * malformed) is refused in one line, never laundered into a bundle that verifies PASS (it
 * did, exit 0) or one its own verifier fails; a report that honestly FAILS is bundled, and
 * its bundle FAILS. A TG replay that anchored its drift as it ran, which a second replay
 * does not give byte for byte, is bundled: that is what `--report` is for.
 */
import { copyFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeExamples } from '../../app/examples/index.js';
import { appendEntry } from '../../app/journal/index.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { makeKeys, tmp } from '../journal/helpers.js';

const base = tmp('reprise-export-report-');
const art = join(base, 'a-fail.dump.json');
const journal = join(base, 'J');
let trust: string;
let honest: Record<string, unknown> & { findings: { severity: string }[] };

beforeAll(async () => {
  const ex = join(base, 'ex');
  await writeExamples(ex);
  copyFileSync(join(ex, 'dumps/fail/bad-signature.dump.json'), art);
  const keys = makeKeys(base);
  // One store for the dump's signer and the journal's.
  const dumps = JSON.parse(readFileSync(join(ex, 'dumps/trust-store.json'), 'utf8')) as { keys: unknown[] };
  const mine = JSON.parse(readFileSync(keys.trustPath, 'utf8')) as { keys: unknown[] };
  trust = join(base, 'trust.json');
  writeFileSync(trust, JSON.stringify({ ...mine, keys: [...mine.keys, ...dumps.keys] }));
  await appendEntry(journal, { kind: 'replay-drift', subject: { claimRef: 'c1' }, body: { x: 1 } }, keys.reviewer, {
    fsync: false,
  });
  const r = await runCli(['verify', art, '--trust-store', trust, '--json']);
  expect(r.code).toBe(1);
  honest = JSON.parse(r.stdout) as typeof honest;
}, 60_000);

async function exported(name: string, report: unknown) {
  const file = join(base, `${name}.json`);
  writeFileSync(file, JSON.stringify(report));
  const out = join(base, `${name}.zip`);
  const r = await runCli(['export', art, '--report', file, '--journal', journal, '--out', out, '--trust-store', trust]);
  return { ...r, out, file };
}

describe.skipIf(!cliBuilt())('export --report', () => {
  it('refuses a report whose failing findings were removed and verdict made PASS: the artifact gives FAIL again', async () => {
    const forged = { ...honest, verdict: 'pass', findings: honest.findings.filter((f) => f.severity !== 'fail') };
    const r = await exported('forged', forged);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^reprise: --report .* is not a report .* gives: its verdict is PASS, the artifact gives FAIL again/,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses a flipped verdict (RPR-RPT-002) and a malformed report (RPR-RPT-001) in words, never an internal error', async () => {
    const flipped = await exported('flipped', { ...honest, verdict: 'pass' });
    expect(flipped.code).toBe(3);
    expect(flipped.stderr).toContain('RPR-RPT-002');
    const bad = await exported('malformed', { ...honest, findings: 'zz' });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('RPR-RPT-001');
    expect(bad.stderr).not.toContain('internal error');
  });

  it('bundles the report as the artifact gives it, FAIL and all, and the bundle FAILS', async () => {
    const r = await exported('honest', honest);
    expect(r.code, r.stderr).toBe(0);
    const v = await runCli(['verify', r.out, '--trust-store', trust, '--json']);
    expect(v.code).toBe(1);
    const got = JSON.parse(v.stdout) as { verdict: string; details: { integrity: { statement: string } } };
    expect(got.verdict).toBe('fail');
    // It carries no judgement: its integrity says so, never that judgements' proofs checked.
    expect(got.details.integrity.statement).toContain('it carries no judgement, so nothing signed binds its report');
    expect(readFileSync(r.file, 'utf8')).toContain('"verdict":"fail"');
  });

  it('bundles a TG replay report that anchored its drift in the journal as it ran (a second replay differs)', async () => {
    const ex = join(base, 'ex');
    const keys = makeKeys(tmp('reprise-export-tg-'));
    const store = JSON.parse(readFileSync(keys.trustPath, 'utf8')) as { keys: unknown[] };
    const tg = JSON.parse(readFileSync(join(ex, 'tg/trust-store.json'), 'utf8')) as { keys: unknown[] };
    const ts = join(base, 'tg-trust.json');
    writeFileSync(ts, JSON.stringify({ ...store, keys: [...store.keys, ...tg.keys] }));
    const j = join(base, 'tg-journal');
    cpSync(join(ex, 'tg/journal'), j, { recursive: true });
    const manifest = join(ex, 'tg/banded-drift-material/manifest.json');
    const key = keys.reviewerPem;
    const rep = await runCli(['replay', manifest, '--journal', j, '--key', key, '--trust-store', ts, '--json']);
    expect(rep.code).toBe(1);
    const file = join(base, 'tg-report.json');
    writeFileSync(file, rep.stdout);
    const again = await runCli(['verify', file, '--artifact', manifest, '--journal', j, '--trust-store', ts]);
    expect(again.stdout).toContain('RPR-RPT-005');
    const out = join(base, 'tg.zip');
    const e = await runCli(['export', manifest, '--report', file, '--journal', j, '--out', out, '--trust-store', ts]);
    expect(e.code, e.stderr).toBe(0);
  });
});
