#!/usr/bin/env node
// `npm run bench`: every bench/*.bench.js module, in name order. Each module exports a
// default async function (ctx) that measures its subject *and* a baseline in the same
// run and prints ratios (machines are noisy: only ratios measured together mean anything).
// `npm run bench -- NAME` runs only the modules whose file name contains NAME.
import { readdirSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const here = fileURLToPath(new URL('.', import.meta.url));
const filter = process.argv[2];
const work = join(here, '..', '.bench');
mkdirSync(work, { recursive: true });
const ctx = {
  work,
  root: join(here, '..'),
  /** Median of n timed runs of an async or sync function, in ms. */
  async time(fn, n = 3) {
    const ts = [];
    for (let i = 0; i < n; i++) {
      const t0 = process.hrtime.bigint();
      await fn();
      ts.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
    ts.sort((a, b) => a - b);
    return ts[Math.floor(ts.length / 2)];
  },
  line(label, value) {
    process.stdout.write(`${label.padEnd(64)} ${value}\n`);
  },
};

const mods = readdirSync(here)
  .filter((f) => f.endsWith('.bench.js') && (!filter || f.includes(filter)))
  .sort();
for (const m of mods) {
  process.stdout.write(`\n== ${m}\n`);
  const mod = await import(new URL(m, import.meta.url).href);
  await mod.default(ctx);
}
