import type { Report } from '../../../shared/report';
import { authenticity, plainVerdict, show, VERDICT_LABEL } from '../lib/report-words';

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A self-contained HTML page: inline CSS only, no scripts, no external resources. */
export function reportHtml(r: Report): string {
  const rows = (xs: string[][]) => xs.map((cells) => `<tr>${cells.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Reprise report: ${esc(r.artifact.path)}</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:2rem;color:#1b1b1b}h1 .v{padding:.1em .4em;border-radius:4px;color:#fff}.pass{background:#1e7a3c}.fail{background:#b3261e}.unavailable{background:#8a5a00}table{border-collapse:collapse;width:100%;margin:1em 0}td,th{border:1px solid #bbb;padding:.3em .5em;text-align:left;vertical-align:top}code,td{font-family:ui-monospace,monospace;font-size:12px}</style>
</head><body>
<h1><span class="v ${r.verdict}">${VERDICT_LABEL[r.verdict]}</span> ${esc(r.artifact.kind)} ${esc(r.artifact.id ?? '')}</h1>
<p>${esc(plainVerdict(r))}</p>
<p><strong>Authenticity:</strong> ${esc(authenticity(r).text)}</p>
<p>File <code>${esc(r.artifact.path)}</code>, SHA-256 <code>${esc(r.artifact.sha256 ?? '—')}</code>; ${esc(r.run.tool)} ${esc(r.run.version)} at ${esc(r.run.startedAtUtc)}</p>
<h2>Findings (${r.findings.length})</h2>
<table><tr><th>Rule</th><th>Severity</th><th>Message</th><th>Pointer</th><th>Expected</th><th>Actual</th></tr>
${rows(r.findings.map((f) => [f.rule, f.severity, f.message, f.pointer ?? '', show(f.expected), show(f.actual)]))}</table>
<h2>Hash chain (${r.chain.length})</h2>
<table><tr><th>Node</th><th>Status</th><th>Recorded</th><th>Recomputed</th></tr>
${rows(r.chain.map((n) => [n.label, n.status, n.recorded ?? '—', n.recomputed ?? '—']))}</table>
${r.comparisons?.length ? `<h2>Comparisons (${r.comparisons.length})</h2><table><tr><th>Output</th><th>Mode</th><th>Status</th><th>Original</th><th>Replayed</th><th>Δ</th><th>ε</th></tr>\n${rows(r.comparisons.slice(0, 5000).map((c) => [c.output, c.mode, c.status, show(c.original), show(c.replayed), String(c.delta ?? '—'), String(c.epsilon ?? '—')]))}</table>` : ''}
<h2>Report (reprise.report/v1)</h2>
<pre>${esc(JSON.stringify(r, null, 2))}</pre>
</body></html>
`;
}

function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Export: the report as JSON and as a self-contained HTML page. */
export function ExportView({ report }: { report: Report }) {
  const base = (report.artifact.path.split('/').pop() ?? 'artifact').replace(/[^A-Za-z0-9._-]/g, '_');
  return (
    <section className="panel" aria-labelledby="export-h">
      <h2 id="export-h">Export</h2>
      <p>The report is the engine's own JSON (reprise.report/v1), byte for byte as it arrived; the HTML page embeds it with the findings and chain as tables, and loads nothing from anywhere.</p>
      <div className="toolbar">
        <button type="button" className="primary" data-testid="export-json" onClick={() => download(`${base}.report.json`, 'application/json', JSON.stringify(report, null, 2) + '\n')}>
          Save report as JSON
        </button>
        <button type="button" data-testid="export-html" onClick={() => download(`${base}.report.html`, 'text/html', reportHtml(report))}>
          Save report as HTML
        </button>
      </div>
      <p className="muted small">Attestations (in-toto statements in a DSSE envelope) are made with the CLI: reprise attest.</p>
    </section>
  );
}
