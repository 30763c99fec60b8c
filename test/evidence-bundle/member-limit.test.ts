/**
 * An export never writes a bundle its own verifier refuses (docs/evidence-bundle.md, "How
 * many members"): a bundle is read with a member limit of its own (limits.ts), since a case
 * bundle holds a report per artifact, and the export refuses a bundle over the limit the
 * verifier would read it with. The boundary is tested with `--limit maxEntries=N` on a
 * small case, which runs the same code as the default on a large one.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCase } from '../../app/jobs/case.js';
import { openCaseBundle, verifyEvidence } from '../../app/kinds/evidence-bundle/index.js';
import { bundleFromJournal } from '../../app/kinds/evidence-bundle/write.js';
import { BUNDLE_MAX_ENTRIES } from '../../app/kinds/evidence-bundle/limits.js';
import { writeZip } from '../../app/zip/writer.js';
import type { Report } from '../../shared/report.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { ARTIFACT, judged, unzip, type Judged } from './helpers.js';

let j: Judged;
let caseDir = '';
/** The case bundle's members: the manifest, case.json, case.html, the checkpoint, 3 reports, 2 judgements. */
const MEMBERS = 9;

beforeAll(async () => {
  j = await judged();
  caseDir = join(j.dir, 'case');
  mkdirSync(caseDir);
  writeFileSync(join(caseDir, 'artifact.json'), ARTIFACT);
  writeFileSync(join(caseDir, 'b.json'), '{"b": 1}\n');
  writeFileSync(join(caseDir, 'c.json'), '{"c": 1}\n');
}, 60_000);

const ruleIds = (r: { findings: { rule: string }[] }) => r.findings.map((f) => f.rule);

async function caseBundle(limits?: Record<string, number>): Promise<Buffer> {
  const reports = new Map<string, Report>();
  const c = await runCase(caseDir, {
    onArtifact: (o) => o.ok && o.report && reports.set(o.part.artifact.path, o.report),
  });
  return (await openCaseBundle(j.journal, j.keys.trust, limits))(c, reports).bytes;
}

describe("a bundle's member count", () => {
  it('a bundle of more than the archive reader’s 1,000 entries is read by the bundle verifier by default', async () => {
    // A bundle with 1,000 members more than it should hold: its own checks say so, the archive is read.
    const f = await unzip(await caseBundle());
    const extra = Array.from({ length: 1000 }, (_, i) => ({
      name: `reports/9${String(i).padStart(5, '0')}.json`,
      data: Buffer.from('{}\n'),
    }));
    const r = await verifyEvidence(writeZip([...f, ...extra]), j.keys.trust);
    expect(ruleIds(r)).not.toContain('RPR-ZIP-031');
    expect(ruleIds(r)).toContain('RPR-EVB-002');
    expect(BUNDLE_MAX_ENTRIES).toBe(65534);
  });

  it('a case bundle at the limit is written and read; one member over, the export refuses and the verifier too', async () => {
    const at = await caseBundle({ maxEntries: MEMBERS });
    expect((await unzip(at)).length).toBe(MEMBERS);
    expect(ruleIds(await verifyEvidence(at, j.keys.trust, { maxEntries: MEMBERS }))).not.toContain('RPR-ZIP-031');
    expect(ruleIds(await verifyEvidence(at, j.keys.trust, { maxEntries: MEMBERS - 1 }))).toContain('RPR-ZIP-031');
    await expect(caseBundle({ maxEntries: MEMBERS - 1 })).rejects.toThrow(
      /the bundle would hold 9 members \(the manifest, case\.json, case\.html, the checkpoint, 3 report\(s\) and 2 judgement\(s\)\), over the 8 its verifier reads/,
    );
  });

  it('a bundle of one artifact likewise: 6 members (2 judgements) at 6, refused at 5', async () => {
    const at = await bundleFromJournal(j.journal, j.report, j.keys.trust, null, { maxEntries: 6 });
    expect(ruleIds(await verifyEvidence(at.bytes, j.keys.trust, { maxEntries: 6 }))).not.toContain('RPR-ZIP-031');
    await expect(bundleFromJournal(j.journal, j.report, j.keys.trust, null, { maxEntries: 5 })).rejects.toThrow(
      /the bundle would hold 6 members .* over the 5 its verifier reads \(maxEntries, as given\)/,
    );
  });

  it.skipIf(!cliBuilt())(
    'the CLI: export refuses (exit 3, nothing written) what verify would refuse under the same --limit',
    async () => {
      const trust = ['--trust-store', j.keys.trustPath];
      const exportWith = (out: string, max: number) =>
        runCli(['export', caseDir, '--journal', j.journal, '--out', out, '--limit', `maxEntries=${max}`, ...trust]);
      const over = join(j.dir, 'over.zip');
      const refused = await exportWith(over, MEMBERS - 1);
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(/would hold 9 members/);
      expect(existsSync(over)).toBe(false);
      const out = join(j.dir, 'at.zip');
      const e = await exportWith(out, MEMBERS);
      expect(e.code).toBe(0);
      const v = await runCli(['verify', out, '--limit', `maxEntries=${MEMBERS}`, ...trust]);
      expect(v.stdout).not.toContain('RPR-ZIP-031');
      expect(v.stdout).toContain('RPR-EVB-016'); // the case fails (files of no known kind), its bundle is read whole
      const under = await runCli(['verify', out, '--limit', `maxEntries=${MEMBERS - 1}`, ...trust]);
      expect(under.stdout).toContain('RPR-ZIP-031');
    },
  );
});
