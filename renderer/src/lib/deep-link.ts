/**
 * Deep links: the address's fragment names the view and the open artifact (a built-in
 * example by its id, or a file on this machine by its path), never its content, so a
 * reload or a shared link restores what was open. The web host's `token` shares the same
 * fragment and is kept as it is. Picked or dropped files have no name that could be
 * reopened, so they leave only the view in the address.
 */
import type { CheckMode, JobSource } from '../../../shared/api';

export interface DeepLink {
  view: string | null;
  example: string | null;
  path: string | null;
  mode: CheckMode | null;
}

export function readLink(hash: string = location.hash): DeepLink {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  const mode = p.get('mode');
  return { view: p.get('view'), example: p.get('example'), path: p.get('path'), mode: mode === 'replay' || mode === 'verify' ? mode : null };
}

/** The fragment for this state, keeping every parameter that is not ours (the token). */
export function linkFor(hash: string, view: string, source: JobSource | null, mode: CheckMode | null): string {
  const p = new URLSearchParams(hash.replace(/^#/, ''));
  for (const k of ['view', 'example', 'path', 'mode']) p.delete(k);
  p.set('view', view);
  if (source?.type === 'example') p.set('example', source.path);
  if (source?.type === 'path') p.set('path', source.path);
  if (mode && (source?.type === 'example' || source?.type === 'path')) p.set('mode', mode);
  return '#' + p.toString();
}

/** Writes the link without adding a history entry per click. */
export function writeLink(view: string, source: JobSource | null, mode: CheckMode | null): void {
  const next = linkFor(location.hash, view, source, mode);
  if (next !== location.hash) history.replaceState(null, '', next);
}
