/**
 * A directory artifact whose files cannot be read after its verification (the journal's
 * entries file gone or failing between the two reads) is listed with `sha256: null`, never
 * with a stand-in, and RPR-CASE-003 says why: the case report still holds to
 * docs/case.schema.json and to the shape a case bundle checks, and links nothing by the
 * missing hash.
 */
import { caseSchemaValidator } from '../helpers/case-schema.js';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { driveCase, inlineExecutor } from '../../app/engine/case/index.js';
import type { CaseReport } from '../../shared/case.js';
import { caseShapeProblems } from '../../shared/case-shape.js';
import { caseFixture } from './fixture.js';

vi.mock('../../app/kinds/journal/case-facts.js', () => ({
  journalCaseFacts: () => Promise.reject(new Error('cannot read entries.jsonl: an I/O error from the device (EIO)')),
}));

const validate = caseSchemaValidator();

let report: CaseReport;
beforeAll(async () => {
  const fx = await caseFixture();
  report = await driveCase(fx.dir, inlineExecutor, { options: { trustStore: fx.keys.trustPath } });
}, 120_000);

describe('a journal of the case whose files could not be read for its facts', () => {
  it('is listed with no SHA-256, a finding says why, and the report holds to its schema', () => {
    const journals = report.artifacts.filter((a) => a.kind === 'journal');
    expect(journals.length).toBeGreaterThan(0);
    for (const j of journals) expect(j.sha256).toBeNull();
    const said = report.findings.filter((f) => f.rule === 'RPR-CASE-003');
    expect(said.map((f) => f.pointer).sort()).toEqual(journals.map((j) => `entry:${j.path}`).sort());
    expect(said[0]!.message).toContain('(EIO)');
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    expect(caseShapeProblems(report)).toEqual([]);
    // Nothing is linked to a journal's bytes by a hash the case does not have.
    const paths = new Set(journals.map((j) => j.path));
    expect(report.links.filter((l) => paths.has(l.to.artifact ?? '') && l.to.pointer === null)).toEqual([]);
  });
});
