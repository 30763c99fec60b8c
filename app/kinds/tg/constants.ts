/**
 * The identifiers of TG-RP (tg-replay.md): artifact types, output CSIs, engine names,
 * replay modes and exits. Names only: no tolerance or threshold lives in code, every
 * ε, weight and exit threshold comes from the governed policy bundle.
 */
export const MANIFEST_TYPE = 'comp.TG.OUTPUT.REPLAY-MANIFEST.v1_0';
export const BUNDLE_TYPE = 'comp.FAGF.OUTPUT.WEIGHT-BUNDLE.v1_0';
export const DRIFT_EVENT_TYPE = 'comp.TG.EVENT.REPLAY-DRIFT.v1_0';
export const ROUTING_EVENT_TYPE = 'reprise.tg.routing/v1';
export const RULESET_TYPE = 'tg.ruleset/v1';
export const CLAIM_INPUTS_TYPE = 'tg.claim-inputs/v1';

export const CSI = {
  POLICY_CONTEXT: 'comp.TG.OUTPUT.POLICY-CONTEXT.v1_0',
  TRUST_VECTOR: 'comp.TG.OUTPUT.TRUST-VECTOR.v1_0',
  CONFIDENCE_SCORE: 'comp.TG.OUTPUT.CONFIDENCE-SCORE.v1_0',
  TRUST_SCORE: 'comp.TG.OUTPUT.TRUST-SCORE.v1_0',
  SCORE_EXPLANATION: 'comp.TG.OUTPUT.SCORE-EXPLANATION.v1_0',
  DECISION: 'comp.TG.OUTPUT.DECISION.v1_0',
} as const;

export const ENGINE = {
  POLICY_RESOLUTION: 'TG-POLICY-RESOLUTION',
  RULE_EVALUATOR: 'TG-RULE-EVALUATOR',
  SCORE_TRUST: 'TG-SCORE-TRUST',
  DECISION: 'TG-DECISION',
} as const;

export const MODES = ['EXACT', 'BANDED', 'RECORDED'] as const;
export type Mode = (typeof MODES)[number];

/** The five exits of TG-DECISION, in the order they are tried. */
export const EXITS = ['ACCEPT', 'ACCEPT_WITH_CONDITIONS', 'HUMAN_REVIEW', 'QUARANTINE', 'REJECT'] as const;
export type Exit = (typeof EXITS)[number];
/** The exits that carry a threshold (REJECT is "below QUARANTINE"). */
export const THRESHOLD_EXITS = ['ACCEPT', 'ACCEPT_WITH_CONDITIONS', 'HUMAN_REVIEW', 'QUARANTINE'] as const;
/** Exits that route the claim to a human (a quarantine case in the journal). */
export const ROUTED_EXITS: readonly Exit[] = ['HUMAN_REVIEW', 'QUARANTINE'];

/** Trust-vector dimensions: rule-derived S..F, and A (AI calibration confidence). */
export const RULE_DIMENSIONS = ['S', 'I', 'Q', 'P', 'R', 'F'] as const;
export const DIMENSIONS = ['S', 'I', 'Q', 'P', 'R', 'F', 'A'] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export const HASH_RE = /^sha256:[0-9a-f]{64}$/;
