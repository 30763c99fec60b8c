// TG replay throughput: N manifests of 20 executions each (policy resolution, 10 rule
// evaluations, 6 BANDED A re-runs through the reference provider, BANDED trust score,
// explanation, decision), replayed by the CLI with --workers 2 against --workers 1 in
// the same run. Target: workers 2 ≥ 1.6× workers 1. TG_BENCH_N overrides N (default 10000).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpus, loadavg } from 'node:os';

const N = Number(process.env.TG_BENCH_N ?? 10000);
const DISTINCT = 100;

const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
const cpu = { 1: 0, 2: 0 };

function replay(root, dir, workers) {
  return new Promise((resolve, reject) => {
    const args = [join(root, 'bin', 'reprise.js'), 'replay', dir, '--workers', String(workers), '--quiet'];
    // /usr/bin/time (when present) reports the child's CPU seconds on stderr's last line.
    const child = TIME
      ? spawn(TIME, ['-f', 'cpu %U %S', process.execPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    let err = '';
    child.stdout.on('data', (d) => (tail = (tail + d.toString()).slice(-300)));
    child.stderr.on('data', (d) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const m = /cpu ([\d.]+) ([\d.]+)\s*$/.exec(err);
      if (m) cpu[workers] = Number(m[1]) + Number(m[2]);
      if (code === 0) resolve(tail);
      else reject(new Error(`replay --workers ${workers} exited ${code}: ${err || tail}`));
    });
  });
}

export default async function (ctx) {
  const { buildScenario } = await import('../dist/app/kinds/tg/examples.js');
  const dir = join(ctx.work, 'tg-manifests');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const templates = [];
  for (let i = 0; i < DISTINCT; i++) {
    const m = await buildScenario({
      claimRef: `claim:bench-${i}`,
      extraA: 5,
      extraRules: 9,
      maxTokens: 2,
      originalShape: i % 2 ? { advisor: 'advisor.npu_v1', arity: 4, tensorType: 'fp32' } : undefined,
    });
    if (m.executions.length !== 20) throw new Error(`bench manifest has ${m.executions.length} executions, not 20`);
    templates.push(JSON.stringify(m));
  }
  for (let i = 0; i < N; i++) writeFileSync(join(dir, `m${String(i).padStart(6, '0')}.json`), templates[i % DISTINCT]);
  ctx.line('tg manifests (20 executions, 6 BANDED A each)', N);
  // Throughput ratios only mean something when the machine has the cores free.
  ctx.line('cores / load average before', `${cpus().length} / ${loadavg()[0].toFixed(2)}`);
  // Two rounds, interleaved (1, 2, 1, 2), so that load from other processes hits both alike.
  let summary = '';
  const rounds = [];
  for (let round = 0; round < 2; round++) {
    const t1 = await ctx.time(async () => (summary = await replay(ctx.root, dir, 1)), 1);
    if (!summary.includes(`${N} artifacts: ${N} pass`)) throw new Error(`unexpected result: ${summary}`);
    const t2 = await ctx.time(async () => (summary = await replay(ctx.root, dir, 2)), 1);
    if (!summary.includes(`${N} artifacts: ${N} pass`)) throw new Error(`unexpected result: ${summary}`);
    const r1 = N / (t1 / 1000);
    const r2 = N / (t2 / 1000);
    rounds.push(r2 / r1);
    ctx.line(
      `round ${round + 1}: replay --workers 1 / --workers 2 (manifests/s)`,
      `${r1.toFixed(1)} / ${r2.toFixed(1)}`,
    );
    if (TIME)
      ctx.line(
        `round ${round + 1}: CPU seconds, workers 1 / workers 2 (same work)`,
        `${cpu[1].toFixed(1)} / ${cpu[2].toFixed(1)}`,
      );
    ctx.line(`round ${round + 1}: load average`, loadavg()[0].toFixed(2));
  }
  ctx.line(
    'speed-up workers 2 / workers 1, best of two interleaved rounds (target >= 1.6)',
    Math.max(...rounds).toFixed(2),
  );
  ctx.line('load average after (ratio is unreliable when above the core count)', loadavg()[0].toFixed(2));
  rmSync(dir, { recursive: true, force: true });
}
