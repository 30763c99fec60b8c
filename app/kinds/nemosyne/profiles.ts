/**
 * The authority-owned profile registry (`--profiles FILE`): which consumers exist, the
 * requirement profile each is held to, whether it must appear in every package, and what
 * each profile requires of a receipt. A package records, for each use of a receipt, the
 * consumer and the profile it was evaluated under; it cannot choose a weaker profile, and
 * an empty `uses` list cannot switch a required consumer off.
 *
 * Binding and resolution follow upstream Nemosyne (TsatsuAmable/nemosyne):
 * `bindConsumerUsesV1` (src/data/evidence/ConsumerPolicy.ts) for the order of the binding
 * refusals, `evaluateEvidenceReceiptAgainstProfileV1` and `axisSatisfied`
 * (src/data/evidence/EvidenceRequirementProfile.ts) for resolution, and the replay
 * loader's `POLICY_REFUSAL_CODE` (src/session/InvestigationReplayRunner.ts) for the code
 * each refusal carries. The format is documented in docs/nemosyne.md.
 */
import type { Finding, JsonValue } from '../../../shared/report.js';
import { unavailable } from './findings.js';
import { decodeJsonBytes, parseCanonical } from '../../core/jcs.js';
import { isPlainObject as isObj, memoFile } from '../../core/closed.js';
import { UsageError } from '../../core/errors.js';
import { readFailure, readRegularFile } from '../../core/files.js';
import type { Envelope, ReceiptFacts, Use } from './envelope.js';

export const PROFILES_TYPE = 'reprise.nemosyne-profiles/v2';
/** The first format: consumers only, each naming a profile the registry could not describe. */
const RETIRED_PROFILES_TYPE = 'reprise.nemosyne-profiles/v1';
const RETIRED_V1 =
  `this is the retired v1 shape (${RETIRED_PROFILES_TYPE}: type, authority, consumers), which Reprise no longer reads. ` +
  `v2 ("type": "${PROFILES_TYPE}") adds "profiles": the requirement profiles the authority defines (each profileId with its requiredAxes and assumptionRequirement), ` +
  'against which every bound use is resolved (v1 only compared profile ids). ' +
  'Example: docs/nemosyne-profiles.example.json (also written by `reprise examples DIR` as DIR/packages/profiles.json)';

/** Upstream's EvidenceRequirementAxisV1, in upstream's own listing order. */
export const AXES = ['measurementContextEstablished', 'geometry', 'uncertainty', 'stability', 'sensitivity'] as const;
export type Axis = (typeof AXES)[number];

export interface RequirementProfile {
  profileId: string;
  /** Checked in this order. */
  requiredAxes: Axis[];
  refuseViolated: boolean;
  refuseUnresolved: boolean;
}

export interface GovernedConsumer {
  consumerId: string;
  requirementProfileId: string;
  /** Must have a use in every V3/V4 package (upstream: every governed consumer is). */
  receiptDependent: boolean;
}

export interface ProfileRegistry {
  authority: string;
  profiles: Map<string, RequirementProfile>;
  consumers: Map<string, GovernedConsumer>;
}

export const loadProfiles = memoFile((path: string): Promise<ProfileRegistry> =>
  readRegularFile(path).then(
    (bytes) => parseProfiles(bytes, path),
    (e: unknown) => {
      throw new UsageError(`cannot read profile registry ${path}: ${readFailure(e)}`, 'path');
    },
  ),
);

type Obj = Record<string, unknown>;
const exactly = (o: Obj, keys: string[]) => Object.keys(o).sort().join(',') === [...keys].sort().join(',');
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** Closed, fail-closed: anything malformed is a UsageError naming the member (exit 3). */
export function parseProfiles(bytes: Uint8Array, path = 'profiles'): ProfileRegistry {
  const bad = (why: string) => new UsageError(`profile registry ${path}: ${why}`, 'bad-file');
  let parsed;
  try {
    parsed = parseCanonical(decodeJsonBytes(bytes));
  } catch (e) {
    throw bad((e as Error).message);
  }
  // A number the parse changed is malformed too: the registry decides, so it must say what it means.
  const changed = parsed.warnings[0];
  if (changed) throw bad(`not I-JSON: ${changed.message} at ${changed.pointer || '(root)'}`);
  const value = parsed.value;
  if (!isObj(value)) throw bad('not a JSON object');
  if (value['type'] === RETIRED_PROFILES_TYPE || exactly(value, ['type', 'authority', 'consumers']))
    throw bad(RETIRED_V1);
  if (!exactly(value, ['type', 'authority', 'profiles', 'consumers']))
    throw bad('members must be exactly type, authority, profiles, consumers');
  if (value['type'] !== PROFILES_TYPE) throw bad(`type must be "${PROFILES_TYPE}"`);
  if (!nonEmpty(value['authority'])) throw bad('authority must be a non-empty string');
  if (!Array.isArray(value['profiles'])) throw bad('profiles must be an array');
  if (!Array.isArray(value['consumers'])) throw bad('consumers must be an array');
  const profiles = new Map<string, RequirementProfile>();
  value['profiles'].forEach((p, i) => {
    const profile = parseProfile(p, (why) => bad(`profiles[${i}]: ${why}`));
    if (profiles.has(profile.profileId)) throw bad(`profile "${profile.profileId}" appears twice`);
    profiles.set(profile.profileId, profile);
  });
  const consumers = new Map<string, GovernedConsumer>();
  value['consumers'].forEach((c, i) => {
    if (!isObj(c) || !exactly(c, ['consumerId', 'requirementProfileId', 'receiptDependent']))
      throw bad(`consumers[${i}] must be exactly {consumerId, requirementProfileId, receiptDependent}`);
    const { consumerId, requirementProfileId, receiptDependent } = c;
    if (!nonEmpty(consumerId) || !nonEmpty(requirementProfileId) || typeof receiptDependent !== 'boolean') {
      throw bad(
        `consumers[${i}]: consumerId and requirementProfileId are non-empty strings, receiptDependent a boolean`,
      );
    }
    if (consumers.has(consumerId)) throw bad(`consumer "${consumerId}" appears twice`);
    // A consumer may name a profile the registry does not define (a retired profile):
    // its uses then resolve to UNKNOWN_REQUIREMENT_PROFILE, never to a default.
    consumers.set(consumerId, { consumerId, requirementProfileId, receiptDependent });
  });
  return { authority: value['authority'], profiles, consumers };
}

/** Upstream's isEvidenceRequirementProfileV1, as a closed file format. */
function parseProfile(p: unknown, bad: (why: string) => UsageError): RequirementProfile {
  if (!isObj(p) || !exactly(p, ['profileId', 'requiredAxes', 'assumptionRequirement']))
    throw bad('must be exactly {profileId, requiredAxes, assumptionRequirement}');
  if (!nonEmpty(p['profileId'])) throw bad('profileId must be a non-empty string');
  const axes = p['requiredAxes'];
  if (!Array.isArray(axes)) throw bad('requiredAxes must be an array');
  const seen = new Set<string>();
  for (const a of axes) {
    if (typeof a !== 'string' || !(AXES as readonly string[]).includes(a))
      throw bad(`requiredAxes: ${JSON.stringify(a)} is not one of ${AXES.join(', ')}`);
    if (seen.has(a)) throw bad(`requiredAxes: "${a}" appears twice`);
    seen.add(a);
  }
  const ar = p['assumptionRequirement'];
  if (
    !isObj(ar) ||
    !exactly(ar, ['refuseViolated', 'refuseUnresolved']) ||
    typeof ar['refuseViolated'] !== 'boolean' ||
    typeof ar['refuseUnresolved'] !== 'boolean'
  ) {
    throw bad('assumptionRequirement must be exactly {refuseViolated: boolean, refuseUnresolved: boolean}');
  }
  return {
    profileId: p['profileId'],
    requiredAxes: axes as Axis[],
    refuseViolated: ar['refuseViolated'],
    refuseUnresolved: ar['refuseUnresolved'],
  };
}

export type Resolution =
  | { status: 'RESOLVED' }
  | { status: 'RECEIPT_NOT_FOUND' }
  | { status: 'VIOLATED_ASSUMPTION' | 'UNRESOLVED_ASSUMPTION'; assumption: string }
  | { status: 'MISSING_REQUIRED_AXIS'; axis: Axis };

function axisSatisfied(axis: Axis, r: ReceiptFacts): boolean {
  switch (axis) {
    case 'measurementContextEstablished':
      // A rejected analytical admission is negative evidence; an absent one is not.
      return r.measurementEstablished && (r.admission === null || r.admission === 'admitted');
    case 'geometry':
      return r.hasGeometry;
    case 'uncertainty':
      return r.hasUncertainty;
    case 'stability':
      return r.hasStability;
    case 'sensitivity':
      return r.sensitivityCount > 0;
  }
}

/** Upstream's fixed order: existence, violated, unresolved, then each axis in the profile's order. */
export function evaluateReceipt(profile: RequirementProfile, receipt: ReceiptFacts | null): Resolution {
  if (receipt === null) return { status: 'RECEIPT_NOT_FOUND' };
  if (profile.refuseViolated) {
    const v = receipt.assumptions.find((a) => a.status === 'violated');
    if (v) return { status: 'VIOLATED_ASSUMPTION', assumption: v.assumption };
  }
  if (profile.refuseUnresolved) {
    const u = receipt.assumptions.find((a) => a.status === 'unchecked' || a.status === 'notTestableFromData');
    if (u) return { status: 'UNRESOLVED_ASSUMPTION', assumption: u.assumption };
  }
  for (const axis of profile.requiredAxes)
    if (!axisSatisfied(axis, receipt)) return { status: 'MISSING_REQUIRED_AXIS', axis };
  return { status: 'RESOLVED' };
}

/** One binding per use (envelope order), then one per required consumer without a use (registry order). */
export interface Binding {
  consumerId: string;
  use: Use | null;
  index: number | null;
  /** UNKNOWN_CONSUMER, MISSING_USE, PROFILE_MISMATCH, UNKNOWN_REQUIREMENT_PROFILE, or the resolution of a bound use. */
  status: string;
  code: 'CONSUMER_NOT_GOVERNED' | 'CONSUMER_POLICY_REFUSED' | null;
  finding: Finding | null;
}

const USES = 'entry:investigation/evidence-receipts.json#/uses';

export function bindConsumers(envelope: Envelope, registry: ProfileRegistry): Binding[] {
  const out: Binding[] = envelope.uses.map((u, i) => bindUse(u, i, envelope, registry));
  const seen = new Set(envelope.uses.map((u) => u.consumerId));
  for (const c of registry.consumers.values()) {
    if (!c.receiptDependent || seen.has(c.consumerId)) continue;
    const message = `MISSING_USE: ${registry.authority} governs consumer "${c.consumerId}" under "${c.requirementProfileId}", and the package records no use for it: emptiness cannot bypass policy`;
    out.push({
      consumerId: c.consumerId,
      use: null,
      index: null,
      status: 'MISSING_USE',
      code: 'CONSUMER_NOT_GOVERNED',
      finding: unavailable('CONSUMER_NOT_GOVERNED', message, { pointer: USES, expected: c.consumerId, actual: null }),
    });
  }
  return out;
}

function bindUse(u: Use, i: number, envelope: Envelope, registry: ProfileRegistry): Binding {
  const base = { consumerId: u.consumerId, use: u, index: i };
  const refuse = (
    status: string,
    code: 'CONSUMER_NOT_GOVERNED' | 'CONSUMER_POLICY_REFUSED',
    message: string,
    pointer: string,
    expected: JsonValue,
    actual: JsonValue,
  ): Binding => ({
    ...base,
    status,
    code,
    finding: unavailable(code, `${status}: ${message}`, { pointer: `${USES}/${i}${pointer}`, expected, actual }),
  });
  const governed = registry.consumers.get(u.consumerId);
  if (!governed)
    return refuse(
      'UNKNOWN_CONSUMER',
      'CONSUMER_NOT_GOVERNED',
      `consumer "${u.consumerId}" is not governed by ${registry.authority}`,
      '/consumerId',
      null,
      u.consumerId,
    );
  if (governed.requirementProfileId !== u.requirementProfileId) {
    return refuse(
      'PROFILE_MISMATCH',
      'CONSUMER_POLICY_REFUSED',
      `consumer "${u.consumerId}" recorded profile "${u.requirementProfileId}", but ${registry.authority} holds it to "${governed.requirementProfileId}"`,
      '/requirementProfileId',
      governed.requirementProfileId,
      u.requirementProfileId,
    );
  }
  const profile = registry.profiles.get(u.requirementProfileId);
  if (!profile)
    return refuse(
      'UNKNOWN_REQUIREMENT_PROFILE',
      'CONSUMER_POLICY_REFUSED',
      `profile "${u.requirementProfileId}" is not defined by ${registry.authority}'s registry: historical governance never falls back to a default`,
      '/requirementProfileId',
      null,
      u.requirementProfileId,
    );
  const r = evaluateReceipt(profile, envelope.receipts.get(u.receiptId) ?? null);
  if (r.status === 'RESOLVED') return { ...base, status: 'RESOLVED', code: null, finding: null };
  const why =
    r.status === 'RECEIPT_NOT_FOUND'
      ? `the use names receipt "${u.receiptId}", which the bundle does not hold`
      : r.status === 'MISSING_REQUIRED_AXIS'
        ? `receipt "${u.receiptId}" lacks the axis "${r.axis}" that profile "${profile.profileId}" requires`
        : `receipt "${u.receiptId}" carries the ${r.status === 'VIOLATED_ASSUMPTION' ? 'violated' : 'unresolved'} assumption "${r.assumption}", which profile "${profile.profileId}" refuses`;
  return refuse(
    r.status,
    'CONSUMER_POLICY_REFUSED',
    `${why}; consumer "${u.consumerId}" is refused`,
    r.status === 'RECEIPT_NOT_FOUND' ? '/receiptId' : '',
    'RESOLVED',
    r.status,
  );
}
