/**
 * Reports as terminal text: one line per artifact, its findings beneath. The engine owns it
 * because three callers print the same text: the CLI's commands, the batch worker threads
 * (which render in the worker so the CLI's main thread only writes) and attestations.
 */
import { shownValue, type Finding, type Report, type Verdict } from '../../shared/report.js';

import { safeJsonText, safeText } from '../core/text.js';
import { cutIndex } from '../../shared/text-cut.js';

export { safeText };

const LABEL = { pass: 'PASS', fail: 'FAIL', unavailable: 'UNAVAILABLE' } as const;

function fmtValue(v: unknown): string {
  const s = shownValue(v);
  const cut = s.length > 120 ? s.slice(0, cutIndex(s, 117)) + '...' : s;
  return typeof v === 'string' ? safeText(cut) : safeJsonText(cut);
}

export function formatFinding(f: Finding): string {
  let s = `  ${f.severity.padEnd(11)} ${safeText(f.rule)}  ${safeText(f.message)}`;
  if (f.pointer !== undefined) s += `  [${f.pointer === '' ? '/' : safeText(f.pointer)}]`;
  if (f.expected !== undefined) s += `\n${' '.repeat(14)}expected ${fmtValue(f.expected)}`;
  if (f.actual !== undefined) s += `\n${' '.repeat(14)}actual   ${fmtValue(f.actual)}`;
  return s;
}

export function formatReport(r: Report, quiet: boolean): string {
  const id = r.artifact.id ? ` ${safeText(r.artifact.id)}` : '';
  const lines = [`${LABEL[r.verdict].padEnd(11)} ${safeText(r.artifact.path)}  (${safeText(r.artifact.kind)}${id})`];
  if (!quiet) {
    if (r.authenticity) lines.push(`  origin: ${safeText(r.authenticity.statement)}`);
    for (const f of r.findings) lines.push(formatFinding(f));
    if (r.comparisons && r.comparisons.length > 0) {
      const byStatus = new Map<string, number>();
      for (const c of r.comparisons) byStatus.set(c.status, (byStatus.get(c.status) ?? 0) + 1);
      lines.push(`  comparisons: ${[...byStatus].map(([k, n]) => `${n} ${safeText(k)}`).join(', ')}`);
    }
  }
  return lines.join('\n') + '\n';
}

export function formatSummary(counts: Record<string, number>, total: number): string {
  const parts = ['pass', 'fail', 'unavailable', 'error']
    .filter((k) => (counts[k] ?? 0) > 0)
    .map((k) => `${counts[k]} ${k}`);
  return `${total} artifact${total === 1 ? '' : 's'}: ${parts.join(', ') || 'none'}\n`;
}

/**
 * An attestation's outcome as text (`reprise attest`, and the workbench's one-line refusal
 * when a manifest cannot be attested): a verdict line, then each finding.
 */
export function formatAttestationText(title: string, verdict: Verdict, findings: readonly Finding[]): string {
  return [`${verdict.toUpperCase().padEnd(11)} ${safeText(title)}`, ...findings.map(formatFinding)].join('\n') + '\n';
}
