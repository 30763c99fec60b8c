/**
 * The times a package carries (docs/nemosyne.md, "Times"): the manifest's `createdAt`, when
 * the package was exported, and each `investigation/commands.log` event's `timestamp`, both
 * epoch milliseconds as upstream writes them (`Date.now()`: NemosyneSession.ts
 * `exportPortablePackage`, `ResearchEvent.timestamp` in src/atlas/types.ts). Each becomes
 * an RFC 3339 UTC time exactly (a whole number of milliseconds, read as the instant it
 * names); one that cannot (not a number, a fraction of a millisecond, a year outside
 * 0000-9999) is a warning here (RPR-NEM-039), and a case's timeline lacks it. The ledger's
 * times are kept up to `--limit nemosyne-timeline`, so a case's memory does not grow with a
 * package's ledger; the rest are counted (RPR-NEM-091). What the case is not offered is
 * counted with the times (PackageTimes.leftOut), so it says its timeline lacks them
 * (RPR-CASE-004): the timeline is never taken for all the package says.
 */
import type { Finding } from '../../../shared/report.js';
import { cutIndex } from '../../../shared/text-cut.js';
import { isPlainObject } from '../../core/closed.js';
import { info, warning } from './findings.js';
import { TIMELINE_LIMIT } from './limits.js';

/** One time the package carries, where it is, and what happened then. */
export interface PackageTime {
  atUtc: string;
  pointer: string;
  label: string;
}

/** The times a package carries that it offers no case's timeline: those that cannot be placed, and those past the limit. */
export interface TimesLeftOut {
  /** How many cannot be placed in time (RPR-NEM-039), and the first few by pointer, value and why. */
  refused: number;
  shown: { pointer: string; value: string; why: string }[];
  /** commands.log times past the limit (RPR-NEM-091), the limit, and the events of the ledger (a limit that keeps every one). */
  past: number;
  limit: number;
  events: number;
}

/** The times offered, and what was not offered when anything was not. */
export type PackageTimes = PackageTime[] & { leftOut?: TimesLeftOut };

/** Times named one by one before the rest are counted, per member. */
const NAMED = 3;
/** The longest value of the package a label or finding repeats (an event kind is a short word upstream). */
const SHORT_CHARS = 40;
/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: the instants RFC 3339 can write. */
const MIN_MS = -62_167_219_200_000;
const MAX_MS = 253_402_300_799_999;

/** Epoch milliseconds as RFC 3339 UTC, exactly, or why they cannot be. */
export function epochMsUtc(v: unknown): { atUtc: string } | { why: string } {
  if (typeof v !== 'number') return { why: 'not a number of epoch milliseconds' };
  if (!Number.isInteger(v)) return { why: 'not a whole number of milliseconds' };
  if (v < MIN_MS || v > MAX_MS) return { why: 'outside the years 0000-9999 an RFC 3339 time is written in' };
  return { atUtc: new Date(v).toISOString() };
}

/** Where the manifest's time is. */
const CREATED = 'entry:manifest.json#/createdAt';
/** Times a case names one by one (pointer, value, why) before it counts the rest, as for any artifact (engine/case/part.ts). */
const SHOWN = 3;

/**
 * The times of a package's manifest and ledger (null when commands.log is not a JSON
 * array), with a finding for each that cannot be placed and for the ledger times past the
 * limit; what is not offered is counted in `leftOut`.
 */
export function packageTimes(
  manifest: Record<string, unknown>,
  ledger: readonly unknown[] | null,
  limit: number,
  findings: Finding[],
): PackageTimes {
  const out: PackageTimes = [];
  const left: TimesLeftOut = { refused: 0, shown: [], past: 0, limit, events: ledger?.length ?? 0 };
  const createdAt = manifest['createdAt'];
  const created = epochMsUtc(createdAt);
  if ('atUtc' in created) out.push({ atUtc: created.atUtc, pointer: CREATED, label: 'package exported' });
  else if (createdAt !== undefined) {
    refuse(left, CREATED, createdAt, created);
    // One that is not a number is the manifest's RPR-NEM-004 already.
    if (typeof createdAt === 'number') unplaceable(findings, 'manifest.json createdAt', CREATED, createdAt, created);
  }
  if (ledger) ledgerTimes(ledger, out, left, findings);
  if (left.refused > 0 || left.past > 0) out.leftOut = left;
  return out;
}

/** The ledger's times up to the limit, and its findings: those that cannot be placed, those past the limit. */
function ledgerTimes(ledger: readonly unknown[], out: PackageTime[], left: TimesLeftOut, findings: Finding[]): void {
  let bad = 0;
  let kept = 0;
  ledger.forEach((e, i) => {
    const ts = isPlainObject(e) ? e['timestamp'] : undefined;
    if (ts === undefined) return; // an event without a time places nothing
    const at = epochMsUtc(ts);
    const pointer = `entry:investigation/commands.log#/${i}/timestamp`;
    if (!('atUtc' in at)) {
      refuse(left, pointer, ts, at);
      if (bad++ < NAMED) unplaceable(findings, `commands.log event ${i}'s timestamp`, pointer, ts, at);
    } else if (kept >= left.limit) left.past++;
    else {
      kept++;
      out.push({ atUtc: at.atUtc, pointer, label: `ledger: ${kindOf(e)}` });
    }
  });
  if (bad > NAMED)
    findings.push(
      warning(
        'RPR-NEM-039',
        `${bad - NAMED} more commands.log event timestamp(s) are not whole epoch milliseconds in years 0000-9999: a case cannot place them on its timeline`,
        { pointer: 'entry:investigation/commands.log' },
      ),
    );
  if (left.past > 0)
    findings.push(
      info(
        'RPR-NEM-091',
        `the times of ${left.past} commands.log event(s) past the first ${left.limit} are not offered to a case's timeline (limit ${TIMELINE_LIMIT}; --limit ${TIMELINE_LIMIT}=${ledger.length} keeps every one)`,
        { pointer: 'entry:investigation/commands.log' },
      ),
    );
}

/** Counts a time that cannot be placed, naming the first few. */
function refuse(left: TimesLeftOut, pointer: string, value: unknown, at: { why: string }): void {
  if (left.refused++ < SHOWN) left.shown.push({ pointer, value: shortText(value), why: at.why });
}

function unplaceable(findings: Finding[], what: string, pointer: string, value: unknown, at: { why: string }): void {
  findings.push(
    warning('RPR-NEM-039', `${what} is ${at.why}: a case cannot place it on its timeline`, {
      pointer,
      expected: 'a whole number of epoch milliseconds in years 0000-9999',
      actual: typeof value === 'number' ? value : value === undefined ? null : shortText(value),
    }),
  );
}

function kindOf(e: unknown): string {
  const k = isPlainObject(e) ? e['kind'] : undefined;
  return typeof k === 'string' && k !== '' ? shortText(k) : 'event';
}

/** A value of the package as a finding or a label repeats it: text cut short (its own words are in the package). */
function shortText(v: unknown): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > SHORT_CHARS ? `${s.slice(0, cutIndex(s, SHORT_CHARS))}…` : s;
}
