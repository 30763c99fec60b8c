/**
 * The typed shape of each kind's `report.details`, keyed by kind, and the accessors the
 * renderer reads them through (a report crosses a process boundary as JSON: each accessor
 * checks the shape and answers null when it is not there). A kind with details of a shape
 * of its own names it in ShapedDetails. Imports only shared/report.ts.
 */
import { tgDriftRateOf, type ArtifactKind, type JsonValue, type Report, type TgDriftRate } from '../report.js';
import type { EvidenceBundleDetails } from './bundle.js';

type JsonObject = { [key: string]: JsonValue };

/** What-if substitutions of a training replay (replay-dump, tg-replay-manifest). */
export interface WhatIfDetails {
  substitutions: JsonObject;
}

export interface ReplayDumpDetails {
  encoding: 'json' | 'rom';
  whatIf?: WhatIfDetails;
  /** The recorded and replayed expression (shown as a diff). */
  expression?: { recorded: JsonValue; replayed: JsonValue };
}

export interface TgDetails {
  tg: { bundleHash?: string; driftRate?: TgDriftRate };
  whatIf?: WhatIfDetails;
}

export interface AcgpDetails {
  /** One point per EVAL of a trace: its trust debt `post`. */
  trajectory?: JsonValue[];
  debtThresholds?: { [name: string]: number | string };
}

export interface JournalDetails {
  entries: number;
  checkpoints: number;
  latestCheckpoint: JsonObject | null;
  cases: { [state: string]: number };
}

/**
 * The kinds whose details have a shape of their own (what the window reads of them); a kind
 * not named here has details of no fixed shape (a JSON object), so a new kind needs no entry.
 */
interface ShapedDetails {
  'replay-dump': ReplayDumpDetails;
  'tg-replay-manifest': TgDetails;
  'tg-policy-bundle': TgDetails;
  'acgp-eval': AcgpDetails;
  'acgp-trace': AcgpDetails;
  journal: JournalDetails;
  'evidence-bundle': EvidenceBundleDetails;
}
/** Every kind's details, derived from ARTIFACT_KINDS. */
export type DetailsByKind = { [K in ArtifactKind]: K extends keyof ShapedDetails ? ShapedDetails[K] : JsonObject };
/** A kind's details type. */
export type DetailsOf<K extends ArtifactKind> = DetailsByKind[K];
type Stale = Exclude<keyof ShapedDetails, ArtifactKind>;
/** Fails to compile, naming the kind, when ShapedDetails names a kind that is not in ARTIFACT_KINDS. */
export const DETAILS_NAME_KINDS: [Stale] extends [never] ? true : Stale = true;

/** A JSON value as an object, or null when it is none (what every accessor here and the window's views read details through). */
export function jsonObjectOf(v: JsonValue | undefined): JsonObject | null {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : null;
}
const obj = jsonObjectOf;

/** A what-if replay's substitutions, or null for a forensic report. */
export function whatIfOf(r: Report): WhatIfDetails | null {
  const w = obj(r.details?.['whatIf']);
  if (!w) return r.details?.['whatIf'] !== undefined ? { substitutions: {} } : null;
  return { substitutions: obj(w['substitutions']) ?? {} };
}

/** The governed drift rate of a TG replay (details.tg.driftRate), or null. */
export function tgDriftRateIn(r: Report): TgDriftRate | null {
  return tgDriftRateOf(obj(r.details?.['tg'])?.['driftRate']);
}

/** An ACGP trace's trust-debt trajectory and thresholds, or null when it has none. */
export function acgpTrajectoryOf(r: Report): { trajectory: JsonValue[]; thresholds: JsonObject } | null {
  const t = r.details?.['trajectory'];
  if (!Array.isArray(t) || t.length === 0) return null;
  return { trajectory: t, thresholds: obj(r.details?.['debtThresholds']) ?? {} };
}

/** A dump replay's recorded and replayed expression, or null. */
export function expressionOf(
  r: Report | null,
): { recorded: JsonValue | undefined; replayed: JsonValue | undefined } | null {
  const e = obj(r?.details?.['expression']);
  return e ? { recorded: e['recorded'], replayed: e['replayed'] } : null;
}
