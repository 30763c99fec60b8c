/**
 * Real case reports validate against docs/case.schema.json (findings by reference to
 * docs/report.schema.json): a case of every kind, one with missing links and an unreadable
 * file, and the schema refuses what the contract forbids.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { caseSchemaValidator } from '../helpers/case-schema.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { driveCase, inlineExecutor } from '../../app/engine/case/index.js';
import type { CaseReport } from '../../shared/case.js';
import { caseFixture, type CaseFixture } from './fixture.js';
import { fixtureCopy } from './copy.js';

const validate = caseSchemaValidator();

let fx: CaseFixture;
let whole: CaseReport;
let lacking: CaseReport;
beforeAll(async () => {
  fx = await caseFixture();
  const options = { trustStore: fx.keys.trustPath };
  whole = await driveCase(fx.dir, inlineExecutor, { options });
  const dir = fixtureCopy(fx.dir);
  rmSync(join(dir, 'tg/journal'), { recursive: true });
  execFileSync('mkfifo', [join(dir, 'pipe')]);
  lacking = await driveCase(dir, inlineExecutor, { options });
}, 120_000);

describe('docs/case.schema.json', () => {
  it('holds real case reports', () => {
    for (const r of [whole, lacking]) expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
    expect(whole.links.length).toBeGreaterThan(5);
    expect(whole.timeline.length).toBeGreaterThan(20);
    expect(whole.judgements.length).toBeGreaterThan(0);
    expect(lacking.findings.length).toBe(2);
    expect(lacking.links.some((l) => l.status === 'missing')).toBe(true);
  });

  it('refuses what the contract forbids', () => {
    const bad = (edit: (r: CaseReport) => void): boolean => {
      const r = JSON.parse(JSON.stringify(whole)) as CaseReport;
      edit(r);
      return validate(r);
    };
    expect(bad(() => {})).toBe(true);
    expect(bad((r) => (r.links[0]!.status = 'missing'))).toBe(false); // a missing link names no target
    expect(bad((r) => (r.timeline[0]!.atUtc = '2026-05-04T09:00:00+00:00'))).toBe(false);
    expect(bad((r) => (r.artifacts[0]!.sha256 = ''))).toBe(false);
    expect(bad((r) => ((r as unknown as Record<string, unknown>)['run'] = {}))).toBe(false);
  });
});
