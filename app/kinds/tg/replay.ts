/**
 * TG replay: verify the manifest (structure, artifacts, policy resolution, the TG-RP
 * rules, RECORDED anchors), then recompute every output by its mode and compare:
 *   EXACT     H(replayed) == H(original), recomputed from the recorded inputs;
 *   BANDED    |replayed − original| ≤ ε (ε from the bundle), A re-run through a provider,
 *             TRUST-SCORE recomputed from the replayed vector (and, exactly, from the
 *             recorded vector as an integrity check);
 *   RECORDED  the artifact hash equals the anchored hash, the anchor is proven in the
 *             journal and predates the manifest's creation, the lineage resolves.
 * Drift beyond ε emits REPLAY-DRIFT with decisionMaterial; routing follows.
 */
import { readFailure, writeFileAtomic } from '../../core/files.js';
import type { Authenticity, ChainNode, Comparison, Finding, JsonValue, TgDriftRate } from '../../../shared/report.js';
import { authenticity } from '../../core/authenticity.js';
import { fail, info, unavailable, warning, changedNumbers } from './findings.js';
import { hashCanonicalText, hashValue } from '../../core/hash.js';
import { Progress } from '../../core/progress.js';
import type { KindResult } from '../../core/report.js';
import { epochMs } from '../../core/time.js';
import type { Sniffed } from '../sniff.js';
import type { KindContext } from '../types.js';
import { parseWhatIf, type WhatIf } from '../../providers/what-if.js';
import type { Bundle } from './bundle.js';
import { ptr, tgNumbers } from './structure.js';
import { buildComparisonArtifact, modeComposition } from './comparison.js';
import { originalOf } from '../../attest/comparison.js';
import { CSI, DRIFT_EVENT_TYPE, ENGINE, ROUTED_EXITS, ROUTING_EVENT_TYPE, type Exit } from './constants.js';
import { exactDelta, withinEpsilon } from './decimal.js';
import { decide } from './engines/decision.js';
import { ruleBudget } from './engines/metered-logic.js';
import { openJournalPort } from './journal-adapter.js';
import { claimIdInFinding } from '../../journal/claim-ids.js';
import type { AnchoredEntry, JournalPort } from './journal-port.js';
import { checkManifest, type Execution, type Manifest } from './manifest.js';
import { resolvePolicy } from './policy.js';
import { UsageError } from '../../core/errors.js';
import { providerConfidencePort, REFERENCE_MAX_TOKENS, type ConfidencePort } from './ports.js';
import { exitWithA, recompute, type Lookup, type RecomputeEnv, type Recomputed } from './recompute.js';
import * as rules from './rules.js';
import { driftRates, failuresBesidesDrift } from './telemetry.js';

export interface Verified {
  result: KindResult;
  /** Present when the manifest parsed and its policy resolved: what replay needs. */
  state: State | null;
}

export interface State {
  manifest: Manifest;
  manifestHash: string;
  bundle: Bundle;
  bundleHash: string;
  /** The bundle is the reviewer's --policy file (policy.ts `governed`), not the manifest's own. */
  bundleGoverned: boolean;
  goodArtifacts: Set<string>;
  blocked: rules.Blocked;
  anchors: Map<string, AnchoredEntry>;
  anchorStatus: Map<string, 'pass' | 'fail' | 'unavailable'>;
  journal: JournalPort | null;
}

const execPtr = (e: Execution, ...t: string[]) => ptr('/executions', e.index, ...t);

/**
 * What an input may name: an intact artifact, or the bundle `--policy` resolved by the hash
 * the manifest binds (a manifest that does not embed its bundle names it in POLICY-RESOLUTION's
 * inputs all the same).
 */
function resolvable(good: Set<string>, policy: { bundle: unknown; hash: string | null }, m: Manifest): Set<string> {
  const want = m.policyContext.bundleHash;
  return policy.bundle && policy.hash === want && !good.has(want) ? new Set([...good, want]) : good;
}

/**
 * A manifest that records no output past its policy resolution replays nothing: a PASS would
 * say a claim's scoring was re-executed when none was recorded. Fail-closed: unavailable.
 */
function nothingReplayed(m: Manifest, findings: Finding[]): void {
  if (m.executions.some((e) => e.engine !== ENGINE.POLICY_RESOLUTION)) return;
  findings.push(
    unavailable(
      'RPR-TG-024',
      `the manifest records ${m.executions.length === 0 ? 'no execution' : 'only its policy resolution'}: there is no output of the claim to replay`,
      { pointer: '/executions' },
    ),
  );
}

/** `progress` tells how far it is (its stages: the records, the rules and anchors, the manifest's hash). */
export async function verifyManifest(
  s: Sniffed,
  ctx: KindContext,
  progress = new Progress((f, label) => ctx.progress(f, label)),
): Promise<Verified> {
  const parsed = s.json();
  if (!parsed || !parsed.ok) {
    const err = parsed && !parsed.ok ? parsed.error : null;
    const id = typeof s.jsonObject()?.['claimRef'] === 'string' ? (s.jsonObject()!['claimRef'] as string) : null;
    return {
      result: {
        id,
        findings: [
          fail('RPR-TG-001', `the manifest is not strict I-JSON: ${err ? err.message : 'not JSON'}`, {
            pointer: err?.pointer ?? '',
          }),
        ],
        chain: [],
      },
      state: null,
    };
  }
  const checked = checkManifest(parsed.value, progress.stage(0, 30, 'executions'));
  const id =
    typeof (parsed.value as Record<string, unknown>)['claimRef'] === 'string'
      ? ((parsed.value as Record<string, unknown>)['claimRef'] as string)
      : null;
  const chain: ChainNode[] = checked.artifactNodes.map((a) => ({
    id: a.id,
    label: 'artifact',
    recorded: a.recorded,
    recomputed: a.recomputed,
    status: a.recomputed === a.recorded ? 'match' : 'mismatch',
    parents: [],
    pointer: ptr('/artifacts', a.id),
  }));
  const findings = [...changedNumbers(parsed.warnings, tgNumbers('the manifest')), ...checked.findings];
  const m = checked.manifest;
  if (!m) return { result: { id, findings, chain }, state: null };

  progress.stage(30, 50, 'rules and anchors').at(0, 1);
  const policy = await resolvePolicy(m, checked.goodArtifacts, ctx.options.policy);
  findings.push(...policy.findings);
  chain.push(policy.node);
  const blocked: rules.Blocked = new Map();
  findings.push(
    ...rules.uniqueIds(m, blocked),
    ...rules.policyBeforeScoring(m, blocked),
    ...rules.lineageResolves(m, resolvable(checked.goodArtifacts, policy, m), blocked),
    ...rules.modeDeclared(m, blocked),
    ...rules.modeBySpec(m, blocked),
    ...rules.outputEngine(m, blocked),
    ...rules.trustScoreMode(m, blocked),
    ...rules.bandedPins(m, blocked),
    ...rules.trustScorePins(m, checked.goodArtifacts, blocked),
    ...rules.recordedShape(m, checked.goodArtifacts, blocked),
  );
  if (policy.bundle)
    findings.push(...rules.governedEpsilon(m, policy.bundle, blocked), ...rules.epsilonOnExact(m, policy.bundle));

  // RECORDED anchors: proven in the journal, about this artifact and claim, at or before creation.
  const anchors = new Map<string, AnchoredEntry>();
  const anchorStatus = new Map<string, 'pass' | 'fail' | 'unavailable'>();
  const recorded = m.executions.filter((e) => e.replayMode === 'RECORDED' && e.anchor && e.artifactHash);
  let journal: JournalPort | null = null;
  if (ctx.options.journal) journal = openJournalPort(ctx.options.journal, ctx.options.key, await ctx.trustStore());
  for (const e of recorded) {
    const a = e.anchor!;
    const p = execPtr(e, 'anchor');
    const before = findings.length;
    let anchoredArtifact: string | null = null;
    if (!journal)
      findings.push(
        unavailable(
          'RPR-TG-023',
          `the anchor of RECORDED output ${e.executionId} can only be proven against its journal: give --journal DIR (and --trust-store)`,
          { pointer: p },
        ),
      );
    else {
      const r = await journal.verifyAnchor(a.seq, a.entryHash, p);
      if (!r.ok) findings.push(...r.findings);
      else {
        anchoredArtifact = r.entry.artifact;
        anchors.set(e.executionId, r.entry);
        if (r.entry.artifact !== e.artifactHash)
          findings.push(
            fail('RPR-TG-021', `the anchored artifact is not the recorded artifact of ${e.executionId}`, {
              pointer: execPtr(e, 'artifactHash'),
              expected: r.entry.artifact ?? '(no artifact)',
              actual: e.artifactHash!,
            }),
          );
        if (r.entry.claimRef !== m.claimRef)
          findings.push(
            fail('RPR-TG-021', `the anchor is about another claim`, {
              pointer: p,
              expected: m.claimRef,
              actual: r.entry.claimRef,
            }),
          );
        if (epochMs(r.entry.recordedAtUtc) > epochMs(m.createdAtUtc))
          findings.push(
            fail(
              'RPR-TG-022',
              `the anchor of ${e.executionId} postdates the manifest's creation: RECORDED artifacts are anchored at creation, not at replay`,
              { pointer: p, expected: `≤ ${m.createdAtUtc}`, actual: r.entry.recordedAtUtc },
            ),
          );
      }
    }
    const added = findings.slice(before);
    anchorStatus.set(
      e.executionId,
      added.some((f) => f.severity === 'fail')
        ? 'fail'
        : added.some((f) => f.severity === 'unavailable')
          ? 'unavailable'
          : 'pass',
    );
    chain.push({
      id: `anchor:${e.executionId}`,
      label: `journal anchor of ${e.output}`,
      recorded: e.artifactHash!,
      recomputed: anchoredArtifact,
      status: anchoredArtifact === null ? 'unresolved' : anchoredArtifact === e.artifactHash ? 'match' : 'mismatch',
      parents: [e.artifactHash!],
      pointer: p,
    });
  }
  const auth = manifestAuthenticity(recorded.length, [...anchorStatus.values()].filter((st) => st === 'pass').length);
  progress.stage(50, 100, 'manifest hash').at(0, 1);
  if (!policy.bundle || !policy.hash) return { result: { id, findings, chain, authenticity: auth }, state: null };
  return {
    result: {
      id,
      findings,
      chain,
      authenticity: auth,
      details: {
        tg: {
          claimRef: m.claimRef,
          bundleHash: policy.hash,
          bundleSource: policy.governed ? 'policy-file' : 'embedded',
          modeComposition: modeComposition(m),
        },
      },
    },
    state: {
      manifest: m,
      manifestHash: hashCanonicalText(parsed.canonical),
      bundle: policy.bundle,
      bundleHash: policy.hash,
      bundleGoverned: policy.governed,
      goodArtifacts: checked.goodArtifacts,
      blocked,
      anchors,
      anchorStatus,
      journal,
    },
  };
}

/** A manifest is unsigned: consistency only; RECORDED artifacts proven in a signed journal say so. */
function manifestAuthenticity(recorded: number, proven: number): Authenticity {
  const anchors =
    recorded === 0
      ? ''
      : ` ${proven} of ${recorded} RECORDED artifact(s) are anchored in a journal whose signed checkpoints verified${proven < recorded ? ' (the others are not proven)' : ''}; that dates those artifacts, it does not sign the manifest.`;
  return authenticity.consistencyOnly(
    `a TG replay manifest carries no signature; its hashes and policy binding are internally consistent at best.${anchors}`,
  );
}

interface Drift {
  event: Record<string, JsonValue>;
  material: boolean;
}

export async function replayManifest(s: Sniffed, ctx: KindContext): Promise<KindResult> {
  return (await replayManifestFull(s, ctx)).result;
}

/**
 * One BANDED A replay, for drift telemetry: the model version and whether it drifted; which
 * replay it is (claimRef, executionId, manifestHash: `reprise drift` counts each once) and
 * when (the manifest's createdAtUtc: the governed window is the last observations in time).
 */
export interface Observation {
  claimRef: string;
  executionId: string;
  model: string;
  drift: boolean;
  driftRate: Bundle['driftRate'];
  manifestHash: string;
  at: string;
}

export interface ReplayOutcome {
  result: KindResult;
  /** The comparison artifact (null when the manifest could not be replayed at all). */
  comparison: Record<string, JsonValue> | null;
  manifestHash: string | null;
  bundle: Bundle | null;
  manifest: Manifest | null;
  observations: Observation[];
}

export interface ReplayControl {
  /** Write anchors, cases and telemetry to --journal (default true; attest and drift read only). */
  anchor?: boolean;
  confidence?: ConfidencePort;
}

/** One replay in progress: what it reads, and the rows, findings and drifts it has gathered so far. */
interface ReplayRun {
  readonly state: State;
  readonly manifest: Manifest;
  readonly bundle: Bundle;
  readonly env: RecomputeEnv;
  readonly byId: Map<string, Execution>;
  readonly confidence: ConfidencePort;
  readonly whatIf: WhatIf | null;
  readonly findings: Finding[];
  /** Each replayed output's value, by execution id. */
  readonly replayed: Map<string, unknown>;
  /** The model version each BANDED output was replayed under. */
  readonly replayVersion: Map<string, string>;
  readonly comparisons: Comparison[];
  readonly rowStatus: Map<string, Comparison['status']>;
  readonly drifts: Drift[];
  /** Reads an execution's recorded value (a RECORDED one from its artifact). */
  readonly recordedLook: Lookup;
  /** Reads an execution's replayed value. */
  readonly replayedLook: Lookup;
}

export async function replayManifestFull(
  s: Sniffed,
  ctx: KindContext,
  control: ReplayControl = {},
): Promise<ReplayOutcome> {
  const confidence = control.confidence ?? providerConfidencePort(ctx.options.providers);
  const whatIf = parseWhatIf(ctx.options.whatIf);
  const progress = new Progress((f, label) => ctx.progress(f, label));
  const v = await verifyManifest(s, ctx, progress.within(0, 50));
  progress.within(0, 100);
  const { result, state } = v;
  if (whatIf) markWhatIf(result, whatIf, ctx.options.journal !== undefined);
  if (!state) {
    progress.done();
    return {
      result: { ...result, comparisons: [], events: [] },
      comparison: null,
      manifestHash: null,
      bundle: null,
      manifest: null,
      observations: [],
    };
  }
  const run = startRun(state, result.findings, ctx, confidence, whatIf);
  const { manifest: m, bundle } = state;
  // A manifest that fails its chain (artifacts, bundle, a number whose hashed value is not
  // its text: RPR-TG-001) is not re-executed at all.
  const chainBroken = run.findings.some(
    (f) => f.severity === 'fail' && ['RPR-TG-001', 'RPR-TG-010', 'RPR-TG-011', 'RPR-TG-012'].includes(f.rule),
  );
  // The verification took the first half; the comparison and routing after the loop, the last few percent.
  progress.stage(50, 97, 'executions');
  for (let k = 0; k < m.executions.length; k++) {
    await replayExecution(run, m.executions[k]!, chainBroken);
    progress.at(k + 1, m.executions.length);
  }

  const { findings, comparisons, replayed, replayVersion } = run;
  nothingReplayed(m, findings);
  const comparison = buildComparisonArtifact(m, state.manifestHash, state.bundleHash, comparisons);
  const drifted = new Set(run.drifts.map((d) => d.event['executionId']));
  // A replay that failed for anything but drift observes nothing (telemetry.ts): neither
  // `reprise drift`, nor this report's drift figure, nor the journal's replay-comparison entry counts it.
  const failed = failuresBesidesDrift(findings).length > 0;
  const observations: Observation[] = m.executions
    .filter(
      (e) =>
        !failed &&
        e.replayMode === 'BANDED' &&
        e.output === CSI.CONFIDENCE_SCORE &&
        replayed.has(e.executionId) &&
        // Within only an ε whose origin is not established (RPR-TG-043): not decided, so no observation.
        run.rowStatus.get(e.executionId) !== 'unavailable',
    )
    .map((e) => ({
      claimRef: m.claimRef,
      executionId: e.executionId,
      // The version A ran under: a what-if's substitute, never the pinned version it did not run.
      model: `${e.pins?.modelId}@${replayVersion.get(e.executionId) ?? e.pins?.modelVersion}`,
      drift: drifted.has(e.executionId),
      driftRate: bundle.driftRate,
      manifestHash: state.manifestHash,
      at: m.createdAtUtc,
    }));
  const events = await route(
    m,
    state,
    run.drifts,
    comparison,
    findings,
    ctx,
    // A what-if is a demonstration: nothing of it is written to a journal (markWhatIf says so).
    control.anchor !== false && !whatIf,
    observations,
    run.rowStatus,
  );
  // The chart's figure: per model version the replay ran under (a what-if substitution included).
  const driftRate = driftRateDetail(observations, bundle.driftRate);
  if (ctx.options.out) await writeComparison(ctx.options.out, comparison);
  const details = {
    ...(result.details ?? {}),
    tg: {
      ...((result.details?.['tg'] as Record<string, JsonValue>) ?? {}),
      comparisonHash: hashValue(comparison),
      driftRate: driftRate as unknown as JsonValue,
    },
  };
  progress.done();
  return {
    result: { ...result, findings, comparisons, events, details },
    comparison,
    manifestHash: state.manifestHash,
    bundle,
    manifest: m,
    observations,
  };
}

/**
 * A what-if replay says so in its details and with a finding that keeps it from passing, and,
 * given a journal, that it wrote nothing there: a drift event anchors RECORDED outputs, a
 * case is a governed action and a replay-comparison is drift data, none of which a
 * demonstration under a model version the claim never ran may be (docs/tg-replay.md).
 */
function markWhatIf(result: KindResult, whatIf: WhatIf, journal: boolean): void {
  const substitutions = {
    ...(whatIf.model ? { model: whatIf.model } : {}),
    ...(whatIf.shape ? { shape: `${whatIf.shape.advisor}/${whatIf.shape.arity}/${whatIf.shape.tensorType}` } : {}),
  };
  result.details = {
    ...(result.details ?? {}),
    whatIf: {
      demonstration: true,
      note: 'training demonstration: A re-runs under a deliberately substituted model version or compute shape; not a forensic verdict, never a pass',
      substitutions,
    },
  };
  const written = journal
    ? '; nothing of it is written to --journal (no drift event, case or replay-comparison): a demonstration is no governed record'
    : '';
  result.findings.push(
    unavailable(
      'RPR-TG-037',
      `what-if replay: a demonstration under a substituted environment, never a pass${written}`,
      {
        expected: 'the pinned environment',
        actual: substitutions,
      },
    ),
  );
}

function startRun(
  state: State,
  verifyFindings: readonly Finding[],
  ctx: KindContext,
  confidence: ConfidencePort,
  whatIf: WhatIf | null,
): ReplayRun {
  const { manifest: m, bundle } = state;
  const byId = new Map(m.executions.map((e) => [e.executionId, e]));
  const replayed = new Map<string, unknown>();
  const recordedLook: Lookup = (id) => {
    const e = byId.get(id);
    if (!e) return { have: false, why: `${id} is not an execution` };
    if (e.replayMode === 'RECORDED')
      return e.artifactHash && m.artifacts[e.artifactHash]
        ? { have: true, value: m.artifacts[e.artifactHash]!.json ?? m.artifacts[e.artifactHash]!.text }
        : { have: false, why: `${id} has no artifact` };
    return { have: true, value: e.value };
  };
  const replayedLook: Lookup = (id) =>
    replayed.has(id) ? { have: true, value: replayed.get(id) } : { have: false, why: `${id} was not replayed` };
  return {
    state,
    manifest: m,
    bundle,
    env: {
      bundle,
      bundleHash: state.bundleHash,
      artifacts: m.artifacts,
      byId,
      ruleBudget: ruleBudget(ctx.options.limits),
      claimRef: m.claimRef,
    },
    byId,
    confidence,
    whatIf,
    findings: [...verifyFindings],
    replayed,
    replayVersion: new Map(),
    comparisons: [],
    rowStatus: new Map(),
    drifts: [],
    recordedLook,
    replayedLook,
  };
}

/** Records the comparison row of `e`. */
function row(
  run: ReplayRun,
  e: Execution,
  replayedValue: JsonValue,
  status: Comparison['status'],
  reason: string,
  delta: number | null = null,
): void {
  run.rowStatus.set(e.executionId, status);
  const c: Comparison = {
    output: e.output,
    mode: e.replayMode,
    original: originalOf(e),
    replayed: replayedValue,
    delta,
    epsilon: e.replayMode === 'BANDED' ? (run.bundle.epsilon[e.output] ?? null) : null,
    status,
    reason: `${e.executionId}: ${reason}`,
  };
  run.comparisons.push(c);
}

/** Replays one execution by its mode and records its row (and any finding or drift). */
async function replayExecution(run: ReplayRun, e: Execution, chainBroken: boolean): Promise<void> {
  const { state } = run;
  const why = chainBroken
    ? 'the manifest failed its hash chain or policy resolution; nothing is re-executed'
    : state.blocked.get(e.executionId);
  if (why) {
    row(run, e, null, 'fail', `not replayed: ${why}`);
    return;
  }
  if (e.replayMode === 'RECORDED') {
    const st = state.anchorStatus.get(e.executionId) ?? 'fail';
    const anchored = state.anchors.get(e.executionId)?.artifact ?? null;
    row(
      run,
      e,
      anchored,
      st,
      st === 'pass'
        ? 'anchored artifact matches, anchor proven in the journal and predates creation; not recomputed'
        : st === 'unavailable'
          ? 'anchor not provable here'
          : 'anchor does not verify: not replayable',
    );
    return;
  }
  if (e.replayMode === 'EXACT') {
    replayExact(run, e);
    return;
  }
  const banded = await replayBandedValue(run, e);
  if (banded) compareBanded(run, e, banded.value, banded.modelVersion);
}

function replayExact(run: ReplayRun, e: Execution): void {
  const { findings } = run;
  const r = recompute(e, run.env, run.recordedLook);
  if (!r.ok) {
    findings.push(notRecomputed(e, r));
    row(run, e, null, r.severity, r.reason);
    return;
  }
  run.replayed.set(e.executionId, r.value);
  const same = hashValue(r.value) === hashValue(e.value);
  if (!same)
    findings.push(
      fail(
        'RPR-TG-030',
        `EXACT output ${e.output} of ${e.executionId} diverges from its recomputation: a defect, never tolerable drift`,
        { pointer: execPtr(e, 'value'), expected: e.value as JsonValue, actual: r.value as JsonValue },
      ),
    );
  const delta = typeof r.value === 'number' && typeof e.value === 'number' ? exactDelta(r.value, e.value).json : null;
  row(
    run,
    e,
    r.value as JsonValue,
    same ? 'pass' : 'fail',
    same ? 'H(replayed) == H(original)' : `H(replayed) ${hashValue(r.value)} != H(original) ${hashValue(e.value)}`,
    delta,
  );
}

/** A BANDED output's replayed value and the model version it ran under, or null (its row recorded) when it cannot be replayed. */
async function replayBandedValue(
  run: ReplayRun,
  e: Execution,
): Promise<{ value: number; modelVersion: string } | null> {
  const { findings, byId, replayed } = run;
  let modelVersion = e.pins?.modelVersion ?? '';
  if (e.engine === ENGINE.SCORE_TRUST && e.output === CSI.CONFIDENCE_SCORE) {
    const r = await replayConfidence(e, run.manifest, run.state.goodArtifacts, run.confidence, run.whatIf);
    if (!r.ok) {
      findings.push(...r.findings);
      const sev = r.findings.some((f) => f.severity === 'fail') ? 'fail' : 'unavailable';
      row(run, e, null, sev, r.findings[0]?.message ?? 'not replayed');
      return null;
    }
    return { value: r.value, modelVersion: r.modelVersion };
  }
  if (e.engine === ENGINE.SCORE_TRUST && e.output === CSI.TRUST_SCORE) {
    const notReplayed = e.inputs.find((i) => byId.has(i) && !replayed.has(i));
    if (notReplayed) {
      // The input's own failure is already a finding; this output depends on it and is not run.
      row(
        run,
        e,
        null,
        run.rowStatus.get(notReplayed) === 'unavailable' ? 'unavailable' : 'fail',
        `not replayed: it depends on ${notReplayed}, which was not replayed`,
      );
      return null;
    }
    const r0 = recompute(e, run.env, run.recordedLook);
    if (r0.ok && hashValue(r0.value) !== hashValue(e.value))
      findings.push(
        fail(
          'RPR-TG-032',
          `the recorded TRUST-SCORE of ${e.executionId} is not the aggregation of its recorded vector (arithmetic is EXACT for a fixed vector)`,
          { pointer: execPtr(e, 'value'), expected: r0.value as JsonValue, actual: e.value as JsonValue },
        ),
      );
    const r = recompute(e, run.env, run.replayedLook);
    if (!r.ok || typeof r.value !== 'number') {
      const failed: Recomputed & { ok: false } = r.ok ? { ok: false, severity: 'fail', reason: 'not a number' } : r;
      findings.push(notRecomputed(e, failed));
      row(run, e, null, failed.severity, failed.reason);
      return null;
    }
    const a = e.inputs.map((i) => byId.get(i)).find((x) => x?.output === CSI.CONFIDENCE_SCORE);
    if (a) modelVersion = run.replayVersion.get(a.executionId) ?? modelVersion;
    return { value: r.value, modelVersion };
  }
  findings.push(
    unavailable('RPR-TG-036', `Reprise has no BANDED recomputation for ${e.engine} → ${e.output}`, {
      pointer: execPtr(e, 'engine'),
    }),
  );
  row(run, e, null, 'unavailable', 'no recomputation');
  return null;
}

/** Compares a replayed BANDED value with the original under the governed ε; beyond it, a REPLAY-DRIFT. */
function compareBanded(run: ReplayRun, e: Execution, value: number, modelVersion: string): void {
  const { state, manifest: m } = run;
  run.replayed.set(e.executionId, value);
  run.replayVersion.set(e.executionId, modelVersion);
  const original = e.value as number;
  const epsilon = run.bundle.epsilon[e.output]!;
  // Exact decimal on each number's shortest text: a delta of exactly ε passes (tg-replay.md).
  const { delta: exactD, json: delta } = exactDelta(value, original);
  if (withinEpsilon(exactD, epsilon)) {
    if (state.bundleGoverned) row(run, e, value, 'pass', 'within the governed ε; delta recorded', delta);
    else if (exactD.isZero()) row(run, e, value, 'pass', 'equal to the original: no tolerance needed', delta);
    else withinOwnEpsilon(run, e, value, delta, epsilon);
    return;
  }
  row(
    run,
    e,
    value,
    'fail',
    'beyond the governed ε: REPLAY-DRIFT emitted (never retried, never passed silently)',
    delta,
  );
  const exits = materialExits(e, value, run.env, run.recordedLook, run.byId);
  const material = exits.original !== null && exits.replayed !== null && exits.original !== exits.replayed;
  const ran = modelRun(run, e);
  run.findings.push(
    fail(
      'RPR-TG-031',
      `BANDED output ${e.output} of ${e.executionId} drifted beyond the governed ε${material ? ', and the drift is decision-material' : ''}`,
      { pointer: execPtr(e, 'value'), expected: `|replayed − original| ≤ ${epsilon}`, actual: delta },
    ),
  );
  run.drifts.push({
    material,
    event: {
      type: DRIFT_EVENT_TYPE,
      claimRef: m.claimRef,
      executionId: e.executionId,
      output: e.output,
      original,
      replayed: value,
      delta,
      epsilon,
      modelId: ran.pins?.modelId ?? null,
      originalModelVersion: ran.pins?.modelVersion ?? null,
      replayModelVersion: modelVersion,
      decisionMaterial: material,
      originalExit: exits.original,
      replayedExit: exits.replayed,
      manifestHash: state.manifestHash,
      bundleHash: state.bundleHash,
      routing: material ? 'HUMAN_REVIEW' : 'CALIBRATION_SIGNAL',
      anchor: null,
    },
  });
}

/**
 * A delta within the ε of the manifest's own embedded bundle, no `--policy` given: the bundle's
 * origin is not established (nothing signs a bundle), and an artifact must not set the
 * tolerance it is judged by, so the row is not decided (docs/tg-replay.md, "Whose ε decides").
 * No default ε stands in: TG-RP §6 forbids a coded tolerance. A zero delta needs none and
 * passes; a delta beyond that ε is drift whatever ε governs, so it is not this case.
 */
function withinOwnEpsilon(run: ReplayRun, e: Execution, value: number, delta: number, epsilon: number): void {
  row(
    run,
    e,
    value,
    'unavailable',
    "within only the ε of the manifest's own embedded bundle (origin not established): not decided; give the governed bundle with --policy FILE",
    delta,
  );
  run.findings.push(
    unavailable(
      'RPR-TG-043',
      `BANDED output ${e.output} of ${e.executionId} differs from its replay by ${delta}, within ε ${epsilon} only by the policy bundle the manifest embeds, whose origin is not established: an artifact does not set the tolerance it is judged by, so the row is not decided; give the governed bundle with --policy FILE`,
      {
        pointer: execPtr(e, 'value'),
        expected: `|replayed − original| ≤ the ε of a governed bundle (--policy)`,
        actual: delta,
      },
    ),
  );
}

/**
 * The execution whose model produced `e`'s value: a TRUST-SCORE's is its A input (the score
 * is arithmetic over A), so its drift names the model A ran, never pins the score merely
 * repeats (rules.trustScorePins holds those to A's, and a record that differs is not replayed).
 */
function modelRun(run: ReplayRun, e: Execution): Execution {
  if (e.output !== CSI.TRUST_SCORE) return e;
  const a = e.inputs.map((i) => run.byId.get(i)).find((x) => x?.output === CSI.CONFIDENCE_SCORE);
  return a ?? e;
}

/** `--out FILE`: the comparison artifact; a path that cannot be written is the user's to fix. */
async function writeComparison(out: string, comparison: Record<string, JsonValue>): Promise<void> {
  try {
    await writeFileAtomic(out, JSON.stringify(comparison, null, 2) + '\n');
  } catch (e) {
    throw new UsageError(`cannot write --out ${out}: ${readFailure(e)}`, 'path');
  }
}

/** The finding for an output that could not be recomputed: a rule out of budget (RPR-TG-038), a defect of the record, or no recomputation here. */
function notRecomputed(e: Execution, r: Recomputed & { ok: false }): Finding {
  if (r.limit)
    return fail('RPR-TG-038', `${e.executionId} cannot be recomputed: ${r.reason}`, {
      pointer: execPtr(e),
      expected: `rule evaluation within --limit ${r.limit}`,
      actual: r.reason,
    });
  if (r.severity === 'fail')
    return fail('RPR-TG-033', `${e.executionId} cannot be recomputed: ${r.reason}`, { pointer: execPtr(e) });
  return unavailable('RPR-TG-036', r.reason, { pointer: execPtr(e, 'engine') });
}

/** `details.tg.driftRate`: telemetry's per-version rate over the governed window, for this report's replays. */
function driftRateDetail(obs: readonly Observation[], governed: Bundle['driftRate']): TgDriftRate {
  const versions = driftRates(obs).map((d) => ({
    model: d.model,
    observations: d.observations,
    inWindow: d.inWindow,
    drifted: d.drifted,
    rate: d.rate,
    exceeds: d.flag,
  }));
  return { window: governed.window, maxRate: governed.maxRate, versions };
}

async function replayConfidence(
  e: Execution,
  m: Manifest,
  good: Set<string>,
  port: ConfidencePort,
  whatIf: WhatIf | null,
): Promise<{ ok: true; value: number; modelVersion: string } | { ok: false; findings: Finding[] }> {
  const pins = e.pins!;
  const ip = pins.inferenceParams!;
  const prompt = m.artifacts[pins.promptHash!];
  if (!prompt || !good.has(pins.promptHash!))
    return {
      ok: false,
      findings: [
        fail(
          'RPR-TG-018',
          `the pinned prompt ${pins.promptHash} of ${e.executionId} is not an intact artifact of the manifest`,
          {
            pointer: execPtr(e, 'pins', 'promptHash'),
            expected: 'the prompt artifact',
            actual: pins.promptHash ?? null,
          },
        ),
      ],
    };
  const frozen = (hash: string) => {
    const a = m.artifacts[hash]!;
    return a.text !== undefined
      ? { hash, mediaType: a.mediaType, text: a.text }
      : { hash, mediaType: a.mediaType, json: a.json as JsonValue };
  };
  const materials = [...new Set(e.inputs.filter((i) => good.has(i) && i !== pins.promptHash))].sort().map(frozen);
  const r = await port.confidence(
    {
      modelId: pins.modelId!,
      modelVersion: whatIf?.model ?? pins.modelVersion!,
      ...(whatIf?.shape ? { computeShape: whatIf.shape } : {}),
      prompt: frozen(pins.promptHash!),
      materials,
      pipeline: { engine: e.engine, engineCmi: e.engineCmi, output: e.output },
      temperature: ip.temperature,
      topP: ip.topP,
      seed: ip.seed,
      maxTokens: ip.maxTokens ?? REFERENCE_MAX_TOKENS,
    },
    execPtr(e, 'pins'),
  );
  return r.ok ? { ok: true, value: r.value, modelVersion: r.modelVersion } : r;
}

/** The exit before and after the drift: TG-DECISION recomputed with the replayed value. */
function materialExits(
  e: Execution,
  replayedValue: number,
  env: RecomputeEnv,
  look: Lookup,
  byId: Map<string, Execution>,
): { original: Exit | null; replayed: string | null } {
  if (e.output === CSI.TRUST_SCORE)
    return {
      original: typeof e.value === 'number' ? decide(e.value, env.bundle.exits) : null,
      replayed: decide(replayedValue, env.bundle.exits),
    };
  // A feeds TRUST-SCORE: recompute each dependent score with A replaced; the first one decides.
  for (const t of byId.values()) {
    if (t.output !== CSI.TRUST_SCORE || !t.inputs.includes(e.executionId) || typeof t.value !== 'number') continue;
    return {
      original: decide(t.value, env.bundle.exits),
      replayed: exitWithA(t, env, look, { id: e.executionId, value: replayedValue }),
    };
  }
  return { original: null, replayed: null };
}

/**
 * Routing: decision-material drift and claims whose exit is HUMAN_REVIEW or QUARANTINE
 * open a quarantine case; material drift events are anchored; other drift is recorded as
 * calibration signal. With --journal and --key this is written to the journal (drift
 * entries, one case per claim unless one is already open, and a replay-comparison entry
 * that drift telemetry counts); without them the events say what was not anchored.
 */
async function route(
  m: Manifest,
  state: State,
  drifts: Drift[],
  comparison: Record<string, JsonValue>,
  findings: Finding[],
  ctx: KindContext,
  write: boolean,
  observations: Observation[],
  rowStatus: Map<string, Comparison['status']>,
): Promise<JsonValue[]> {
  const reasons: string[] = drifts
    .filter((d) => d.material)
    .map((d) => `decision-material drift of ${String(d.event['output'])} (${String(d.event['executionId'])})`);
  // Only a decision that replayed EXACT routes by its exit: an unverified decision opens no case.
  for (const e of m.executions)
    if (
      e.engine === ENGINE.DECISION &&
      e.output === CSI.DECISION &&
      typeof e.value === 'string' &&
      (ROUTED_EXITS as readonly string[]).includes(e.value) &&
      rowStatus.get(e.executionId) === 'pass'
    )
      reasons.push(`exit ${e.value} (${e.executionId})`);
  const journal = write ? state.journal : null;
  const canWrite = journal !== null && typeof ctx.options.key === 'string';
  const needsWrite = drifts.length > 0 || reasons.length > 0;
  if (journal && !ctx.options.key && needsWrite)
    findings.push(
      unavailable('RPR-TG-040', 'anchoring drift events and opening cases needs --key KEYFILE with --journal', {}),
    );
  let caseRef: JsonValue = null;
  let alreadyOpen = false;
  // Whether everything that had to be anchored was: a refused or failed append (a journal that
  // does not verify, a full disk) leaves it false, and the events say so.
  let anchored = false;
  if (canWrite) {
    try {
      for (const d of drifts) {
        const { anchor: _a, ...body } = d.event;
        const a = await journal.append('replay-drift', { claimRef: m.claimRef, artifact: hashValue(body) }, body);
        d.event['anchor'] = { seq: a.seq, entryHash: a.entryHash };
      }
      if (reasons.length > 0) {
        const open = await journal.openCases();
        if (open.has(m.claimRef)) alreadyOpen = true;
        else {
          const drifted = drifts
            .filter((d) => d.material)
            .map((d) => ({ executionId: d.event['executionId'], anchor: d.event['anchor'] }));
          const a = await journal.openCase(
            m.claimRef,
            state.manifestHash,
            `TG replay routed the claim to human review: ${reasons.join('; ')}`,
            { reasons, manifestHash: state.manifestHash, bundleHash: state.bundleHash, driftEvents: drifted },
          );
          caseRef = { seq: a.seq, entryHash: a.entryHash, caseId: a.caseId };
        }
      }
      await journal.append(
        'replay-comparison',
        { claimRef: m.claimRef, artifact: hashValue(comparison) },
        telemetryBody(state, comparison, observations),
      );
      anchored = true;
    } catch (e) {
      findings.push(
        unavailable('RPR-TG-040', `anchoring in the journal failed: ${e instanceof Error ? e.message : String(e)}`, {}),
      );
    }
  } else if (write && drifts.some((d) => d.material))
    findings.push(
      warning(
        'RPR-TG-041',
        'decision-material drift routes the claim to human review, but nothing was anchored: no --journal',
        {},
      ),
    );
  const events: JsonValue[] = drifts.map((d) => d.event);
  if (reasons.length > 0) {
    findings.push(
      info('RPR-TG-042', `claim "${claimIdInFinding(m.claimRef)}" routed to human review: ${reasons.join('; ')}`),
    );
    events.push({
      type: ROUTING_EVENT_TYPE,
      claimRef: m.claimRef,
      route: 'HUMAN_REVIEW',
      reasons,
      case: caseRef,
      alreadyOpen,
      anchored,
    });
  }
  for (const d of drifts.filter((x) => !x.material))
    events.push({
      type: ROUTING_EVENT_TYPE,
      claimRef: m.claimRef,
      route: 'CALIBRATION_SIGNAL',
      reasons: [`drift of ${String(d.event['output'])} (${String(d.event['executionId'])}) is not decision-material`],
      case: null,
      alreadyOpen: false,
      anchored,
    });
  return events;
}

/** What drift telemetry counts per replay: each replayed BANDED A with its model version and whether it drifted. */
function telemetryBody(
  state: State,
  comparison: Record<string, JsonValue>,
  observations: Observation[],
): Record<string, unknown> {
  return {
    comparisonHash: hashValue(comparison),
    manifestHash: state.manifestHash,
    bundleHash: state.bundleHash,
    driftRate: state.bundle.driftRate,
    banded: observations.map((o) => ({ executionId: o.executionId, model: o.model, drift: o.drift })),
  };
}
