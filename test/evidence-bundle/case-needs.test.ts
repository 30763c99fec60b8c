/**
 * A case bundle's `needs` against its bundled reports (docs/evidence-bundle.md, "The case
 * bundle"): each option case.json says an artifact needs must be one its kind declares, by
 * its flag, deciding UNAVAILABLE findings of the artifact's bundled report (pointer suffix
 * included), rules sorted, needs sorted by flag; an artifact whose report holds no finding
 * any option decides lists none. A disagreement fails RPR-EVB-017 at its pointer in case.json.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashValue } from '../../app/core/hash.js';
import { runBytes } from '../../app/engine/run.js';
import { writeExamples } from '../../app/examples/index.js';
import { runCase } from '../../app/jobs/case.js';
import { recordNote } from '../../app/journal/index.js';
import { openCaseBundle, verifyEvidence } from '../../app/kinds/evidence-bundle/index.js';
import { decidersOf } from '../../app/kinds/registry.js';
import type { Decider } from '../../app/kinds/types.js';
import { writeZip } from '../../app/zip/writer.js';
import type { CaseArtifact, CaseReport } from '../../shared/case.js';
import type { Finding, Report } from '../../shared/report.js';
import { ARTIFACT, fixManifest, json, put, unzip } from './helpers.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';

let keys: Keys;
let bundle: Buffer;
let caseReport: CaseReport;

/** The dump, verified without a trust store (RDS-007 UNAVAILABLE), and a file of no kind (FAIL, nothing to decide). */
const DUMP = 0;
const OTHER = 1;
const NEED = { option: 'trustStore', flag: 'trust-store', rules: ['RDS-007'] };

beforeAll(async () => {
  const base = tmp('reprise-case-needs-');
  const ex = join(base, 'examples');
  await writeExamples(ex);
  const dir = join(base, 'case');
  mkdirSync(dir);
  copyFileSync(join(ex, 'dumps/intact.dump.json'), join(dir, 'a.dump.json'));
  writeFileSync(join(dir, 'b.json'), ARTIFACT);
  keys = makeKeys(base);
  const reports = new Map<string, Report>();
  caseReport = await runCase(dir, {
    onArtifact: (o) => o.ok && o.report && reports.set(o.part.artifact.path, o.report),
  });
  const journal = join(base, 'journal');
  const dump = caseReport.artifacts[DUMP]!;
  await recordNote(journal, { artifact: dump.sha256!, text: 'The dump the claim cites.' }, keys.reviewer, keys.trust, {
    fsync: false,
  });
  bundle = (await openCaseBundle(journal, keys.trust))(caseReport, reports).bytes;
}, 120_000);

/** case.json with the artifacts' needs edited, only the manifest's digests made to agree. */
async function withNeeds(edit: (artifacts: CaseArtifact[]) => void): Promise<Buffer> {
  const f = await unzip(bundle);
  const c = json(f, 'case.json') as unknown as CaseReport;
  edit(c.artifacts);
  put(f, 'case.json', c);
  fixManifest(f, (m) => ((m['case'] as Record<string, unknown>)['digest'] = hashValue(c)));
  return writeZip(f);
}

type Table = (kind: string) => ReadonlyMap<string, readonly Decider[]> | undefined;

/** The bundle's RPR-EVB-017 findings, verified with the registry's table or `table`. */
async function needFindings(bytes: Buffer, table: Table = decidersOf): Promise<Finding[]> {
  const r = await verifyEvidence(bytes, keys.trust, undefined, table);
  return r.findings.filter((x) => x.rule === 'RPR-EVB-017');
}

const at = (i: number, rest = '') => `entry:case.json#/artifacts/${i}/needs${rest}`;

describe("a case bundle's needs", () => {
  it('the case names --trust-store for the dump, and the bundle as written agrees', async () => {
    expect(caseReport.artifacts[DUMP]!.needs).toEqual([NEED]);
    expect(caseReport.artifacts[OTHER]!.needs).toBeUndefined();
    expect(await needFindings(bundle)).toEqual([]);
  });

  it('fails an option the kind does not declare to decide its findings', async () => {
    const b = await withNeeds((a) => (a[DUMP]!.needs = [{ ...NEED, option: 'kernelAdapter' }]));
    const [f, ...rest] = await needFindings(b);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ severity: 'fail', pointer: at(DUMP, '/0/option') });
    expect(f!.message).toBe(
      'case.json says a.dump.json needs kernelAdapter (--trust-store), which its kind replay-dump does not declare to decide any of its findings',
    );
  });

  it("fails a flag that is not the option's", async () => {
    const b = await withNeeds((a) => (a[DUMP]!.needs = [{ ...NEED, flag: 'journal' }]));
    const [f, ...rest] = await needFindings(b);
    expect(rest).toEqual([]);
    expect(f).toMatchObject({ severity: 'fail', pointer: at(DUMP, '/0/flag'), expected: 'trust-store' });
    expect(f!.message).toBe(
      "case.json says a.dump.json needs trustStore by the flag --journal, which is not that option's flag (--trust-store)",
    );
  });

  it('fails a rule of no UNAVAILABLE finding of the bundled report, and rules out of order or twice', async () => {
    const extra = await needFindings(
      await withNeeds((a) => (a[DUMP]!.needs = [{ ...NEED, rules: ['RDS-001', 'RDS-007'] }])),
    );
    expect(extra.map((x) => x.pointer)).toEqual([at(DUMP, '/0/rules/0')]);
    expect(extra[0]!.message).toBe(
      'case.json says --trust-store would decide RDS-001 in a.dump.json, but its bundled report (reports/000000.json) holds no UNAVAILABLE finding of RDS-001 that option decides',
    );
    const twice = await needFindings(
      await withNeeds((a) => (a[DUMP]!.needs = [{ ...NEED, rules: ['RDS-007', 'RDS-007'] }])),
    );
    expect(twice.map((x) => [x.pointer, x.message])).toEqual([
      [
        at(DUMP, '/0/rules/1'),
        'case.json lists the rules --trust-store would decide in a.dump.json out of order or twice (sorted, each once)',
      ],
    ]);
  });

  it('fails needs out of flag order', async () => {
    const b = await withNeeds(
      (a) => (a[DUMP]!.needs = [NEED, { option: 'providers', flag: 'providers', rules: ['RDS-LOCK-003'] }]),
    );
    const found = await needFindings(b);
    expect(found.map((x) => x.pointer)).toEqual([at(DUMP, '/1/flag'), at(DUMP, '/1/rules/0')]);
    expect(found[0]!.message).toBe(
      'case.json lists what a.dump.json needs out of flag order or an option twice (sorted by flag, each once)',
    );
  });

  it('fails needs listed for an artifact whose report holds no UNAVAILABLE finding an option decides', async () => {
    const b = await withNeeds((a) => (a[OTHER]!.needs = [NEED]));
    const found = await needFindings(b);
    expect(found.map((x) => [x.severity, x.pointer, x.message])).toEqual([
      [
        'fail',
        at(OTHER),
        'case.json says b.json needs --trust-store, but its bundled report (reports/000001.json) holds no UNAVAILABLE finding any option decides',
      ],
    ]);
  });

  it("holds a rule to its option's pointer suffix", async () => {
    // The same declaration, limited to findings at a pointer the dump's RDS-007 is not at.
    const table: Table = (kind) =>
      kind === 'replay-dump'
        ? new Map([['RDS-007', [{ name: 'trustStore', flag: 'trust-store', pointerEndsWith: '/nowhere' }]]])
        : undefined;
    const found = await needFindings(bundle, table);
    expect(found.map((x) => x.pointer)).toEqual([at(DUMP)]);
  });

  it('says needs it was given no table to check against are unchecked (UNAVAILABLE), never PASS', async () => {
    const r = await verifyEvidence(bundle, keys.trust);
    const found = r.findings.filter((x) => x.rule === 'RPR-EVB-017');
    expect(found.map((x) => [x.severity, x.pointer])).toEqual([['unavailable', at(DUMP)]]);
  });

  it('is checked by the engine, which hands the kind the table of deciders', async () => {
    const b = await withNeeds((a) => (a[DUMP]!.needs = [{ ...NEED, flag: 'journal' }]));
    const r = await runBytes('case.zip', b, 'verify', { trustStore: keys.trustPath });
    expect(r.verdict).toBe('fail');
    expect(r.findings.filter((x) => x.rule === 'RPR-EVB-017').map((x) => x.pointer)).toEqual([at(DUMP, '/0/flag')]);
  });
});
