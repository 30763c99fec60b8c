/**
 * The links of a case stay bounded, whatever the folder holds (docs/case.md, "Links by
 * content"): a value named again in one list of an artifact is one reference, and each
 * reference links to at most `--limit case-links-per-reference` holders (the first by path),
 * the rest counted in RPR-CASE-005 with the limit that links every one. A folder of copies
 * of one byte and a dump naming it thousands of times once built the whole cross product in
 * memory before a byte of the report was written.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaseReport } from '../../shared/case.js';
import type { Report } from '../../shared/report.js';
import { hashBytes } from '../../app/core/hash.js';
import { assembleCase } from '../../app/engine/case/assemble.js';
import { driveCase, inlineExecutor, type CaseExecutor, type CaseOutcome } from '../../app/engine/case/index.js';
import { casePart, type CasePart } from '../../app/engine/case/part.js';
import type { CaseFacts } from '../../app/kinds/operations.js';
import { writeExamples } from '../../app/examples/index.js';
import { tmp } from '../journal/helpers.js';

const ONE_BYTE = Buffer.from('a');
const X = hashBytes(ONE_BYTE);

/** A folder of `copies` copies of one byte and a dump whose material set names that byte's hash `times` times. */
async function copiesFolder(copies: number, times: number): Promise<string> {
  const root = tmp('reprise-case-links-');
  await writeExamples(join(root, 'ex'));
  const dir = join(root, 'case');
  mkdirSync(join(dir, 'copies'), { recursive: true });
  for (let i = 0; i < copies; i++) writeFileSync(join(dir, 'copies', `c${String(i).padStart(4, '0')}`), ONE_BYTE);
  const dump = JSON.parse(readFileSync(join(root, 'ex', 'dumps', 'intact.dump.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  writeFileSync(join(dir, 'dump.json'), JSON.stringify({ ...dump, materialSnapshotHashSet: Array(times).fill(X) }));
  return dir;
}

const materials = (r: CaseReport) =>
  r.links.filter((l) => l.from.artifact === 'dump.json' && l.relation === 'material');

/** Lands the outcomes in reverse order, as a pool of workers might. */
const reversed: CaseExecutor = async (files, mode, opts, land, signal) => {
  const got: CaseOutcome[] = [];
  await inlineExecutor(files, mode, opts, (o) => got.push(o), signal);
  for (const o of got.reverse()) land(o);
};

describe('a folder of copies and a dump naming them again and again', () => {
  let dir = '';
  let report: CaseReport;
  beforeAll(async () => {
    dir = await copiesFolder(150, 150);
    report = await driveCase(dir, inlineExecutor);
  }, 120_000);

  it('makes one reference of a value its list repeats, linked to the first holders by path, the rest counted', async () => {
    const links = materials(report);
    expect(links).toHaveLength(100);
    expect(new Set(links.map((l) => l.from.pointer))).toEqual(new Set(['/materialSnapshotHashSet/0']));
    expect(links.map((l) => l.to.artifact)).toEqual(
      Array.from({ length: 100 }, (_, i) => `copies/c${String(i).padStart(4, '0')}`),
    );
    expect(report.findings.filter((f) => f.rule === 'RPR-CASE-005')).toEqual([
      {
        rule: 'RPR-CASE-005',
        severity: 'warning',
        pointer: 'entry:dump.json',
        expected: X,
        actual: '/materialSnapshotHashSet/0',
        message:
          `dump.json names ${X} (material) at /materialSnapshotHashSet/0, which 150 artifacts of the case (or parts of them) hold: ` +
          'the first 100 by path are linked, 50 more were left out ' +
          '(limit case-links-per-reference; --limit case-links-per-reference=150 links every one)',
      },
    ]);
    // The holders kept are the first by path, whatever order the outcomes landed in.
    const again = await driveCase(dir, reversed);
    expect(JSON.stringify(again)).toBe(JSON.stringify(report));
  }, 120_000);

  it('links every one under the limit the finding names, and none under 0', async () => {
    const all = await driveCase(dir, inlineExecutor, { options: { limits: { 'case-links-per-reference': 150 } } });
    expect(materials(all)).toHaveLength(150);
    expect(all.findings.filter((f) => f.rule === 'RPR-CASE-005')).toEqual([]);
    const none = await driveCase(dir, inlineExecutor, { options: { limits: { 'case-links-per-reference': 0 } } });
    expect(materials(none)).toEqual([]);
    expect(none.findings.filter((f) => f.rule === 'RPR-CASE-005')).toHaveLength(1);
  }, 120_000);
});

/** A report of a verified artifact (what casePart reads of it). */
const report = (path: string): Report =>
  ({
    schema: 'reprise.report/v1',
    artifact: { path, kind: 'unknown', sha256: X, id: null },
    verdict: 'pass',
    findings: [],
    chain: [],
  }) as unknown as Report;

const part = (path: string, facts: Partial<CaseFacts> = {}): CasePart =>
  casePart(path, report(path), { identities: [], references: [], events: [], ...facts });

const holders = (n: number) => Array.from({ length: n }, (_, i) => part(`h${String(i).padStart(4, '0')}`));
const naming = (pointer: string) => ({ pointer, relation: 'subject', value: X, expected: false });

describe('the join of many references to bytes many artifacts hold', () => {
  it('builds at most the limit per reference, never references times holders', () => {
    // 50 artifacts each naming X, 1,000 holding it: 50,000 links unbounded.
    const refs = Array.from({ length: 50 }, (_, i) =>
      part(`r${String(i).padStart(2, '0')}`, { references: [naming('line:1')] }),
    );
    const c = assembleCase([...holders(1000), ...refs], [], 'verify');
    // Each referring artifact holds X too (its bytes): it links to the 1,049 others, the first 100 of them.
    expect(c.links).toHaveLength(50 * 100);
    const five = c.findings.filter((f) => f.rule === 'RPR-CASE-005');
    expect(five).toHaveLength(50);
    expect(five[0]!.message).toContain('which 1049 artifacts');
  });

  it('keeps each journal-like entry its own link: only a repeat within one list is one reference', () => {
    const j = part('j', { references: [naming('line:1'), naming('line:2'), naming('/list/0'), naming('/list/1')] });
    const c = assembleCase([...holders(2), j], [], 'verify');
    // j holds X itself (its report's sha256), so it links to the two others from three references.
    expect(c.links.map((l) => [l.from.pointer, l.to.artifact])).toEqual([
      ['/list/0', 'h0000'],
      ['/list/0', 'h0001'],
      ['line:1', 'h0000'],
      ['line:1', 'h0001'],
      ['line:2', 'h0000'],
      ['line:2', 'h0001'],
    ]);
  });

  it('skips what its own artifact holds, and counts only the others', () => {
    // An artifact holding a copy of X (an embedded artifact) and naming it links only to sources of X.
    const self = casePart(
      'a',
      { ...report('a'), artifact: { ...report('a').artifact, sha256: hashBytes(Buffer.from('b')) } },
      {
        identities: [{ value: X, pointer: '/artifacts/x', copy: true }],
        references: [naming('/p')],
        events: [],
      },
    );
    const c = assembleCase([self, ...holders(3)], [], 'verify', { 'case-links-per-reference': 2 });
    expect(c.links.map((l) => l.to.artifact)).toEqual(['h0000', 'h0001']);
    expect(c.findings.map((f) => f.message)).toEqual([expect.stringContaining('which 3 artifacts')]);
  });
});
