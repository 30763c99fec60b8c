/**
 * shared/case-shape.ts is held to docs/case.schema.json: on a real case report (artifacts,
 * links found and missing, a timeline, judgements) and on every mutation below, the
 * hand-written checker and ajv over the schema agree on whether a document is a case report,
 * and the checker names the member.
 */
import { copyFileSync, cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { caseSchemaValidator } from '../helpers/case-schema.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeExamples } from '../../app/examples/index.js';
import { runCase } from '../../app/jobs/case.js';
import type { CaseReport } from '../../shared/case.js';
import { caseShapeProblems } from '../../shared/case-shape.js';
import { tmp } from '../journal/helpers.js';

const validate = caseSchemaValidator();

let real: CaseReport;

beforeAll(async () => {
  const ex = tmp('reprise-case-shape-');
  await writeExamples(ex);
  const dir = join(ex, 'case');
  mkdirSync(dir);
  copyFileSync(join(ex, 'tg/recorded-anchored/manifest.json'), join(dir, 'r.json'));
  cpSync(join(ex, 'tg/journal'), join(dir, 'journal'), { recursive: true });
  copyFileSync(join(ex, 'acgp/trace-clean.jsonl'), join(dir, 'trace.jsonl'));
  // A report of an artifact the case does not hold: a missing link.
  copyFileSync(join(ex, 'reports/well-formed.report.json'), join(dir, 'report.json'));
  real = await runCase(dir, { options: { trustStore: join(ex, 'tg/trust-store.json') } });
}, 120_000);

type Doc = Record<string, unknown> & { [k: string]: unknown };
const list = (d: Doc, k: string) => d[k] as Doc[];
const MUTATIONS: [string, (d: Doc) => void][] = [
  ['no links', (d) => delete d['links']],
  ['links null', (d) => (d['links'] = null)],
  ['a link that is a number', (d) => (d['links'] = [1])],
  ['a finding that is null', (d) => (d['findings'] = [null])],
  ['an event with no member', (d) => (d['timeline'] = [{}])],
  ['no judgements', (d) => delete d['judgements']],
  ['an unknown member', (d) => (d['x'] = 1)],
  ['another schema', (d) => (d['schema'] = 'reprise.case/v2')],
  ['a mode outside the enum', (d) => (d['mode'] = 'guess')],
  ['a verdict outside the enum', (d) => (d['verdict'] = 'ok')],
  ['counts of -5', (d) => ((list(d, 'artifacts')[0]!['counts'] as Doc)['fail'] = -5)],
  ['counts of "x"', (d) => ((list(d, 'artifacts')[0]!['counts'] as Doc)['fail'] = 'x')],
  ['counts of 1.5', (d) => ((list(d, 'artifacts')[0]!['counts'] as Doc)['info'] = 1.5)],
  ['a count too many', (d) => ((list(d, 'artifacts')[0]!['counts'] as Doc)['other'] = 0)],
  ['no counts', (d) => delete list(d, 'artifacts')[0]!['counts']],
  ['an empty kind', (d) => (list(d, 'artifacts')[0]!['kind'] = '')],
  ['an id that is a number', (d) => (list(d, 'artifacts')[0]!['id'] = 1)],
  ['a sha256 empty', (d) => (list(d, 'artifacts')[0]!['sha256'] = '')],
  ['a report digest in capitals', (d) => (list(d, 'artifacts')[0]!['reportDigest'] = 'sha256:' + 'A'.repeat(64))],
  ['an empty path', (d) => (list(d, 'artifacts')[0]!['path'] = '')],
  [
    'a missing link with a target',
    (d) => (list(d, 'links').find((l) => l['status'] === 'missing')!['to'] = { artifact: 'r.json', pointer: null }),
  ],
  [
    'a found link without one',
    (d) => (list(d, 'links').find((l) => l['status'] === 'found')!['to'] = { artifact: null, pointer: null }),
  ],
  ['a link status outside the enum', (d) => (list(d, 'links')[0]!['status'] = 'maybe')],
  ['a link from nothing', (d) => ((list(d, 'links')[0]!['from'] as Doc)['artifact'] = '')],
  ['a link with an empty relation', (d) => (list(d, 'links')[0]!['relation'] = '')],
  ['a time with an offset', (d) => (list(d, 'timeline')[0]!['atUtc'] = '2026-05-04T09:00:00+00:00')],
  ['a time with microseconds', (d) => (list(d, 'timeline')[0]!['atUtc'] = '2026-05-04T09:00:00.000001Z')],
  ['an event severity outside the enum', (d) => (list(d, 'timeline')[0]!['severity'] = 'error')],
  ['an event with an empty label', (d) => (list(d, 'timeline')[0]!['label'] = '')],
  ['an event node that is a number', (d) => (list(d, 'timeline')[0]!['node'] = 0)],
  ['a judgement seq of -1', (d) => (list(d, 'judgements')[0]!['seq'] = -1)],
  ['a judgement entry hash that is no hash', (d) => (list(d, 'judgements')[0]!['entryHash'] = 'x')],
  ['a judgement supersedes that is no hash', (d) => (list(d, 'judgements')[0]!['supersedes'] = 'x')],
  ['a judgement rationale that is null', (d) => (list(d, 'judgements')[0]!['rationale'] = null)],
  ['a judgement on no artifact', (d) => (list(d, 'judgements')[0]!['artifact'] = null)],
  ['a judgement with an empty subject', (d) => (list(d, 'judgements')[0]!['subject'] = '')],
  ['a judgement member too many', (d) => (list(d, 'judgements')[0]!['x'] = 1)],
  ['an option needed', (d) => (list(d, 'artifacts')[0]!['needs'] = [need()])],
  ['needs empty', (d) => (list(d, 'artifacts')[0]!['needs'] = [])],
  ['needs that is an object', (d) => (list(d, 'artifacts')[0]!['needs'] = need())],
  ['a need with no rules', (d) => (list(d, 'artifacts')[0]!['needs'] = [{ ...need(), rules: [] }])],
  ['a need of a rule in lower case', (d) => (list(d, 'artifacts')[0]!['needs'] = [{ ...need(), rules: ['rds-007'] }])],
  ['a need with its dashes', (d) => (list(d, 'artifacts')[0]!['needs'] = [{ ...need(), flag: '--trust-store' }])],
  ['a need with no option', (d) => (list(d, 'artifacts')[0]!['needs'] = [{ flag: 'trust-store', rules: ['RDS-007'] }])],
  ['a need member too many', (d) => (list(d, 'artifacts')[0]!['needs'] = [{ ...need(), x: 1 }])],
];

/** An option an artifact needs, as a case writes it (CaseArtifact.needs). */
function need(): Doc {
  return { option: 'trustStore', flag: 'trust-store', rules: ['RDS-007'] };
}

describe('shared/case-shape.ts against docs/case.schema.json', () => {
  it('passes a real case report, as the schema does', () => {
    expect(real.links.some((l) => l.status === 'missing')).toBe(true);
    expect(real.judgements.length).toBeGreaterThan(0);
    expect(validate(real), JSON.stringify(validate.errors)).toBe(true);
    expect(caseShapeProblems(real)).toEqual([]);
  });

  for (const [what, mutate] of MUTATIONS)
    it(`agrees with ajv on ${what}`, () => {
      const d = JSON.parse(JSON.stringify(real)) as Doc;
      mutate(d);
      const problems = caseShapeProblems(d);
      expect(problems.length === 0, JSON.stringify(problems)).toBe(validate(d));
      for (const p of problems) expect(p.pointer === '' || p.pointer.startsWith('/')).toBe(true);
    });
});
