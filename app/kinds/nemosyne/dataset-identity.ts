/**
 * Dataset identity `sha256-canonical-dataset-v1` (upstream src/data/DatasetIdentity.ts):
 * SHA-256 of the canonical JSON (RFC 8785) of {columns: [{name, type}], edges?, name,
 * rows}, each row projected onto the declared columns in declared order (a missing value
 * is null; other members, row ids and presentation fields dropped). Bare lowercase hex.
 *
 * Upstream hashes the dataset as `Dataset.fromJSON` rebuilt it (src/data/Dataset.ts), not
 * as stored: a column type is upper-cased (`"numeric"` is hashed as `"NUMERIC"`) and an
 * empty name becomes `"dataset"`. The projection applies both, so a package upstream
 * writes from a dataset stored that way is checked against the identity upstream computed.
 */
import { sha256Hex } from '../../core/hash.js';
import { canonicalizeValue } from '../../core/jcs.js';
import { isPlainObject as isObject } from '../../core/closed.js';

export const DATASET_IDENTITY_ALGORITHM = 'sha256-canonical-dataset-v1';

export class DatasetShapeError extends Error {
  constructor(
    message: string,
    readonly pointer: string,
  ) {
    super(message);
  }
}

/** The projection that is hashed; throws DatasetShapeError when the dataset is not one. */
export function datasetIdentityInput(dataset: unknown): Record<string, unknown> {
  if (!isObject(dataset)) throw new DatasetShapeError('the dataset is not a JSON object', '');
  if (typeof dataset['name'] !== 'string') throw new DatasetShapeError('the dataset has no string "name"', '/name');
  const cols = dataset['columns'];
  if (!Array.isArray(cols)) throw new DatasetShapeError('the dataset has no "columns" array', '/columns');
  const columns = cols.map((c, i) => {
    if (!isObject(c) || typeof c['name'] !== 'string' || typeof c['type'] !== 'string')
      throw new DatasetShapeError('a column is not {name: string, type: string}', `/columns/${i}`);
    return { name: c['name'], type: c['type'].toUpperCase() };
  });
  const rowsIn = dataset['rows'];
  if (!Array.isArray(rowsIn)) throw new DatasetShapeError('the dataset has no "rows" array', '/rows');
  const rows = rowsIn.map((row, i) => {
    if (!isObject(row)) throw new DatasetShapeError('a row is not a JSON object', `/rows/${i}`);
    const projected: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const { name } of columns) projected[name] = Object.hasOwn(row, name) ? row[name] : null;
    return projected;
  });
  const out: Record<string, unknown> = { columns };
  const edges = dataset['edges'];
  if (edges !== undefined && edges !== null && edges !== false && edges !== 0 && edges !== '') {
    if (!Array.isArray(edges)) throw new DatasetShapeError('"edges" is not an array', '/edges');
    out['edges'] = edges.map((e, i) => {
      if (!isObject(e)) throw new DatasetShapeError('an edge is not a JSON object', `/edges/${i}`);
      return { ...e };
    });
  }
  out['name'] = dataset['name'] || 'dataset';
  out['rows'] = rows;
  return out;
}

/** Bare hex `sha256-canonical-dataset-v1` identity of a parsed dataset. */
export function datasetIdentityHex(dataset: unknown): string {
  return sha256Hex(canonicalizeValue(datasetIdentityInput(dataset)));
}
