// Re-judging an archive (issue 29). Figures against baselines measured in the same run:
// 1. 100,000 small signed dumps re-judged by 2 `reprise worker`s (BullMQ on a real
//    redis-server, sandboxed processes) against the ideal 2-thread job (bench/ideal-rejudge.js:
//    the same judging function on 2 threads, no queue). Target: queue throughput >= 0.85 of
//    ideal; the queue's overhead per artifact in µs of a worker's time.
// 2. 4 x `rejudge --shard I/4` run in parallel against one inline `rejudge` of the same list
//    (same record root; throughput ratio: 2 cores bound it near 2).
// The list is sha256sum lines (names relative to the list), so no shard reads what is not its
// own. REPRISE_BENCH_REJUDGE_N sets the number of artifacts (default 100,000); the artifacts
// are kept in .bench/ between runs.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDump, sampleSigner, signModel } from '../dist/app/kinds/replay-dump/writer.js';
import { encodeJson } from '../dist/app/kinds/replay-dump/json-encoding.js';
import { sampleSpec, trustStoreDocument } from '../dist/app/kinds/replay-dump/examples.js';
import { generateSigner } from '../dist/app/core/keys.js';

const N = Number(process.env.REPRISE_BENCH_REJUDGE_N ?? 100_000);
const BATCH = 256;

async function archive(dir) {
  const files = join(dir, 'a');
  const list = join(dir, 'list.txt');
  if (existsSync(list) && readFileSync(list, 'utf8').split('\n').filter(Boolean).length === N) return list;
  rmSync(files, { recursive: true, force: true });
  const signer = sampleSigner('active');
  const m = await buildDump(sampleSpec(), signer);
  const lines = [];
  for (let i = 0; i < N; i++) {
    const sub = String(Math.floor(i / 1000)).padStart(3, '0');
    if (i % 1000 === 0) mkdirSync(join(files, sub), { recursive: true });
    const bytes = encodeJson(signModel({ ...m, dumpId: `dump.rejudge.${String(i).padStart(6, '0')}` }, signer));
    const name = `a/${sub}/d${String(i).padStart(6, '0')}.dump.json`;
    writeFileSync(join(dir, name), bytes);
    lines.push(`${createHash('sha256').update(bytes).digest('hex')}  ${name}`);
  }
  writeFileSync(list, lines.join('\n') + '\n');
  return list;
}

// CPU time (user + system) of a child and the children it waited for, by GNU time: on this
// shared machine the wall clock moves with other agents' load, CPU time far less.
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
let cpuFiles = 0;
/** [command, args] run under GNU time writing to a fresh file; read(file) gives CPU seconds. */
function underTime(args) {
  if (!TIME) return { cmd: process.execPath, args, cpu: () => NaN };
  const f = join(tmpdir(), `reprise-bench-cpu-${process.pid}-${cpuFiles++}`);
  return {
    cmd: TIME,
    args: ['-f', '%U %S', '-o', f, process.execPath, ...args],
    cpu: () =>
      readFileSync(f, 'utf8')
        .trim()
        .split('\n')
        .pop()
        .split(' ')
        .reduce((a, b) => a + Number(b), 0),
  };
}
/** CPU seconds of a running process by /proc (redis-server, stopped after). */
const procCpu = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
};

const freePort = () =>
  new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => res(p));
    });
  });
/** Runs node with args; returns its CPU seconds (NaN without GNU time). */
const run = (args, what) => {
  const t = underTime(args);
  const r = spawnSync(t.cmd, t.args, { maxBuffer: 1 << 28, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}: ${String(r.stderr).slice(0, 400)}`);
  return t.cpu();
};
/** Spawns node with args; resolves to its CPU seconds when it exits 0. */
const spawned = (args, what) => {
  const t = underTime(args);
  const child = spawn(t.cmd, t.args, { stdio: 'ignore' });
  return exited(child, what).then(() => t.cpu());
};
const exited = (child, what) =>
  new Promise((res, rej) => child.once('exit', (c) => (c === 0 ? res() : rej(new Error(`${what} exited ${c}`)))));

async function startRedis() {
  const dir = mkdtempSync(join(tmpdir(), 'reprise-bench-redis-'));
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 50));
    if (spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG') break;
  }
  return {
    port,
    cpu: () => procCpu(child.pid),
    stop: () => {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One queue run: enqueue, 2 workers drain it, merge; ms from enqueue to drained, and CPU seconds of all its processes and of Redis. */
async function queueRun(bin, list, trust, key, redis, name, out) {
  const url = `redis://127.0.0.1:${redis.port}/${name}`;
  const redis0 = redis.cpu();
  const t0 = performance.now();
  let cpu = run(
    [bin, 'rejudge', list, '--queue', url, '--batch', String(BATCH), '--detach', '--trust-store', trust],
    'enqueue',
  );
  const workers = await Promise.all([0, 1].map(() => spawned([bin, 'worker', '--queue', url, '--drain'], 'worker')));
  const ms = performance.now() - t0;
  cpu += workers[0] + workers[1] + (redis.cpu() - redis0);
  run([bin, 'rejudge', 'merge', '--queue', url, '--key', key, '--out', out], 'merge --queue');
  return { ms, cpu };
}

export default async function (ctx) {
  const dir = join(ctx.work, 'rejudge');
  mkdirSync(dir, { recursive: true });
  const trust = join(dir, 'trust-store.json');
  writeFileSync(trust, trustStoreDocument());
  const key = join(dir, 'merge.pem');
  if (!existsSync(key))
    writeFileSync(key, generateSigner().privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  const list = await archive(dir);
  const bin = join(ctx.root, 'bin', 'reprise.js');
  ctx.line('artifacts (small signed dumps, sha256sum list)', String(N));
  ctx.line('load average (1 min) at start; ratios mean little when it exceeds the 2 cores', loadavg()[0].toFixed(1));

  // ---- 1. 2 queue workers against the ideal 2-thread job, interleaved
  const redis = await startRedis();
  const rounds = Number(process.env.REPRISE_BENCH_REJUDGE_ROUNDS ?? 3);
  const ideal = [];
  const queue = [];
  try {
    for (let i = 0; i < rounds; i++) {
      let icpu = 0;
      const ims = await ctx.time(
        () => void (icpu = run([join(ctx.root, 'bench', 'ideal-rejudge.js'), list, '2', trust], 'ideal')),
        1,
      );
      ideal.push({ ms: ims, cpu: icpu });
      queue.push(await queueRun(bin, list, trust, key, redis, `bench-${i}`, join(dir, `record-queue-${i}.json`)));
      ctx.line(
        `  round ${i + 1}: ideal / queue wall (ms), ratio; CPU (s), ratio; load`,
        `${ims.toFixed(0)} / ${queue[i].ms.toFixed(0)}, ${(ims / queue[i].ms).toFixed(2)}; ${icpu.toFixed(1)} / ${queue[i].cpu.toFixed(1)}, ${(icpu / queue[i].cpu).toFixed(2)}; ${loadavg()[0].toFixed(1)}`,
      );
    }
  } finally {
    redis.stop();
  }
  const mid = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  ctx.line(
    `ideal 2-thread job, median of ${rounds}: wall (ms), CPU (s)`,
    `${mid(ideal.map((x) => x.ms)).toFixed(0)}, ${mid(ideal.map((x) => x.cpu)).toFixed(1)}`,
  );
  ctx.line(
    `2 queue workers (enqueue to drained), median of ${rounds}: wall (ms), CPU with Redis (s)`,
    `${mid(queue.map((x) => x.ms)).toFixed(0)}, ${mid(queue.map((x) => x.cpu)).toFixed(1)}`,
  );
  ctx.line(
    'queue throughput / ideal, wall, median of the per-round ratios (target >= 0.85)',
    mid(ideal.map((v, i) => v.ms / queue[i].ms)).toFixed(2),
  );
  ctx.line(
    'queue throughput / ideal, CPU time, median of the per-round ratios (target >= 0.85)',
    mid(ideal.map((v, i) => v.cpu / queue[i].cpu)).toFixed(2),
  );
  ctx.line(
    'queue overhead per artifact, µs of CPU ((queue - ideal) CPU / N, median)',
    mid(queue.map((q, i) => ((q.cpu - ideal[i].cpu) * 1e6) / N)).toFixed(0),
  );
  ctx.line(
    "queue overhead per artifact, µs of a worker's wall time (2 x (queue - ideal) / N, median)",
    mid(queue.map((q, i) => ((q.ms - ideal[i].ms) * 2 * 1000) / N)).toFixed(0),
  );
  ctx.line('ideal cost per artifact, µs of CPU (median)', ((mid(ideal.map((x) => x.cpu)) * 1e6) / N).toFixed(0));

  // ---- 2. 4 x --shard in parallel against one inline batch
  const inline = join(dir, 'inline.jsonl');
  const shards = [0, 1, 2, 3].map((i) => join(dir, `shard-${i}.jsonl`));
  let oneCpu = 0;
  let fourCpu = [];
  const one = await ctx.time(
    () => void (oneCpu = run([bin, 'rejudge', list, '--out', inline, '--trust-store', trust], 'inline rejudge')),
    1,
  );
  const four = await ctx.time(
    async () =>
      void (fourCpu = await Promise.all(
        shards.map((s, i) =>
          spawned([bin, 'rejudge', list, '--shard', `${i}/4`, '--out', s, '--trust-store', trust], `shard ${i}`),
        ),
      )),
    1,
  );
  run([bin, 'rejudge', 'merge', inline, '--key', key, '--out', join(dir, 'record-inline.json')], 'merge inline');
  run([bin, 'rejudge', 'merge', ...shards, '--key', key, '--out', join(dir, 'record-shards.json')], 'merge shards');
  ctx.line('one inline rejudge (ms)', one.toFixed(0));
  ctx.line('4 x --shard I/4 in parallel, until the last (ms)', four.toFixed(0));
  ctx.line('throughput 4 shards / inline, wall (2 cores bound it near 2)', (one / four).toFixed(2));
  const total = fourCpu.reduce((a, b) => a + b, 0);
  ctx.line(
    'CPU (s): inline; the 4 shards together; inline / shards (1: no work added by sharding)',
    `${oneCpu.toFixed(1)}; ${total.toFixed(1)}; ${(oneCpu / total).toFixed(2)}`,
  );
  const records = ['record-inline', 'record-shards', ...queue.map((_, i) => `record-queue-${i}`)].map((n) =>
    readFileSync(join(dir, `${n}.json`), 'utf8'),
  );
  ctx.line('records byte-identical (inline, 4 shards, every queue round)', String(new Set(records).size === 1));
  if (new Set(records).size !== 1) throw new Error('the records differ');
}
