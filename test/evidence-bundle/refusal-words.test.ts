/**
 * Words of two refusals found misleading by a red team: RPR-EVB-019 said a reject's "proof did
 * not verify" when its proof verified and another check failed (it now names the check), and
 * export's `--out` refusal called the --journal folder a file.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { recordJudgement, reportDigest } from '../../app/journal/index.js';
import { verifyEvidence } from '../../app/kinds/evidence-bundle/index.js';
import { optionReads, refuseWritesOn } from '../../app/cli/commands/outputs-on-inputs.js';
import { writeZip } from '../../app/zip/writer.js';
import { tmp } from '../journal/helpers.js';
import { bundleOf, fixManifest, json, judged, put, unzip, type Judged } from './helpers.js';

let j: Judged;

beforeAll(async () => {
  j = await judged();
  await recordJudgement(
    j.journal,
    { report: j.report, pointer: '', decision: 'reject', rationale: 'The file is no artifact: rejected.' },
    j.keys.reviewer,
    j.keys.trust,
    { fsync: false },
  );
}, 60_000);

describe('RPR-EVB-019 says why a reject in force does not verify', () => {
  it('a reject naming another report than the bundle holds: RPR-EVB-009, not "its proof did not verify"', async () => {
    const f = await unzip(await bundleOf(j));
    const report = json(f, 'report.json');
    (report['findings'] as { message: string }[])[0]!.message = 'edited after the judgements';
    put(f, 'report.json', report);
    fixManifest(f, (m) => (m['reportDigest'] = reportDigest(report as never)));
    const r = await verifyEvidence(writeZip(f), j.keys.trust);
    const reject = r.findings.find((x) => x.rule === 'RPR-EVB-019')!;
    expect(reject.message).not.toContain('its proof did not verify');
    expect(reject.message).toContain(
      '(it fails RPR-EVB-009: the judgement names another report than the bundle holds)',
    );
  });

  it('without a trust store it says nothing was checked', async () => {
    const r = await verifyEvidence(await bundleOf(j), null);
    const reject = r.findings.find((x) => x.rule === 'RPR-EVB-019')!;
    expect(reject.message).toContain('(not checked: no trust store was given)');
    // Verified, it says nothing of its checks.
    const ok = (await verifyEvidence(await bundleOf(j), j.keys.trust)).findings.find((x) => x.rule === 'RPR-EVB-019')!;
    expect(ok.message).toMatch(/on sha256:[0-9a-f]{64}: “The file is no artifact: rejected\.”$/);
  });
});

describe("export's --out refusal names a folder a folder", () => {
  it('--out inside the --journal folder', async () => {
    const dir = tmp('reprise-evb-outwords-');
    const journal = join(dir, 'J');
    mkdirSync(journal);
    const out = join(journal, 'entries.jsonl');
    const refused = refuseWritesOn([['--out', out]], optionReads({ journal }));
    await expect(refused).rejects.toThrow(`--out ${out} is inside ${journal}, the --journal folder;`);
  });
});
