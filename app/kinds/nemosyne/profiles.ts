/**
 * The authority-owned consumer profile registry (`--profiles FILE`). A package records,
 * for each use of a receipt, the consumer and the requirement profile it was evaluated
 * under; only the authority's registry says which consumers exist, which profile each
 * must be held to, and which ones cannot act without a receipt. An archive cannot pick a
 * weaker profile, and an empty `uses` list cannot switch a receipt-dependent consumer off.
 *
 * Format (closed, documented in docs/nemosyne.md):
 *   {"type": "reprise.nemosyne-profiles/v1", "authority": "…",
 *    "consumers": [{"consumerId": "…", "requirementProfileId": "…", "receiptDependent": true}]}
 */
import type { Finding } from '../../../shared/report.js';
import { unavailable } from '../../core/findings.js';
import { decodeJsonBytes, parseCanonical } from '../../core/jcs.js';
import { UsageError } from '../../core/errors.js';
import { readFailure, readRegularFile } from '../../core/files.js';
import type { Use } from './envelope.js';

export const PROFILES_TYPE = 'reprise.nemosyne-profiles/v1';

export interface GovernedConsumer {
  consumerId: string;
  requirementProfileId: string;
  receiptDependent: boolean;
}

export interface ProfileRegistry {
  authority: string;
  consumers: Map<string, GovernedConsumer>;
}

const cache = new Map<string, Promise<ProfileRegistry>>();

export function loadProfiles(path: string): Promise<ProfileRegistry> {
  let p = cache.get(path);
  if (!p) {
    p = readRegularFile(path).then(
      (bytes) => parseProfiles(bytes, path),
      (e: unknown) => {
        throw new UsageError(`cannot read profile registry ${path}: ${readFailure(e)}`);
      },
    );
    cache.set(path, p);
    p.catch(() => cache.delete(path));
  }
  return p;
}

export function parseProfiles(bytes: Uint8Array, path = 'profiles'): ProfileRegistry {
  const bad = (why: string) => new UsageError(`profile registry ${path}: ${why}`);
  let value: unknown;
  try {
    value = parseCanonical(decodeJsonBytes(bytes)).value;
  } catch (e) {
    throw bad((e as Error).message);
  }
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isObj(value)) throw bad('not a JSON object');
  const keys = Object.keys(value).sort().join(',');
  if (keys !== 'authority,consumers,type') throw bad('members must be exactly type, authority, consumers');
  if (value['type'] !== PROFILES_TYPE) throw bad(`type must be "${PROFILES_TYPE}"`);
  if (typeof value['authority'] !== 'string' || value['authority'] === '') throw bad('authority must be a non-empty string');
  if (!Array.isArray(value['consumers'])) throw bad('consumers must be an array');
  const consumers = new Map<string, GovernedConsumer>();
  value['consumers'].forEach((c, i) => {
    if (!isObj(c) || Object.keys(c).sort().join(',') !== 'consumerId,receiptDependent,requirementProfileId') throw bad(`consumers[${i}] must be exactly {consumerId, requirementProfileId, receiptDependent}`);
    const { consumerId, requirementProfileId, receiptDependent } = c;
    if (typeof consumerId !== 'string' || consumerId === '' || typeof requirementProfileId !== 'string' || requirementProfileId === '' || typeof receiptDependent !== 'boolean') {
      throw bad(`consumers[${i}]: consumerId and requirementProfileId are non-empty strings, receiptDependent a boolean`);
    }
    if (consumers.has(consumerId)) throw bad(`consumer "${consumerId}" appears twice`);
    consumers.set(consumerId, { consumerId, requirementProfileId, receiptDependent });
  });
  return { authority: value['authority'], consumers };
}

/** Resolves every use against the registry (step 5 of RFC 0009's order). */
export function resolveConsumers(uses: readonly Use[], registry: ProfileRegistry): Finding[] {
  const out: Finding[] = [];
  const ptr = (i: number) => `entry:investigation/evidence-receipts.json#/uses/${i}`;
  uses.forEach((u, i) => {
    const governed = registry.consumers.get(u.consumerId);
    if (!governed) {
      out.push(unavailable('CONSUMER_NOT_GOVERNED', `consumer "${u.consumerId}" is not in the profile registry of ${registry.authority}`, { pointer: `${ptr(i)}/consumerId`, actual: u.consumerId }));
    } else if (governed.requirementProfileId !== u.requirementProfileId) {
      out.push(
        unavailable('CONSUMER_POLICY_REFUSED', `consumer "${u.consumerId}" recorded profile "${u.requirementProfileId}", but ${registry.authority} holds it to "${governed.requirementProfileId}"`, {
          pointer: `${ptr(i)}/requirementProfileId`,
          expected: governed.requirementProfileId,
          actual: u.requirementProfileId,
        }),
      );
    }
  });
  const used = new Set(uses.map((u) => u.consumerId));
  for (const c of registry.consumers.values()) {
    if (c.receiptDependent && !used.has(c.consumerId)) {
      out.push(
        unavailable('CONSUMER_POLICY_REFUSED', `consumer "${c.consumerId}" depends on a receipt under "${c.requirementProfileId}" and the package records no use for it: emptiness cannot bypass policy`, {
          pointer: 'entry:investigation/evidence-receipts.json#/uses',
          expected: c.consumerId,
          actual: null,
        }),
      );
    }
  }
  return out;
}
