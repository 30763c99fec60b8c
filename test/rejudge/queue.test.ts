/**
 * The done-test of issue 29: one list re-judged inline, in 4 shards, and on a BullMQ queue by
 * two `reprise worker`s on a real Redis (test/helpers/redis.ts), one of them SIGKILLed in the
 * middle of a job, gives the same signed record; the killed worker's job ran again (BullMQ's
 * stalled-job check), so nothing was lost and nothing counted twice.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job, Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../helpers/cli.js';
import { cli } from '../journal/helpers.js';
import { redisSkipReason, startRedis, type RedisServer } from '../helpers/redis.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { sampleSpec } from '../../app/kinds/replay-dump/examples.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { archive, ok } from './helpers.js';

const skip = redisSkipReason();
let redis: RedisServer;

/** A worker process whose JSON Lines events are read as they come. */
function worker(url: string): {
  child: ChildProcess;
  events: Record<string, unknown>[];
  exited: Promise<number | null>;
  next: (name: string) => Promise<Record<string, unknown>>;
} {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'worker',
      '--queue',
      url,
      '--drain',
      '--lock-duration',
      '1000',
      '--stalled-interval',
      '500',
      '--job-timeout',
      '60000',
    ],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const events: Record<string, unknown>[] = [];
  const waiting: { name: string; resolve: (e: Record<string, unknown>) => void }[] = [];
  let rest = '';
  child.stdout!.on('data', (d: Buffer) => {
    const lines = (rest + String(d)).split('\n');
    rest = lines.pop()!;
    for (const l of lines) {
      const e = JSON.parse(l) as Record<string, unknown>;
      events.push(e);
      for (const w of waiting.filter((x) => x.name === e['event'])) w.resolve(e);
    }
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const next = (name: string) => new Promise<Record<string, unknown>>((resolve) => waiting.push({ name, resolve }));
  return { child, events, exited, next };
}

/** The pid of a child process of `parent` (the worker's sandboxed process), by /proc; null while it has none. */
function childOf(parent: number): number | null {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent) return Number(d);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/** A large dump, so that its job outlasts a kill by far. */
async function largeDump(dir: string, lines: number): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const text = Array.from({ length: lines }, (_, i) => `- line ${i} of a long material, "quoted" and \\ escaped`).join(
    '\n',
  );
  writeFileSync(
    join(dir, 'large.dump.json'),
    encodeJson(
      await buildDump(sampleSpec({ materials: [{ mediaType: 'text/markdown', text }] }), sampleSigner('active')),
    ),
  );
}

describe.skipIf(skip !== null)(`reprise rejudge --queue on a real Redis${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('inline, 4 shards and 2 queue workers (one SIGKILLed mid-job) make the same record root', async () => {
    const a = archive('reprise-rejudge-queue-');
    // A large dump first in the list: its job outlasts the kill by far.
    await largeDump(join(a.examples, '0-large'), 200_000);
    const key = a.keys.reviewerPem;
    const inline = join(a.dir, 'inline.jsonl');
    ok(['rejudge', a.examples, '--out', inline, '--trust-store', a.trust]);
    ok(['rejudge', 'merge', inline, '--key', key, '--out', join(a.dir, 'r-inline.json')]);
    const shards = [0, 1, 2, 3].map((i) => join(a.dir, `shard-${i}.jsonl`));
    for (const [i, s] of shards.entries())
      ok(['rejudge', a.examples, '--shard', `${i}/4`, '--out', s, '--trust-store', a.trust]);
    ok(['rejudge', 'merge', ...shards, '--key', key, '--out', join(a.dir, 'r-shards.json')]);

    const url = redis.url('rejudge-done-test');
    ok(['rejudge', a.examples, '--queue', url, '--batch', '4', '--detach', '--trust-store', a.trust]);
    // Not done yet: merge refuses and names how much is left.
    const early = cli(['rejudge', 'merge', '--queue', url, '--key', key, '--out', join(a.dir, 'never.json')]);
    expect(early.status).toBe(1);
    expect(early.stderr).toMatch(/jobs not done yet/);
    const killed = worker(url);
    const survivor = worker(url);
    const first = await killed.next('active');
    killed.child.kill('SIGKILL');
    expect(await killed.exited).toBe(null);
    expect(await survivor.exited).toBe(0);
    const merged = cli(['rejudge', 'merge', '--queue', url, '--key', key, '--out', join(a.dir, 'r-queue.json')]);
    expect(merged.status, merged.stderr).toBe(0);

    const records = ['r-inline', 'r-shards', 'r-queue'].map((n) => readFileSync(join(a.dir, `${n}.json`), 'utf8'));
    expect(new Set(records).size).toBe(1);
    const roots = records.map((r) => (JSON.parse(r) as { records: { root: string } }).records.root);
    expect(new Set(roots).size).toBe(1);
    // The job the killed worker held was started again by the survivor: stalled, then retried.
    const queue = new Queue('rejudge-done-test', { connection: { host: '127.0.0.1', port: redis.port } });
    try {
      const job = await Job.fromId(queue, String(first['job']));
      expect(job?.attemptsStarted).toBeGreaterThanOrEqual(2);
      expect(await job?.getState()).toBe('completed');
    } finally {
      await queue.close();
    }
    expect(survivor.events.some((e) => e['event'] === 'completed' && e['job'] === first['job'])).toBe(true);
  }, 240_000);

  /**
   * Two artifacts (a large dump, so a sandboxed process is caught judging, and a non-artifact),
   * their inline record, and the same list on a queue in batches of `batch` with one worker.
   */
  async function crashSetup(prefix: string, queueName: string, batch: string) {
    const a = archive(prefix);
    const dir = join(a.dir, 'pair');
    await largeDump(join(dir, 'a'), 400_000);
    writeFileSync(join(dir, 'b.json'), '{"not": "an artifact"}');
    const key = a.keys.reviewerPem;
    ok(['rejudge', dir, '--out', join(a.dir, 'inline.jsonl'), '--trust-store', a.trust]);
    ok(['rejudge', 'merge', join(a.dir, 'inline.jsonl'), '--key', key, '--out', join(a.dir, 'r-inline.json')]);
    const url = redis.url(queueName);
    ok(['rejudge', dir, '--queue', url, '--batch', batch, '--detach', '--trust-store', a.trust]);
    return { a, key, url, w: worker(url) };
  }

  /** SIGKILLs the worker's sandboxed process (waiting up to 2 s for it to appear). */
  async function killSandbox(w: ReturnType<typeof worker>): Promise<void> {
    let child: number | null = null;
    for (let i = 0; i < 200 && child === null; i++) {
      child = childOf(w.child.pid!);
      if (child === null) await new Promise((r) => setTimeout(r, 10));
    }
    expect(child).not.toBeNull();
    process.kill(child!, 'SIGKILL');
  }

  it('an artifact whose sandboxed process dies fails its attempt, not its worker: the job runs again and the record is whole', async () => {
    const { a, key, url, w } = await crashSetup('reprise-rejudge-crash-', 'rejudge-crash-test', '1');
    // Killed once it judges (killed while it starts, BullMQ 6.7 would hold the job: the worker's --job-timeout case).
    await w.next('judging');
    await killSandbox(w);
    expect(await w.exited).toBe(0);
    const failed = w.events.filter((e) => e['event'] === 'failed');
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(w.events.some((e) => e['event'] === 'completed' && e['job'] === failed[0]!['job'])).toBe(true);
    ok(['rejudge', 'merge', '--queue', url, '--key', key, '--out', join(a.dir, 'r-queue.json')]);
    expect(readFileSync(join(a.dir, 'r-queue.json'), 'utf8')).toBe(readFileSync(join(a.dir, 'r-inline.json'), 'utf8'));
  }, 240_000);

  it('a batch whose process dies on every attempt is split into one job per artifact, and the record is still whole', async () => {
    const { a, key, url, w } = await crashSetup('reprise-rejudge-split-', 'rejudge-split-test', '2');
    // Every attempt of the batch b0 (3) ends its sandboxed process as it starts judging.
    for (let attempt = 0; attempt < 3; attempt++) {
      let e = await w.next('judging');
      while (e['job'] !== 'b0') e = await w.next('judging');
      await killSandbox(w);
    }
    expect(await w.exited).toBe(0);
    expect(w.events.filter((e) => e['event'] === 'failed' && e['job'] === 'b0')).toHaveLength(3);
    expect(w.events.some((e) => e['event'] === 'split' && e['job'] === 'b0')).toBe(true);
    expect(w.events.filter((e) => e['event'] === 'completed').map((e) => e['job'])).toEqual(
      expect.arrayContaining(['b0.0', 'b0.1']),
    );
    ok(['rejudge', 'merge', '--queue', url, '--key', key, '--out', join(a.dir, 'r-queue.json')]);
    expect(readFileSync(join(a.dir, 'r-queue.json'), 'utf8')).toBe(readFileSync(join(a.dir, 'r-inline.json'), 'utf8'));
  }, 240_000);
});
