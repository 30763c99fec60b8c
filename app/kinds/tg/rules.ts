/**
 * The replay-manifest rules of TG-RP that need no re-execution, one small function per
 * rule, each yielding findings with a rule id, a pointer, expected and actual. `blocked`
 * collects executions that must not be recomputed because a rule about them failed
 * (nothing that depends on a failed check is run).
 */
import type { Finding, JsonValue } from '../../../shared/report.js';
import { hashValue } from '../../core/hash.js';
import { fail, warning } from './findings.js';
import type { Bundle } from './bundle.js';
import { CSI, ENGINE } from './constants.js';
import { ptr, isObj } from './structure.js';
import { PARAM_MEMBERS, PIN_MEMBERS, type Execution, type Manifest, type Pins } from './manifest.js';

export type Blocked = Map<string, string>;

const execPtr = (e: Execution, ...t: string[]) => ptr('/executions', e.index, ...t);

function block(blocked: Blocked, e: Execution, reason: string): void {
  if (!blocked.has(e.executionId)) blocked.set(e.executionId, reason);
}

/** Execution ids are unique. */
export function uniqueIds(m: Manifest, blocked: Blocked): Finding[] {
  const seen = new Set<string>();
  const out: Finding[] = [];
  for (const e of m.executions) {
    if (seen.has(e.executionId)) {
      out.push(
        fail('RPR-TG-019', `execution id "${e.executionId}" appears twice`, {
          pointer: execPtr(e, 'executionId'),
          expected: 'unique execution ids',
          actual: e.executionId,
        }),
      );
      block(blocked, e, 'duplicate execution id');
    }
    seen.add(e.executionId);
  }
  return out;
}

/** Trust scoring never precedes policy resolution in `executions` (TG-MIB §5.1). */
export function policyBeforeScoring(m: Manifest, blocked: Blocked): Finding[] {
  const firstPolicy = m.executions.findIndex((e) => e.engine === ENGINE.POLICY_RESOLUTION);
  const out: Finding[] = [];
  for (const e of m.executions) {
    if (e.engine !== ENGINE.SCORE_TRUST) continue;
    if (firstPolicy === -1 || e.index < firstPolicy) {
      out.push(
        fail(
          'RPR-TG-013',
          `trust scoring (${e.executionId}) runs before policy resolution: the governed ε and weights arrive via POLICY-CONTEXT`,
          {
            pointer: execPtr(e),
            expected: `${ENGINE.POLICY_RESOLUTION} before ${ENGINE.SCORE_TRUST}`,
            actual:
              firstPolicy === -1
                ? `no ${ENGINE.POLICY_RESOLUTION} execution`
                : `${ENGINE.SCORE_TRUST} at /executions/${e.index}, ${ENGINE.POLICY_RESOLUTION} at /executions/${firstPolicy}`,
          },
        ),
      );
      block(blocked, e, 'scoring before policy resolution');
    }
  }
  return out;
}

/** Every input is an earlier execution or an artifact of the manifest whose content hashes to its key. */
export function lineageResolves(m: Manifest, goodArtifacts: Set<string>, blocked: Blocked): Finding[] {
  const earlier = new Set<string>();
  const out: Finding[] = [];
  for (const e of m.executions) {
    e.inputs.forEach((input, i) => {
      if (earlier.has(input) || goodArtifacts.has(input)) return;
      out.push(
        fail(
          'RPR-TG-018',
          `input "${input}" of ${e.executionId} resolves to no earlier execution and no intact artifact`,
          {
            pointer: execPtr(e, 'inputs', String(i)),
            expected: 'an earlier executionId or an artifact hash',
            actual: input,
          },
        ),
      );
      block(blocked, e, `input ${input} does not resolve`);
    });
    earlier.add(e.executionId);
  }
  return out;
}

/** The mode recorded per execution is the mode its engine's replay profile declares for the output (runtime DL-104). */
export function modeDeclared(m: Manifest, blocked: Blocked): Finding[] {
  const out: Finding[] = [];
  for (const e of m.executions) {
    const prof = m.replayProfiles[e.engine];
    const declared = prof ? (prof.outputs[e.output] ?? prof.default) : undefined;
    if (declared === undefined) {
      out.push(
        fail('RPR-TG-014', `output ${e.output} of engine ${e.engine} has no declared replay mode (runtime DL-104)`, {
          pointer: execPtr(e, 'replayMode'),
          expected: 'a mode declared in replayProfiles',
          actual: e.replayMode,
        }),
      );
      block(blocked, e, 'undeclared replay mode');
    } else if (declared !== e.replayMode) {
      out.push(
        fail(
          'RPR-TG-014',
          `${e.executionId} records mode ${e.replayMode}, but the replay profile of ${e.engine} declares ${declared} for ${e.output}`,
          { pointer: execPtr(e, 'replayMode'), expected: declared, actual: e.replayMode },
        ),
      );
      block(blocked, e, 'mode disagrees with the replay profile');
    }
  }
  return out;
}

/**
 * The engine the spec assigns each TG kernel output to (spec/tg-replay.md, "Engines Reprise
 * recomputes"). Recomputation reads its inputs by output (a decision takes the TRUST-SCORE
 * among its inputs), so the same output recorded under another engine name, RECORDED as a
 * human or external judgement and anchored, would stand in for the score or the vector
 * Reprise must recompute: a forged ACCEPT that replays PASS.
 */
const ENGINE_OF_OUTPUT: ReadonlyMap<string, string> = new Map([
  [CSI.POLICY_CONTEXT, ENGINE.POLICY_RESOLUTION],
  [CSI.TRUST_VECTOR, ENGINE.RULE_EVALUATOR],
  [CSI.CONFIDENCE_SCORE, ENGINE.SCORE_TRUST],
  [CSI.TRUST_SCORE, ENGINE.SCORE_TRUST],
  [CSI.SCORE_EXPLANATION, ENGINE.SCORE_TRUST],
  [CSI.DECISION, ENGINE.DECISION],
]);

/**
 * The outputs the spec fixes as EXACT (spec/tg-replay.md, "Engines Reprise recomputes"; the
 * seed's §3.1: TG-DECISION is a kernel invariant), each under its engine (ENGINE_OF_OUTPUT).
 * RECORDED is for human judgement and external AI: a profile that declares one of these
 * RECORDED would have an anchored artifact stand in for what Reprise must recompute (a forged
 * ACCEPT, a vector of 1s).
 */
const EXACT_BY_SPEC: readonly (readonly [string, string])[] = [
  CSI.POLICY_CONTEXT,
  CSI.TRUST_VECTOR,
  CSI.SCORE_EXPLANATION,
  CSI.DECISION,
].map((o) => [ENGINE_OF_OUTPUT.get(o)!, o] as const);

/** An output the spec fixes as EXACT is recorded EXACT, whatever its replay profile declares (runtime DL-104). */
export function modeBySpec(m: Manifest, blocked: Blocked): Finding[] {
  const out: Finding[] = [];
  for (const e of m.executions) {
    if (e.replayMode === 'EXACT' || !EXACT_BY_SPEC.some(([g, o]) => g === e.engine && o === e.output)) continue;
    out.push(
      fail(
        'RPR-TG-014',
        `${e.executionId} records ${e.engine} → ${e.output} as ${e.replayMode}, but the spec fixes it EXACT: Reprise recomputes it, no recorded artifact stands in for it`,
        { pointer: execPtr(e, 'replayMode'), expected: 'EXACT', actual: e.replayMode },
      ),
    );
    block(blocked, e, 'the spec fixes this output EXACT');
  }
  return out;
}

/** A TG kernel output is recorded under the engine the spec assigns it, never another's name. */
export function outputEngine(m: Manifest, blocked: Blocked): Finding[] {
  const out: Finding[] = [];
  for (const e of m.executions) {
    const engine = ENGINE_OF_OUTPUT.get(e.output);
    if (engine === undefined || engine === e.engine) continue;
    out.push(
      fail(
        'RPR-TG-039',
        `${e.executionId} records ${e.output} under engine ${e.engine}, but the spec assigns that output to ${engine}: no other engine's record stands in for what Reprise recomputes`,
        { pointer: execPtr(e, 'engine'), expected: engine, actual: e.engine },
      ),
    );
    block(blocked, e, `${e.output} is ${engine}'s output`);
  }
  return out;
}

/** TRUST-SCORE is BANDED exactly when a BANDED A (CONFIDENCE-SCORE) is among its inputs (TG-RP §3.2). */
export function trustScoreMode(m: Manifest, blocked: Blocked): Finding[] {
  const byId = new Map(m.executions.map((e) => [e.executionId, e]));
  const out: Finding[] = [];
  for (const e of m.executions) {
    if (e.engine !== ENGINE.SCORE_TRUST || e.output !== CSI.TRUST_SCORE) continue;
    const hasA = e.inputs.some(
      (i) => byId.get(i)?.output === CSI.CONFIDENCE_SCORE && byId.get(i)?.replayMode === 'BANDED',
    );
    const want = hasA ? 'BANDED' : 'EXACT';
    if (e.replayMode !== want) {
      out.push(
        fail(
          'RPR-TG-035',
          `TRUST-SCORE is ${want} when ${hasA ? 'the BANDED A dimension is' : 'no BANDED A dimension is'} among its inputs`,
          { pointer: execPtr(e, 'replayMode'), expected: want, actual: e.replayMode },
        ),
      );
      block(blocked, e, `TRUST-SCORE must be ${want}`);
    }
  }
  return out;
}

/** A BANDED record pins model id, version, prompt hash, inference parameters and ε; missing any pin is invalid. */
export function bandedPins(m: Manifest, blocked: Blocked): Finding[] {
  const out: Finding[] = [];
  for (const e of m.executions) {
    if (e.replayMode !== 'BANDED') continue;
    // Every BANDED record pins everything, TRUST-SCORE too (it repeats A's model pins).
    const needed: readonly string[] = PIN_MEMBERS;
    const pins = e.pins;
    const missing: string[] = [];
    if (!pins) missing.push(...needed);
    else {
      for (const p of needed) if (!Object.hasOwn(pins, p)) missing.push(p);
      if (needed.includes('inferenceParams') && isObj(pins.inferenceParams))
        for (const p of PARAM_MEMBERS)
          if (!Object.hasOwn(pins.inferenceParams, p)) missing.push(`inferenceParams.${p}`);
    }
    if (missing.length > 0) {
      out.push(
        fail(
          'RPR-TG-015',
          `BANDED record ${e.executionId} is missing pin${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: invalid, replay fails`,
          {
            pointer: execPtr(e, 'pins'),
            expected: needed.join(', '),
            actual: pins ? Object.keys(pins).join(', ') || '(none)' : '(no pins)',
          },
        ),
      );
      block(blocked, e, `missing pin ${missing.join(', ')}`);
    }
  }
  return out;
}

/** The pins that name the model run: TRUST-SCORE repeats A's (its ε is its own output's, RPR-TG-016). */
const MODEL_PINS = ['modelId', 'modelVersion', 'promptHash', 'inferenceParams', 'embeddingVersion'] as const;

/**
 * A BANDED TRUST-SCORE is BANDED only through its A input (TG-RP §3.2): its pins repeat the
 * model pins of that A, and name a prompt that resolves as A's must (an intact artifact of
 * the manifest, RPR-TG-018). Pins of another model would let the record, and a drift event
 * built from it, claim a model that never ran.
 */
export function trustScorePins(m: Manifest, goodArtifacts: Set<string>, blocked: Blocked): Finding[] {
  const byId = new Map(m.executions.map((e) => [e.executionId, e]));
  const out: Finding[] = [];
  for (const e of m.executions) {
    if (e.output !== CSI.TRUST_SCORE || e.replayMode !== 'BANDED' || !e.pins) continue;
    out.push(...promptResolves(e, e.pins, goodArtifacts, blocked));
    const a = e.inputs
      .map((i) => byId.get(i))
      .find((x) => x?.output === CSI.CONFIDENCE_SCORE && x.replayMode === 'BANDED');
    if (a?.pins) out.push(...pinsOfA(e, e.pins, a, a.pins, blocked));
  }
  return out;
}

/** The pinned prompt is an intact artifact of the manifest, as A's must be to be re-run. */
function promptResolves(e: Execution, pins: Partial<Pins>, good: Set<string>, blocked: Blocked): Finding[] {
  const h = pins.promptHash;
  if (h === undefined || good.has(h)) return [];
  block(blocked, e, `pinned prompt ${h} does not resolve`);
  return [
    fail('RPR-TG-018', `the pinned prompt ${h} of ${e.executionId} is not an intact artifact of the manifest`, {
      pointer: execPtr(e, 'pins', 'promptHash'),
      expected: 'the prompt artifact',
      actual: h,
    }),
  ];
}

/** Each model pin of TRUST-SCORE `e` equals its A input's; a pin either lacks is that record's own RPR-TG-015. */
function pinsOfA(e: Execution, pins: Partial<Pins>, a: Execution, aPins: Partial<Pins>, blocked: Blocked): Finding[] {
  const differ = MODEL_PINS.filter((p) => {
    const both = Object.hasOwn(pins, p) && Object.hasOwn(aPins, p);
    // embeddingVersion is optional: pinned by one record and not the other is a difference.
    if (!both && p !== 'embeddingVersion') return false;
    return hashValue(pins[p] ?? null) !== hashValue(aPins[p] ?? null);
  });
  if (differ.length > 0) block(blocked, e, `pins ${differ.join(', ')} differ from those of ${a.executionId}`);
  return differ.map((p) =>
    fail(
      'RPR-TG-015',
      `BANDED TRUST-SCORE ${e.executionId} pins ${p} other than its A input ${a.executionId} ran with: a TRUST-SCORE repeats A's model pins; invalid, replay fails`,
      {
        pointer: execPtr(e, 'pins', p),
        expected: (aPins[p] ?? null) as JsonValue,
        actual: (pins[p] ?? null) as JsonValue,
      },
    ),
  );
}

/** The ε recorded at execution time equals the governed ε of the resolved bundle for that output. */
export function governedEpsilon(m: Manifest, bundle: Bundle, blocked: Blocked): Finding[] {
  const out: Finding[] = [];
  for (const e of m.executions) {
    if (e.replayMode !== 'BANDED') continue;
    const governed = bundle.epsilon[e.output];
    if (governed === undefined) {
      out.push(
        fail('RPR-TG-017', `the policy bundle governs no ε for BANDED output ${e.output}`, {
          pointer: execPtr(e, 'output'),
          expected: `an ε for ${e.output} in the bundle`,
          actual: Object.keys(bundle.epsilon),
        }),
      );
      block(blocked, e, 'no governed ε');
      continue;
    }
    const recorded = e.pins?.epsilon;
    if (recorded !== undefined && recorded !== governed) {
      out.push(
        fail('RPR-TG-016', `the ε recorded for ${e.executionId} differs from the governed ε of the policy bundle`, {
          pointer: execPtr(e, 'pins', 'epsilon'),
          expected: governed,
          actual: recorded,
        }),
      );
      block(blocked, e, 'recorded ε differs from the governed ε');
    }
  }
  return out;
}

/**
 * An ε the bundle governs for an output this manifest records EXACT has no effect: EXACT
 * passes on H(replayed) == H(original) alone (TG-RP §2.1). Said, so that nobody reads the
 * ε as a tolerance the replay applied.
 */
export function epsilonOnExact(m: Manifest, bundle: Bundle): Finding[] {
  return m.executions
    .filter((e) => e.replayMode === 'EXACT' && bundle.epsilon[e.output] !== undefined)
    .map((e) =>
      warning(
        'RPR-TG-025',
        `the policy bundle governs ε ${bundle.epsilon[e.output]} for ${e.output}, but ${e.executionId} records it EXACT: it passes only on H(replayed) == H(original), and the ε has no effect on it`,
        {
          pointer: execPtr(e, 'replayMode'),
          expected: 'no ε: an EXACT output has no tolerance',
          actual: bundle.epsilon[e.output]!,
        },
      ),
    );
}

/** A RECORDED output names its artifact and its creation-time anchor; the artifact is in the manifest. */
export function recordedShape(m: Manifest, goodArtifacts: Set<string>, blocked: Blocked): Finding[] {
  const out: Finding[] = [];
  for (const e of m.executions) {
    if (e.replayMode !== 'RECORDED') continue;
    if (!e.artifactHash) {
      out.push(
        fail('RPR-TG-020', `RECORDED output ${e.executionId} names no artifactHash`, {
          pointer: execPtr(e),
          expected: 'artifactHash',
          actual: '(absent)',
        }),
      );
      block(blocked, e, 'no artifactHash');
    } else if (!goodArtifacts.has(e.artifactHash)) {
      out.push(
        fail('RPR-TG-018', `the RECORDED artifact ${e.artifactHash} is not an intact artifact of the manifest`, {
          pointer: execPtr(e, 'artifactHash'),
          expected: 'an artifact whose content hashes to this key',
          actual: e.artifactHash,
        }),
      );
      block(blocked, e, 'artifact absent');
    }
    if (!e.anchor) {
      out.push(
        fail(
          'RPR-TG-020',
          `RECORDED output ${e.executionId} has no creation-time anchor: it is not replayable and is never presented as such`,
          {
            pointer: execPtr(e, 'anchor'),
            expected: 'an evidence-journal anchor {seq, entryHash}',
            actual: '(absent)',
          },
        ),
      );
      block(blocked, e, 'no creation-time anchor');
    }
  }
  return out;
}
