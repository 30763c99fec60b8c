/**
 * A comparison's link (the Compare view, docs/workbench.md "Sharing reproduces the run"): it
 * names both sides, each by what reopens it (`left.example=` an example's id, `left.path=` a
 * file under the granted folders, or `left.picked=` the name of a file picked in the window,
 * which no link can send again), how it was run (`left.mode=`, `left.whatif=`) and the engine
 * options its run took (`left.trustStore=`…: paths, never a key), so a reload runs both sides
 * again as they were run and compares them. `right.` the same.
 *
 * A path names a place, not the bytes there: once both sides have run, each side also says
 * what its run saw (`left.sha256=`, `left.verdict=`, as an artifact's link does, LinkSeen), so
 * the comparison a link reopens says which side is no longer what the link was shared from
 * (`comparisonChanged`) instead of showing another comparison under the same link.
 */
import type { CheckMode } from '../../../shared/api.js';
import { isHashString } from '../../../shared/hash-format.js';
import type { Verdict } from '../../../shared/report.js';
import { VERDICTS } from '../../../shared/report-shape.js';
import type { LinkSeen } from './deep-link.js';
import { quoted, seenDiffers, unclearOption } from './link-words.js';

/** One side of a comparison as its link names it. */
export interface CompareSideLink {
  /** What reopens it: an example by its id, a file by its path; a picked file only by its name. */
  target: { type: SideTarget; name: string };
  mode: CheckMode;
  /** A replay's what-if substitution (`model=ref-2`), or null. */
  whatIf: string | null;
  /** The engine options its run took, by the engine's names. */
  options: Record<string, string>;
  /** What its run saw (the artifact's SHA-256 and verdict), once it ran; absent while it runs, or from an older link. */
  seen?: LinkSeen;
}

export interface CompareLink {
  left: CompareSideLink;
  right: CompareSideLink;
}

type SideTarget = 'example' | 'path' | 'picked';
const SIDES = ['left', 'right'] as const;
type Side = (typeof SIDES)[number];
const SIDE_TARGETS: readonly SideTarget[] = ['example', 'path', 'picked'];
/** What a side's run saw, as its parameters name it. */
const SIDE_SEEN = ['sha256', 'verdict'];
/** A side's own parameters besides its options. */
const SIDE_OURS = [...SIDE_TARGETS, 'mode', 'whatif', ...SIDE_SEEN];

/** Whether a parameter is a side's (`left.…`, `right.…`). */
export const isSideKey = (k: string): boolean => SIDES.some((s) => k.startsWith(`${s}.`));

/**
 * Whether a parameter names what the comparison opens: any side's but what its run saw (the
 * same comparison run again is still the one shown, lib/link-history.ts).
 */
export const opensComparison = (k: string): boolean => isSideKey(k) && !SIDE_SEEN.includes(k.slice(k.indexOf('.') + 1));

/** Every side parameter a link may hold, a `key` among them (known, never kept). */
export const sideKeys = (optionNames: readonly string[]): string[] =>
  SIDES.flatMap((s) => [...SIDE_OURS, ...optionNames, 'key'].map((k) => `${s}.${k}`));

/** Writes the comparison's sides into the link (any side parameter of an earlier link already removed). */
export function writeCompare(p: URLSearchParams, c: CompareLink): void {
  for (const side of SIDES) {
    const s = c[side];
    p.set(`${side}.${s.target.type}`, s.target.name);
    p.set(`${side}.mode`, s.mode);
    if (s.whatIf) p.set(`${side}.whatif`, s.whatIf);
    for (const [k, v] of Object.entries(s.options)) if (k !== 'key' && v !== '') p.set(`${side}.${k}`, v);
    // A picked file's run is no run a link can reopen, so it says nothing of it (as an artifact's link).
    if (s.seen && s.target.type !== 'picked') {
      if (s.seen.sha256 !== null) p.set(`${side}.sha256`, s.seen.sha256);
      p.set(`${side}.verdict`, s.seen.verdict);
    }
  }
}

/** The comparison a link names, when it names both sides (`optionNames`: the options a link may carry). */
export function readCompare(p: URLSearchParams, optionNames: readonly string[]): { compare?: CompareLink } {
  const left = sideOf(p, 'left', optionNames);
  const right = sideOf(p, 'right', optionNames);
  return left && right ? { compare: { left, right } } : {};
}

function sideOf(p: URLSearchParams, side: string, optionNames: readonly string[]): CompareSideLink | null {
  const at = (k: string): string => p.get(`${side}.${k}`) ?? '';
  const type = SIDE_TARGETS.find((k) => at(k) !== '');
  if (!type) return null;
  const seen = seenOf(at('sha256'), at('verdict'));
  return {
    target: { type, name: at(type) },
    mode: at('mode') === 'replay' ? 'replay' : 'verify',
    whatIf: at('whatif') || null,
    options: Object.fromEntries(optionNames.filter((n) => at(n) !== '').map((n) => [n, at(n)])),
    ...(seen ? { seen } : {}),
  };
}

/** What a side's link says its run saw: a verdict, and the SHA-256 when that run had one. */
function seenOf(sha256: string, verdict: string): LinkSeen | null {
  if (!VERDICTS.includes(verdict)) return null;
  return { sha256: isHashString(sha256) ? sha256 : null, verdict: verdict as Verdict };
}

/**
 * Why the comparison a link reopened is not the one it was shared from, in words, or null
 * when both sides read as the link says (or it says nothing of them, an older link). `now`:
 * what each side's run saw. A side over another file, or the same bytes reading another
 * verdict (a file one of its options names changed), is named, with what the link's sharer
 * saw and what this run read, in the artifact link's words (link-words.ts seenDiffers).
 */
export function comparisonChanged(link: CompareLink, now: Record<Side, LinkSeen>): string | null {
  const notes = SIDES.map((side) => sideChanged(side, link[side], now[side])).filter((n) => n !== null);
  return notes.length > 0 ? notes.join(' ') : null;
}

/** One side's words: a picked file's side is held to nothing, since no link reopens it. */
function sideChanged(side: Side, link: CompareSideLink, now: LinkSeen): string | null {
  const seen = link.seen;
  if (!seen || link.target.type === 'picked') return null;
  const differs = seenDiffers(seen, now, link.target.name, true);
  return differs && `The ${side} side: ${differs}`;
}

/**
 * Why the comparison a link names is no comparison the window can run, or null (also when
 * the link names none). `targets`: the other things the link opens (an example, a path…).
 */
export function compareTrouble(p: URLSearchParams, optionNames: readonly string[], targets: string[]): string | null {
  const keys = [...new Set(p.keys())].filter(isSideKey);
  if (keys.length === 0) return null;
  const [first] = keys;
  if (targets.length > 0)
    return `This link names a comparison (${quoted(first!, p.get(first!)!)}…) and ${quoted(targets[0]!, p.get(targets[0]!)!)}: it is ambiguous (a link opens one thing)`;
  const view = p.get('view');
  if (view !== null && view !== 'compare')
    return `This link names a comparison in the view ${quoted(view)}; a comparison is shown in the Compare view (view=compare)`;
  const own = ['mode', 'whatif'].find((k) => p.has(k));
  if (own)
    return `This link names a comparison and gives ${quoted(own, p.get(own)!)}, which says how one artifact runs; each side of a comparison says its own (left.${own}=, right.${own}=)`;
  for (const side of SIDES) {
    const trouble = sideTrouble(p, side, optionNames);
    if (trouble) return trouble;
  }
  return null;
}

/** Why one side of a linked comparison cannot be run as the link says, or null. */
function sideTrouble(p: URLSearchParams, side: string, optionNames: readonly string[]): string | null {
  const k = (x: string): string => `${side}.${x}`;
  const named = SIDE_TARGETS.filter((t) => (p.get(k(t)) ?? '') !== '');
  if (named.length === 0)
    return `This link names a comparison without its ${side} side (${k('example')}=, ${k('path')}= or ${k('picked')}=)`;
  if (named.length > 1)
    return `This link names ${named.map((t) => quoted(k(t), p.get(k(t))!)).join(' and ')} as the ${side} side of a comparison: it is ambiguous`;
  const twice = [...SIDE_OURS, ...optionNames].map(k).find((x) => p.getAll(x).length > 1);
  if (twice)
    return `This link gives ${twice} more than once (${p
      .getAll(twice)
      .map((v) => quoted(twice, v))
      .join(', ')}): it is ambiguous`;
  return sideSeenTrouble(p, side, named[0]!) ?? sideRunTrouble(p, side, optionNames);
}

/** What is wrong with what a side says its run saw (`left.sha256=`, `left.verdict=`), or null. */
function sideSeenTrouble(p: URLSearchParams, side: string, target: SideTarget): string | null {
  const k = (x: string): string => `${side}.${x}`;
  const [sha256, verdict] = [p.get(k('sha256')), p.get(k('verdict'))];
  if (sha256 === null && verdict === null) return null;
  if (verdict !== null && !VERDICTS.includes(verdict))
    return `This link says the ${side} side's run read ${quoted(k('verdict'), verdict)}; a verdict is pass, fail or unavailable`;
  if (sha256 !== null && !isHashString(sha256))
    return `This link gives ${quoted(k('sha256'), sha256)}, which is no SHA-256 (sha256: and 64 lowercase hex digits)`;
  if (verdict === null)
    return `This link gives the SHA-256 the ${side} side's run saw without that run's verdict (${k('verdict')}=)`;
  if (target === 'picked')
    return `This link says what the ${side} side's run saw (${quoted(k('verdict'), verdict)}) of a file picked in the window, which no link reopens`;
  return null;
}

/** Why a side's run is not one the link can ask for: a mode there is none of, a what-if on a verify, an unclear option. */
function sideRunTrouble(p: URLSearchParams, side: string, optionNames: readonly string[]): string | null {
  const k = (x: string): string => `${side}.${x}`;
  const [mode, whatIf] = [p.get(k('mode')), p.get(k('whatif'))];
  if (mode !== null && mode !== 'verify' && mode !== 'replay')
    return `This link asks for ${quoted(k('mode'), mode)}; a side runs with ${k('mode')}=verify or ${k('mode')}=replay`;
  if (whatIf !== null && mode !== 'replay')
    return `This link asks for the ${side} side's verify with a what-if substitution (${quoted(k('whatif'), whatIf)}), which applies to a replay only (${k('mode')}=replay)`;
  if (whatIf !== null && whatIf.trim() !== whatIf)
    return `This link gives ${quoted(k('whatif'), whatIf)}, a substitution with spaces at an end, which would be run without them`;
  const unclear = optionNames.map(k).find((x) => p.has(x) && (p.get(x) === '' || p.get(x)!.trim() !== p.get(x)));
  return unclear === undefined ? null : unclearOption(unclear, p.get(unclear)!);
}
