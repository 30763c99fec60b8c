/**
 * Whether a value is a `reprise.report/v1` report as docs/report.schema.json says: one
 * checker, shared by whatever reads a report it did not make (the exported-report kind,
 * app/kinds/report/), written from the schema and held to it by
 * test/report-kind/shape.test.ts, which runs ajv over the schema on the same documents.
 * `run` may be absent when the caller allows it (a report as an evidence bundle holds it).
 * Pure; imports only shared/.
 */
import { escapePointerToken } from './json-pointer.js';
import { isPlainObject as isObj } from './plain-object.js';
import { ARTIFACT_KINDS, AUTHENTICITY_STATUSES, REPORT_SCHEMA } from './report.js';

export interface ShapeProblem {
  /** RFC 6901 pointer into the document. */
  pointer: string;
  message: string;
}

/** At most this many problems are listed: one is enough to refuse, a few help to repair. */
export const MAX_SHAPE_PROBLEMS = 20;

type Obj = Record<string, unknown>;
export const HASH = /^sha256:[0-9a-f]{64}$/;
const KEY_ID = /^ed25519:[0-9a-f]{64}$/;
export const RULE = /^[A-Z][A-Z0-9_-]*[A-Z0-9]$/;
const FINDING_POINTER = /^(|\/.*|entry:.*|line:[0-9]+.*)$/s;
const UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const VERDICTS = ['pass', 'fail', 'unavailable'];
export const SEVERITIES = ['fail', 'unavailable', 'warning', 'info'];

/** The problems found so far, and the checks that add them: shared by the checker of every closed document (case-shape.ts). */
export class Problems {
  readonly list: ShapeProblem[] = [];
  /** Where a required member is missing: said once, as missing, not again as of the wrong type. */
  private readonly missing = new Set<string>();
  add(pointer: string, message: string): void {
    if (this.list.length < MAX_SHAPE_PROBLEMS && !this.missing.has(pointer)) this.list.push({ pointer, message });
  }
  get full(): boolean {
    return this.list.length >= MAX_SHAPE_PROBLEMS;
  }
  /** An object with exactly the allowed members and at least the required ones; false when not an object. */
  members(v: unknown, at: string, required: readonly string[], allowed: readonly string[]): v is Obj {
    if (!isObj(v)) return (this.add(at, 'must be a JSON object'), false);
    for (const k of required)
      if (!Object.hasOwn(v, k)) {
        this.add(at, `has no member "${k}"`);
        this.missing.add(`${at}/${escapePointerToken(k)}`);
      }
    for (const k of Object.keys(v))
      if (!allowed.includes(k)) this.add(`${at}/${escapePointerToken(k)}`, 'is no member the schema allows');
    return true;
  }
  string(v: unknown, at: string, opts: { pattern?: RegExp; nonEmpty?: boolean; nullable?: boolean } = {}): void {
    if (v === null && opts.nullable) return;
    if (typeof v !== 'string') return this.add(at, opts.nullable ? 'must be a string or null' : 'must be a string');
    if (opts.nonEmpty && v === '') this.add(at, 'must not be empty');
    if (opts.pattern && !opts.pattern.test(v)) this.add(at, `must match ${String(opts.pattern)}`);
  }
  oneOf(v: unknown, at: string, values: readonly unknown[]): void {
    if (!values.includes(v)) this.add(at, `must be one of ${values.map((x) => JSON.stringify(x)).join(', ')}`);
  }
  /** An integer ≥ 0. */
  count(v: unknown, at: string): void {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) this.add(at, 'must be an integer ≥ 0');
  }
  array(v: unknown, at: string, each: (item: unknown, at: string) => void): void {
    if (!Array.isArray(v)) return this.add(at, 'must be an array');
    for (let i = 0; i < v.length && !this.full; i++) each(v[i], `${at}/${i}`);
  }
}

const FINDING = ['rule', 'severity', 'message', 'pointer', 'expected', 'actual'];
/** A finding as report.schema.json's $defs/finding says. */
export function finding(p: Problems, f: unknown, at: string): void {
  if (!p.members(f, at, ['rule', 'severity', 'message'], FINDING)) return;
  p.string(f['rule'], `${at}/rule`, { pattern: RULE });
  p.oneOf(f['severity'], `${at}/severity`, SEVERITIES);
  p.string(f['message'], `${at}/message`, { nonEmpty: true });
  if ('pointer' in f) p.string(f['pointer'], `${at}/pointer`, { pattern: FINDING_POINTER });
}

const NODE = ['id', 'label', 'recorded', 'recomputed', 'status', 'parents', 'pointer'];
function chainNode(p: Problems, n: unknown, at: string): void {
  if (!p.members(n, at, NODE.slice(0, 6), NODE)) return;
  p.string(n['id'], `${at}/id`, { nonEmpty: true });
  p.string(n['label'], `${at}/label`);
  p.string(n['recorded'], `${at}/recorded`, { nullable: true });
  p.string(n['recomputed'], `${at}/recomputed`, { nullable: true });
  p.oneOf(n['status'], `${at}/status`, ['match', 'mismatch', 'missing', 'unresolved']);
  p.array(n['parents'], `${at}/parents`, (x, a) => p.string(x, a));
  if ('pointer' in n) p.string(n['pointer'], `${at}/pointer`);
}

const COMPARISON = ['output', 'mode', 'original', 'replayed', 'delta', 'epsilon', 'status', 'reason'];
const numberOrNull = (v: unknown) => v === null || typeof v === 'number';
function comparison(p: Problems, c: unknown, at: string): void {
  if (!p.members(c, at, ['output', 'mode', 'original', 'replayed', 'status'], COMPARISON)) return;
  p.string(c['output'], `${at}/output`);
  p.oneOf(c['mode'], `${at}/mode`, ['EXACT', 'BANDED', 'RECORDED']);
  for (const k of ['delta', 'epsilon'])
    if (Object.hasOwn(c, k) && !numberOrNull(c[k])) p.add(`${at}/${k}`, 'must be a number or null');
  p.oneOf(c['status'], `${at}/status`, VERDICTS);
  if ('reason' in c) p.string(c['reason'], `${at}/reason`);
}

const AUTH = ['status', 'keyId', 'role', 'label', 'statement'];
function authenticity(p: Problems, a: unknown, at: string): void {
  if (!p.members(a, at, ['status', 'statement'], AUTH)) return;
  p.oneOf(a['status'], `${at}/status`, AUTHENTICITY_STATUSES);
  if ('keyId' in a) p.string(a['keyId'], `${at}/keyId`, { pattern: KEY_ID });
  if ('role' in a) p.oneOf(a['role'], `${at}/role`, ['reviewer', 'quarantine-officer', 'trainer']);
  if ('label' in a) p.string(a['label'], `${at}/label`, { nonEmpty: true });
  p.string(a['statement'], `${at}/statement`, { nonEmpty: true });
}

function run(p: Problems, r: unknown): void {
  if (
    !p.members(
      r,
      '/run',
      ['tool', 'version', 'startedAtUtc', 'durationMs'],
      ['tool', 'version', 'startedAtUtc', 'durationMs'],
    )
  )
    return;
  p.oneOf(r['tool'], '/run/tool', ['reprise']);
  p.string(r['version'], '/run/version', { nonEmpty: true });
  p.string(r['startedAtUtc'], '/run/startedAtUtc', { pattern: UTC });
  p.count(r['durationMs'], '/run/durationMs');
}

const TOP = [
  'schema',
  'artifact',
  'verdict',
  'findings',
  'chain',
  'comparisons',
  'events',
  'details',
  'authenticity',
  'run',
];
const ARTIFACT = ['path', 'kind', 'id', 'sha256'];

/** Why `v` is not a `reprise.report/v1` report (at most MAX_SHAPE_PROBLEMS), or [] when it is one. */
export function reportShapeProblems(v: unknown, opts: { runOptional?: boolean } = {}): ShapeProblem[] {
  const p = new Problems();
  const required = TOP.filter((k) => ['schema', 'artifact', 'verdict', 'findings', 'chain'].includes(k));
  if (!p.members(v, '', opts.runOptional ? required : [...required, 'run'], TOP)) return p.list;
  p.oneOf(v['schema'], '/schema', [REPORT_SCHEMA]);
  if (p.members(v['artifact'], '/artifact', ARTIFACT, ARTIFACT)) {
    const a = v['artifact'];
    p.string(a['path'], '/artifact/path');
    p.oneOf(a['kind'], '/artifact/kind', ARTIFACT_KINDS);
    p.string(a['id'], '/artifact/id', { nullable: true });
    p.string(a['sha256'], '/artifact/sha256', { nullable: true, pattern: HASH });
  }
  p.oneOf(v['verdict'], '/verdict', VERDICTS);
  p.array(v['findings'], '/findings', (f, at) => finding(p, f, at));
  p.array(v['chain'], '/chain', (n, at) => chainNode(p, n, at));
  if ('comparisons' in v) p.array(v['comparisons'], '/comparisons', (c, at) => comparison(p, c, at));
  if ('events' in v && !Array.isArray(v['events'])) p.add('/events', 'must be an array');
  if ('details' in v && !isObj(v['details'])) p.add('/details', 'must be a JSON object');
  if ('authenticity' in v) authenticity(p, v['authenticity'], '/authenticity');
  if ('run' in v) run(p, v['run']);
  return p.list;
}
