/**
 * The investigation digest roots (upstream src/investigation/InvestigationDigest.ts):
 * V2 `{schemaVersion: 2, algorithm, …restored state}`; V3 (and V4, which upstream labels
 * `…-v3`) adds `governedEvidence: {envelope, memberDigest}` with `schemaVersion: 3`.
 * The digest is the bare hex SHA-256 of the root's canonical JSON (RFC 8785).
 */
import { sha256Hex } from '../../core/hash.js';
import { canonicalizeValue } from '../../core/jcs.js';

export function investigationRoot(
  formatVersion: 2 | 3 | 4,
  algorithm: string,
  state: Record<string, unknown>,
  governed?: { envelope: unknown; memberDigest: string },
): Record<string, unknown> {
  if (formatVersion === 2) return { schemaVersion: 2, algorithm, ...state };
  return {
    schemaVersion: 3,
    algorithm,
    ...state,
    governedEvidence: { envelope: governed?.envelope ?? null, memberDigest: governed?.memberDigest ?? '' },
  };
}

export function investigationDigest(root: Record<string, unknown>): string {
  return sha256Hex(canonicalizeValue(root));
}
