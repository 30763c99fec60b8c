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
}

const OURS = ['view', 'example', 'path', 'mode', 'whatif', 'picked', 'report'];

export function readLink(hash: string = location.hash): DeepLink {
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
  };
}

/** The fragment for this state, keeping every parameter that is not ours (the token). */
export function linkFor(hash: string, s: LinkState): string {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  for (const k of OURS) p.delete(k);
  p.set('view', s.view);
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
  return '#' + p.toString();
}

/** Writes the link without adding a history entry per click. */
export function writeLink(s: LinkState): void {
  const next = linkFor(location.hash, s);
  if (next !== location.hash) history.replaceState(null, '', next);
}
