/**
 * The case report (`reprise.case/v1`, shared/case.ts) from the parts its artifacts left:
 * links joined by value, the timeline, the judgements on its artifacts and its own
 * findings. Everything is sorted by content, so the bytes never depend on the order the
 * verdicts landed in or on the number of workers.
 */
import {
  CASE_SCHEMA,
  type CaseJudgement,
  type CaseLink,
  type CaseMode,
  type CaseReport,
  type TimelineEvent,
} from '../../../shared/case.js';
import { verdictOf, type Finding } from '../../../shared/report.js';
import { boundFindings, FINDINGS_LIMIT, findingsOn } from '../../core/findings.js';
import { CASE_RULES } from './rule-ids.js';
import { CASE_LINKS_DEFAULT, CASE_LINKS_LIMIT, caseLinksLimit } from '../../core/case-limits.js';
import type { CaseSpace } from '../../kinds/operations.js';
import type { CasePart, CaseUnreadable, Unplaced } from './part.js';

const { fail, warning } = findingsOn(CASE_RULES);

/** Code-unit order (never the locale's), so every machine sorts alike. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface Target {
  artifact: string;
  pointer: string | null;
}

/**
 * Who holds one value: every holder, and those that are its source (not a copy). Both in
 * artifact path order (the parts are joined in that order), so the holders of one artifact
 * are one run of each list, found by a binary search: no set per value.
 */
interface Holders {
  all: Target[];
  sources: Target[];
}

/** Holders by value, one map per space (CaseSpace; `content` for hashes and run keys). */
type IdentityIndex = Map<CaseSpace | 'content', Map<string, Holders>>;

/** Every value an artifact of the case can be named by: its bytes' SHA-256 and the identities it declares. Parts in path order. */
function identityIndex(parts: readonly CasePart[]): IdentityIndex {
  const index: IdentityIndex = new Map();
  const add = (space: CaseSpace | 'content', value: string, t: Target, copy: boolean): void => {
    let values = index.get(space);
    if (!values) index.set(space, (values = new Map()));
    let h = values.get(value);
    if (!h) values.set(value, (h = { all: [], sources: [] }));
    // One place named twice (a canonical manifest's H(manifest) is its bytes' SHA-256) is one holder.
    if (!holds(h.all, t)) h.all.push(t);
    if (!copy && !holds(h.sources, t)) h.sources.push(t);
  };
  for (const p of parts) {
    const artifact = p.artifact.path;
    if (p.artifact.sha256 !== null) add('content', p.artifact.sha256, { artifact, pointer: null }, false);
    for (const id of p.identities)
      add(id.space ?? 'content', id.value, { artifact, pointer: id.pointer }, id.copy === true);
  }
  return index;
}

/** Whether `ts` holds `t` already: only the run of its own artifact at the end is looked at (it is being added). */
function holds(ts: readonly Target[], t: Target): boolean {
  for (let i = ts.length - 1; i >= 0 && ts[i]!.artifact === t.artifact; i--)
    if (ts[i]!.pointer === t.pointer) return true;
  return false;
}

/** The run [start, end) of `ts` (in artifact path order) that `artifact` holds; empty where it would be. */
function runOf(ts: readonly Target[], artifact: string): [number, number] {
  let lo = 0;
  let hi = ts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ts[mid]!.artifact < artifact) lo = mid + 1;
    else hi = mid;
  }
  let end = lo;
  while (end < ts.length && ts[end]!.artifact === artifact) end++;
  return [lo, end];
}

/** What joining the case's references makes: its links, and the findings of those missing or cut short. */
interface Joined {
  links: CaseLink[];
  findings: Finding[];
}

/**
 * Links by content, each reference making at most `max` (the first holders by path; RPR-CASE-005
 * counts the rest, so memory grows with the references, never with references times copies);
 * an expected reference that names nothing in the case is a missing link and a finding.
 * Parts in path order (assembleCase sorts them).
 */
export function joinLinks(parts: readonly CasePart[], max = CASE_LINKS_DEFAULT): Joined {
  const index = identityIndex(parts);
  const out: Joined = { links: [], findings: [] };
  for (const p of parts) {
    const from = p.artifact.path;
    for (const r of distinctReferences(p.references))
      joinReference(from, r, index.get(r.space ?? 'content')?.get(r.value), max, out);
  }
  out.links.sort(compareLinks);
  dropRepeats(out.links);
  return out;
}

/**
 * The links of one reference of `from`. What its own artifact holds is no link between two,
 * nor is another artifact's copy of it (a hundred dumps embedding one prompt do not all link
 * to each other): then only other artifacts that are its source answer it, and none is no link.
 */
function joinReference(from: string, r: Reference, h: Holders | undefined, max: number, out: Joined): void {
  if (!h) return missing(from, r, out);
  const [a, b] = runOf(h.all, from);
  const own = a < b;
  const targets = own ? h.sources : h.all;
  const [skip, skipEnd] = own ? runOf(h.sources, from) : [0, 0];
  const total = targets.length - (skipEnd - skip);
  let n = 0;
  // Literals of one shape, not spreads of a shared base: a case of thousands of links
  // builds them at the end of its run, where every allocation is on the critical path.
  for (let i = 0; n < max; i++, n++) {
    if (i === skip) i = skipEnd;
    if (i >= targets.length) break;
    out.links.push(link(from, r, targets[i]!.artifact, targets[i]!.pointer, 'found'));
  }
  if (total > n) out.findings.push(linksLeftOut(from, r, n, total));
}

type Reference = CasePart['references'][number];

/** A reference no artifact of the case answers: listed, and a finding when its artifact expects it. */
function missing(from: string, r: Reference, out: Joined): void {
  out.links.push(link(from, r, null, null, 'missing'));
  if (r.expected)
    out.findings.push(
      warning('RPR-CASE-001', `${from} names ${r.value} (${r.relation}), which no artifact of the case is`, {
        pointer: `entry:${from}`,
        expected: r.value,
        actual: r.pointer,
      }),
    );
}

/** RPR-CASE-005: the links of one reference past the limit, counted, with the limit that lists them. */
function linksLeftOut(from: string, r: Reference, kept: number, total: number): Finding {
  return warning(
    'RPR-CASE-005',
    `${from} names ${r.value} (${r.relation}) at ${r.pointer}, which ${total} artifacts of the case (or parts of them) hold: ` +
      `the first ${kept} by path are linked, ${total - kept} more were left out ` +
      `(limit ${CASE_LINKS_LIMIT}; --limit ${CASE_LINKS_LIMIT}=${total} links every one)`,
    { pointer: `entry:${from}`, expected: r.value, actual: r.pointer },
  );
}

/**
 * An artifact's references without repeats: a value named again in one list of it (a dump's
 * `materialSnapshotHashSet` naming one hash twice, or three thousand times) is one reference,
 * made by its first item. Only a reference at a list item (a JSON pointer ending in an index)
 * is looked at, so the common case costs a character test: each journal entry naming an
 * artifact is a judgement of its own, and keeps its link.
 */
function distinctReferences(refs: readonly Reference[]): readonly Reference[] {
  let seen: Set<string> | undefined;
  let out: Reference[] | undefined;
  for (let i = 0; i < refs.length; i++) {
    const key = listItemKey(refs[i]!);
    if (key !== null) {
      seen ??= new Set();
      if (seen.has(key)) {
        out ??= refs.slice(0, i);
        continue;
      }
      seen.add(key);
    }
    out?.push(refs[i]!);
  }
  return out ?? refs;
}

/** The list, relation and value of a reference made by a list item (`/a/3`), else null. */
function listItemKey(r: Reference): string | null {
  const p = r.pointer;
  if (p.charCodeAt(0) !== 0x2f) return null;
  const slash = p.lastIndexOf('/');
  if (slash === p.length - 1) return null;
  for (let i = slash + 1; i < p.length; i++) {
    const c = p.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return null;
  }
  // As JSON: a pointer may hold any character, so no separator would keep two keys apart.
  return JSON.stringify([p.slice(0, slash), r.space ?? '', r.relation, r.value]);
}

/** Removes, in place, each link equal to the one before it (sorted links: equal ones are neighbours). */
function dropRepeats(links: CaseLink[]): void {
  let kept = 0;
  for (let i = 0; i < links.length; i++)
    if (kept === 0 || compareLinks(links[kept - 1]!, links[i]!) !== 0) links[kept++] = links[i]!;
  links.length = kept;
}

function link(
  from: string,
  r: Reference,
  artifact: string | null,
  pointer: string | null,
  status: CaseLink['status'],
): CaseLink {
  return {
    from: { artifact: from, pointer: r.pointer },
    relation: r.relation,
    value: r.value,
    to: { artifact, pointer },
    status,
  };
}

/** Links by where they start, their relation, where they end, then the value; equal links are duplicates. */
function compareLinks(a: CaseLink, b: CaseLink): number {
  return (
    byText(a.from.artifact, b.from.artifact) ||
    byText(a.from.pointer, b.from.pointer) ||
    byText(a.relation, b.relation) ||
    byText(a.to.artifact ?? '', b.to.artifact ?? '') ||
    byText(a.to.pointer ?? '', b.to.pointer ?? '') ||
    byText(a.value, b.value)
  );
}

/** Sorts the timeline in place, in time order (then artifact, pointer, label: an order that never depends on landing). */
export function sortTimeline(events: TimelineEvent[]): TimelineEvent[] {
  return events.sort(
    (a, b) =>
      byTime(a.atUtc, b.atUtc) ||
      byText(a.artifact, b.artifact) ||
      byText(a.pointer, b.pointer) ||
      byText(a.label, b.label) ||
      byText(a.node ?? '', b.node ?? ''),
  );
}

/**
 * Normalised times (part.ts: a fraction as written, without trailing zeros) in time order:
 * as text when their lengths match (both whole seconds, or fractions of one length);
 * otherwise by their whole seconds, then digit by digit of their fractions, where the one
 * that ends first (`Z`, or no fraction at all) is the earlier. No string is built per comparison.
 */
export function byTime(a: string, b: string): number {
  if (a.length === b.length) return byText(a, b);
  for (let i = 0; i < 19; i++) {
    const d = a.charCodeAt(i) - b.charCodeAt(i);
    if (d !== 0) return d;
  }
  // Past the seconds: '.' and digits, then 'Z'. With no trailing zeros, a fraction that is a prefix of the other is the smaller.
  for (let i = 20; ; i++) {
    const ca = i < a.length - 1 ? a.charCodeAt(i) : -1;
    const cb = i < b.length - 1 ? b.charCodeAt(i) : -1;
    if (ca !== cb) return ca - cb;
    if (ca === -1) return 0;
  }
}

/**
 * The judgements and notes the case's journals hold on its artifacts, by journal then
 * sequence number: those whose subject is an artifact's bytes, or a part of one (a
 * manifest's embedded artifact), named by the artifact that holds it: the first by path,
 * or for a part several hold, the one whose report the judgement names.
 */
export function caseJudgements(parts: readonly CasePart[]): CaseJudgement[] {
  const holders = new Map<string, CasePart[]>();
  const hold = (value: string, p: CasePart): void => {
    const held = holders.get(value);
    if (held === undefined) holders.set(value, [p]);
    else if (held[held.length - 1] !== p) held.push(p);
  };
  // Sorted parts: holders listed by path. A part is looked for only where no artifact's bytes are the subject.
  for (const p of parts) if (p.artifact.sha256 !== null) hold(p.artifact.sha256, p);
  const own = new Set(holders.keys());
  // A judgement's subject is content (bytes, a part), never a claim by the same text.
  for (const p of parts)
    for (const id of p.identities) if (id.space === undefined && !own.has(id.value)) hold(id.value, p);
  const out: CaseJudgement[] = [];
  for (const p of parts)
    for (const { names, ...j } of p.judgements) {
      const held = holders.get(j.subject);
      if (held === undefined) continue;
      // Bytes are placed in their first holder (the case bundle's check reads it so: case-check.ts).
      const named = own.has(j.subject) ? undefined : held.find((h) => h.artifact.reportDigest === names);
      const artifact = (named ?? held[0]!).artifact.path;
      out.push({ journal: p.artifact.path, ...j, artifact });
    }
  return out.sort((a, b) => byText(a.journal, b.journal) || a.seq - b.seq);
}

/** Every part's events, each with its artifact and kind (one loop: no array per part). */
function timelineOf(parts: readonly CasePart[]): TimelineEvent[] {
  const out: TimelineEvent[] = [];
  for (const p of parts) {
    const { path: artifact, kind } = p.artifact;
    for (const e of p.events)
      out.push({
        atUtc: e.atUtc,
        artifact,
        kind,
        node: e.node,
        pointer: e.pointer,
        label: e.label,
        severity: e.severity,
      });
  }
  return out;
}

/** RPR-CASE-004: what of an artifact's times its timeline lacks, the first few by pointer and value, and why. */
function unplacedFinding(path: string, u: Unplaced): Finding {
  const said: string[] = [];
  if (u.count > 0) {
    const each = u.shown.map((s) => `${s.pointer} ${JSON.stringify(s.value)}: ${s.why}`).join('; ');
    const more = u.count > u.shown.length ? `; and ${u.count - u.shown.length} more` : '';
    said.push(`${u.count} timestamp(s) it carries cannot be placed in time: ${each}${more}`);
  }
  if (u.leftOut) said.push(`${u.leftOut.count} more were left out: ${u.leftOut.why}`);
  return warning('RPR-CASE-004', `the timeline lacks times of ${path}: ${said.join('; ')}`, {
    pointer: `entry:${path}`,
  });
}

/**
 * The case report of these parts, run as `mode` says, and the artifacts that could not be
 * read, under the engine's `limits` (EngineOptions.limits: `findings-per-rule`,
 * `case-links-per-reference`).
 */
export function assembleCase(
  parts: readonly CasePart[],
  unreadable: readonly CaseUnreadable[],
  mode: CaseMode,
  limits: Readonly<Record<string, number>> = {},
): CaseReport {
  const sorted = [...parts].sort((a, b) => byText(a.artifact.path, b.artifact.path));
  const { links, findings } = joinLinks(sorted, caseLinksLimit(limits));
  const own: Finding[] = [
    ...sorted
      .filter((p) => p.factsProblem !== undefined)
      .map((p) =>
        warning('RPR-CASE-003', `what ${p.artifact.path} offers the case could not be read: ${p.factsProblem}`, {
          pointer: `entry:${p.artifact.path}`,
        }),
      ),
    ...sorted.filter((p) => p.unplaced !== undefined).map((p) => unplacedFinding(p.artifact.path, p.unplaced!)),
    ...findings,
  ];
  // Every file that could not be verified is named, however many (as every missing link is
  // listed): a folder of a hundred and fifty FIFOs must not hide fifty of them. The rest is
  // bounded per rule as every report is: thousands of manifests lacking their bundle say the first hundred.
  const bounded = [...unreadableFindings(unreadable), ...boundFindings(own, limits[FINDINGS_LIMIT])];
  const verdicts = sorted.map((p) => ({
    severity: p.artifact.verdict === 'pass' ? ('info' as const) : p.artifact.verdict,
  }));
  return {
    schema: CASE_SCHEMA,
    mode,
    verdict: verdictOf([...verdicts, ...bounded]),
    artifacts: sorted.map((p) => p.artifact),
    links,
    timeline: sortTimeline(timelineOf(sorted)),
    judgements: caseJudgements(sorted),
    findings: bounded,
  };
}

/** RPR-CASE-002 of each artifact that could not be verified, in path order. */
function unreadableFindings(unreadable: readonly CaseUnreadable[]): Finding[] {
  return [...unreadable]
    .sort((a, b) => byText(a.path, b.path))
    .map((u) => fail('RPR-CASE-002', `${u.path} could not be verified: ${u.message}`, { pointer: `entry:${u.path}` }));
}
