/**
 * shared/report-shape.ts is held to docs/report.schema.json: on real reports of the
 * examples and on every mutation below, the hand-written checker and ajv over the schema
 * agree on whether a document is a report (and the checker names the member).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { runPath } from '../../app/engine/run.js';
import { writeExamples } from '../../app/examples/index.js';
import { reportShapeProblems } from '../../shared/report-shape.js';
import type { Report } from '../../shared/report.js';
import { ROOT, tmp } from '../journal/helpers.js';

const validate = new Ajv2020({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync(join(ROOT, 'docs', 'report.schema.json'), 'utf8')),
);

const EXAMPLES = [
  'unknown/not-an-artifact.json',
  'dumps/intact.dump.json',
  'dumps/fail/altered-artifact.dump.json',
  'acgp/trace-clean.jsonl',
  'tg/exact-intact/manifest.json',
  'reports/well-formed.report.json',
];

let reports: Report[] = [];

beforeAll(async () => {
  const ex = tmp('reprise-shape-');
  await writeExamples(ex);
  reports = await Promise.all(
    EXAMPLES.map((p) => runPath(join(ex, p), 'verify', { trustStore: join(ex, 'dumps', 'trust-store.json') })),
  );
}, 120_000);

type Mutation = [string, (r: Record<string, unknown>) => void];
const at = (r: Record<string, unknown>, k: string) => r[k] as Record<string, unknown>;
const MUTATIONS: Mutation[] = [
  ['no schema', (r) => delete r['schema']],
  ['another schema', (r) => (r['schema'] = 'reprise.report/v2')],
  ['no chain', (r) => delete r['chain']],
  ['no run', (r) => delete r['run']],
  ['an unknown member', (r) => (r['extra'] = 1)],
  ['a verdict outside the enum', (r) => (r['verdict'] = 'ok')],
  ['an unknown kind', (r) => (at(r, 'artifact')['kind'] = 'spreadsheet')],
  ['a bad sha256', (r) => (at(r, 'artifact')['sha256'] = 'sha256:XYZ')],
  ['no artifact id', (r) => delete at(r, 'artifact')['id']],
  ['a finding without message', (r) => (r['findings'] = [{ rule: 'RPR-X-001', severity: 'fail' }])],
  ['an empty message', (r) => (r['findings'] = [{ rule: 'RPR-X-001', severity: 'fail', message: '' }])],
  ['a lower-case rule', (r) => (r['findings'] = [{ rule: 'rpr-x', severity: 'fail', message: 'm' }])],
  ['a bad severity', (r) => (r['findings'] = [{ rule: 'RPR-X-001', severity: 'error', message: 'm' }])],
  ['a bad pointer', (r) => (r['findings'] = [{ rule: 'RPR-X-001', severity: 'info', message: 'm', pointer: 'x' }])],
  ['a finding member unknown', (r) => (r['findings'] = [{ rule: 'RPR-X-001', severity: 'info', message: 'm', z: 1 }])],
  [
    'chain node without parents',
    (r) => (r['chain'] = [{ id: 'a', label: '', recorded: null, recomputed: null, status: 'match' }]),
  ],
  [
    'chain node bad status',
    (r) => (r['chain'] = [{ id: 'a', label: '', recorded: null, recomputed: null, status: 'ok', parents: [] }]),
  ],
  [
    'comparison bad mode',
    (r) => (r['comparisons'] = [{ output: 'o', mode: 'FUZZY', original: 1, replayed: 1, status: 'pass' }]),
  ],
  [
    'comparison string delta',
    (r) => (r['comparisons'] = [{ output: 'o', mode: 'EXACT', original: 1, replayed: 1, status: 'pass', delta: '0' }]),
  ],
  ['events not an array', (r) => (r['events'] = {})],
  ['details an array', (r) => (r['details'] = [])],
  ['authenticity bad key', (r) => (r['authenticity'] = { status: 'unsigned', statement: 's', keyId: 'k' })],
  ['authenticity no statement', (r) => (r['authenticity'] = { status: 'unsigned' })],
  ['run negative duration', (r) => (at(r, 'run')['durationMs'] = -1)],
  ['run fractional duration', (r) => (at(r, 'run')['durationMs'] = 1.5)],
  ['run local time', (r) => (at(r, 'run')['startedAtUtc'] = '2026-11-02T09:30:00+01:00')],
  ['run another tool', (r) => (at(r, 'run')['tool'] = 'other')],
  ['not an object', (r) => Object.setPrototypeOf(r, Array.prototype)],
];

describe('the report shape checker and docs/report.schema.json agree', () => {
  it('every example report is a report for both', () => {
    expect(reports.length).toBe(EXAMPLES.length);
    for (const r of reports) {
      expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
      expect(reportShapeProblems(r)).toEqual([]);
    }
  });

  it('every mutation is refused by both, and the checker says where', () => {
    for (const base of reports)
      for (const [name, mutate] of MUTATIONS) {
        const r = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
        mutate(r);
        const doc: unknown = name === 'not an object' ? [r] : r;
        expect(validate(doc), `ajv on ${name}`).toBe(false);
        const problems = reportShapeProblems(doc);
        expect(problems.length, `checker on ${name}`).toBeGreaterThan(0);
        expect(problems.length).toBeLessThanOrEqual(20);
      }
  });

  it('a missing member is one problem, not a second one for its type (one finding per problem)', () => {
    const missing: [string, (r: Record<string, unknown>) => void, string, string][] = [
      ['chain', (r) => delete r['chain'], '', 'has no member "chain"'],
      ['findings', (r) => delete r['findings'], '', 'has no member "findings"'],
      ['artifact', (r) => delete r['artifact'], '', 'has no member "artifact"'],
      ['artifact id', (r) => delete at(r, 'artifact')['id'], '/artifact', 'has no member "id"'],
      [
        'a message',
        (r) => (r['findings'] = [{ rule: 'RPR-X-001', severity: 'fail' }]),
        '/findings/0',
        'has no member "message"',
      ],
      [
        'a statement',
        (r) => (r['authenticity'] = { status: 'unsigned' }),
        '/authenticity',
        'has no member "statement"',
      ],
    ];
    for (const [name, mutate, pointer, message] of missing) {
      const r = JSON.parse(JSON.stringify(reports[0])) as Record<string, unknown>;
      mutate(r);
      expect(reportShapeProblems(r), name).toEqual([{ pointer, message }]);
    }
  });

  it('run may be absent when the caller allows it (a bundled report), and nowhere else', () => {
    const { run: _run, ...rest } = reports[0]!;
    expect(reportShapeProblems(rest)).toEqual([{ pointer: '', message: 'has no member "run"' }]);
    expect(reportShapeProblems(rest, { runOptional: true })).toEqual([]);
  });

  it('a hostile document is answered in bounded problems', () => {
    const many = { ...reports[0]!, findings: Array.from({ length: 100_000 }, () => ({})) };
    expect(reportShapeProblems(many)).toHaveLength(20);
  });
});
