/** One report as a batch asked for it (BatchRender), in a batch worker or inline. */
import type { Report } from '../../shared/report.js';
import { formatReport } from '../engine/report-text.js';
import type { BatchItem, BatchRender } from './protocol.js';

export function rendered(report: Report, render: BatchRender): Extract<BatchItem, { ok: true }> {
  const verdict = report.verdict;
  if (render === 'object') return { ok: true, verdict, text: '', report };
  if (render === 'jsonl') return { ok: true, verdict, text: JSON.stringify(report) + '\n' };
  if (render === 'none') return { ok: true, verdict, text: '' };
  return { ok: true, verdict, text: formatReport(report, render === 'text-quiet') };
}
