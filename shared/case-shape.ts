/**
 * Whether a value is a `reprise.case/v1` case report as docs/case.schema.json says: every
 * member the schema defines, its type, its enums, and no member it does not define. A case
 * bundle's `case.json` is read by code that dereferences every list and count, and shown on
 * a page: a malformed one is refused here, before anything reads it. Held to the schema by
 * test/evidence-bundle/case-shape.test.ts, which runs ajv over it on the same documents.
 * Pure; imports only shared/.
 */
import { CASE_SCHEMA } from './case.js';
import { finding, HASH, Problems, RULE, SEVERITIES, VERDICTS, type ShapeProblem } from './report-shape.js';

type Obj = Record<string, unknown>;
const EVENT_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{0,8}[1-9])?Z$/;
const path = (p: Problems, v: unknown, at: string, nullable = false) => p.string(v, at, { nonEmpty: true, nullable });
const hash = (p: Problems, v: unknown, at: string, nullable = false) => p.string(v, at, { pattern: HASH, nullable });

const COUNTS = ['fail', 'unavailable', 'warning', 'info'];
const ARTIFACT = ['path', 'kind', 'sha256', 'verdict', 'id', 'reportDigest', 'counts'];
/** Written only when there is one (CaseArtifact.needs). */
const ARTIFACT_OPTIONAL = ['needs'];
function artifact(p: Problems, a: unknown, at: string): void {
  if (!p.members(a, at, ARTIFACT, [...ARTIFACT, ...ARTIFACT_OPTIONAL])) return;
  path(p, a['path'], `${at}/path`);
  p.string(a['kind'], `${at}/kind`, { nonEmpty: true });
  hash(p, a['sha256'], `${at}/sha256`, true);
  p.oneOf(a['verdict'], `${at}/verdict`, VERDICTS);
  p.string(a['id'], `${at}/id`, { nullable: true });
  hash(p, a['reportDigest'], `${at}/reportDigest`);
  const c = a['counts'];
  if (p.members(c, `${at}/counts`, COUNTS, COUNTS)) for (const k of COUNTS) p.count(c[k], `${at}/counts/${k}`);
  if ('needs' in a) nonEmpty(p, a['needs'], `${at}/needs`, (n, nat) => need(p, n, nat));
}

const OPTION_NAME = /^[a-z][A-Za-z0-9]*$/;
const FLAG = /^[a-z][a-z0-9-]*$/;
const NEED = ['option', 'flag', 'rules'];
function need(p: Problems, n: unknown, at: string): void {
  if (!p.members(n, at, NEED, NEED)) return;
  p.string(n['option'], `${at}/option`, { pattern: OPTION_NAME });
  p.string(n['flag'], `${at}/flag`, { pattern: FLAG });
  nonEmpty(p, n['rules'], `${at}/rules`, (r, rat) => p.string(r, rat, { pattern: RULE }));
}

/** An array of at least one item. */
function nonEmpty(p: Problems, v: unknown, at: string, each: (item: unknown, at: string) => void): void {
  if (Array.isArray(v) && v.length === 0) return p.add(at, 'must not be empty');
  p.array(v, at, each);
}

const END = ['artifact', 'pointer'];
const LINK = ['from', 'to', 'relation', 'value', 'status'];
function link(p: Problems, l: unknown, at: string): void {
  if (!p.members(l, at, LINK, LINK)) return;
  const { from, to } = l as { from: unknown; to: unknown };
  if (p.members(from, `${at}/from`, END, END)) {
    path(p, from['artifact'], `${at}/from/artifact`);
    p.string(from['pointer'], `${at}/from/pointer`);
  }
  p.string(l['relation'], `${at}/relation`, { nonEmpty: true });
  p.string(l['value'], `${at}/value`, { nonEmpty: true });
  p.oneOf(l['status'], `${at}/status`, ['found', 'missing']);
  if (!p.members(to, `${at}/to`, END, END)) return;
  path(p, to['artifact'], `${at}/to/artifact`, true);
  p.string(to['pointer'], `${at}/to/pointer`, { nullable: true });
  // A missing link names nothing in the case; a found one names the artifact it found.
  if (l['status'] === 'missing' && (to['artifact'] !== null || to['pointer'] !== null))
    p.add(`${at}/to`, 'must be {artifact: null, pointer: null} when the link is missing');
  if (l['status'] === 'found' && typeof to['artifact'] !== 'string')
    p.add(`${at}/to/artifact`, 'must be a string when the link is found');
}

const EVENT = ['atUtc', 'artifact', 'kind', 'node', 'pointer', 'label', 'severity'];
function event(p: Problems, e: unknown, at: string): void {
  if (!p.members(e, at, EVENT, EVENT)) return;
  p.string(e['atUtc'], `${at}/atUtc`, { pattern: EVENT_UTC });
  path(p, e['artifact'], `${at}/artifact`);
  p.string(e['kind'], `${at}/kind`, { nonEmpty: true });
  p.string(e['node'], `${at}/node`, { nullable: true });
  p.string(e['pointer'], `${at}/pointer`);
  p.string(e['label'], `${at}/label`, { nonEmpty: true });
  p.oneOf(e['severity'], `${at}/severity`, SEVERITIES);
}

const JUDGEMENT = [
  'journal',
  'seq',
  'entryHash',
  'artifact',
  'subject',
  'decision',
  'rationale',
  'author',
  'atUtc',
  'supersedes',
];
/** Written since judgements carry whether they count; absent in case reports written before (shared/case.ts). */
const JUDGEMENT_LATER = ['standing', 'problem'];
function judgement(p: Problems, j: unknown, at: string): void {
  if (!p.members(j, at, JUDGEMENT, [...JUDGEMENT, ...JUDGEMENT_LATER])) return;
  path(p, j['journal'], `${at}/journal`);
  p.count(j['seq'], `${at}/seq`);
  hash(p, j['entryHash'], `${at}/entryHash`);
  path(p, j['artifact'], `${at}/artifact`, true);
  p.string(j['subject'], `${at}/subject`, { nonEmpty: true });
  for (const k of ['decision', 'rationale', 'author', 'atUtc']) p.string(j[k], `${at}/${k}`);
  hash(p, j['supersedes'], `${at}/supersedes`, true);
  if ('standing' in j) p.oneOf(j['standing'], `${at}/standing`, ['counts', 'does-not-count', 'unchecked']);
  if ('problem' in j) p.string(j['problem'], `${at}/problem`, { nonEmpty: true, nullable: true });
}

const REQUIRED = ['schema', 'verdict', 'artifacts', 'links', 'timeline', 'judgements', 'findings'];

/** Why `v` is not a `reprise.case/v1` case report (at most MAX_SHAPE_PROBLEMS), or [] when it is one. */
export function caseShapeProblems(v: unknown): ShapeProblem[] {
  const p = new Problems();
  if (!p.members(v, '', REQUIRED, [...REQUIRED, 'mode'])) return p.list;
  const c: Obj = v;
  p.oneOf(c['schema'], '/schema', [CASE_SCHEMA]);
  if ('mode' in c) p.oneOf(c['mode'], '/mode', ['verify', 'replay']);
  p.oneOf(c['verdict'], '/verdict', VERDICTS);
  p.array(c['artifacts'], '/artifacts', (a, at) => artifact(p, a, at));
  p.array(c['links'], '/links', (l, at) => link(p, l, at));
  p.array(c['timeline'], '/timeline', (e, at) => event(p, e, at));
  p.array(c['judgements'], '/judgements', (j, at) => judgement(p, j, at));
  p.array(c['findings'], '/findings', (f, at) => finding(p, f, at));
  return p.list;
}
