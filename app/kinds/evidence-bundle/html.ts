/**
 * The bundle's self-contained HTML page: the report (verdict, authenticity, findings,
 * comparisons, drift events) and the judgements recorded on it, for a reader without
 * Reprise. One file, inline CSS, no script, no external resource; every text escaped.
 * It is a pure function of the bundle's report, proofs and checkpoint, so `verify`
 * rebuilds it and refuses a page that says something else (a page can be edited more
 * easily than read critically).
 */
import type { Checkpoint } from '../../journal/format.js';
import type { InclusionProof } from '../../journal/proofs.js';
import {
  artifactPairs,
  escHtml as esc,
  htmlDl as dl,
  PAGE_END,
  pageStart,
  reportSections,
  verdictBadge,
} from '../../../shared/report-html.js';
import type { BundledReport } from './write.js';

/** A proof's entry as the page reads it: whatever of it parses (verify reports an unreadable entry). */
export interface PageEntry {
  seq?: unknown;
  recordedAtUtc?: unknown;
  author?: unknown;
  subject?: { artifact?: unknown };
  body?: Record<string, unknown>;
}

export function pageEntry(p: InclusionProof): PageEntry {
  try {
    const e = JSON.parse(p.entry) as unknown;
    return typeof e === 'object' && e !== null ? (e as PageEntry) : {};
  } catch {
    return {};
  }
}

/**
 * One judgement with its inclusion proof; `about` adds lines after its entry (the case
 * bundle's page names the artifact each judgement is on, and a note's edits: case-html.ts).
 */
export function judgementBlock(p: InclusionProof, about: [string, string][] = []): string {
  const e = pageEntry(p);
  const b = e.body ?? {};
  return `<div class="judgement">${dl([
    ['entry', esc(`seq ${String(e.seq)} at ${String(e.recordedAtUtc)}`)],
    ...about,
    ['decision', `<strong>${esc(b['decision'] ?? '')}</strong>`],
    [
      'item',
      `<code>${esc(typeof b['pointer'] === 'string' && b['pointer'] !== '' ? b['pointer'] : '(the whole report)')}</code>`,
    ],
    ['rationale', esc(b['rationale'] ?? '')],
    ['signed by', `<code>${esc(e.author ?? '')}</code>`],
    ['entry hash', `<code>${esc(p.entryHash)}</code>`],
    ['inclusion', esc(`leaf ${p.leafIndex} of ${p.treeSize}, audit path of ${p.auditPath.length} hash(es)`)],
  ])}</div>`;
}

/** The signed checkpoint's lines. */
export function checkpointPairs(checkpoint: Checkpoint): [string, string][] {
  return [
    ['tree size', esc(checkpoint.treeSize)],
    ['root', `<code>${esc(checkpoint.rootHash)}</code>`],
    ['time', esc(checkpoint.timestampUtc)],
    ['signer', `<code>${esc(checkpoint.signer)}</code>`],
  ];
}

/** The page for the report and its judgements (proofs in seq order), proven under `checkpoint`. */
export function bundleHtml(
  r: BundledReport,
  proofs: readonly InclusionProof[],
  checkpoint: Checkpoint,
  reportDigest: string,
): string {
  const head = dl([
    ...artifactPairs(r),
    ['report digest', `<code>${esc(reportDigest)}</code>`],
    ['origin', esc(r.authenticity?.statement ?? '')],
  ]);
  const cp = dl(checkpointPairs(checkpoint));
  return [
    ...pageStart(`Reprise evidence: ${r.artifact.path}`),
    `<h1>Evidence bundle ${verdictBadge(r.verdict)}</h1>`,
    head,
    ...reportSections(r),
    `<h2>Judgements (${proofs.length})</h2>${proofs.length === 0 ? '<p>None recorded.</p>' : proofs.map((p) => judgementBlock(p)).join('')}`,
    `<h2>Signed checkpoint</h2>${cp}`,
    '<p>Verify offline: <code>reprise verify BUNDLE --trust-store FILE</code></p>',
    PAGE_END,
    '',
  ].join('\n');
}
