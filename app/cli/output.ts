/** Human-readable rendering of reports for the terminal. */
import type { Finding, Report } from '../../shared/report.js';

const LABEL = { pass: 'PASS', fail: 'FAIL', unavailable: 'UNAVAILABLE' } as const;

function fmtValue(v: unknown): string {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > 120 ? s.slice(0, 117) + '...' : s;
}

export function formatFinding(f: Finding): string {
  let s = `  ${f.severity.padEnd(11)} ${f.rule}  ${f.message}`;
  if (f.pointer !== undefined) s += `  [${f.pointer === '' ? '/' : f.pointer}]`;
  if (f.expected !== undefined) s += `\n${' '.repeat(14)}expected ${fmtValue(f.expected)}`;
  if (f.actual !== undefined) s += `\n${' '.repeat(14)}actual   ${fmtValue(f.actual)}`;
  return s;
}

export function formatReport(r: Report, quiet: boolean): string {
  const id = r.artifact.id ? ` ${r.artifact.id}` : '';
  const lines = [`${LABEL[r.verdict].padEnd(11)} ${r.artifact.path}  (${r.artifact.kind}${id})`];
  if (!quiet) {
    if (r.authenticity) lines.push(`  origin: ${r.authenticity.statement}`);
    for (const f of r.findings) lines.push(formatFinding(f));
    if (r.comparisons && r.comparisons.length > 0) {
      const byStatus = new Map<string, number>();
      for (const c of r.comparisons) byStatus.set(c.status, (byStatus.get(c.status) ?? 0) + 1);
      lines.push(`  comparisons: ${[...byStatus].map(([k, n]) => `${n} ${k}`).join(', ')}`);
    }
  }
  return lines.join('\n') + '\n';
}

export function formatSummary(counts: Record<string, number>, total: number): string {
  const parts = ['pass', 'fail', 'unavailable', 'error'].filter((k) => (counts[k] ?? 0) > 0).map((k) => `${counts[k]} ${k}`);
  return `${total} artifact${total === 1 ? '' : 's'}: ${parts.join(', ') || 'none'}\n`;
}
