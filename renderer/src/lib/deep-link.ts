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
 * folders) with the options and the mode the case ran with, and what the case saw (`verdict`
 * and `content`, CaseSeen), so a reload or a shared link runs the same folder again as it was
 * run and says when it no longer reads so; a case sent from the window is named only
 * (`sent`), as a picked file is, since no link can send its files again. In the Compare view
 * it names the comparison on screen, both its sides (lib/compare-link.ts).
 *
 * A link is one request: one thing to open, each parameter once, nothing this workbench
 * does not know (`linkTrouble`). Anything else is refused as a whole, since whichever part
 * the window guessed at would be run without the user's word that it was the one meant.
 *
 * The link also carries every engine option the job ran with (`trustStore=/abs/file`, one
 * parameter per option the engine declares for the workbench: trust store, providers,
 * policy, journal, profiles, kernel adapter), since they decide the verdict: without its
 * trust store a signed dump's PASS reopens as UNAVAILABLE. They are paths under the
 * folders the host grants, checked again by the host when the link is opened; a signing
 * key is never an option and never in a link.
 *
 * A path names a place, not the bytes there: the link also says what the run it was made
 * from saw (`sha256`, the artifact's SHA-256, and `verdict`), so the run it reopens says when
 * the file at that path is no longer the one shared, or when the same file now reads another
 * verdict (a file an option names changed): a shared link never passes off one file's or one
 * trust store's verdict as another's (`seenChanged`).
 */
import type { CheckMode, JobSource } from '../../../shared/api.js';
import type { Verdict } from '../../../shared/report.js';
import {
  compareTrouble,
  isSideKey,
  opensComparison,
  readCompare,
  sideKeys,
  writeCompare,
  type CompareLink,
} from './compare-link.js';
import { quoted, seenDiffers, unclearOption } from './link-words.js';

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
  /** What the run the link was made from saw of the artifact it opens, when the link says. */
  seen: LinkSeen | null;
  /** What the case the link was made from saw (`verdict`, `content`), for a case link that says. */
  caseSeen?: CaseSeen;
  /** The comparison the link names (lib/compare-link.ts), shown in the Compare view. */
  compare?: CompareLink;
}

/** What a run saw of its artifact, as a link carries it: the bytes' SHA-256 and the verdict. */
export interface LinkSeen {
  sha256: string | null;
  verdict: Verdict;
}

/**
 * What a case's run saw, as its link carries it: the case's verdict, and `content`, the
 * SHA-256 of its artifacts' paths and SHA-256s (case-store.ts caseContent): the same
 * folder's files read alike, another file or one more or fewer does not.
 */
export interface CaseSeen {
  content: string;
  verdict: Verdict;
}

const VERDICTS: readonly string[] = ['pass', 'fail', 'unavailable'] satisfies Verdict[];
const SHA256 = /^sha256:[0-9a-f]{64}$/;

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
  /** In the Case view, the name of a case sent from the window: named, never reopenable. */
  caseSent?: string | null;
  /** A link the window could not open, kept as it was given (but for a key) so a reload says the same. */
  heldLink?: string | null;
  /** What the run of the open artifact saw (its report), for a reopenable source. */
  seen?: LinkSeen | null;
  /** What the case on screen saw, once it ended (a case by its folder only). */
  caseSeen?: CaseSeen | null;
  /** In the Compare view, the comparison on screen (or asked for): the link names it instead of the open artifact. */
  compare?: CompareLink | null;
}

const OURS = [
  'view',
  'example',
  'path',
  'mode',
  'whatif',
  'picked',
  'report',
  'case',
  'sent',
  'sha256',
  'verdict',
  'content',
];

/** What a link opens: one of them at most. */
const TARGETS = ['example', 'path', 'picked', 'report', 'case', 'sent'];

/** Never in a link: a signing key is chosen in the window, not handed around in an address. */
const NEVER = new Set(['key', ...OURS, 'token']);

const params = (hash: string): URLSearchParams => new URLSearchParams(hash.replace(/^#/, ''));

/** The option names a link may carry: the engine's workbench options (EngineInfo.options), never a key. */
export const linkOptionNames = (declared: readonly { name: string }[]): string[] =>
  declared.map((o) => o.name).filter((n) => !NEVER.has(n));

/**
 * Reads the fragment. `optionNames` are the engine options a link may carry
 * (`linkOptionNames(info.options)`); any other parameter is not ours and is left alone.
 */
export function readLink(hash: string = location.hash, optionNames: readonly string[] = []): DeepLink {
  const p = params(hash);
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
    seen: seenOf(p),
    options: Object.fromEntries(
      optionNames.filter((n) => !NEVER.has(n) && (p.get(n) ?? '') !== '').map((n) => [n, p.get(n)!]),
    ),
    ...caseSeenOf(p),
    ...readCompare(
      p,
      optionNames.filter((n) => !NEVER.has(n)),
    ),
  };
}

/** What a case link says its case saw, when it says (a verdict and the content digest, both). */
function caseSeenOf(p: URLSearchParams): { caseSeen?: CaseSeen } {
  const [content, verdict] = [p.get('content'), p.get('verdict')];
  if (content === null || !SHA256.test(content) || verdict === null || !VERDICTS.includes(verdict)) return {};
  return { caseSeen: { content, verdict: verdict as Verdict } };
}

/** What the link says its run saw: a verdict, and the SHA-256 when that run had one. */
function seenOf(p: URLSearchParams): LinkSeen | null {
  const verdict = p.get('verdict');
  if (p.has('content')) return null;
  if (verdict === null || !VERDICTS.includes(verdict)) return null;
  const sha256 = p.get('sha256');
  return { sha256: sha256 !== null && SHA256.test(sha256) ? sha256 : null, verdict: verdict as Verdict };
}

/**
 * Why the run a link reopened is not what the link was made from, in words, or null when it
 * is (or the link says nothing of what it saw): another file at that path, or the same
 * bytes reading another verdict, which only the files its options name can have changed.
 */
export function seenChanged(
  seen: LinkSeen | null,
  now: LinkSeen,
  name: string,
  from: 'link' | 'case' = 'link',
): string | null {
  if (!seen) return null;
  const v = (x: Verdict): string => x.toUpperCase();
  if (from === 'case') return caseSeenChanged(seen, now, name, v);
  const differs = seenDiffers(seen, now, name);
  return differs && differs[0]!.toUpperCase() + differs.slice(1);
}

/**
 * Why the case a link reopened is not what the link was made from, in words, or null when it
 * is (or the link says nothing of what it saw): other files in the folder (another content),
 * or the same files reading another verdict, which only the files its options name can have
 * changed (a key revoked in its trust store).
 */
export function caseChanged(seen: CaseSeen | null, now: CaseSeen, folder: string): string | null {
  if (!seen) return null;
  const v = (x: Verdict): string => x.toUpperCase();
  if (seen.content !== now.content)
    return (
      `This link was made when the case ${folder} held other files (content ${seen.content}, ${v(seen.verdict)}); ` +
      `it now holds content ${now.content}, which reads ${v(now.verdict)}: it is not the case the link was shared from.`
    );
  if (seen.verdict !== now.verdict)
    return (
      `This link was made when the case ${folder} read ${v(seen.verdict)}; the same files now read ${v(now.verdict)} ` +
      `with the link's options: a file one of them names (a trust store, providers, a policy) is not what it was.`
    );
  return null;
}

/**
 * The same for an artifact opened from a case: the case's own row is what it saw. The case
 * checks some artifacts against others it holds (an exported report against its artifact,
 * an anchor against its journal), so opened alone one may read another verdict from the same
 * bytes; other bytes at its path are another file.
 */
function caseSeenChanged(seen: LinkSeen, now: LinkSeen, name: string, v: (x: Verdict) => string): string | null {
  if (seen.sha256 !== null && seen.sha256 !== now.sha256)
    return (
      `The case verified a file whose SHA-256 was ${seen.sha256} (${v(seen.verdict)}); the file now at ${name} ` +
      `is ${now.sha256 ?? 'of no SHA-256 the engine could take'}: it is not the file the case verified.`
    );
  if (seen.verdict !== now.verdict)
    return (
      `In the case, ${name} read ${v(seen.verdict)}; opened on its own, the same bytes read ${v(now.verdict)} with the ` +
      `case's options: the case checks some artifacts against others it holds, and a file its options name may have changed.`
    );
  return null;
}

/**
 * The fragment for this state, keeping every parameter that is not ours (the token) but a
 * key. `optionNames` are the options a link may carry: an earlier link's values of them are
 * replaced by this state's.
 */
export function linkFor(hash: string, s: LinkState, optionNames: readonly string[] = []): string {
  const caseOpen = s.view === 'case' && (s.caseFolder || s.caseSent);
  const comparing = s.view === 'compare' && s.compare ? s.compare : null;
  if (s.heldLink && !caseOpen && !comparing) return withoutKey(s.heldLink);
  const p = params(hash);
  for (const k of [...OURS, ...optionNames, 'key', ...[...p.keys()].filter(isSideKey)]) if (k !== 'token') p.delete(k);
  p.set('view', s.view);
  if (caseOpen) caseLink(p, s);
  else if (comparing) writeCompare(p, comparing);
  else artifactLink(p, s);
  return '#' + p.toString();
}

/** The case on screen: its folder with the options and mode it ran with, or the name of one sent from the window. */
function caseLink(p: URLSearchParams, s: LinkState): void {
  if (!s.caseFolder) return void p.set('sent', s.caseSent!);
  p.set('case', s.caseFolder);
  if (s.caseMode === 'replay') p.set('mode', 'replay');
  if (s.caseSeen) {
    p.set('verdict', s.caseSeen.verdict);
    p.set('content', s.caseSeen.content);
  }
  for (const [k, v] of Object.entries(s.caseOptions ?? {})) if (!NEVER.has(k) && v !== '') p.set(k, v);
}

/** The open artifact: by what reopens it and how it ran, or by its name only when nothing can reopen it. */
function artifactLink(p: URLSearchParams, s: LinkState): void {
  const reopenable = s.source?.type === 'example' || s.source?.type === 'path';
  if (s.source?.type === 'example') p.set('example', s.source.path);
  if (s.source?.type === 'path') p.set('path', s.source.path);
  if (s.source?.type === 'upload' && s.name) p.set('picked', s.name);
  if (!s.source && s.savedReport && s.name) p.set('report', s.name);
  if (!reopenable) return;
  if (s.mode) p.set('mode', s.mode);
  if (s.mode === 'replay') {
    if (s.whatIf.length === 0) p.set('whatif', '');
    for (const w of s.whatIf) p.append('whatif', w);
  }
  if (s.seen) {
    if (s.seen.sha256 !== null) p.set('sha256', s.seen.sha256);
    p.set('verdict', s.seen.verdict);
  }
  for (const [k, v] of Object.entries(s.options ?? {})) if (!NEVER.has(k) && v !== '') p.set(k, v);
}

/** A fragment without any `key`: a link never carries a signing key, even one typed into it. */
export function withoutKey(hash: string): string {
  const p = params(hash);
  const keys = ['key', 'left.key', 'right.key'].filter((k) => p.has(k));
  if (keys.length === 0) return hash;
  for (const k of keys) p.delete(k);
  return '#' + p.toString();
}

/** The name of a case sent from the window that a link names (`sent`), or null. */
export const sentCase = (hash: string = location.hash): string | null => params(hash).get('sent') || null;

/**
 * Why this fragment is no link the window can follow, in words, or null when it is one (or
 * holds no link at all, as the bare `#token=…`). `views` are the view ids. Not a link: a
 * parameter this workbench does not know (an option this engine lacks decides no verdict
 * here, so running without it would be running something else), a view or mode it does not
 * have. Ambiguous: two things to open, or one parameter given twice.
 */
export function linkTrouble(hash: string, optionNames: readonly string[], views: readonly string[]): string | null {
  const p = params(hash);
  const known = new Set([...OURS, ...optionNames, 'token', 'key', ...sideKeys(optionNames)]);
  const unknown = [...new Set(p.keys())].filter((k) => !known.has(k));
  const said = 'so nothing was opened';
  if (unknown.length)
    return `This link is not one this workbench understands: ${unknown.map((k) => quoted(k)).join(', ')} is no part of a link, ${said}.`;
  const view = p.get('view');
  if (view !== null && !views.includes(view))
    return `This link names the view ${quoted(view)}, which this workbench does not have, ${said}.`;
  const mode = p.get('mode');
  if (mode !== null && mode !== 'verify' && mode !== 'replay')
    return `This link asks for ${quoted('mode', mode)}; a link asks for mode=verify or mode=replay, ${said}.`;
  const seen = seenTrouble(p);
  if (seen) return `${seen}, ${said}.`;
  const twice = [...OURS.filter((k) => k !== 'whatif'), ...optionNames].find((k) => p.getAll(k).length > 1);
  if (twice)
    return `This link gives ${twice} more than once (${p
      .getAll(twice)
      .map((v) => quoted(twice, v))
      .join(', ')}): it is ambiguous, ${said}.`;
  const unclear = optionNames.find((k) => p.has(k) && (p.get(k) === '' || p.get(k)!.trim() !== p.get(k)));
  if (unclear !== undefined) return `${unclearOption(unclear, p.get(unclear)!)}, ${said}.`;
  const targets = TARGETS.filter((k) => (p.get(k) ?? '') !== '');
  const comparison = compareTrouble(p, optionNames, targets);
  if (comparison) return `${comparison}, ${said}.`;
  if (targets.length > 1)
    return `This link names ${targets.map((k) => quoted(k, p.get(k)!)).join(' and ')}: it is ambiguous (a link opens one thing), ${said}.`;
  // What-if substitutions replay one artifact; a case run without them would be taken for the run they ask.
  const caseTarget = targets.find((k) => k === 'case' || k === 'sent');
  if (caseTarget && p.has('whatif'))
    return `This link opens the case ${quoted(caseTarget, p.get(caseTarget)!)} with what-if substitutions (${whatIfs(p)}), which apply to one artifact's replay, never to a case, ${said}.`;
  // What-if substitutions are a replay's: a verify would run without them and read as the run they ask.
  // A link to an example without a mode runs the example's own action (checked when it is opened).
  const [target] = targets;
  if (
    p.has('whatif') &&
    (mode === 'verify' || (mode === null && target === 'path')) &&
    ['path', 'example'].includes(target!)
  )
    return `This link asks for ${mode === null ? 'a verify (it names no mode)' : quoted('mode', mode)} with what-if substitutions (${whatIfs(p)}), which apply to a replay only (mode=replay), ${said}.`;
  return null;
}

/** What is wrong with what a link says its run saw (sha256, verdict), or null: only a reopenable artifact's run is said. */
function seenTrouble(p: URLSearchParams): string | null {
  const [sha256, verdict, content] = [p.get('sha256'), p.get('verdict'), p.get('content')];
  if (sha256 === null && verdict === null && content === null) return null;
  if (verdict !== null && !VERDICTS.includes(verdict))
    return `This link says its run read ${quoted('verdict', verdict)}; a verdict is pass, fail or unavailable`;
  const notHash = [['sha256', sha256] as const, ['content', content] as const].find(
    ([, v]) => v !== null && !SHA256.test(v),
  );
  if (notHash)
    return `This link gives ${quoted(notHash[0], notHash[1]!)}, which is no SHA-256 (sha256: and 64 lowercase hex digits)`;
  if (verdict === null) return `This link gives the SHA-256 its run saw without that run's verdict`;
  if ((p.get('case') ?? '') !== '') return caseSeenTrouble(sha256, verdict, content);
  if (content !== null) return `This link gives ${quoted('content', content)}, which only a case's link carries`;
  if ((p.get('path') ?? '') === '' && (p.get('example') ?? '') === '')
    return `This link says what its run saw (${quoted('verdict', verdict)}) but names no path or example it was of`;
  return null;
}

/** What is wrong with what a case link says its case saw: its verdict and its content, both; an artifact's SHA-256 is none of its. */
function caseSeenTrouble(sha256: string | null, verdict: string, content: string | null): string | null {
  if (sha256 !== null)
    return `This link gives ${quoted('sha256', sha256)} for a case, whose link says what it saw with content=`;
  if (content === null)
    return `This link says what its run saw (${quoted('verdict', verdict)}) but names no path or example it was of, and a case's link says it with the content its case read (content=)`;
  return null;
}

/** A link's what-if substitutions, quoted. */
const whatIfs = (p: URLSearchParams): string =>
  p
    .getAll('whatif')
    .map((v) => quoted('whatif', v))
    .join(', ');

/** What a link opens in each view: the Case view shows a case, the Compare view a comparison, the others the artifact. */
const OPENS_IN: Record<string, (k: string) => boolean> = {
  case: (k) => k === 'case' || k === 'sent',
  compare: opensComparison,
};
const opensArtifact = (k: string): boolean => ['example', 'path', 'picked', 'report'].includes(k);

/**
 * What a fragment opens in the view it names, as one string ('' when nothing): the case in
 * the Case view, the comparison in the Compare view (all of both sides: another side or
 * another run of one is another comparison), the artifact in the others. Never how the
 * artifact ran (its mode, what-ifs and options) nor what its run saw: the same artifact run
 * again is still the one open. The Case and Compare views without a case or a comparison
 * name the open artifact, which they do not show: they open nothing.
 */
export function linkOpens(hash: string): string {
  const p = params(hash);
  const opens = OPENS_IN[p.get('view') ?? ''] ?? opensArtifact;
  return [...p.entries()]
    .filter(([k, v]) => opens(k) && v !== '')
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join('\n');
}

/**
 * Where a path stands in a message: whole (the next character ends it: the end, a space, a
 * quote, a colon, a closing full stop...), or as the folder of a path inside it (`/j` in
 * `/j/entries`); never as the start of a longer name (`/root/ts` in `/root/ts.providers.json`).
 */
const namedAs = (message: string, path: string): 'whole' | 'folder' | null => {
  let folder = false;
  for (let i = message.indexOf(path); i >= 0; i = message.indexOf(path, i + 1)) {
    const rest = message.slice(i + path.length);
    if (rest === '' || /^([\s"'`:;,)\]]|\.(\s|$))/.test(rest)) return 'whole';
    folder ||= rest.startsWith('/');
  }
  return folder ? 'folder' : null;
};

/**
 * When a job (a link's above all) failed because one of its options is refused (no longer
 * under the granted folders, or gone), the words naming that option; null when the failure
 * is not about an option. The host's refusal and the engine's error name the path, so the
 * option is the one whose whole path the message names (the longest first: one option's path
 * may begin another's), else the folder option a path in the message lies in. `artifact=` on
 * what is no exported report is refused as not applying, since only a report reads it.
 */
export function optionRefusal(
  message: string,
  options: Record<string, string>,
  declared: readonly { name: string; help: string }[],
  what: 'artifact' | 'case' = 'artifact',
): string | null {
  const named = (name: string, path: string): string => {
    const help = declared.find((o) => o.name === name)?.help;
    return `This ${what} is opened with the option ${name}${help ? ` (${help})` : ''} = ${path}`;
  };
  if (options['artifact'] !== undefined && message.includes('artifact option applies to exported reports'))
    return `${named('artifact', options['artifact'])}, which applies only to exported reports: ${message}. Nothing was run.`;
  const longestFirst = Object.entries(options)
    .filter(([, v]) => v !== '')
    .sort(([, a], [, b]) => b.length - a.length);
  const hit =
    longestFirst.find(([, v]) => namedAs(message, v) === 'whole') ??
    longestFirst.find(([, v]) => namedAs(message, v) === 'folder');
  if (!hit) return null;
  const [name, path] = hit;
  return (
    `${named(name, path)}, ` +
    `which this workbench cannot use: ${message}. It was not run without it, since that option decides the verdict.`
  );
}
