/**
 * The case bundle's self-contained HTML page (`case.html`): the case's verdict, its own
 * findings, every artifact with its verdict and where its report lies in the bundle, the
 * links, the timeline, the judgements with their proofs and the checkpoint, for a reader
 * without Reprise. One file, inline CSS, no script, no external resource, every text escaped
 * (shared/report-html.ts). A pure function of the case report, the proofs and the
 * checkpoint, so `verify` rebuilds it and refuses a page that says something else.
 *
 * Links and the timeline are listed up to PAGE_ROWS rows each, and the page says how many
 * more `case.json` holds: a case of 100,000 events would otherwise make a page of tens of
 * megabytes that no browser lays out, and the case report already carries them all.
 */
import type { CaseReport } from '../../../shared/case.js';
import {
  escHtml as esc,
  findingsTable,
  htmlDl as dl,
  htmlTable as table,
  PAGE_END,
  pageStart,
  verdictBadge,
} from '../../../shared/report-html.js';
import type { Checkpoint } from '../../journal/format.js';
import type { InclusionProof } from '../../journal/proofs.js';
import { caseReportMember } from './format.js';
import { caseSubjects } from './case-subjects.js';
import { checkpointPairs, judgementBlock, pageEntry } from './html.js';

/** The most rows the page lists of the links and of the timeline. */
export const PAGE_ROWS = 1000;

const code = (s: string | null): string => (s === null ? '—' : `<code>${esc(s)}</code>`);
const at = (artifact: string | null, pointer: string | null): string =>
  artifact === null ? 'nothing in the case' : `${esc(artifact)} ${code(pointer)}`;

/** A table of the first PAGE_ROWS rows, and a sentence on the rest. */
function bounded<T>(items: readonly T[], head: string[], row: (t: T) => string[]): string {
  const more = items.length - PAGE_ROWS;
  const rest = more > 0 ? `<p>${esc(`${more.toLocaleString('en')} more in case.json.`)}</p>` : '';
  return table(head, items.slice(0, PAGE_ROWS).map(row)) + rest;
}

function artifactsTable(c: CaseReport): string {
  return table(
    ['#', 'artifact', 'kind', 'verdict', 'fail / unavailable / warning', 'SHA-256', 'report'],
    c.artifacts.map((a, i) => [
      String(i),
      esc(a.path),
      esc(a.kind),
      esc(a.verdict),
      esc(`${a.counts.fail} / ${a.counts.unavailable} / ${a.counts.warning}`),
      code(a.sha256),
      `${code(caseReportMember(i))}<br>digest ${code(a.reportDigest)}`,
    ]),
  );
}

function sections(c: CaseReport): string[] {
  return [
    `<h2>Findings of the case</h2>${findingsTable(c.findings)}`,
    `<h2>Artifacts (${c.artifacts.length})</h2>${artifactsTable(c)}`,
    `<h2>Links (${c.links.length})</h2>${bounded(c.links, ['from', 'relation', 'value', 'to', 'status'], (l) => [
      at(l.from.artifact, l.from.pointer),
      esc(l.relation),
      code(l.value),
      at(l.to.artifact, l.to.pointer),
      esc(l.status),
    ])}`,
    `<h2>Timeline (${c.timeline.length})</h2>${bounded(
      c.timeline,
      ['time (UTC)', 'artifact', 'kind', 'event', 'severity'],
      (e) => [esc(e.atUtc), `${esc(e.artifact)} ${code(e.pointer)}`, esc(e.kind), esc(e.label), esc(e.severity)],
    )}`,
  ];
}

/**
 * What a judgement is on, in the case's words: the case itself (its digest), the artifact(s)
 * whose bytes its subject is (path and SHA-256), else the artifact a part of which it is
 * (caseSubjects, as the verifier reads it). A "reject" and an "accept" on two artifacts must
 * never read alike.
 */
function aboutWords(c: CaseReport, subjects: Map<string, number[]>, subject: unknown, digest: string): string {
  const s = typeof subject === 'string' ? subject : null;
  if (s === digest) return `${esc('the case as a whole (case.json)')} ${code(s)}`;
  const held = s === null ? [] : (subjects.get(s) ?? []);
  if (held.length === 0) return `an artifact the case does not hold ${code(s)}`;
  const own = held.filter((i) => c.artifacts[i]!.sha256 === s);
  if (own.length > 0) return own.map((i) => `${esc(c.artifacts[i]!.path)} ${code(s)}`).join('<br>');
  return held
    .map((i) => `a part of ${esc(c.artifacts[i]!.path)} ${code(c.artifacts[i]!.sha256)}: ${code(s)}`)
    .join('<br>');
}

/** Each judgement with the artifact it is on, and a note's edit marked both ways (the edit, and the text it superseded). */
function judgementBlocks(c: CaseReport, digest: string, proofs: readonly InclusionProof[]): string {
  const subjects = caseSubjects(c, digest);
  const entries = proofs.map(pageEntry);
  const seqOf = new Map(proofs.map((p, i) => [p.entryHash, entries[i]!.seq]));
  const editOf = new Map<unknown, unknown>();
  entries.forEach((e) => typeof e.body?.['supersedes'] === 'string' && editOf.set(e.body['supersedes'], e.seq));
  return proofs
    .map((p, i) => {
      const e = entries[i]!;
      const lines: [string, string][] = [['on', aboutWords(c, subjects, e.subject?.artifact, digest)]];
      const replaces = e.body?.['supersedes'];
      if (typeof replaces === 'string')
        lines.push([
          'edit of',
          seqOf.has(replaces)
            ? `${esc(`the note of seq ${String(seqOf.get(replaces))}`)} ${code(replaces)}`
            : `${code(replaces)} ${esc('(a note this bundle does not carry)')}`,
        ]);
      if (editOf.has(p.entryHash))
        lines.push([
          'superseded',
          esc(`by its edit, seq ${String(editOf.get(p.entryHash))}: no longer the note's text`),
        ]);
      return judgementBlock(p, lines);
    })
    .join('');
}

/**
 * The page of a case bundle: `digest` is the case report's (the manifest's `case.digest`),
 * proofs in seq order. `about: false` is the page versions before wrote, whose judgements
 * named no artifact and no edit: a bundle's verify accepts it too, so their bundles still
 * verify (an edited page matches neither).
 */
export function caseBundleHtml(
  c: CaseReport,
  digest: string,
  proofs: readonly InclusionProof[],
  checkpoint: Checkpoint,
  { about = true }: { about?: boolean } = {},
): string {
  const found = c.links.filter((l) => l.status === 'found').length;
  // A case report of the versions before `mode` says nothing of it, and neither does its page.
  const run: [string, string][] = c.mode
    ? [['run', esc(c.mode === 'replay' ? 'replayed (re-executed what can be, the rest verified)' : 'verified')]]
    : [];
  const head = dl([
    ...run,
    ['artifacts', esc(c.artifacts.length)],
    ['links', esc(`${found} found, ${c.links.length - found} missing`)],
    ['timeline', esc(`${c.timeline.length} event(s)`)],
    ['case digest', code(digest)],
  ]);
  return [
    ...pageStart('Reprise evidence: a case'),
    `<h1>Case evidence bundle ${verdictBadge(c.verdict)}</h1>`,
    head,
    ...sections(c),
    `<h2>Judgements (${proofs.length})</h2>${proofs.length === 0 ? '<p>None recorded.</p>' : about ? judgementBlocks(c, digest, proofs) : proofs.map((p) => judgementBlock(p)).join('')}`,
    `<h2>Signed checkpoint</h2>${dl(checkpointPairs(checkpoint))}`,
    '<p>Verify offline: <code>reprise verify BUNDLE --trust-store FILE</code></p>',
    PAGE_END,
    '',
  ].join('\n');
}
