/**
 * The report as a self-contained HTML page: the one renderer of it, shared by the
 * workbench's "Export HTML" and the evidence bundle's page (app/kinds/evidence-bundle/html.ts
 * adds the judgements and the checkpoint). One file, inline CSS, no script, no external
 * resource, every text escaped, the export's under a Content-Security-Policy that allows
 * nothing else (PAGE_CSP); it fits the page width. It is a pure function of the report,
 * so a bundle's `verify` can rebuild its page and refuse one that says something else:
 * what the bundle's page holds must therefore not change from one version to the next.
 */
import { CONTROL_CLASS, controlEscape } from './controls.js';
import { shownValue, type JsonValue, type Report } from './report.js';
import { AS_STATED, SAVED_CLAIMS, SAVED_LEAD, VERDICT_STATED } from './stated-words.js';

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** HTML's specials, and every control (shared/controls.ts) but the tab and line feed a page lays out. */
const HTML_ESCAPED = new RegExp(`[&<>"']|(?![\\t\\n])[${CONTROL_CLASS}]`, 'g');

/**
 * Text as HTML, for an element, an attribute or the title alike. A control shows as the
 * terminal shows it (`\u202e`, safeText), so a bidi override cannot reverse what follows on
 * the page. Its backslash is written `&#92;`, which no version before wrote: withRawControls
 * can then give back, exactly, the page those versions wrote, which a bundle's verify accepts.
 */
export const escHtml = (s: unknown): string =>
  String(s).replace(HTML_ESCAPED, (c) => ESC[c] ?? controlEscape(c).replace('\\', '&#92;'));

/** A page as the versions before escHtml escaped controls wrote it: every control raw again. */
export function withRawControls(page: string): string {
  return page.replace(/&#92;(?:x([0-9a-f]{2})|u([0-9a-f]{4}))/g, (_m, x?: string, u?: string) =>
    String.fromCharCode(parseInt(x ?? u!, 16)),
  );
}

// Fits the page width: tables lay out fixed, long hashes and JSON wrap anywhere.
export const PAGE_CSS = `
*{box-sizing:border-box}body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;padding:16px;max-width:1100px;color:#1b1b1b;background:#fff}
h1{font-size:20px;margin:0 0 8px}h2{font-size:16px;margin:24px 0 8px;border-bottom:1px solid #ccc}
table{width:100%;border-collapse:collapse;table-layout:fixed}th,td{border:1px solid #ccc;padding:4px 6px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#f2f2f2}code,pre{font:12px/1.4 ui-monospace,monospace;overflow-wrap:anywhere;white-space:pre-wrap;margin:0}
.verdict{display:inline-block;padding:2px 10px;border-radius:4px;font-weight:700;color:#fff}.pass{background:#1a7f37}.fail{background:#b42318}.unavailable{background:#8a6100}
.judgement{border:1px solid #ccc;border-radius:4px;padding:8px;margin:8px 0}dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
@media print{body{max-width:none}}`;

/** Cells are HTML already (escaped by the caller); the heads are text. */
export function htmlTable(head: string[], rows: string[][]): string {
  if (rows.length === 0) return '<p>None.</p>';
  return `<table><thead><tr>${head.map((h) => `<th>${escHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

/** Terms are text; descriptions are HTML already. */
export function htmlDl(pairs: [string, string][]): string {
  return `<dl>${pairs.map(([k, v]) => `<dt>${escHtml(k)}</dt><dd>${v}</dd>`).join('')}</dl>`;
}

const pre = (v: unknown): string => `<pre>${escHtml(shownValue(v, 2))}</pre>`;

/** The findings as a table; `values` adds each one's expected and actual values. */
export function findingsTable(
  findings: readonly Report['findings'][number][],
  opts: { values?: boolean } = {},
): string {
  const head = ['#', 'severity', 'rule', 'message', 'pointer', ...(opts.values ? ['expected', 'actual'] : [])];
  const values = (f: Report['findings'][number]) =>
    opts.values ? [f.expected === undefined ? '' : pre(f.expected), f.actual === undefined ? '' : pre(f.actual)] : [];
  return htmlTable(
    head,
    findings.map((f, i) => [
      String(i),
      escHtml(f.severity),
      `<code>${escHtml(f.rule)}</code>`,
      escHtml(f.message),
      f.pointer ? `<code>${escHtml(f.pointer)}</code>` : '',
      ...values(f),
    ]),
  );
}

/**
 * Findings, comparisons and drift events. `values` adds each finding's expected and actual
 * values (the standalone page); the bundle's page has been written without them.
 */
export function reportSections(r: Omit<Report, 'run'>, opts: { values?: boolean } = {}): string[] {
  const out: string[] = [];
  out.push(`<h2>Findings</h2>${findingsTable(r.findings, opts)}`);
  if (r.comparisons) {
    out.push(
      `<h2>Comparisons</h2>${htmlTable(
        ['#', 'output', 'mode', 'original', 'replayed', 'delta / epsilon', 'status'],
        r.comparisons.map((c, i) => [
          String(i),
          escHtml(c.output),
          escHtml(c.mode),
          pre(c.original),
          pre(c.replayed),
          escHtml(`${c.delta ?? '-'} / ${c.epsilon ?? '-'}`),
          escHtml(c.status + (c.reason ? `: ${c.reason}` : '')),
        ]),
      )}`,
    );
  }
  if (r.events)
    out.push(
      `<h2>Drift events</h2>${htmlTable(
        ['#', 'event'],
        r.events.map((e: JsonValue, i) => [String(i), pre(e)]),
      )}`,
    );
  return out;
}

/** What the artifact is and who made the report: the page's first lines. */
export function artifactPairs(r: Omit<Report, 'run'>): [string, string][] {
  const a = r.artifact;
  return [
    ['artifact', escHtml(a.path)],
    ['kind', escHtml(a.kind)],
    ['SHA-256', `<code>${escHtml(a.sha256 ?? '')}</code>`],
    ['id', `<code>${escHtml(a.id ?? '')}</code>`],
  ];
}

/**
 * What a page may load or run: its own inline CSS (the <style> and `style` attributes) and
 * nothing else, no script, image, font, frame or fetch, no <base> and no form. Every text is
 * escaped; the policy keeps a slip in that escaping inert, a script or a request to anywhere
 * never run. Its links are fragments of the page itself, which no policy governs.
 */
export const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/**
 * The page's opening lines up to its main landmark, which holds the whole page (so a screen
 * reader's landmarks reach all of it); `title` is text. PAGE_END closes it. `csp` puts
 * PAGE_CSP first in its head: the report's and the diff's pages carry it; an evidence
 * bundle's pages do not, as their bytes are fixed (a bundle's verify rebuilds them and
 * refuses any other).
 */
export function pageStart(title: string, opts: { csp?: boolean } = {}): string[] {
  const csp = opts.csp ? `<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">` : '';
  return [
    '<!doctype html>',
    `<html lang="en"><head>${csp}<meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`,
    `<title>${escHtml(title)}</title><style>${PAGE_CSS}</style></head><body><main>`,
  ];
}

export const PAGE_END = '</main></body></html>';

/**
 * A page as the versions before the main landmark wrote it: the same bytes without
 * `<main>` and `</main>`. A bundle's verification rebuilds its page and accepts this form
 * too, so that a bundle exported by those versions still verifies (any edit fails both).
 */
export function withoutMainLandmark(page: string): string {
  const [body, main] = ['</head><body>', '<main>'];
  const open = page.indexOf(body + main);
  const close = page.lastIndexOf(PAGE_END);
  if (open < 0 || close < open) return page;
  const inside = page.slice(open + body.length + main.length, close);
  return page.slice(0, open + body.length) + inside + '</body></html>' + page.slice(close + PAGE_END.length);
}

/**
 * The pages earlier versions wrote where this one writes `page`: with controls raw, with and
 * without the main landmark. A bundle's verify accepts them too, so that a bundle those
 * versions exported still verifies; a page edited in any way matches none of them.
 */
export function earlierPages(page: string): string[] {
  const raw = withRawControls(page);
  return [raw, withoutMainLandmark(raw)];
}

const verdictBadge = (v: Report['verdict']): string =>
  `<span class="verdict ${escHtml(v)}">${escHtml(v.toUpperCase())}</span>`;

/**
 * A saved report's verdict (a report opened without its artifact: the window's
 * OpenArtifact.savedReport): the word alone, in no verdict's colour, as the window's banner
 * says it. A green PASS reads as checked, and nothing here checked it.
 */
const statedVerdict = (v: Report['verdict']): string =>
  `<strong>${escHtml(v.toUpperCase())}</strong> ${escHtml(VERDICT_STATED)}`;

/** Under a saved report's heading, as the window's note says it: its claims are its own. */
const SAVED_NOTE = `<p role="note"><strong>${escHtml(SAVED_LEAD)}</strong> ${escHtml(SAVED_CLAIMS)} The workbench checked only its form, and that its verdict is the one its findings make. To see it checked: <code>reprise verify REPORT --artifact FILE</code>.</p>`;

/** Who made the report; a saved report may name no run (its `run` is optional to the report kind). */
function madeBy(run: Report['run'] | undefined): string {
  return run ? `${run.tool} ${run.version} at ${run.startedAtUtc}` : 'not stated: the report has no "run"';
}

/**
 * A report on its own (the workbench's export): the artifact, the verdict, every section and
 * the report itself. `stated`: a saved report, each of whose claims is marked as its own.
 */
export function reportPage(r: Report, opts: { stated?: boolean } = {}): string {
  const mark = (label: string) => (opts.stated ? `${label} (${AS_STATED})` : label);
  const head = htmlDl([
    ...artifactPairs(r),
    [
      mark('origin'),
      escHtml(r.authenticity?.statement ?? 'The report makes no authenticity statement: origin not established.'),
    ],
    [mark('made by'), escHtml(madeBy((r as Partial<Report>).run))],
  ]);
  const title = `Reprise report: ${r.artifact.path}${opts.stated ? ' (saved report, not re-verified)' : ''}`;
  return [
    ...pageStart(title, { csp: true }),
    `<h1>Report ${opts.stated ? statedVerdict(r.verdict) : verdictBadge(r.verdict)}</h1>`,
    ...(opts.stated ? [SAVED_NOTE] : []),
    head,
    ...reportSections(r, { values: true }),
    `<h2>${escHtml(mark('Hash chain'))}</h2>${htmlTable(
      ['node', 'status', 'recorded', 'recomputed'],
      r.chain.map((n) => [
        escHtml(n.label),
        escHtml(n.status),
        `<code>${escHtml(n.recorded ?? '—')}</code>`,
        `<code>${escHtml(n.recomputed ?? '—')}</code>`,
      ]),
    )}`,
    `<h2>Report (${escHtml(r.schema)})</h2>${pre(r)}`,
    PAGE_END,
    '',
  ].join('\n');
}

/** The verdict badge, for the bundle's own heading. */
export { verdictBadge };
