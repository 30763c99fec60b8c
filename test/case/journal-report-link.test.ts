/**
 * An exported report of a journal names it by its id (the latest checkpoint's root: a
 * directory artifact has no bytes' SHA-256), which the journal declares in a case: the case
 * links the report to the journal (`reported`) and decides it against it, as `reprise verify
 * REPORT --artifact DIR` does, instead of leaving it UNAVAILABLE with no link at all. A
 * report of the journal as it was before an append names a root the journal no longer
 * declares: a missing link, and the report left undecided.
 */
import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeExamples } from '../../app/examples/index.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { tmp } from '../journal/helpers.js';

let base = '';
let ex = '';

beforeAll(async () => {
  base = tmp('reprise-journal-report-link-');
  ex = join(base, 'examples');
  await writeExamples(ex);
}, 60_000);

interface CaseOut {
  artifacts: { path: string; verdict: string }[];
  links: {
    from: { artifact: string; pointer: string };
    relation: string;
    to: { artifact: string | null };
    status: string;
  }[];
}

async function caseOf(dir: string, trust: string): Promise<CaseOut> {
  const out = join(base, `${dir.split('/').pop()}.case.json`);
  const r = await runCli(['verify', dir, '--case', out, '--trust-store', trust]);
  expect([0, 1, 2]).toContain(r.code);
  return JSON.parse(readFileSync(out, 'utf8')) as CaseOut;
}

describe.skipIf(!cliBuilt())("a journal's exported report in a case holding the journal", () => {
  it('is linked to the journal by its id and decided against it', async () => {
    const trust = join(ex, 'journal', 'trust-store.json');
    const dir = join(base, 'c');
    mkdirSync(dir);
    cpSync(join(ex, 'journal', 'sample'), join(dir, 'jr'), { recursive: true });
    const report = await runCli(['verify', join(dir, 'jr'), '--json', '--trust-store', trust]);
    writeFileSync(join(dir, 'jr.report.json'), report.stdout);
    const c = await caseOf(dir, trust);
    const reported = c.links.filter((l) => l.relation === 'reported');
    expect(reported).toEqual([
      {
        from: { artifact: 'jr.report.json', pointer: '/artifact/id' },
        relation: 'reported',
        value: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
        to: { artifact: 'jr', pointer: expect.stringMatching(/^entry:checkpoints\.jsonl:line:\d+$/) },
        status: 'found',
      },
    ]);
    expect(c.artifacts.map((a) => [a.path, a.verdict])).toEqual([
      ['jr', 'pass'],
      ['jr.report.json', 'pass'],
    ]);
    // After an append the journal's root is another: the old report names nothing of the case.
    const entries = readFileSync(join(dir, 'jr', 'checkpoints.jsonl'), 'utf8').split('\n');
    appendFileSync(join(dir, 'jr', 'checkpoints.jsonl'), `${entries[0]}\n`);
    const later = await caseOf(dir, trust);
    expect(later.links.filter((l) => l.relation === 'reported').map((l) => l.status)).toEqual(['missing']);
  });
});
