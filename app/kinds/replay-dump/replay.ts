/**
 * Replay of a verified dump: IKernelReplayer's four steps (spec/replay-dump.md).
 * 1 integrity (the whole chain; any fail stops here), 2 environment emulation against the
 * provider registry (fail-closed, RDS-LOCK-003 / RDS-F004 / RDS-F003, before anything runs),
 * 3 state unfreezing (buffers from the artifacts), 4 shadow execution and comparison.
 * What-if substitutions (training) are labelled in details.whatIf and never pass.
 */
import type { Comparison, Finding, JsonValue } from '../../../shared/report.js';
import { fail, info, unavailable } from './findings.js';
import { hashValue } from '../../core/hash.js';
import type { KindResult } from '../../core/report.js';
import {
  checkEnvironment,
  loadProviderRegistry,
  type LockedEnvironment,
  type ProviderRegistry,
} from '../../providers/registry.js';
import { shapeKey, type ComputeShape, type FrozenArtifact } from '../../providers/types.js';
import { parseWhatIf, type WhatIf } from '../../providers/what-if.js';
import type { DumpVerification } from './verify.js';
import { SUPPORTED_KERNEL_MAJORS } from './verify.js';

function unfreeze(v: DumpVerification, h: string): FrozenArtifact {
  const a = v.typed.artifacts?.get(h);
  if (!a) throw new Error(`internal: verified artifact ${h} is absent`);
  return a;
}

export async function replayVerified(
  v: DumpVerification,
  providersPath: string | undefined,
  whatIfItems: readonly string[] | undefined,
): Promise<KindResult> {
  const findings: Finding[] = [...v.findings];
  const chain = [...v.chain];
  const comparisons: Comparison[] = [];
  const details: { [k: string]: JsonValue } = {};
  const whatIf = parseWhatIf(whatIfItems);
  // Read (and refused whole, exit 3) before anything else: a defective registry is a usage
  // error whatever the dump holds.
  const reg = await loadProviderRegistry(providersPath);
  const t = v.typed;
  const result = (): KindResult => ({ id: v.id, findings, chain, comparisons, events: [], details });

  if (whatIf) {
    details['whatIf'] = {
      demonstration: true,
      note: 'training demonstration: the dump is replayed under a deliberately different environment; this is not a forensic verdict and never passes',
      substitutions: {
        ...(whatIf.model ? { model: whatIf.model } : {}),
        ...(whatIf.shape ? { shape: shapeKey(whatIf.shape) } : {}),
      },
    };
    findings.push(
      unavailable('RPR-DUMP-011', 'what-if replay: a demonstration under a substituted environment, never a pass', {
        expected: 'the locked environment',
        actual: details['whatIf'],
      }),
    );
  }

  // Step 1: integrity.
  if (findings.some((f) => f.severity === 'fail')) {
    findings.push(info('RDS-F001', 'replay denied: the integrity check failed, nothing was re-executed'));
    return result();
  }
  const lp = t.lockedProviderInfo;
  if (
    !lp ||
    !t.computeShape ||
    !t.inferenceParameters ||
    t.seed === undefined ||
    !t.buffers ||
    !t.pipelineDefinitionHash ||
    !t.promptArtifactHash ||
    !v.inputHash ||
    !t.executionOutcomeHash
  ) {
    findings.push(fail('RDS-F002', 'replay denied: the frozen conditions are incomplete'));
    return result();
  }

  // Step 2: environment emulation (fail-closed, before anything runs).
  if (t.kernelMajor !== undefined && !SUPPORTED_KERNEL_MAJORS.includes(t.kernelMajor)) {
    // verifyModel already added the RDS-F003 `unavailable` finding for replay.
    return result();
  }
  const ready = await emulateEnvironment(reg, lp, t.computeShape, whatIf, details, findings);
  if (!ready) return result();
  const { env, provider } = ready;

  // Step 3: state unfreezing.
  const prompt = unfreeze(v, t.promptArtifactHash);
  const pipeline = unfreeze(v, t.pipelineDefinitionHash);
  const materials = (t.materialSnapshotHashSet ?? []).map((h) => unfreeze(v, h));
  const recordedExpression = unfreeze(v, t.buffers.expression);

  // Step 4: shadow execution.
  const run = await provider.execute({
    modelId: env.modelId,
    quantizationProfile: env.quantizationProfile,
    computeShape: env.computeShape,
    seed: t.seed,
    parameters: t.inferenceParameters,
    prompt,
    pipeline,
    materials,
  });
  if (!run.ok) {
    findings.push(...run.findings);
    return result();
  }
  compareShadowRun(
    { expression: t.buffers.expression, outcome: t.executionOutcomeHash, input: v.inputHash },
    recordedExpression,
    run.expression,
    { findings, chain, comparisons, details },
  );
  return result();
}

type LockedInfo = NonNullable<DumpVerification['typed']['lockedProviderInfo']>;
type ReplayProvider = NonNullable<ReturnType<typeof checkEnvironment>['provider']>;

/** Step 2: the environment to emulate (a what-if substitution applied), its provider, and the model live; null after a finding. */
async function emulateEnvironment(
  reg: ProviderRegistry,
  lp: LockedInfo,
  computeShape: ComputeShape,
  whatIf: WhatIf | null,
  details: { [k: string]: JsonValue },
  findings: Finding[],
): Promise<{ env: LockedEnvironment; provider: ReplayProvider } | null> {
  const env: LockedEnvironment = {
    providerId: lp.providerId,
    modelId: whatIf?.model ?? lp.modelId,
    quantizationProfile: lp.quantizationProfile,
    capacitySnapshot: lp.capacitySnapshot,
    computeShape: whatIf?.shape ?? computeShape,
  };
  // Capacity belongs to the locked model; a what-if model brings its own.
  const check = checkEnvironment(
    reg,
    whatIf?.model
      ? {
          ...env,
          capacitySnapshot:
            reg.entry(env.providerId)?.models.find((m) => m.modelId === env.modelId)?.capacitySnapshot ??
            env.capacitySnapshot,
        }
      : env,
    { model: whatIf?.model !== undefined, shape: whatIf?.shape !== undefined },
  );
  details['environment'] = {
    computeShape: shapeKey(env.computeShape),
    modelId: env.modelId,
    providerId: env.providerId,
    quantizationProfile: env.quantizationProfile,
    registry: reg.identity,
  };
  if (!check.provider) {
    findings.push(...check.findings);
    return null;
  }
  const live = await check.provider.ensureAvailable(env.modelId);
  if (live.length > 0) {
    findings.push(...live);
    return null;
  }
  return { env, provider: check.provider };
}

/** What a replay gathers for its report. */
interface Gathered {
  findings: Finding[];
  chain: DumpVerification['chain'];
  comparisons: Comparison[];
  details: { [k: string]: JsonValue };
}

/** Step 4's comparison: the replayed expression and outcome hashes against the recorded ones. */
function compareShadowRun(
  recorded: { expression: string; outcome: string; input: string },
  recordedExpression: FrozenArtifact,
  replayed: JsonValue,
  out: Gathered,
): void {
  const { findings, chain, comparisons, details } = out;
  const replayedExpressionHash = hashValue(replayed);
  const replayedOutcome = hashValue({ expressionHash: replayedExpressionHash, inputHash: recorded.input });
  const same = replayedOutcome === recorded.outcome;
  chain.push({
    id: 'replay:expression',
    label: 'shadow execution: H(replayed expression) = buffers.expression',
    recorded: recorded.expression,
    recomputed: replayedExpressionHash,
    status: replayedExpressionHash === recorded.expression ? 'match' : 'mismatch',
    parents: ['input', `artifact:${recorded.expression}`],
    pointer: '/buffers/expression',
  });
  chain.push({
    id: 'replay:outcome',
    label: 'shadow execution: replayed outcome hash = executionOutcomeHash',
    recorded: recorded.outcome,
    recomputed: replayedOutcome,
    status: same ? 'match' : 'mismatch',
    parents: ['replay:expression', 'input'],
    pointer: '/executionOutcomeHash',
  });
  comparisons.push({
    output: 'expression',
    mode: 'EXACT',
    original: recorded.expression,
    replayed: replayedExpressionHash,
    status: same ? 'pass' : 'fail',
    ...(same ? {} : { reason: 'the replayed expression differs from the recorded one' }),
  });
  details['expression'] = {
    recorded: recordedExpression.json !== undefined ? recordedExpression.json : (recordedExpression.text ?? null),
    recordedHash: recorded.expression,
    replayed,
    replayedHash: replayedExpressionHash,
  };
  if (!same) {
    findings.push(
      fail(
        'RDS-F005',
        'shadow execution produced a different outcome: the recomputed outcome hash differs from executionOutcomeHash',
        { pointer: '/executionOutcomeHash', expected: recorded.outcome, actual: replayedOutcome },
      ),
    );
  }
}
