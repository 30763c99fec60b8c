/**
 * The governed-evidence envelope (`investigation/evidence-receipts.json`, V3/V4), parsed
 * closed at every level after upstream's EvidenceReceiptBundleV1 parser
 * (src/data/evidence/EvidenceReceipt.ts) and RFC 0009: an unknown or missing member, a
 * wrong type, a duplicate use triple or receipt id, a receipt whose provenance names
 * another dataset or kernel than its bundle, each is a `fail` finding with a pointer.
 * Unlike upstream (which throws at the first problem) every problem is listed, up to
 * MAX_FINDINGS.
 */
import type { Finding } from '../../../shared/report.js';
import { fail, type RuleId } from './findings.js';
import { escapePointerToken as esc, isPlainObject } from '../../core/closed.js';

export interface Use {
  consumerId: string;
  receiptId: string;
  requirementProfileId: string;
}

/**
 * What a requirement profile reads of a receipt (upstream's `axisSatisfied` and the
 * assumption checks of `evaluateEvidenceReceiptAgainstProfileV1`), taken from a receipt
 * that parsed closed.
 */
export interface ReceiptFacts {
  assumptions: { assumption: string; status: string }[];
  /** measurementContext.status is ESTABLISHED. */
  measurementEstablished: boolean;
  /** measurementContext.analyticalAdmission.status, null when absent or NOT_ESTABLISHED. */
  admission: string | null;
  hasGeometry: boolean;
  hasUncertainty: boolean;
  hasStability: boolean;
  sensitivityCount: number;
}

export interface Envelope {
  bundleDatasetFingerprint: string | null;
  bundleKernelVersion: string | null;
  receiptIds: string[];
  /** By receipt id, first occurrence (a duplicate id is a failure anyway). */
  receipts: Map<string, ReceiptFacts>;
  uses: Use[];
}

const MAX_FINDINGS = 64;
const ENTRY = 'investigation/evidence-receipts.json';

const ENUMS = {
  status: ['satisfied', 'violated', 'unchecked', 'notTestableFromData'],
  policy: ['fullDataset', 'completeCase', 'pairwiseComplete', 'filteredSubset', 'imputed', 'other'],
  scale: [
    'unknown',
    'identifier',
    'nominal',
    'ordinal',
    'interval',
    'ratio',
    'count',
    'proportion',
    'compositional',
    'circular',
    'temporal',
    'spatialCoordinate',
  ],
  structure: ['unknown', 'iid', 'grouped', 'repeatedMeasures', 'temporalSequence', 'spatial', 'spatiotemporal'],
  modelStatus: ['inferred', 'declared', 'confirmed', 'ambiguous', 'unknown'],
  admission: ['admitted', 'rejected'],
  semanticPolicy: ['allowInferred', 'requireDeclared', 'requireConfirmed'],
  metric: [
    'euclidean',
    'standardizedEuclidean',
    'mahalanobis',
    'gower',
    'aitchison',
    'hamming',
    'jaccard',
    'geodesic',
    'dynamicTimeWarping',
  ],
  transformation: ['standardize', 'robustScale', 'rankEncode', 'indicatorEncode', 'ilr', 'circularEmbedding'],
  missingness: ['preserve', 'completeCase', 'pairwiseComplete', 'impute'],
} as const;

type Obj = Record<string, unknown>;

class Closed {
  readonly findings: Finding[] = [];
  private add(rule: RuleId, message: string, pointer: string, expected?: unknown, actual?: unknown) {
    if (this.findings.length >= MAX_FINDINGS) return;
    const extra: { pointer: string; expected?: never; actual?: never } = { pointer: `entry:${ENTRY}#${pointer}` };
    if (expected !== undefined) extra.expected = expected as never;
    if (actual !== undefined) extra.actual = actual as never;
    this.findings.push(fail(rule, `${ENTRY} ${pointer || '(root)'}: ${message}`, extra));
  }
  typeError(ptr: string, what: string, v: unknown) {
    this.add('RPR-NEM-032', `must be ${what}`, ptr, what, describe(v));
  }
  record(v: unknown, ptr: string): Obj | null {
    if (isPlainObject(v)) return v;
    this.typeError(ptr, 'an object', v);
    return null;
  }
  exact(o: Obj, keys: readonly string[], ptr: string): void {
    for (const k of keys)
      if (!Object.hasOwn(o, k))
        this.add(
          'RPR-NEM-031',
          `member "${k}" is missing (the envelope is closed)`,
          `${ptr}/${esc(k)}`,
          'present',
          'absent',
        );
    for (const k of Object.keys(o))
      if (!keys.includes(k))
        this.add(
          'RPR-NEM-031',
          `member "${k}" is not allowed (the envelope is closed)`,
          `${ptr}/${esc(k)}`,
          'absent',
          'present',
        );
  }
  array(v: unknown, ptr: string): unknown[] | null {
    if (Array.isArray(v)) return v;
    this.typeError(ptr, 'an array', v);
    return null;
  }
  string(v: unknown, ptr: string): string | null {
    if (typeof v === 'string') return v;
    this.typeError(ptr, 'a string', v);
    return null;
  }
  nonEmpty(v: unknown, ptr: string): string | null {
    if (typeof v === 'string' && v.length > 0) return v;
    this.typeError(ptr, 'a non-empty string', v);
    return null;
  }
  oneOf(v: unknown, values: readonly string[], ptr: string, rule: RuleId = 'RPR-NEM-032'): void {
    if (typeof v === 'string' && values.includes(v)) return;
    this.add(rule, `must be one of ${values.join(', ')}`, ptr, [...values], describe(v));
  }
  finite(v: unknown, ptr: string): number | null {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    this.typeError(ptr, 'a finite number', v);
    return null;
  }
  nullableFinite(v: unknown, ptr: string): void {
    if (v !== null) this.finite(v, ptr);
  }
  count(v: unknown, ptr: string): number | null {
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
    this.typeError(ptr, 'a non-negative safe integer', v);
    return null;
  }
  strings(v: unknown, ptr: string): string[] | null {
    const a = this.array(v, ptr);
    if (!a) return null;
    const out: string[] = [];
    a.forEach((x, i) => {
      const s = this.nonEmpty(x, `${ptr}/${i}`);
      if (s !== null) out.push(s);
    });
    return out;
  }
  rule(rule: RuleId, message: string, ptr: string, expected?: unknown, actual?: unknown) {
    this.add(rule, message, ptr, expected, actual);
  }
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string')
    return v.length === 0 ? 'empty string' : JSON.stringify(v.length > 80 ? v.slice(0, 77) + '...' : v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return typeof v;
}

/** Parses the envelope value closed; the findings are all `fail`. */
export function checkEnvelope(value: unknown): { envelope: Envelope; findings: Finding[] } {
  const c = new Closed();
  const env: Envelope = {
    bundleDatasetFingerprint: null,
    bundleKernelVersion: null,
    receiptIds: [],
    receipts: new Map(),
    uses: [],
  };
  const root = c.record(value, '');
  if (root) {
    c.exact(root, ['schemaVersion', 'bundle', 'uses'], '');
    if (root['schemaVersion'] !== '1')
      c.rule(
        'RPR-NEM-032',
        'schemaVersion must be the string "1"',
        '/schemaVersion',
        '1',
        describe(root['schemaVersion']),
      );
    checkBundle(root['bundle'], c, env);
    const uses = c.array(root['uses'], '/uses');
    const triples = new Set<string>();
    uses?.forEach((u, i) => {
      const ptr = `/uses/${i}`;
      const o = c.record(u, ptr);
      if (!o) return;
      c.exact(o, ['consumerId', 'receiptId', 'requirementProfileId'], ptr);
      const consumerId = c.nonEmpty(o['consumerId'], `${ptr}/consumerId`);
      const receiptId = c.nonEmpty(o['receiptId'], `${ptr}/receiptId`);
      const requirementProfileId = c.nonEmpty(o['requirementProfileId'], `${ptr}/requirementProfileId`);
      if (consumerId === null || receiptId === null || requirementProfileId === null) return;
      const key = JSON.stringify([consumerId, receiptId, requirementProfileId]);
      if (triples.has(key)) {
        c.rule('RPR-NEM-033', 'duplicate use (consumerId, receiptId, requirementProfileId)', ptr);
        return;
      }
      triples.add(key);
      env.uses.push({ consumerId, receiptId, requirementProfileId });
    });
    // Whether each use's receipt exists is not a parse rule (upstream's parser leaves it
    // to the governed loader): a missing one resolves to RECEIPT_NOT_FOUND (profiles.ts).
  }
  return { envelope: env, findings: c.findings };
}

function checkBundle(value: unknown, c: Closed, env: Envelope): void {
  const b = c.record(value, '/bundle');
  if (!b) return;
  c.exact(b, ['schemaVersion', 'datasetFingerprint', 'kernelVersion', 'receipts'], '/bundle');
  if (b['schemaVersion'] !== '1')
    c.rule(
      'RPR-NEM-032',
      'schemaVersion must be the string "1"',
      '/bundle/schemaVersion',
      '1',
      describe(b['schemaVersion']),
    );
  env.bundleDatasetFingerprint = c.nonEmpty(b['datasetFingerprint'], '/bundle/datasetFingerprint');
  env.bundleKernelVersion = c.nonEmpty(b['kernelVersion'], '/bundle/kernelVersion');
  const receipts = c.array(b['receipts'], '/bundle/receipts');
  const seen = new Set<string>();
  receipts?.forEach((r, i) => {
    const ptr = `/bundle/receipts/${i}`;
    const id = checkReceipt(r, ptr, c, env);
    if (id === null) return;
    if (seen.has(id)) c.rule('RPR-NEM-034', `duplicate receiptId "${id}"`, `${ptr}/receiptId`);
    else {
      seen.add(id);
      env.receiptIds.push(id);
      env.receipts.set(id, receiptFacts(r as Obj));
    }
  });
}

/** Only meaningful once the receipt parsed without findings (resolution never runs otherwise). */
function receiptFacts(r: Obj): ReceiptFacts {
  const mc = (r['measurementContext'] ?? {}) as Obj;
  const admission = mc['analyticalAdmission'];
  const assumptions = Array.isArray(r['assumptions']) ? (r['assumptions'] as Obj[]) : [];
  return {
    assumptions: assumptions.map((a) => ({ assumption: String(a?.['assumption']), status: String(a?.['status']) })),
    measurementEstablished: mc['status'] === 'ESTABLISHED',
    admission: typeof admission === 'object' && admission !== null ? String((admission as Obj)['status']) : null,
    hasGeometry: r['geometry'] !== null,
    hasUncertainty: r['uncertainty'] !== null,
    hasStability: r['stability'] !== null,
    sensitivityCount: Array.isArray(r['sensitivity']) ? r['sensitivity'].length : 0,
  };
}

const RECEIPT_KEYS = [
  'receiptId',
  'claimId',
  'estimand',
  'measurementContext',
  'geometry',
  'assumptions',
  'sampleSupport',
  'uncertainty',
  'stability',
  'sensitivity',
  'limitations',
  'methodProvenance',
];

function checkReceipt(value: unknown, ptr: string, c: Closed, env: Envelope): string | null {
  const r = c.record(value, ptr);
  if (!r) return null;
  c.exact(r, RECEIPT_KEYS, ptr);
  const id = c.nonEmpty(r['receiptId'], `${ptr}/receiptId`);
  c.nonEmpty(r['claimId'], `${ptr}/claimId`);
  c.nonEmpty(r['estimand'], `${ptr}/estimand`);
  checkMeasurementContext(r['measurementContext'], `${ptr}/measurementContext`, c);
  if (r['geometry'] !== null) {
    const g = c.record(r['geometry'], `${ptr}/geometry`);
    if (g) {
      c.exact(g, ['columns', 'metric', 'transformations', 'missingnessPolicy'], `${ptr}/geometry`);
      c.strings(g['columns'], `${ptr}/geometry/columns`);
      c.oneOf(g['metric'], ENUMS.metric, `${ptr}/geometry/metric`);
      const t = c.array(g['transformations'], `${ptr}/geometry/transformations`);
      t?.forEach((x, i) => c.oneOf(x, ENUMS.transformation, `${ptr}/geometry/transformations/${i}`));
      c.oneOf(g['missingnessPolicy'], ENUMS.missingness, `${ptr}/geometry/missingnessPolicy`);
    }
  }
  c.array(r['assumptions'], `${ptr}/assumptions`)?.forEach((a, i) => {
    const p = `${ptr}/assumptions/${i}`;
    const o = c.record(a, p);
    if (!o) return;
    c.exact(o, ['assumption', 'status', 'detail'], p);
    c.nonEmpty(o['assumption'], `${p}/assumption`);
    c.oneOf(o['status'], ENUMS.status, `${p}/status`, 'RPR-NEM-035');
    c.nonEmpty(o['detail'], `${p}/detail`);
  });
  checkSampleSupport(r['sampleSupport'], `${ptr}/sampleSupport`, c);
  if (r['uncertainty'] !== null) {
    const u = c.record(r['uncertainty'], `${ptr}/uncertainty`);
    if (u) {
      c.exact(u, ['method', 'lower', 'upper', 'standardError'], `${ptr}/uncertainty`);
      c.nonEmpty(u['method'], `${ptr}/uncertainty/method`);
      for (const k of ['lower', 'upper', 'standardError']) c.nullableFinite(u[k], `${ptr}/uncertainty/${k}`);
    }
  }
  if (r['stability'] !== null) {
    const s = c.record(r['stability'], `${ptr}/stability`);
    if (s) {
      c.exact(s, ['method', 'score', 'repetitions'], `${ptr}/stability`);
      c.nonEmpty(s['method'], `${ptr}/stability/method`);
      c.finite(s['score'], `${ptr}/stability/score`);
      c.count(s['repetitions'], `${ptr}/stability/repetitions`);
    }
  }
  c.array(r['sensitivity'], `${ptr}/sensitivity`)?.forEach((x, i) => {
    const p = `${ptr}/sensitivity/${i}`;
    const o = c.record(x, p);
    if (!o) return;
    c.exact(o, ['factor', 'testedValues', 'materiallyChanged'], p);
    c.nonEmpty(o['factor'], `${p}/factor`);
    c.strings(o['testedValues'], `${p}/testedValues`);
    if (typeof o['materiallyChanged'] !== 'boolean')
      c.typeError(`${p}/materiallyChanged`, 'a boolean', o['materiallyChanged']);
  });
  c.strings(r['limitations'], `${ptr}/limitations`);
  const mp = c.record(r['methodProvenance'], `${ptr}/methodProvenance`);
  if (mp) {
    const p = `${ptr}/methodProvenance`;
    c.exact(mp, ['method', 'methodVersion', 'kernelVersion', 'datasetFingerprint', 'parameters'], p);
    for (const k of ['method', 'methodVersion']) c.nonEmpty(mp[k], `${p}/${k}`);
    const fp = c.nonEmpty(mp['datasetFingerprint'], `${p}/datasetFingerprint`);
    const kv = c.nonEmpty(mp['kernelVersion'], `${p}/kernelVersion`);
    c.array(mp['parameters'], `${p}/parameters`)?.forEach((pair, i) => {
      if (!Array.isArray(pair) || pair.length !== 2) {
        c.typeError(`${p}/parameters/${i}`, 'a [name, value] pair of strings', pair);
        return;
      }
      c.nonEmpty(pair[0], `${p}/parameters/${i}/0`);
      c.string(pair[1], `${p}/parameters/${i}/1`);
    });
    if (fp !== null && env.bundleDatasetFingerprint !== null && fp !== env.bundleDatasetFingerprint) {
      c.rule(
        'RPR-NEM-037',
        "the receipt's provenance names another dataset than its bundle",
        `${p}/datasetFingerprint`,
        env.bundleDatasetFingerprint,
        fp,
      );
    }
    if (kv !== null && env.bundleKernelVersion !== null && kv !== env.bundleKernelVersion) {
      c.rule(
        'RPR-NEM-037',
        "the receipt's provenance names another kernel than its bundle",
        `${p}/kernelVersion`,
        env.bundleKernelVersion,
        kv,
      );
    }
  }
  return id;
}

function checkMeasurementContext(value: unknown, ptr: string, c: Closed): void {
  const m = c.record(value, ptr);
  if (!m) return;
  if (m['status'] === 'NOT_ESTABLISHED') {
    c.exact(m, ['status'], ptr);
    return;
  }
  if (m['status'] !== 'ESTABLISHED') {
    c.oneOf(m['status'], ['NOT_ESTABLISHED', 'ESTABLISHED'], `${ptr}/status`);
    return;
  }
  c.exact(m, ['status', 'records', 'semanticAdmissionPolicy', 'analyticalAdmission'], ptr);
  const records = c.array(m['records'], `${ptr}/records`);
  if (records && records.length === 0) c.typeError(`${ptr}/records`, 'a non-empty array', records);
  records?.forEach((rec, i) => {
    const p = `${ptr}/records/${i}`;
    const o = c.record(rec, p);
    if (!o) return;
    c.exact(o, ['model', 'status', 'basis'], p);
    const model = c.record(o['model'], `${p}/model`);
    if (model) {
      c.exact(model, ['column', 'scale', 'observationStructure', 'compositionalGroup'], `${p}/model`);
      c.nonEmpty(model['column'], `${p}/model/column`);
      c.oneOf(model['scale'], ENUMS.scale, `${p}/model/scale`);
      c.oneOf(model['observationStructure'], ENUMS.structure, `${p}/model/observationStructure`);
      if (model['compositionalGroup'] !== null)
        c.nonEmpty(model['compositionalGroup'], `${p}/model/compositionalGroup`);
    }
    c.oneOf(o['status'], ENUMS.modelStatus, `${p}/status`);
    c.array(o['basis'], `${p}/basis`)?.forEach((b, j) => {
      const q = `${p}/basis/${j}`;
      const bo = c.record(b, q);
      if (!bo) return;
      c.exact(bo, ['source', 'rationale'], q);
      c.nonEmpty(bo['source'], `${q}/source`);
      c.nonEmpty(bo['rationale'], `${q}/rationale`);
    });
  });
  if (m['semanticAdmissionPolicy'] !== null)
    c.oneOf(m['semanticAdmissionPolicy'], ENUMS.semanticPolicy, `${ptr}/semanticAdmissionPolicy`);
  if (m['analyticalAdmission'] !== null) {
    const p = `${ptr}/analyticalAdmission`;
    const a = c.record(m['analyticalAdmission'], p);
    if (!a) return;
    c.exact(a, ['status', 'issues'], p);
    c.oneOf(a['status'], ENUMS.admission, `${p}/status`);
    c.array(a['issues'], `${p}/issues`)?.forEach((x, i) => {
      const q = `${p}/issues/${i}`;
      const o = c.record(x, q);
      if (!o) return;
      c.exact(o, ['column', 'reason'], q);
      if (o['column'] !== null) c.nonEmpty(o['column'], `${q}/column`);
      c.nonEmpty(o['reason'], `${q}/reason`);
    });
  }
}

function checkSampleSupport(value: unknown, ptr: string, c: Closed): void {
  const s = c.record(value, ptr);
  if (!s) return;
  c.exact(s, ['totalRows', 'rowsUsed', 'rowsExcluded', 'columns', 'policy', 'exclusionReasons'], ptr);
  const total = c.count(s['totalRows'], `${ptr}/totalRows`);
  const used = c.count(s['rowsUsed'], `${ptr}/rowsUsed`);
  const excluded = c.count(s['rowsExcluded'], `${ptr}/rowsExcluded`);
  if (total !== null && used !== null && excluded !== null && (used > total || excluded !== total - used)) {
    c.rule(
      'RPR-NEM-036',
      'rowsExcluded must equal totalRows - rowsUsed',
      `${ptr}/rowsExcluded`,
      total - used,
      excluded,
    );
  }
  c.strings(s['columns'], `${ptr}/columns`);
  c.oneOf(s['policy'], ENUMS.policy, `${ptr}/policy`);
  let explained = 0;
  c.array(s['exclusionReasons'], `${ptr}/exclusionReasons`)?.forEach((x, i) => {
    const q = `${ptr}/exclusionReasons/${i}`;
    const o = c.record(x, q);
    if (!o) return;
    c.exact(o, ['reason', 'rowCount'], q);
    c.nonEmpty(o['reason'], `${q}/reason`);
    explained += c.count(o['rowCount'], `${q}/rowCount`) ?? 0;
  });
  if (excluded !== null && explained > excluded)
    c.rule(
      'RPR-NEM-036',
      'exclusion reasons explain more rows than were excluded',
      `${ptr}/exclusionReasons`,
      excluded,
      explained,
    );
}
