/**
 * A queue that holds no run is not a run done (found by a red team): `worker --drain` on a
 * queue NAME nothing was put on, or after a Redis restarted without persistence lost the run,
 * exited 0 with "done 0", and the enqueuer's follow said nothing either. Both now check the
 * run as the merge does (heldRun) and refuse. Also: `merge --queue` holds its outputs to the
 * archive the run's statement names. On a real Redis (test/helpers/redis.ts); the worker and
 * `reprise` in this process, from the sources.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliIn, examplesIn } from '../cli/in-process.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';
import { redisSkipReason, startRedis, type RedisServer } from '../helpers/redis.js';
import { drainWorker } from './helpers.js';
import { judgeOptions } from '../../app/cli/commands/rejudge.js';
import { enqueueCommand } from '../../app/cli/commands/rejudge-queue.js';
import type { CliIO } from '../../app/cli/io.js';
import judgeQueued from '../../app/jobs/queue/processor.js';

const skip = redisSkipReason();
let redis: RedisServer;
let raw: Redis;
let work: string;
let keys: Keys;
let trust: string;
/** Two dumps, the run's list. */
let arch: string;

const enqueueDetached = async (name: string): Promise<string> => {
  const url = redis.url(name);
  const r = await cliIn(work, 'rejudge', arch, '--queue', url, '--batch', '1', '--detach', '--trust-store', trust);
  expect(r.code, r.err).toBe(0);
  return url;
};

describe.skipIf(skip !== null)(`a queue that holds no run${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(async () => {
    redis = await startRedis();
    raw = new Redis({ host: '127.0.0.1', port: redis.port });
    work = tmp('reprise-rejudge-norun-');
    const ex = await examplesIn('reprise-rejudge-norun-ex-');
    trust = join(ex, 'dumps', 'trust-store.json');
    mkdirSync(join(work, 'keys'));
    keys = makeKeys(join(work, 'keys'));
    arch = join(work, 'arch');
    mkdirSync(arch);
    for (const f of ['intact.dump.json', 'fail/revoked-key.dump.json'])
      copyFileSync(join(ex, 'dumps', f), join(arch, f.replace('/', '-')));
  }, 120_000);
  afterAll(async () => {
    raw?.disconnect();
    await redis?.stop();
  });

  it('worker --drain on a queue nothing was put on is refused, not "done 0"', async () => {
    await expect(drainWorker(redis.url('qnone'))).rejects.toThrow(
      'the queue qnone holds no re-judgement: put one on it with reprise rejudge LIST_OR_DIR --queue',
    );
  });

  it('worker --drain is refused when the run was lost mid-run (Redis restarted without persistence)', async () => {
    const url = await enqueueDetached('qlost');
    let first = true;
    const judge = async (job: Job) => {
      // What a restart without persistence leaves: nothing of the run, its jobs or its statement.
      if (first) await raw.flushall();
      first = false;
      return judgeQueued(job as never);
    };
    await expect(drainWorker(url, judge)).rejects.toThrow('the queue qlost holds no re-judgement');
  });

  it("the enqueuer's follow is refused when the run is lost before it is done", async () => {
    const url = redis.url('qfollow');
    const io: CliIO = {
      // Once the run is on the queue (this line follows the enqueue), Redis loses it.
      out: (s) => void (s.startsWith('queue qfollow:') && raw.flushall()),
      err: () => undefined,
      bytes: () => undefined,
      progress: () => undefined,
      stderrIsTTY: false,
      cwd: work,
    };
    const job = { ...judgeOptions({ 'trust-store': trust }), mode: 'verify' as const };
    await expect(enqueueCommand({ queue: url, batch: '1' }, arch, job, io)).rejects.toThrow(
      'the queue qfollow holds no re-judgement',
    );
  });

  it('merge --queue is refused (exit 3, nothing written) with --out inside the folder the run judged', async () => {
    const url = await enqueueDetached('qarchive');
    await drainWorker(url);
    const inside = join(arch, 'rec.json');
    const r = await cliIn(work, 'rejudge', 'merge', '--queue', url, '--key', keys.reviewerPem, '--out', inside);
    expect(r.code, r.err).toBe(3);
    expect(r.err).toContain(`--out ${inside} is inside ${arch}, the list the queue's run judged`);
    expect(existsSync(inside)).toBe(false);
    const outside = join(work, 'rec.json');
    const ok = await cliIn(work, 'rejudge', 'merge', '--queue', url, '--key', keys.reviewerPem, '--out', outside);
    expect(ok.code, ok.err).toBe(0);
  });
});
