/**
 * A worker thread for CLI batches: runs several paths per message and renders each report
 * here, so the CLI's main thread only writes text (with `--workers 2` on a 2-core machine,
 * main-thread work competes with the workers for a core).
 */
import { parentPort } from 'node:worker_threads';
import { formatReport } from '../engine/report-text.js';
import { executeJob } from './execute.js';
import type { BatchItem, BatchJob, FromWorker, ToWorker } from './protocol.js';

const port = parentPort;
if (!port) throw new Error('batch-worker must run in a worker thread');

port.on('message', (msg: ToWorker<BatchJob>) => {
  void (async () => {
    const { paths, mode, options, render } = msg.job;
    const items: BatchItem[] = [];
    for (const path of paths) {
      const o = await executeJob({ op: 'runPath', path, mode, options });
      if (!o.ok) items.push(o);
      else if (render === 'object') items.push({ ok: true, verdict: o.report.verdict, text: '', report: o.report });
      else if (render === 'jsonl')
        items.push({ ok: true, verdict: o.report.verdict, text: JSON.stringify(o.report) + '\n' });
      else items.push({ ok: true, verdict: o.report.verdict, text: formatReport(o.report, render === 'text-quiet') });
    }
    const done: FromWorker<BatchItem[]> = { id: msg.id, kind: 'done', outcome: items };
    port.postMessage(done);
  })();
});
