// The ideal 2-thread re-judgement measured by bench/rejudge.bench.js in the same run as the
// queue: `node bench/ideal-rejudge.js LIST W` reads the sha256sum list, splits its items into W
// equal slices, one worker thread each, and judges every item with the very function the
// queue's sandboxed processes call (dist/app/jobs/rejudge/judge.js judgeBatch), in batches
// of 256: no queue, no Redis, no processes, no merge. What the queue adds is the difference.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

if (isMainThread) {
  const [list, w, trust] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
  const base = dirname(resolve(list));
  const items = readFileSync(list, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => ({ name: l.slice(66), path: resolve(base, l.slice(66)), sha256: `sha256:${l.slice(0, 64)}` }));
  const per = Math.ceil(items.length / w);
  const judged = await Promise.all(
    Array.from(
      { length: w },
      (_, i) =>
        new Promise((res, rej) => {
          const t = new Worker(new URL(import.meta.url), {
            workerData: { items: items.slice(i * per, (i + 1) * per), trust },
          });
          t.once('message', res);
          t.once('error', rej);
        }),
    ),
  );
  if (judged.reduce((a, b) => a + b, 0) !== items.length) throw new Error('ideal rejudge: an item was missed');
} else {
  const { judgeBatch } = await import('../dist/app/jobs/rejudge/judge.js');
  const { items, trust } = workerData;
  let n = 0;
  for (let i = 0; i < items.length; i += 256) {
    const outs = await judgeBatch({
      items: items.slice(i, i + 256),
      options: { trustStore: trust },
      mode: 'verify',
      shard: { index: 0, count: 1 },
    });
    n += outs.filter((o) => 'record' in o).length;
  }
  parentPort.postMessage(n);
}
