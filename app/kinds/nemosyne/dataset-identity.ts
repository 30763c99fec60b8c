/**
 * Dataset identity `sha256-canonical-dataset-v1` (upstream src/data/DatasetIdentity.ts):
 * SHA-256 of the canonical JSON (RFC 8785) of {columns: [{name, type}], edges?, name,
 * rows}, each row projected onto the declared columns in declared order (a missing value
 * is null; other members, row ids and presentation fields dropped). Bare lowercase hex.
 *
 * Upstream hashes the dataset as `Dataset.fromJSON` rebuilt it (src/data/Dataset.ts), not
 * as stored, and a package's fingerprint commits to that rebuilt dataset only: a column
 * type is upper-cased (`"numeric"` is hashed as `"NUMERIC"`), an empty name becomes
 * `"dataset"`, the names in DROPPED are removed from rows and from the values inside rows
 * and edges, and the projection reads a row through a plain `{}` (INHERITED). What
 * `Dataset.fromJSON` throws on, its replay reports as "Failed to parse dataset from
 * package": DatasetShapeError here. Reprise's readings of upstream are docs/nemosyne.md,
 * "Dataset identity".
 */
import { sha256Hex } from '../../core/hash.js';
import { canonicalizeValue, JcsError, MAX_DEPTH } from '../../core/jcs.js';
import { isPlainObject as isObject, jsonType } from '../../core/closed.js';

export const DATASET_IDENTITY_ALGORITHM = 'sha256-canonical-dataset-v1';

export class DatasetShapeError extends Error {
  constructor(
    message: string,
    readonly pointer: string,
  ) {
    super(message);
  }
}

/**
 * Upstream's DANGEROUS_ROW_KEYS: `cloneRow` drops them from a row, and
 * `cloneSanitizedJsonValue` from every object inside a row's value or an edge's value.
 * An edge keeps them as its own members (`cloneEdge` spreads the edge, then sanitizes only
 * its values), and so they are hashed there.
 */
const DROPPED: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Object.prototype's members (ECMA-262 §20.1.3 and Annex B.2.2). Upstream projects a row
 * by `projected[name] = row?.[name]` into a plain `{}`, so a declared column the row does
 * not hold under one of these names reads the inherited member: a function, which its
 * canonical JSON leaves out, or, for `__proto__`, the prototype, which the assignment sets
 * instead of adding a member. Either way the column is absent from the hashed row, not null.
 */
const INHERITED: ReadonlySet<string> = new Set([
  'constructor',
  '__defineGetter__',
  '__defineSetter__',
  'hasOwnProperty',
  '__lookupGetter__',
  '__lookupSetter__',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toString',
  'valueOf',
  '__proto__',
  'toLocaleString',
]);

/** The projection that is hashed; throws DatasetShapeError when the dataset is not one. */
export function datasetIdentityInput(dataset: unknown): Record<string, unknown> {
  if (!isObject(dataset)) throw new DatasetShapeError('the dataset is not a JSON object', '');
  if (typeof dataset['name'] !== 'string') throw new DatasetShapeError('the dataset has no string "name"', '/name');
  const columns = columnsOf(dataset['columns']);
  const rows = rowsOf(dataset['rows'], columns);
  const edges = edgesOf(dataset['edges']);
  checkRowIds(dataset['rowIds'], rows.length);
  const out: Record<string, unknown> = { columns };
  if (edges) out['edges'] = edges;
  out['name'] = dataset['name'] || 'dataset';
  out['rows'] = rows;
  return out;
}

function columnsOf(cols: unknown): { name: string; type: string }[] {
  if (!Array.isArray(cols)) throw new DatasetShapeError('the dataset has no "columns" array', '/columns');
  return cols.map((c, i) => {
    if (!isObject(c) || typeof c['name'] !== 'string' || typeof c['type'] !== 'string')
      throw new DatasetShapeError('a column is not {name: string, type: string}', `/columns/${i}`);
    return { name: c['name'], type: c['type'].toUpperCase() };
  });
}

function rowsOf(rows: unknown, columns: readonly { name: string }[]): Record<string, unknown>[] {
  if (!Array.isArray(rows)) throw new DatasetShapeError('the dataset has no "rows" array', '/rows');
  return rows.map((row, i) => {
    if (!isObject(row)) throw new DatasetShapeError('a row is not a JSON object', `/rows/${i}`);
    return projectRow(row, columns);
  });
}

/** One row as upstream hashes it: a member left out (INHERITED) is not a null one. */
function projectRow(row: Record<string, unknown>, columns: readonly { name: string }[]): Record<string, unknown> {
  const projected = Object.create(null) as Record<string, unknown>;
  for (const { name } of columns) {
    if (!DROPPED.has(name) && Object.hasOwn(row, name)) projected[name] = withoutDropped(row[name], 3);
    else if (!INHERITED.has(name)) projected[name] = null;
  }
  return projected;
}

/**
 * `edges?.map(cloneEdge)`: null or missing is no edges; any other value but an array (a
 * `false`, `0` or `""` included) has no `map`, and upstream's fromJSON throws.
 */
function edgesOf(edges: unknown): Record<string, unknown>[] | undefined {
  if (edges === undefined || edges === null) return undefined;
  if (!Array.isArray(edges))
    throw new DatasetShapeError(
      `"edges" is ${jsonType(edges)}, not an array: upstream's Dataset.fromJSON throws on it (its replay: "Failed to parse dataset from package")`,
      '/edges',
    );
  return edges.map((e, i) => {
    if (!isObject(e)) throw new DatasetShapeError('an edge is not a JSON object', `/edges/${i}`);
    // fromEntries, like the spread, makes an own `__proto__` a member rather than a prototype.
    return Object.fromEntries(Object.entries(e).map(([k, v]) => [k, withoutDropped(v, 3)]));
  });
}

/**
 * Upstream's Dataset constructor (`_setRowIds`) calls `rowIds.some(…)` once `rowIds` is
 * truthy and its length is the row count: a string or an object of that length has no
 * `some`, and fromJSON throws. Otherwise row ids are not hashed.
 */
function checkRowIds(rowIds: unknown, rowCount: number): void {
  if (!rowIds || Array.isArray(rowIds)) return;
  const length = typeof rowIds === 'string' ? rowIds.length : isObject(rowIds) ? rowIds['length'] : undefined;
  if (length === rowCount)
    throw new DatasetShapeError(
      `"rowIds" is ${jsonType(rowIds)} with the row count as its length, not an array: upstream's Dataset.fromJSON throws on it (its replay: "Failed to parse dataset from package")`,
      '/rowIds',
    );
}

/** A JSON value without the DROPPED names at any depth (upstream's cloneSanitizedJsonValue). */
function withoutDropped(v: unknown, depth: number): unknown {
  if (typeof v !== 'object' || v === null) return v;
  // The parse bounds depth already; this keeps a value built in memory off the call stack's end.
  if (depth >= MAX_DEPTH) throw new JcsError('ERR_DEPTH', `nesting deeper than ${MAX_DEPTH}`);
  if (Array.isArray(v)) return v.map((e) => withoutDropped(e, depth + 1));
  const o = v as Record<string, unknown>;
  const kept = Object.keys(o).filter((k) => !DROPPED.has(k));
  return Object.fromEntries(kept.map((k) => [k, withoutDropped(o[k], depth + 1)]));
}

/** Bare hex `sha256-canonical-dataset-v1` identity of a parsed dataset. */
export function datasetIdentityHex(dataset: unknown): string {
  return sha256Hex(canonicalizeValue(datasetIdentityInput(dataset)));
}
