/**
 * Drift telemetry of TG replays (KindOperations.drift, `reprise drift`): the observations of
 * a manifest's read-only replay or of a journal's replay-comparison entries, the drift rate
 * per model version (telemetry.ts), and the recalibration flags anchored in a journal.
 *
 * Fail-closed (docs/tg-replay.md, "Drift telemetry"): a replay that failed observes nothing
 * and says so (RPR-TG-054); a journal counts only when it verifies under a trust store
 * (RPR-TG-050, 051); of its replay-comparison entries only those of a governing key's role
 * count (RPR-TG-053), and only as a replay writes them (RPR-TG-052). DriftOperations
 * (operations.ts) returns a list of observations: the findings ride on that list
 * (`findings`), and engine/drift.ts reports them.
 */
import type { Finding } from '../../../shared/report.js';
import { isPlainObject } from '../../../shared/plain-object.js';
import { UsageError } from '../../core/errors.js';
import { hashValue } from '../../core/hash.js';
import { loadSigner, type Role, type TrustStore } from '../../core/keys.js';
import { isJournalDir } from '../../journal/layout.js';
import { signerProblem } from '../../journal/signers.js';
import { claimIdInFinding } from '../../journal/claim-ids.js';
import type { DriftObservation, DriftOperations, DriftRate, FlagAnchor } from '../operations.js';
import type { Sniffed } from '../sniff.js';
import type { KindContext } from '../types.js';
import { fail, unavailable, warning } from './findings.js';
import { openJournalPort, verifiedEntries, type JudgedTree, type SignedEntry } from './journal-adapter.js';
import { driftRates, failuresBesidesDrift, isGovernedDriftRate } from './telemetry.js';
import { CSI } from './constants.js';
import type { ReplayOutcome } from './replay.js';
import { ptr } from './structure.js';

/**
 * The roles whose keys govern drift (docs/journal.md's roles): a reviewer, who judges
 * replays, and a quarantine officer, who decides the cases drift routes. Their keys' replay
 * records count, and they may raise the calibration authority's recalibration flag. A
 * trainer trains: its replays are demonstrations, and a replay-comparison entry it records
 * (by a replay or by hand, `journal record`) must not steer the governed window.
 */
const DRIFT_ROLES: readonly Role[] = ['reviewer', 'quarantine-officer'];

/**
 * Observations, the findings of the inputs that gave none or fewer, and of a journal the tree
 * judged (its path with JudgedTree), all read by engine/drift.ts.
 */
type WithFindings = DriftObservation[] & { findings: Finding[]; journal?: { path: string } & JudgedTree };

const withFindings = (
  observations: DriftObservation[],
  findings: Finding[],
  journal?: { path: string } & JudgedTree,
): WithFindings => Object.assign(observations, { findings }, journal ? { journal } : {});

/** One row of a replay-comparison body, as telemetryBody (replay.ts) writes it. */
interface BandedRow {
  executionId: string;
  model: string;
  drift: boolean;
}

const isBandedRow = (b: unknown): b is BandedRow =>
  isPlainObject(b) &&
  typeof b['executionId'] === 'string' &&
  typeof b['model'] === 'string' &&
  typeof b['drift'] === 'boolean';

/** Why a replay-comparison body is not one a replay writes with a governed window, or null. */
function bodyProblem(body: Record<string, unknown>): Finding | null {
  const dr = body['driftRate'];
  if (!isPlainObject(dr) || !isGovernedDriftRate({ window: dr['window'], maxRate: dr['maxRate'] }))
    return fail('RPR-TG-052', 'its driftRate is out of bounds', {
      pointer: '/driftRate',
      expected: 'window a positive integer, maxRate from 0 to 1',
      actual: dr === undefined ? null : (dr as never),
    });
  const banded = body['banded'];
  if (typeof body['manifestHash'] !== 'string')
    return fail('RPR-TG-052', 'it is not what a replay records: no manifestHash names the replayed manifest', {
      pointer: '/manifestHash',
    });
  if (!Array.isArray(banded) || !banded.every(isBandedRow))
    return fail('RPR-TG-052', 'it is not what a replay records: its banded rows are not {executionId, model, drift}', {
      pointer: '/banded',
    });
  return null;
}

/** A replay-comparison entry as a finding names it: its claim quoted as every finding quotes one (RPR-QUAR-008). */
const entryNamed = (e: SignedEntry): string =>
  `journal entry ${e.seq} (replay-comparison of "${claimIdInFinding(e.claimRef)}")`;

/** A replay-comparison entry's observations, or the finding that refuses the whole entry (naming it). */
function fromEntry(e: SignedEntry): { observations: DriftObservation[] } | { finding: Finding } {
  const problem = bodyProblem(e.body);
  if (problem)
    return {
      finding: {
        ...problem,
        message: `${entryNamed(e)} is not counted: ${problem.message}`,
      },
    };
  const dr = e.body['driftRate'] as { window: number; maxRate: number };
  const observations = (e.body['banded'] as BandedRow[]).map((b) => ({
    model: b.model,
    drift: b.drift,
    driftRate: { window: dr.window, maxRate: dr.maxRate },
    claimRef: e.claimRef,
    executionId: b.executionId,
    manifestHash: e.body['manifestHash'] as string,
    at: e.recordedAtUtc,
  }));
  return { observations };
}

/**
 * Read-only: the replay neither reads judgements from nor appends to a journal, and runs as
 * pinned (no what-if substitution: a demonstration is never drift data). The checks (decimal
 * arithmetic, JsonLogic) load on first use, as the kind's jobs load them (index.ts).
 */
async function observe(s: Sniffed, ctx: KindContext): Promise<DriftObservation[]> {
  const { journal: _j, key: _k, whatIf: _w, ...ro } = ctx.options;
  const { replayManifestFull } = await import('./replay.js');
  const outcome = await replayManifestFull(s, { ...ctx, options: ro }, { anchor: false });
  const failures = failuresBesidesDrift(outcome.result.findings);
  if (failures.length === 0) return withFindings(outcome.observations, undecidedA(s.path, outcome));
  const why = `its replay failed (${failures.join(', ')}): none of its BANDED A replays is counted`;
  return withFindings([], [fail('RPR-TG-054', `${s.path}: ${why}`)]);
}

/**
 * The BANDED A replays the replay left undecided because they are within only the manifest's
 * own ε (RPR-TG-043): no observation (counted "not drifted", they would let an artifact dilute
 * the rate it is judged by), each said by execution.
 */
function undecidedA(path: string, outcome: ReplayOutcome): Finding[] {
  const undecided = new Set(outcome.result.findings.filter((f) => f.rule === 'RPR-TG-043').map((f) => f.pointer));
  return (outcome.manifest?.executions ?? [])
    .filter((e) => e.output === CSI.CONFIDENCE_SCORE && undecided.has(ptr('/executions', e.index, 'value')))
    .map((e) =>
      unavailable(
        'RPR-TG-043',
        `${path}: BANDED A ${e.executionId} is not counted: its delta is within only the ε of the policy bundle the manifest embeds, whose origin is not established; give the governed bundle with --policy FILE`,
        { pointer: ptr('/executions', e.index, 'value') },
      ),
    );
}

async function fromJournal(dir: string, trust: TrustStore | null): Promise<DriftObservation[]> {
  const v = await verifiedEntries(dir, trust);
  if (!v.ok) return withFindings([], v.findings);
  const observations: DriftObservation[] = [];
  const findings: Finding[] = [];
  for (const e of v.entries) {
    if (e.kind !== 'replay-comparison') continue;
    const who = signerProblem(e.author, v.trust, {
      what: 'a counted replay record',
      roles: DRIFT_ROLES,
      recorded: true,
    });
    if (who) {
      findings.push(warning('RPR-TG-053', `${entryNamed(e)} is not counted: ${who}`));
      continue;
    }
    const read = fromEntry(e);
    if ('finding' in read) findings.push(read.finding);
    else observations.push(...read.observations);
  }
  return withFindings(observations, findings, { path: dir, ...v.tree });
}

const flagBody = (r: DriftRate) => ({
  model: r.model,
  rate: r.rate,
  drifted: r.drifted,
  inWindow: r.inWindow,
  window: r.window,
  maxRate: r.maxRate,
  authority: 'TG-SG calibration authority',
});

/**
 * The recalibration flags a journal already holds from a governing key, by H(body) (the body
 * names the model and its figures). A journal not made yet holds none; one that does not
 * verify is refused (the writer would refuse to sign onto it too).
 */
async function heldFlags(journal: string, trust: TrustStore): Promise<Map<string, FlagAnchor>> {
  const held = new Map<string, FlagAnchor>();
  if (!(await isJournalDir(journal))) return held;
  const v = await verifiedEntries(journal, trust);
  if (!v.ok) throw new UsageError(`no flag anchored: ${v.findings.map((f) => f.message).join('; ')}`, 'refused');
  for (const e of v.entries)
    if (
      e.kind === 'recalibration-flag' &&
      !signerProblem(e.author, trust, { what: 'a flag', roles: DRIFT_ROLES, recorded: true })
    )
      held.set(hashValue(e.body), { seq: e.seq, entryHash: e.entryHash });
  return held;
}

/** The store the signing key is checked against: refused without one, or for a key not an active one of DRIFT_ROLES. */
async function signingKey(key: string, trust: TrustStore | null): Promise<TrustStore> {
  if (!trust)
    throw new UsageError(
      'anchoring the recalibration flag needs --trust-store FILE (to check the signing key and the journal); nothing was written',
    );
  const who = signerProblem((await loadSigner(key)).keyId, trust, { what: 'a recalibration flag', roles: DRIFT_ROLES });
  if (who) throw new UsageError(`the recalibration flag was not anchored: ${who}; nothing was written`, 'refused');
  return trust;
}

/**
 * Anchoring signs the calibration authority's flag into a journal: only with a trust store
 * (without one the key's role is unknown, and a key the store does not list would leave the
 * journal failing verification for every later reader), only by an active key of a
 * governing role, and never twice with the same figures (Reprise has no entry that closes a
 * flag, so the one held is still open; the anchor returned is that entry's, `alreadyAnchored`).
 * Each refusal is a usage error before anything is written.
 */
async function anchorFlags(
  journal: string,
  key: string,
  trust: TrustStore | null,
  rates: readonly DriftRate[],
): Promise<Record<string, FlagAnchor>> {
  const anchors: Record<string, FlagAnchor> = Object.create(null) as Record<string, FlagAnchor>;
  const flagged = rates.filter((x) => x.flag);
  if (flagged.length === 0) return anchors;
  const store = await signingKey(key, trust);
  const held = await heldFlags(journal, store);
  const port = openJournalPort(journal, key, store);
  for (const r of flagged) {
    const body = flagBody(r);
    const same = held.get(hashValue(body));
    const already: (FlagAnchor & { alreadyAnchored: true }) | null = same ? { ...same, alreadyAnchored: true } : null;
    anchors[r.model] = already ?? (await port.append('recalibration-flag', { claimRef: `model:${r.model}` }, body));
  }
  return anchors;
}

export const tgDrift: DriftOperations = { observe, fromJournal, rates: driftRates, anchorFlags };
