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
import { boundFindings, findingsOn, MAX_FINDINGS_PER_RULE } from '../../core/findings.js';
import { CASE_RULES } from './rule-ids.js';
import type { CaseSpace } from '../../kinds/operations.js';

const { fail, warning } = findingsOn(CASE_RULES);
import type { CasePart, CaseUnreadable, Unplaced } from './part.js';

/** Code-unit order (never the locale's), so every machine sorts alike. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface Target {
  artifact: string;
  pointer: string | null;
}

/** Who holds one value: every holder, those that are its source (not a copy), and the artifacts among them. */
interface Holders {
  all: Target[];
  sources: Target[];
  artifacts: Set<string>;
}

/** Holders by value, one map per space (CaseSpace; `content` for hashes and run keys). */
type IdentityIndex = Map<CaseSpace | 'content', Map<string, Holders>>;

/** Every value an artifact of the case can be named by: its bytes' SHA-256 and the identities it declares. */
function identityIndex(parts: readonly CasePart[]): IdentityIndex {
  const index: IdentityIndex = new Map();
  const add = (space: CaseSpace | 'content', value: string, t: Target, copy: boolean): void => {
    let values = index.get(space);
    if (!values) index.set(space, (values = new Map()));
    let h = values.get(value);
    if (!h) values.set(value, (h = { all: [], sources: [], artifacts: new Set() }));
    h.all.push(t);
    if (!copy) h.sources.push(t);
    h.artifacts.add(t.artifact);
  };
  for (const p of parts) {
    const artifact = p.artifact.path;
    if (p.artifact.sha256 !== null) add('content', p.artifact.sha256, { artifact, pointer: null }, false);
    for (const id of p.identities)
      add(id.space ?? 'content', id.value, { artifact, pointer: id.pointer }, id.copy === true);
  }
  return index;
}

/**
 * The artifacts a reference of `from` names. What its own artifact holds is no link between
 * two, nor is another artifact's copy of it (a hundred dumps embedding one prompt do not all
 * link to each other); null when its own artifact alone answers it.
 */
function targetsOf(h: Holders | undefined, from: string): Target[] | null {
  if (!h) return [];
  if (!h.artifacts.has(from)) return h.all;
  const others = h.sources.filter((t) => t.artifact !== from);
  return others.length > 0 ? others : null;
}

/** Links by content; an expected reference that names nothing in the case is a missing link and a finding. */
export function joinLinks(parts: readonly CasePart[]): { links: CaseLink[]; findings: Finding[] } {
  const index = identityIndex(parts);
  const links: CaseLink[] = [];
  const findings: Finding[] = [];
  for (const p of parts) {
    const from = p.artifact.path;
    for (const r of p.references) {
      const targets = targetsOf(index.get(r.space ?? 'content')?.get(r.value), from);
      if (targets === null) continue;
      // Literals of one shape, not spreads of a shared base: a case of thousands of links
      // builds them at the end of its run, where every allocation is on the critical path.
      for (const t of targets) links.push(link(from, r, t.artifact, t.pointer, 'found'));
      if (targets.length > 0) continue;
      links.push(link(from, r, null, null, 'missing'));
      if (r.expected)
        findings.push(
          warning('RPR-CASE-001', `${from} names ${r.value} (${r.relation}), which no artifact of the case is`, {
            pointer: `entry:${from}`,
            expected: r.value,
            actual: r.pointer,
          }),
        );
    }
  }
  links.sort(compareLinks);
  return { links: links.filter((l, i) => i === 0 || compareLinks(links[i - 1]!, l) !== 0), findings };
}

function link(
  from: string,
  r: CasePart['references'][number],
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

/** The case report of these parts, run as `mode` says, and the artifacts that could not be read. */
export function assembleCase(
  parts: readonly CasePart[],
  unreadable: readonly CaseUnreadable[],
  mode: CaseMode,
  maxFindingsPerRule = MAX_FINDINGS_PER_RULE,
): CaseReport {
  const sorted = [...parts].sort((a, b) => byText(a.artifact.path, b.artifact.path));
  const { links, findings } = joinLinks(sorted);
  const own: Finding[] = [
    ...[...unreadable]
      .sort((a, b) => byText(a.path, b.path))
      .map((u) =>
        fail('RPR-CASE-002', `${u.path} could not be verified: ${u.message}`, { pointer: `entry:${u.path}` }),
      ),
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
  // A folder of thousands of manifests lacking their bundle lists every missing link, and says the first hundred as findings.
  const bounded = boundFindings(own, maxFindingsPerRule);
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
