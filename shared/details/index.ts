/**
 * The typed shape of each kind's `report.details`, keyed by kind, and the accessors the
 * renderer reads them through (a report crosses a process boundary as JSON: each accessor
 * checks the shape and answers null when it is not there). A new kind adds its entry to
 * DetailsByKind. Imports only shared/report.ts.
 */
import { tgDriftRateOf, type ArtifactKind, type JsonValue, type Report, type TgDriftRate } from '../report.js';

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

/** Every kind's details (DETAILS_COVER_EVERY_KIND makes a kind without an entry a type error). */
export interface DetailsByKind {
  'replay-dump': ReplayDumpDetails;
  'tg-replay-manifest': TgDetails;
  'tg-policy-bundle': TgDetails;
  'nemosyne-package': JsonObject;
  'acgp-eval': AcgpDetails;
  'acgp-trace': AcgpDetails;
  journal: JournalDetails;
  'evidence-bundle': JsonObject;
  rejudgement: JsonObject;
  unknown: JsonObject;
}
/** A kind's details type. */
export type DetailsOf<K extends ArtifactKind> = DetailsByKind[K];
type Missing = Exclude<ArtifactKind, keyof DetailsByKind>;
/** Fails to compile, naming the kind, when a kind in ARTIFACT_KINDS has no DetailsByKind entry. */
export const DETAILS_COVER_EVERY_KIND: [Missing] extends [never] ? true : Missing = true;

const obj = (v: JsonValue | undefined): JsonObject | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : null);

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
export function expressionOf(r: Report | null): { recorded: JsonValue | undefined; replayed: JsonValue | undefined } | null {
  const e = obj(r?.details?.['expression']);
  return e ? { recorded: e['recorded'], replayed: e['replayed'] } : null;
}
