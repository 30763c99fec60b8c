/**
 * A saved report holding a number whose text its double does not keep (an integer beyond
 * 2^53, a non-zero number that underflows to 0) fails RPR-RPT-001, naming the member: no
 * report Reprise writes holds one (JSON.stringify writes doubles), and its digest would be of
 * the double, not of the text. It passed without a word, as the other kinds never let it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runPath } from '../../app/engine/run.js';
import { writeExamples } from '../../app/examples/index.js';
import { tmp } from '../journal/helpers.js';

let ex: string;
let saved: string;
beforeAll(async () => {
  ex = tmp('reprise-report-numbers-');
  await writeExamples(ex);
  saved = readFileSync(join(ex, 'reports/well-formed.report.json'), 'utf8');
}, 60_000);

async function verified(name: string, text: string) {
  const file = join(ex, name);
  writeFileSync(file, text);
  return runPath(file, 'verify', {});
}

describe('a saved report with a number its double does not keep', () => {
  it('fails RPR-RPT-001 naming the member, beyond 2^53 and underflowing alike', async () => {
    expect(saved).toMatch(/"durationMs": \d+/);
    for (const [name, n] of [
      ['big.report.json', '9007199254740993'],
      ['tiny.report.json', '1e-400'],
    ] as const) {
      const r = await verified(name, saved.replace(/"durationMs": \d+/, `"durationMs": ${n}`));
      expect(r.verdict).toBe('fail');
      const f = r.findings.find((x) => x.rule === 'RPR-RPT-001');
      expect(f?.message).toMatch(/^the report: .*no report Reprise writes holds one/);
      expect(f?.pointer).toBe('/run/durationMs');
    }
  });

  it('leaves a report Reprise wrote as it was', async () => {
    const r = await verified('as-written.report.json', saved);
    expect(r.findings.some((x) => x.rule === 'RPR-RPT-001')).toBe(false);
  });
});
