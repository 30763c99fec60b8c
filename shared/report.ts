/**
 * The report contract (`reprise.report/v1`, see ../shared/spec/cli.md).
 * Shared by the engine, the CLI, the Electron main process and the renderer.
 * Pure types and tiny pure helpers only: this module imports nothing outside shared/.
 */
import { REGISTERED_KINDS } from './kinds.js';

export const REPORT_SCHEMA = 'reprise.report/v1' as const;

export type Severity = 'fail' | 'unavailable' | 'warning' | 'info';
export type Verdict = 'pass' | 'fail' | 'unavailable';

/**
 * The kinds' names: the registry's (shared/kinds.ts, generated from app/kinds/registry.ts
 * and checked by test/kinds/generated.test.ts, since shared/ imports nothing of app/),
 * and `unknown` for content no kind claims.
 */
export const ARTIFACT_KINDS = [...REGISTERED_KINDS, 'unknown'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/** JSON values as they travel between rooms. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface Finding {
  /** The source document's own rule id (RDS-F005, DL-104, DATASET_MISMATCH) or RPR-<AREA>-<NNN>. */
  rule: string;
  severity: Severity;
  message: string;
  /** RFC 6901 pointer, `entry:<path>` or `line:<n>`. */
  pointer?: string;
  expected?: JsonValue;
  actual?: JsonValue;
}

export type ChainStatus = 'match' | 'mismatch' | 'missing' | 'unresolved';

export interface ChainNode {
  id: string;
  label: string;
  recorded: string | null;
  recomputed: string | null;
  status: ChainStatus;
  parents: string[];
  /** Optional pointer into the artifact this node stands for (for the workbench). */
  pointer?: string;
}

export type ReplayMode = 'EXACT' | 'BANDED' | 'RECORDED';

export interface Comparison {
  output: string;
  mode: ReplayMode;
  original: JsonValue;
  replayed: JsonValue;
  delta?: number | null;
  epsilon?: number | null;
  status: 'pass' | 'fail' | 'unavailable';
  reason?: string;
}

/** Who made the artifact, as far as the engine established it (never guessed by a viewer). */
export const AUTHENTICITY_STATUSES = [
  'trusted-signer',
  'untrusted-signer',
  'unknown-signer',
  'revoked-signer',
  'bad-signature',
  'unsigned',
  'consistency-only',
] as const;
export type AuthenticityStatus = (typeof AUTHENTICITY_STATUSES)[number];

export interface Authenticity {
  status: AuthenticityStatus;
  /** The signing key's id (`ed25519:<hex>`) when the artifact names one. */
  keyId?: string;
  /** The signer's role in the trust store given, when the store knows `keyId`. */
  role?: 'reviewer' | 'quarantine-officer' | 'trainer';
  /** The trust store's label for `keyId` (who holds it), when the store knows the key and labels it. */
  label?: string;
  /** One sentence in plain words: what was and was not established about the origin. */
  statement: string;
}

/**
 * `details.tg.driftRate` of a TG replay: the drift rate of each model version over the
 * bundle's governed window (its last `window` BANDED A replays in this report), against
 * the governed `maxRate`.
 */
export interface TgDriftRate {
  window: number;
  maxRate: number;
  versions: {
    model: string;
    observations: number;
    inWindow: number;
    drifted: number;
    rate: number;
    exceeds: boolean;
  }[];
}

/** Narrows `details.tg.driftRate` (a JsonValue) to TgDriftRate, or null. */
export function tgDriftRateOf(v: JsonValue | undefined): TgDriftRate | null {
  const isNum = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);
  if (
    typeof v !== 'object' ||
    v === null ||
    Array.isArray(v) ||
    !isNum(v['window']) ||
    !isNum(v['maxRate']) ||
    !Array.isArray(v['versions'])
  )
    return null;
  const ok = v['versions'].every(
    (x) =>
      typeof x === 'object' &&
      x !== null &&
      !Array.isArray(x) &&
      typeof x['model'] === 'string' &&
      isNum(x['rate']) &&
      isNum(x['drifted']) &&
      isNum(x['inWindow']) &&
      isNum(x['observations']) &&
      typeof x['exceeds'] === 'boolean',
  );
  return ok ? (v as unknown as TgDriftRate) : null;
}

export interface ArtifactRef {
  path: string;
  kind: ArtifactKind;
  id: string | null;
  sha256: string | null;
}

export interface ReportRun {
  tool: 'reprise';
  version: string;
  startedAtUtc: string;
  durationMs: number;
}

export interface Report {
  schema: typeof REPORT_SCHEMA;
  artifact: ArtifactRef;
  verdict: Verdict;
  findings: Finding[];
  chain: ChainNode[];
  comparisons?: Comparison[];
  events?: JsonValue[];
  /** Kind-specific, deterministic extras (what-if substitutions, trajectories, authenticity). */
  details?: { [key: string]: JsonValue };
  /** The origin statement of kinds that have a notion of origin (signatures, trust stores). */
  authenticity?: Authenticity;
  run: ReportRun;
}

/** The verdict rule of common.md: any fail, else any unavailable, else pass. */
/**
 * A value as a person reads it (a finding's expected and actual, a comparison's original and
 * replayed, a table cell): a string as itself, no value as nothing, anything else as JSON,
 * indented by `indent` spaces per level when given. Every view of a report (text output,
 * HTML pages, the workbench) shows values through this one function, so they agree.
 */
export function shownValue(v: unknown, indent?: number): string {
  if (typeof v === 'string') return v;
  return JSON.stringify(v, null, indent) ?? '';
}

/** Verdicts from best to worst: one verdict claims more than another when its rank is lower. */
export const VERDICT_RANK: Readonly<Record<Verdict, number>> = { pass: 0, unavailable: 1, fail: 2 };

export function verdictOf(findings: readonly Pick<Finding, 'severity'>[]): Verdict {
  let unavailable = false;
  for (const f of findings) {
    if (f.severity === 'fail') return 'fail';
    if (f.severity === 'unavailable') unavailable = true;
  }
  return unavailable ? 'unavailable' : 'pass';
}

/** Exit codes of cli.md. */
export const EXIT = { pass: 0, fail: 1, unavailable: 2, error: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

const EXIT_RANK: Record<ExitCode, number> = { 0: 0, 2: 1, 1: 2, 3: 3 };

/** Worst of several exit codes: 3 > 1 > 2 > 0. */
export function worstExit(codes: Iterable<ExitCode>): ExitCode {
  let worst: ExitCode = EXIT.pass;
  for (const c of codes) if (EXIT_RANK[c] > EXIT_RANK[worst]) worst = c;
  return worst;
}

export function exitOfVerdict(v: Verdict): ExitCode {
  return EXIT[v];
}
