/**
 * The ACGP policy file (`--policy FILE`, type `reprise.acgp-policy/v1`): blueprint and
 * governance-tier overrides of the baseline `clarity.baseline@1.0`. The EVAL payload only
 * names its blueprint and tier; their thresholds and trust-debt parameters come from here.
 *
 * {"type": "reprise.acgp-policy/v1",
 *  "blueprints": {"finance_qa@2.1": {"risk_thresholds": {"ok": 0.35, "nudge": 0.5, "escalate": 0.65},
 *                                    "trust_debt": {"decay_fraction": 0.1, "period_hours": 2, "min_debt": 0.5,
 *                                                   "thresholds": {"elevated_monitoring": 2, ...}},
 *                                    "tripwires": {"pii_leak": "halt"}}},
 *  "tiers": {"GT-2": {"risk_thresholds": {...}}}}
 */
import { readFailure, readRegularFile } from '../../core/files.js';
import { memoFile } from '../../core/closed.js';
import { decodeJsonBytes, parseCanonical } from '../../core/jcs.js';
import { UsageError } from '../../core/errors.js';
import {
  BASELINE_DEBT,
  BASELINE_RISK,
  DEBT_THRESHOLD_NAMES,
  dec,
  isIntervention,
  type DebtParams,
  type Dec,
  type Intervention,
  type RiskThresholds,
} from './model.js';

export const POLICY_TYPE = 'reprise.acgp-policy/v1';

interface BlueprintPolicy {
  risk?: RiskThresholds;
  debt?: DebtParams;
  tripwires: Map<string, Intervention>;
}

export class AcgpPolicy {
  constructor(
    readonly source: string | null,
    readonly blueprints: Map<string, BlueprintPolicy>,
    readonly tiers: Map<string, RiskThresholds>,
  ) {}

  static baseline(): AcgpPolicy {
    return new AcgpPolicy(null, new Map(), new Map());
  }

  /** Stricter (lower) of the blueprint's and the tier's thresholds, one by one; baseline without either. */
  risk(blueprintId: string | null, tier: string | null): { thresholds: RiskThresholds; source: string } {
    const bp = blueprintId !== null ? this.blueprints.get(blueprintId)?.risk : undefined;
    const t = tier !== null ? this.tiers.get(tier) : undefined;
    if (bp && t)
      return {
        thresholds: { ok: min(bp.ok, t.ok), nudge: min(bp.nudge, t.nudge), escalate: min(bp.escalate, t.escalate) },
        source: 'stricter of blueprint and tier',
      };
    if (bp) return { thresholds: bp, source: 'blueprint' };
    if (t) return { thresholds: t, source: 'tier' };
    return { thresholds: BASELINE_RISK, source: 'baseline' };
  }

  debt(blueprintId: string | null): { params: DebtParams; source: string } {
    const d = blueprintId !== null ? this.blueprints.get(blueprintId)?.debt : undefined;
    return d ? { params: d, source: 'blueprint' } : { params: BASELINE_DEBT, source: 'baseline' };
  }

  tripwire(blueprintId: string | null, name: string): Intervention | undefined {
    return blueprintId !== null ? this.blueprints.get(blueprintId)?.tripwires.get(name) : undefined;
  }
}

function min(a: Dec, b: Dec): Dec {
  return a.lte(b) ? a : b;
}

class PolicyError extends Error {}

/** The longest member name a refusal quotes whole (a policy's names are short; a report line must stay one). */
const NAME_SHOWN = 80;

/** A member name as a path shows it: bare when it is a plain word, else as JSON (ids hold dots: "finance_qa@2.1"). */
function key(k: string): string {
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) && k.length <= NAME_SHOWN) return k;
  return k.length <= NAME_SHOWN ? JSON.stringify(k) : `${JSON.stringify(k.slice(0, NAME_SHOWN))}…`;
}

function obj(v: unknown, where: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new PolicyError(`${where} must be an object`);
  return v as Record<string, unknown>;
}

/**
 * An object holding only the members `allowed`. An unknown one is refused, never skipped: a
 * blueprint's `risk_threshold` (for `risk_thresholds`) or a fourth threshold `block` was
 * dropped in silence, and the baseline's thresholds passed what the policy meant to fail.
 */
function only(v: unknown, where: string, allowed: readonly string[], what: string): Record<string, unknown> {
  const o = obj(v, where);
  for (const k of Object.keys(o))
    if (!allowed.includes(k)) throw new PolicyError(`${where}.${key(k)} is not ${what} (${allowed.join(', ')})`);
  return o;
}

function decimalIn(v: unknown, where: string, lo: number, hi: number, loOpen = false): Dec {
  if (typeof v !== 'number' || !(loOpen ? v > lo : v >= lo) || v > hi)
    throw new PolicyError(`${where} must be a number in ${loOpen ? '(' : '['}${lo}, ${hi}]`);
  return dec(v);
}

function parseRisk(v: unknown, where: string): RiskThresholds {
  const o = only(v, where, ['ok', 'nudge', 'escalate'], 'a risk threshold (block is what lies above escalate)');
  const t = {
    ok: decimalIn(o['ok'], `${where}.ok`, 0, 1),
    nudge: decimalIn(o['nudge'], `${where}.nudge`, 0, 1),
    escalate: decimalIn(o['escalate'], `${where}.escalate`, 0, 1),
  };
  if (t.ok.gt(t.nudge) || t.nudge.gt(t.escalate))
    throw new PolicyError(`${where} must satisfy ok <= nudge <= escalate`);
  return t;
}

function parseDebt(v: unknown, where: string): DebtParams {
  const o = only(v, where, ['decay_fraction', 'period_hours', 'min_debt', 'thresholds'], 'a trust-debt parameter');
  const p: DebtParams = { ...BASELINE_DEBT, thresholds: { ...BASELINE_DEBT.thresholds } };
  if (o['decay_fraction'] !== undefined)
    p.decay_fraction = decimalIn(o['decay_fraction'], `${where}.decay_fraction`, 0, 1);
  if (o['period_hours'] !== undefined)
    p.period_hours = decimalIn(o['period_hours'], `${where}.period_hours`, 0, 1e6, true);
  if (o['min_debt'] !== undefined) p.min_debt = decimalIn(o['min_debt'], `${where}.min_debt`, 0, 1e9);
  if (o['thresholds'] !== undefined) {
    const t = only(o['thresholds'], `${where}.thresholds`, DEBT_THRESHOLD_NAMES, 'a trust-debt threshold');
    for (const k of DEBT_THRESHOLD_NAMES)
      if (t[k] !== undefined) p.thresholds[k] = decimalIn(t[k], `${where}.thresholds.${k}`, 0, 1e9, true);
  }
  return p;
}

function parseBlueprint(raw: unknown, where: string): BlueprintPolicy {
  const b = only(raw, where, ['risk_thresholds', 'trust_debt', 'tripwires'], 'a blueprint override');
  const bp: BlueprintPolicy = { tripwires: new Map() };
  if (b['risk_thresholds'] !== undefined) bp.risk = parseRisk(b['risk_thresholds'], `${where}.risk_thresholds`);
  if (b['trust_debt'] !== undefined) bp.debt = parseDebt(b['trust_debt'], `${where}.trust_debt`);
  if (b['tripwires'] !== undefined) {
    for (const [name, action] of Object.entries(obj(b['tripwires'], `${where}.tripwires`))) {
      if (!isIntervention(action))
        throw new PolicyError(
          `${where}.tripwires.${key(name)} must be an intervention (ok, nudge, escalate, block, halt)`,
        );
      bp.tripwires.set(name, action);
    }
  }
  return bp;
}

/**
 * A tier carries risk thresholds and nothing else, so a tier without them is refused: one
 * dropped in silence left the policy with no tier at all, and RPR-ACGP-043 (said only when
 * the policy defines tiers) was never said for the tier it meant.
 */
function parseTier(raw: unknown, where: string): RiskThresholds {
  const t = only(raw, where, ['risk_thresholds'], 'a tier override');
  if (t['risk_thresholds'] === undefined) throw new PolicyError(`${where} must give risk_thresholds`);
  return parseRisk(t['risk_thresholds'], `${where}.risk_thresholds`);
}

/** Parses a policy document; throws PolicyError with a one-line reason naming the member and its path. */
export function parsePolicy(value: unknown, source: string): AcgpPolicy {
  const root = only(value, 'the policy', ['type', 'blueprints', 'tiers'], 'a policy member');
  const blueprints = new Map<string, BlueprintPolicy>();
  const tiers = new Map<string, RiskThresholds>();
  const bps = root['blueprints'] === undefined ? {} : obj(root['blueprints'], 'blueprints');
  for (const [id, raw] of Object.entries(bps)) blueprints.set(id, parseBlueprint(raw, `blueprints.${key(id)}`));
  const ts = root['tiers'] === undefined ? {} : obj(root['tiers'], 'tiers');
  for (const [id, raw] of Object.entries(ts)) tiers.set(id, parseTier(raw, `tiers.${key(id)}`));
  return new AcgpPolicy(source, blueprints, tiers);
}

/**
 * Whether a --policy document of another type than POLICY_TYPE still means to be an ACGP
 * policy: its type is ours but for case, spaces or version ("reprise.acgp-policy/v1 "). Such
 * a file is refused (a usage error), never ignored as another kind's: ignored, the baseline's
 * thresholds passed what the policy meant to fail, and RPR-ACGP-042 said no --policy was given.
 */
function meantAsAcgp(type: unknown): boolean {
  return (
    typeof type === 'string' &&
    type
      .trim()
      .toLowerCase()
      .startsWith(POLICY_TYPE.slice(0, POLICY_TYPE.indexOf('/')))
  );
}

export type LoadedPolicy = { policy: AcgpPolicy; ignored: string | null };

const loadCached = memoFile(readPolicy);

/**
 * The policy named by --policy, parsed once per process. A file of another type (a
 * TG policy bundle in a mixed batch) is not ours: it is ignored and the report says so.
 * An unreadable or malformed ACGP policy is a usage error (exit 3).
 */
export function loadPolicy(path: string | undefined): Promise<LoadedPolicy> {
  if (!path) return Promise.resolve({ policy: AcgpPolicy.baseline(), ignored: null });
  return loadCached(path);
}

async function readPolicy(path: string): Promise<LoadedPolicy> {
  let bytes: Buffer;
  try {
    bytes = await readRegularFile(path);
  } catch (e) {
    throw new UsageError(`cannot read the policy ${path}: ${readFailure(e)}`, 'path');
  }
  let value: unknown;
  try {
    value = parseCanonical(decodeJsonBytes(bytes)).value;
  } catch (e) {
    throw new UsageError(`the policy ${path} is not valid JSON: ${(e as Error).message}`, 'bad-file');
  }
  const type = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)['type'] : undefined;
  if (type !== POLICY_TYPE && meantAsAcgp(type))
    throw new UsageError(
      `the ACGP policy ${path} is malformed: its type must be exactly ${JSON.stringify(POLICY_TYPE)}, not ${key(type as string)}`,
      'bad-file',
    );
  if (type !== POLICY_TYPE)
    return {
      policy: AcgpPolicy.baseline(),
      ignored: `the --policy file is not a ${POLICY_TYPE} document; the ACGP baseline was used`,
    };
  try {
    return { policy: parsePolicy(value, path), ignored: null };
  } catch (e) {
    if (e instanceof PolicyError)
      throw new UsageError(`the ACGP policy ${path} is malformed: ${e.message}`, 'bad-file');
    throw e;
  }
}

export { PolicyError };
