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
import type { JsonValue } from '../../../shared/report.js';
import type { BundledReport } from './write.js';

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const esc = (s: unknown): string => String(s).replace(/[&<>"']/g, (c) => ESC[c]!);
const json = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v, null, 2) ?? 'null');

// Fits the page width: tables lay out fixed, long hashes and JSON wrap anywhere.
const CSS = `
*{box-sizing:border-box}body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;padding:16px;max-width:1100px;color:#1b1b1b;background:#fff}
h1{font-size:20px;margin:0 0 8px}h2{font-size:16px;margin:24px 0 8px;border-bottom:1px solid #ccc}
table{width:100%;border-collapse:collapse;table-layout:fixed}th,td{border:1px solid #ccc;padding:4px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#f2f2f2}code,pre{font:12px/1.4 ui-monospace,monospace;overflow-wrap:anywhere;white-space:pre-wrap;margin:0}
.verdict{display:inline-block;padding:2px 10px;border-radius:4px;font-weight:700;color:#fff}.pass{background:#1a7f37}.fail{background:#b42318}.unavailable{background:#8a6100}
.judgement{border:1px solid #ccc;border-radius:4px;padding:8px;margin:8px 0}dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
@media print{body{max-width:none}}`;

function table(head: string[], rows: string[][]): string {
  if (rows.length === 0) return '<p>None.</p>';
  return `<table><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

function dl(pairs: [string, string][]): string {
  return `<dl>${pairs.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

function reportSections(r: BundledReport): string[] {
  const out: string[] = [];
  out.push(`<h2>Findings</h2>${table(['#', 'severity', 'rule', 'message', 'pointer'], r.findings.map((f, i) => [String(i), esc(f.severity), `<code>${esc(f.rule)}</code>`, esc(f.message), f.pointer ? `<code>${esc(f.pointer)}</code>` : '']))}`);
  if (r.comparisons) {
    out.push(`<h2>Comparisons</h2>${table(['#', 'output', 'mode', 'original', 'replayed', 'delta / epsilon', 'status'], r.comparisons.map((c, i) => [String(i), esc(c.output), esc(c.mode), `<pre>${esc(json(c.original))}</pre>`, `<pre>${esc(json(c.replayed))}</pre>`, esc(`${c.delta ?? '-'} / ${c.epsilon ?? '-'}`), esc(c.status + (c.reason ? `: ${c.reason}` : ''))]))}`);
  }
  if (r.events) out.push(`<h2>Drift events</h2>${table(['#', 'event'], r.events.map((e: JsonValue, i) => [String(i), `<pre>${esc(json(e))}</pre>`]))}`);
  return out;
}

function judgementBlock(p: InclusionProof): string {
  let e: { seq?: unknown; recordedAtUtc?: unknown; author?: unknown; body?: Record<string, unknown> } = {};
  try {
    e = JSON.parse(p.entry) as typeof e;
  } catch {
    /* verify reports an unreadable entry; the page shows what it can */
  }
  const b = e.body ?? {};
  return `<div class="judgement">${dl([
    ['entry', esc(`seq ${String(e.seq)} at ${String(e.recordedAtUtc)}`)],
    ['decision', `<strong>${esc(b['decision'] ?? '')}</strong>`],
    ['item', `<code>${esc(typeof b['pointer'] === 'string' && b['pointer'] !== '' ? b['pointer'] : '(the whole report)')}</code>`],
    ['rationale', esc(b['rationale'] ?? '')],
    ['signed by', `<code>${esc(e.author ?? '')}</code>`],
    ['entry hash', `<code>${esc(p.entryHash)}</code>`],
    ['inclusion', esc(`leaf ${p.leafIndex} of ${p.treeSize}, audit path of ${p.auditPath.length} hash(es)`)],
  ])}</div>`;
}

/** The page for the report and its judgements (proofs in seq order), proven under `checkpoint`. */
export function bundleHtml(r: BundledReport, proofs: readonly InclusionProof[], checkpoint: Checkpoint, reportDigest: string): string {
  const a = r.artifact;
  const head = dl([
    ['artifact', esc(a.path)],
    ['kind', esc(a.kind)],
    ['SHA-256', `<code>${esc(a.sha256 ?? '')}</code>`],
    ['id', `<code>${esc(a.id ?? '')}</code>`],
    ['report digest', `<code>${esc(reportDigest)}</code>`],
    ['origin', esc(r.authenticity?.statement ?? '')],
  ]);
  const cp = dl([
    ['tree size', esc(checkpoint.treeSize)],
    ['root', `<code>${esc(checkpoint.rootHash)}</code>`],
    ['time', esc(checkpoint.timestampUtc)],
    ['signer', `<code>${esc(checkpoint.signer)}</code>`],
  ]);
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">',
    `<title>${esc(`Reprise evidence: ${a.path}`)}</title><style>${CSS}</style></head><body>`,
    `<h1>Evidence bundle <span class="verdict ${esc(r.verdict)}">${esc(r.verdict.toUpperCase())}</span></h1>`,
    head,
    ...reportSections(r),
    `<h2>Judgements (${proofs.length})</h2>${proofs.length === 0 ? '<p>None recorded.</p>' : proofs.map(judgementBlock).join('')}`,
    `<h2>Signed checkpoint</h2>${cp}`,
    '<p>Verify offline: <code>reprise verify BUNDLE --trust-store FILE</code></p>',
    '</body></html>',
    '',
  ].join('\n');
}
