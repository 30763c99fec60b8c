// ACGP: verify a 1,000,000-EVAL JSON Lines trace streaming (runTraceFile), in a child
// process so that its peak RSS is its own; compare with a 100,000-EVAL trace (memory must
// not grow with the trace) and, in the same run, with two baselines: the in-memory kind
// (runPath reads the whole file) and bare JSON.parse of every line (the floor).
import { spawnSync } from 'node:child_process';
import { existsSync, openSync, writeSync, closeSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const BIG = 1_000_000;
const SMALL = 100_000;
const TINY = 20_000;

async function makeTrace(root, path, count, consistent = false) {
  if (existsSync(path) && statSync(path).size > 0) return;
  const { generateTrace } = await import(pathToFileURL(join(root, 'dist/app/kinds/acgp/generate.js')).href);
  if (consistent) {
    // One generator run: the whole debt chain holds, so replay passes.
    const all = generateTrace({ count, seed: 2027, traceId: 'trace-bench-20k' });
    const fd = openSync(path, 'w');
    writeSync(fd, all.map((e) => JSON.stringify(e)).join('\n') + '\n');
    closeSync(fd);
    return;
  }
  // A 10,000-EVAL block of the generator, repeated with timestamps moved on: every EVAL
  // is self-consistent (verify recomputes each one); the debt chain is not (verify does
  // not replay the provider).
  const block = generateTrace({ count: 10_000, seed: 2026, traceId: 'trace-bench-1m' });
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  const fd = openSync(path + '.tmp', 'w');
  for (let r = 0; r * block.length < count; r++) {
    const out = [];
    for (let i = 0; i < block.length && r * block.length + i < count; i++) {
      const e = block[i];
      e.timestamp = new Date(t0 + (r * block.length + i) * 60_000).toISOString().replace('.000Z', 'Z');
      out.push(JSON.stringify(e));
    }
    writeSync(fd, out.join('\n') + '\n');
  }
  closeSync(fd);
  const { renameSync } = await import('node:fs');
  renameSync(path + '.tmp', path);
}

/** Runs one measurement in a fresh node process; returns {ms, evals, verdict, maxRssMb}. */
function child(root, what, path, mode) {
  const script = `
    const t0 = process.hrtime.bigint();
    const what = ${JSON.stringify(what)}, path = ${JSON.stringify(path)}, mode = ${JSON.stringify(mode)};
    let evals = 0, verdict = '';
    if (what === 'stream') {
      const { runTraceFile } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist/app/kinds/acgp/index.js')).href)});
      const r = await runTraceFile(path, mode, { limits: { 'acgp-comparisons': 1000, 'acgp-trajectory': 1000 } });
      evals = r.details.evals; verdict = r.verdict;
    } else if (what === 'memory') {
      const { runPath } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist/app/engine/run.js')).href)});
      const r = await runPath(path, mode, { limits: { 'acgp-comparisons': 1000, 'acgp-trajectory': 1000 } });
      evals = r.details.evals; verdict = r.verdict;
    } else {
      const { createReadStream } = await import('node:fs');
      const { createInterface } = await import('node:readline');
      for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) { JSON.parse(line); evals++; }
      verdict = 'parsed';
    }
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const cpu = process.cpuUsage();
    process.stdout.write(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, evals, verdict, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
  `;
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (res.status !== 0) throw new Error(`bench child failed: ${res.stderr}`);
  return JSON.parse(res.stdout);
}

export default async function (ctx) {
  const big = join(ctx.work, 'acgp-trace-1m.jsonl');
  const small = join(ctx.work, 'acgp-trace-100k.jsonl');
  const g0 = Date.now();
  await makeTrace(ctx.root, big, BIG);
  await makeTrace(ctx.root, small, SMALL);
  const tiny = join(ctx.work, 'acgp-trace-20k.jsonl');
  await makeTrace(ctx.root, tiny, TINY, true);
  ctx.line(
    'trace files (generated once into .bench/, reused)',
    `${(statSync(big).size / 1e6).toFixed(0)} MB / ${(statSync(small).size / 1e6).toFixed(0)} MB, ${((Date.now() - g0) / 1000).toFixed(1)} s`,
  );

  const s1m = child(ctx.root, 'stream', big, 'verify');
  const s100k = child(ctx.root, 'stream', small, 'verify');
  const m100k = child(ctx.root, 'memory', small, 'verify');
  const p100k = child(ctx.root, 'parse', small, 'verify');
  const v20k = child(ctx.root, 'stream', tiny, 'verify');
  const r20k = child(ctx.root, 'stream', tiny, 'replay');
  if (s1m.evals !== BIG || s1m.verdict !== 'pass') throw new Error(`1M verify: ${JSON.stringify(s1m)}`);
  if (r20k.verdict !== 'pass' || v20k.verdict !== 'pass') throw new Error(`20k: ${JSON.stringify([v20k, r20k])}`);
  const rate = (x) => Math.round((x.evals / x.ms) * 1000).toLocaleString('en-US');
  ctx.line('verify 1,000,000 EVALs streaming: EVALs/s', rate(s1m));
  ctx.line(
    'verify 1,000,000 EVALs streaming: EVALs per CPU-second',
    Math.round((s1m.evals / s1m.cpuMs) * 1000).toLocaleString('en-US'),
  );
  ctx.line(
    'verify 1,000,000 EVALs streaming: wall / CPU time',
    `${(s1m.ms / 1000).toFixed(1)} s / ${(s1m.cpuMs / 1000).toFixed(1)} s (wall > CPU: a loaded machine)`,
  );
  ctx.line('verify 1,000,000 EVALs streaming: peak RSS', `${s1m.maxRssMb.toFixed(0)} MB`);
  ctx.line('verify   100,000 EVALs streaming: peak RSS', `${s100k.maxRssMb.toFixed(0)} MB`);
  ctx.line('peak RSS ratio 1M / 100k streaming (1.0 = flat)', (s1m.maxRssMb / s100k.maxRssMb).toFixed(2));
  ctx.line(
    'baseline: in-memory kind (runPath), 100k: EVALs/s, peak RSS',
    `${rate(m100k)}, ${m100k.maxRssMb.toFixed(0)} MB`,
  );
  ctx.line('ratio peak RSS in-memory / streaming at 100k', (m100k.maxRssMb / s100k.maxRssMb).toFixed(2));
  ctx.line('baseline: JSON.parse per line only (readline), 100k: EVALs/s', rate(p100k));
  ctx.line('ratio verify time / bare parse time at 100k', (s100k.ms / p100k.ms).toFixed(2));
  ctx.line('replay 20k streaming (decay + exact compares): EVALs/s', `${rate(r20k)} (verdict ${r20k.verdict})`);
  ctx.line('ratio replay time / verify time at 20k', (r20k.ms / v20k.ms).toFixed(2));
}
