/**
 * Deep links: the address's fragment names the view and the open artifact (a built-in
 * example by its id, or a file on this machine by its path), never its content, so a
 * reload or a shared link restores what was open, run as it was run: the action (`mode`)
 * and the what-if substitutions (`whatif`, one per substitution; an empty `whatif` is a
 * replay as recorded, which matters for an example whose own options are a what-if). The
 * web host's `token` shares the same fragment and is kept as it is. A picked or dropped
 * file has no name that could be reopened: the link keeps its file name only (`picked`),
 * so a reload can say what was open and that it must be picked again; so does a saved
 * report opened for reading (`report`).
 *
 * In the Case view a link names the case folder instead (`case`, a path under the granted
 * folders) with the options and the mode the case ran with, so a reload or a shared link
 * runs the same folder again as it was run.
 *
 * The link also carries every engine option the job ran with (`trustStore=/abs/file`, one
 * parameter per option the engine declares for the workbench: trust store, providers,
 * policy, journal, profiles, kernel adapter), since they decide the verdict: without its
 * trust store a signed dump's PASS reopens as UNAVAILABLE. They are paths under the
 * folders the host grants, checked again by the host when the link is opened; a signing
 * key is never an option and never in a link.
 */
import type { CheckMode, JobSource } from '../../../shared/api.js';

export interface DeepLink {
  view: string | null;
  example: string | null;
  path: string | null;
  mode: CheckMode | null;
  /** The substitutions the job ran with; null when the link does not say (the example's own then). */
  whatIf: string[] | null;
  /** The name of a file picked in the window, which the link cannot reopen. */
  picked: string | null;
  /** The name of a saved report opened for reading, which the link cannot reopen either. */
  report: string | null;
  /** The engine options the job ran with, by the engine's option names (paths; never a key). */
  options: Record<string, string>;
  /** The case folder the Case view ran (its path), whose options are then `options` and mode `mode`. */
  caseFolder: string | null;
}

/** What was open and how it was run: what the link writes. */
export interface LinkState {
  view: string;
  source: JobSource | null;
  mode: CheckMode | null;
  whatIf: string[];
  /** The picked file's name, for an upload; the saved report's, with `savedReport`. */
  name: string | null;
  savedReport?: boolean;
  /** The engine options the job ran with (the link writes them for a reopenable source). */
  options?: Record<string, string>;
  /** In the Case view, the case folder opened by its path, and the options the case ran with. */
  caseFolder?: string | null;
  caseOptions?: Record<string, string>;
  /** What the case ran: a replayed case's link says `mode=replay` (a verified one says nothing). */
  caseMode?: CheckMode | null;
}

const OURS = ['view', 'example', 'path', 'mode', 'whatif', 'picked', 'report', 'case'];

/** Never in a link: a signing key is chosen in the window, not handed around in an address. */
const NEVER = new Set(['key', ...OURS, 'token']);

/** The option names a link may carry: the engine's workbench options (EngineInfo.options), never a key. */
export const linkOptionNames = (declared: readonly { name: string }[]): string[] =>
  declared.map((o) => o.name).filter((n) => !NEVER.has(n));

/**
 * Reads the fragment. `optionNames` are the engine options a link may carry
 * (`linkOptionNames(info.options)`); any other parameter is not ours and is left alone.
 */
export function readLink(hash: string = location.hash, optionNames: readonly string[] = []): DeepLink {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const mode = p.get('mode');
  const whatIf = p.has('whatif') ? p.getAll('whatif').filter((w) => w !== '') : null;
  return {
    view: p.get('view'),
    example: p.get('example'),
    path: p.get('path'),
    mode: mode === 'replay' || mode === 'verify' ? mode : null,
    whatIf,
    picked: p.get('picked'),
    report: p.get('report'),
    caseFolder: p.get('case'),
    options: Object.fromEntries(
      optionNames.filter((n) => !NEVER.has(n) && (p.get(n) ?? '') !== '').map((n) => [n, p.get(n)!]),
    ),
  };
}

/**
 * The fragment for this state, keeping every parameter that is not ours (the token).
 * `optionNames` are the options a link may carry: an earlier link's values of them are
 * replaced by this state's.
 */
export function linkFor(hash: string, s: LinkState, optionNames: readonly string[] = []): string {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  for (const k of OURS) p.delete(k);
  for (const k of optionNames) if (!NEVER.has(k)) p.delete(k);
  p.set('view', s.view);
  if (s.view === 'case' && s.caseFolder) {
    p.set('case', s.caseFolder);
    if (s.caseMode === 'replay') p.set('mode', 'replay');
    for (const [k, v] of Object.entries(s.caseOptions ?? {})) if (!NEVER.has(k) && v !== '') p.set(k, v);
    return '#' + p.toString();
  }
  const reopenable = s.source?.type === 'example' || s.source?.type === 'path';
  if (s.source?.type === 'example') p.set('example', s.source.path);
  if (s.source?.type === 'path') p.set('path', s.source.path);
  if (s.source?.type === 'upload' && s.name) p.set('picked', s.name);
  if (!s.source && s.savedReport && s.name) p.set('report', s.name);
  if (s.mode && reopenable) p.set('mode', s.mode);
  if (s.mode === 'replay' && reopenable) {
    if (s.whatIf.length === 0) p.set('whatif', '');
    for (const w of s.whatIf) p.append('whatif', w);
  }
  if (reopenable) for (const [k, v] of Object.entries(s.options ?? {})) if (!NEVER.has(k) && v !== '') p.set(k, v);
  return '#' + p.toString();
}

/** The fragment the window wrote last: a hash change to anything else is a link opened in this tab. */
let written: string | null = null;

/** Writes the link without adding a history entry per click. */
export function writeLink(s: LinkState, optionNames: readonly string[] = []): void {
  const next = linkFor(location.hash, s, optionNames);
  written = next;
  if (next !== location.hash) history.replaceState(null, '', next);
}

/** Whether the address now names something other than what the window last wrote (a link pasted into this tab). */
export const linkChanged = (hash: string = location.hash): boolean => written === null || hash !== written;

/**
 * When a job (a link's above all) failed because one of its options is refused (no longer
 * under the granted folders, or gone), the words naming that option; null when the failure
 * is not about an option. The host's refusal and the engine's error name the path, so the
 * option is the one whose path the message names.
 */
export function optionRefusal(
  message: string,
  options: Record<string, string>,
  declared: readonly { name: string; help: string }[],
): string | null {
  const hit = Object.entries(options).find(([, v]) => message.includes(v));
  if (!hit) return null;
  const [name, path] = hit;
  const help = declared.find((o) => o.name === name)?.help;
  return (
    `This artifact is opened with the option ${name}${help ? ` (${help})` : ''} = ${path}, ` +
    `which this workbench cannot use: ${message}. It was not run without it, since that option decides the verdict.`
  );
}
