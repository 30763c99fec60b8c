/**
 * What a queue holds is input like a shard file, and was signed or run unchecked (found by a
 * red team): a job's result edited in Redis was signed; a result that is no list of outcomes
 * was an internal error; `merge --queue --list` did not hold the records to the list; a worker
 * ran any job on its queue, with any paths and options (a kernel adapter of the job's choosing
 * ran, /etc/shadow was hashed); a job BullMQ failed for stalling was never settled; a hostile
 * run statement made the merge spin. On a real Redis (test/helpers/redis.ts), the worker in
 * this process (its sandboxed processor's function, runQueueWorker's own admission and
 * settling around it), `reprise` in this process (cliIn).
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliIn } from '../cli/in-process.js';
import { redisSkipReason, startRedis, type RedisServer } from '../helpers/redis.js';
import { REFUSED } from '../../app/jobs/queue/ids.js';
import type { QueueJobData } from '../../app/jobs/queue/run.js';
import { optionDigests } from '../../app/jobs/rejudge/run.js';
import { archive, drainWorker, type Archive } from './helpers.js';

const skip = redisSkipReason();
let redis: RedisServer;
let raw: Redis;
let a: Archive;
/** Three artifacts (a pass, a fail, an unavailable), the run's list. */
let arch: string;

const connection = () => ({ host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `reprise …` in this process, from the archive's folder. */
const reprise = (...args: string[]) => cliIn(a.dir, ...args);

/** Puts the run's list on queue `name` in batches of `batch`, nothing taken yet; its URL. */
async function enqueue(name: string, batch: number, list = arch): Promise<string> {
  const url = redis.url(name);
  const r = await reprise(
    'rejudge',
    list,
    '--queue',
    url,
    '--batch',
    String(batch),
    '--detach',
    '--trust-store',
    a.trust,
  );
  expect(r.code, r.err).toBe(0);
  return url;
}

/** `rejudge merge --queue URL` into rec.json (removed first: a refusal leaves none). */
const merge = (url: string, ...extra: string[]) => {
  rmSync(join(a.dir, 'rec.json'), { force: true });
  return reprise(
    'rejudge',
    'merge',
    '--queue',
    url,
    '--key',
    a.keys.reviewerPem,
    '--out',
    join(a.dir, 'rec.json'),
    ...extra,
  );
};

/** A job as the queue holds it now: its state, why it failed, what it returned, its attempts. */
async function jobOf(url: string, id: string) {
  const q = new Queue<QueueJobData>(url.split('/').pop()!, { connection: connection() });
  try {
    const job = (await Job.fromId(q, id))!;
    const { failedReason, returnvalue, attemptsMade } = job;
    return { state: await job.getState(), failedReason, returnvalue: returnvalue as unknown, attemptsMade };
  } finally {
    await q.close();
  }
}

describe.skipIf(skip !== null)(`a hostile queue${skip ? ` (skipped: ${skip})` : ''}`, () => {
  beforeAll(async () => {
    redis = await startRedis();
    raw = new Redis({ host: '127.0.0.1', port: redis.port });
    a = archive('reprise-rejudge-qhostile-');
    arch = join(a.dir, 'arch');
    mkdirSync(arch);
    for (const f of ['intact.dump.json', 'fail/revoked-key.dump.json', 'unavailable/missing-model.dump.json'])
      copyFileSync(join(a.examples, 'dumps', f), join(arch, f.replace('/', '-')));
  }, 120_000);
  afterAll(async () => {
    raw?.disconnect();
    await redis?.stop();
  });

  describe('a result edited in Redis', () => {
    let url = '';
    let original = '';
    beforeAll(async () => {
      url = await enqueue('q-results', 3);
      await drainWorker(url);
      original = (await raw.hget('bull:q-results:b0', 'returnvalue'))!;
    }, 120_000);

    /** Merges with b0's result replaced by `value`, then puts the original back. */
    async function mergeWith(value: string) {
      await raw.hset('bull:q-results:b0', 'returnvalue', value);
      try {
        return await merge(url);
      } finally {
        await raw.hset('bull:q-results:b0', 'returnvalue', original);
      }
    }
    const edited = (edit: (r: Record<string, unknown>) => void): string => {
      const outs = JSON.parse(original) as { record: Record<string, unknown> }[];
      edit(outs.find((o) => o.record['verdict'] === 'fail')!.record);
      return JSON.stringify(outs);
    };

    it('is merged as it was judged', async () => {
      const r = await merge(url);
      expect(r.code, r.err).toBe(0);
    });

    it.each([
      [
        'a verdict made pass beside its failing rules',
        (r: Record<string, unknown>) => (r['verdict'] = 'pass'),
        'verdict pass is not the one its rules make (fail)',
      ],
      [
        'a member no record has',
        (r: Record<string, unknown>) => (r['extra'] = 1),
        'a record has a member no record has',
      ],
      [
        'a verdict of "__proto__"',
        (r: Record<string, unknown>) => (r['verdict'] = '__proto__'),
        'verdict is not one of',
      ],
      [
        'a sha256 that is not a hash',
        (r: Record<string, unknown>) => (r['sha256'] = 'not-a-hash'),
        'sha256 is not a sha256:<64 hex> hash string',
      ],
    ])('%s is refused, nothing signed', async (_what, edit, message) => {
      const r = await mergeWith(edited(edit));
      expect(r.code, r.err).toBe(1);
      expect(r.err).toContain('job b0: the outcome of');
      expect(r.err).toContain(message);
      expect(r.err).not.toContain('internal error');
      expect(existsSync(join(a.dir, 'rec.json'))).toBe(false);
    });

    it.each([['{"x":1}'], ['[{"record":null}]'], ['"str"'], ['[]'], ['not json']])(
      'a result %s is refused naming its job, not an internal error',
      async (value) => {
        const r = await mergeWith(value);
        expect(r.code, r.err).toBe(1);
        expect(r.err).toMatch(/job b0: (its result is not one outcome for each of its 3 artifact|the outcome of)/);
        expect(r.err).not.toContain('internal error');
      },
    );

    it('--list holds the records to the list on this machine: an artifact no job judged is named', async () => {
      // A list file's names are as it writes them (the artifacts are not read to name them).
      const list = join(a.dir, 'list.txt');
      const names = ['fail-revoked-key.dump.json', 'intact.dump.json', 'unavailable-missing-model.dump.json'];
      writeFileSync(list, [...names, 'extra.dump.json'].join('\n') + '\n');
      const r = await merge(url, '--list', list);
      expect(r.code, r.err).toBe(1);
      expect(r.err).toContain('not judged by any shard: "extra.dump.json"');
      writeFileSync(list, names.join('\n') + '\n');
      const same = await merge(url, '--list', list);
      expect(same.code, same.err).toBe(0);
    });
  });

  describe('a hostile run statement', () => {
    let url = '';
    let statement = '';
    beforeAll(async () => {
      url = await enqueue('q-statement', 2);
      await drainWorker(url);
      statement = (await raw.get('bull:q-statement:reprise-run'))!;
    }, 120_000);

    async function mergeWith(edit: (s: Record<string, unknown>) => void | string) {
      const s = JSON.parse(statement) as Record<string, unknown>;
      const text = edit(s) ?? JSON.stringify(s);
      await raw.set('bull:q-statement:reprise-run', text);
      try {
        return await merge(url);
      } finally {
        await raw.set('bull:q-statement:reprise-run', statement);
      }
    }

    // Refused before any batch is read: a merge that walked 300,000,000 batches would not end
    // within the test's timeout.
    it('a batch count the list does not make is refused at once', async () => {
      const r = await mergeWith((s) => void (s['batches'] = 300_000_000));
      expect(r.code, r.err).toBe(3);
      expect(r.err).toContain('holds a run statement that is not one: batches is not the 2');
    });

    it('a list and batch count made to agree are bounded by the batches the queue holds', async () => {
      const r = await mergeWith((s) => {
        s['batches'] = 300_000_000;
        (s['list'] as Record<string, unknown>)['items'] = 600_000_000;
      });
      expect(r.code, r.err).toBe(3);
      expect(r.err).toContain('holds the items of 2 batches, not the 300000000 its run statement counts');
    });

    it.each([['not json'], ['{"type":"reprise.rejudge-queue/v2"}'], ['[]']])(
      '%s is refused, not an internal error',
      async (text) => {
        const r = await mergeWith(() => text);
        expect(r.code, r.err).toBe(3);
        expect(r.err).toContain('holds a run statement that is not one');
      },
    );
  });

  describe('a job that is not one of the run', () => {
    /** A kernel adapter that leaves a mark when it runs, and a file standing for /etc/shadow. */
    function payload(dir: string) {
      const mark = join(dir, 'pwned.txt');
      const adapter = join(dir, 'evil.sh');
      writeFileSync(adapter, `#!/bin/sh\necho ran >> ${mark}\nexit 1\n`, { mode: 0o755 });
      const secret = join(dir, 'shadow');
      writeFileSync(secret, 'root:secret\n');
      const pkg = join(a.examples, 'packages', 'governed', 'INVESTIGATION_DIGEST_MISMATCH.nemosyne');
      return { mark, adapter, secret, pkg };
    }

    it('is refused before anything of it runs: another id, other items, other options, an option rejudge never passes', async () => {
      const p = payload(a.dir);
      const url = await enqueue('q-jobs', 1);
      const q = new Queue<QueueJobData>('q-jobs', { connection: connection() });
      try {
        const options = { kernelAdapter: p.adapter };
        const evil = {
          batch: 0,
          items: [
            { name: 'anything', path: p.pkg },
            { name: 'etc', path: p.secret },
          ],
          options,
          mode: 'verify' as const,
          digests: await optionDigests(options, ['kernelAdapter']),
          pathOptions: ['kernelAdapter'],
        };
        await q.add('judge', evil, { jobId: 'evil' });
        await q.add('judge', { ...evil, batch: 7 }, { jobId: 'b7' });
        // The run's own jobs, edited: other items, another option (with its digests), an option rejudge never passes.
        const b0 = (await Job.fromId(q, 'b0'))!;
        await b0.updateData({ ...b0.data, items: [{ name: b0.data.items[0]!.name, path: p.secret }] });
        const b1 = (await Job.fromId(q, 'b1'))!;
        const more = { ...b1.data.options, kernelAdapter: p.adapter };
        await b1.updateData({ ...b1.data, options: more, digests: await optionDigests(more, b1.data.pathOptions) });
        const b2 = (await Job.fromId(q, 'b2'))!;
        await b2.updateData({ ...b2.data, options: { ...b2.data.options, out: join(a.dir, 'written.json') } });
      } finally {
        await q.close();
      }
      await drainWorker(url);
      expect(existsSync(p.mark)).toBe(false);
      const reasons: Record<string, string> = {
        evil: "is not one of the run's jobs",
        b7: "is not one of the run's jobs",
        b0: "its items are not those of the run's batch b0",
        b1: "its options (trustStore, kernelAdapter) are not the run's (trustStore)",
        b2: 'names options a re-judgement never passes the engine: out',
      };
      for (const [id, reason] of Object.entries(reasons)) {
        const job = await jobOf(url, id);
        expect(job.state, id).toBe('failed');
        expect(job.failedReason, id).toContain(`${REFUSED} `);
        expect(job.failedReason, id).toContain(reason);
        expect(job.returnvalue, id).toBeFalsy();
      }
      const r = await merge(url);
      expect(r.code, r.err).toBe(1);
      for (const id of ['b0', 'b1', 'b2']) expect(r.err).toContain(`job ${id}: ${REFUSED}`);
    });

    it('is refused in the worker, before a sandboxed process (a processor file) would take it', async () => {
      const dir = join(a.dir, 'sandboxed');
      mkdirSync(dir);
      const ran = join(dir, 'ran.txt');
      const processor = join(dir, 'processor.mjs');
      writeFileSync(
        processor,
        `import { appendFileSync } from 'node:fs';\nexport default async (job) => { appendFileSync(${JSON.stringify(ran)}, job.id + '\\n'); return []; };\n`,
      );
      const url = await enqueue('q-sandboxed', 3);
      const q = new Queue<QueueJobData>('q-sandboxed', { connection: connection() });
      try {
        const b0 = (await Job.fromId(q, 'b0'))!;
        await q.add('judge', b0.data, { jobId: 'evil' });
      } finally {
        await q.close();
      }
      await drainWorker(url, processor);
      expect(readFileSync(ran, 'utf8')).toBe('b0\n');
      expect((await jobOf(url, 'evil')).failedReason).toContain(`${REFUSED} "evil" is not one of the run's jobs`);
    });

    it('a split job is held to the one artifact of its batch it was split for', async () => {
      const p = payload(a.dir);
      const url = await enqueue('q-split', 3);
      const q = new Queue<QueueJobData>('q-split', { connection: connection() });
      try {
        const b0 = (await Job.fromId(q, 'b0'))!;
        // As a worker splits a batch, then one of the parts given another path.
        await q.add(
          'judge',
          { ...b0.data, items: [{ name: b0.data.items[1]!.name, path: p.secret }] },
          { jobId: 'b0.1' },
        );
        await q.add('judge', { ...b0.data, items: [b0.data.items[2]!] }, { jobId: 'b0.2' });
        await q.add('judge', { ...b0.data, items: [b0.data.items[0]!] }, { jobId: 'b0.3' });
      } finally {
        await q.close();
      }
      await drainWorker(url);
      expect((await jobOf(url, 'b0.1')).failedReason).toContain("its items are not artifact 1 of the run's batch b0");
      expect((await jobOf(url, 'b0.3')).failedReason).toContain("its items are not artifact 3 of the run's batch b0");
      expect((await jobOf(url, 'b0.2')).state).toBe('completed');
      expect((await jobOf(url, 'b0')).state).toBe('completed');
    });
  });

  describe('a job failed by BullMQ for stalling', () => {
    /** Takes `id` and lets its lock lapse until BullMQ's stalled check marks it failed (maxStalledCount 0). */
    async function stall(name: string, id: string): Promise<void> {
      const w = new Worker(name, null, {
        connection: connection(),
        autorun: false,
        lockDuration: 300,
        stalledInterval: 100,
        maxStalledCount: 0,
      });
      try {
        const job = await w.getNextJob('a-worker-that-dies');
        expect(job?.id).toBe(id);
        void w.startStalledCheckTimer();
        for (let i = 0; i < 100 && !(await raw.hget(`bull:${name}:${id}`, 'defa')); i++) await sleep(100);
        expect(await raw.hget(`bull:${name}:${id}`, 'defa')).toBe('job stalled more than allowable limit');
      } finally {
        await w.close(true);
      }
    }

    /** The run's record made inline (no queue), to compare with. */
    async function inline(): Promise<string> {
      const shard = join(a.dir, 'inline.jsonl');
      const out = join(a.dir, 'inline.json');
      expect((await reprise('rejudge', arch, '--out', shard, '--trust-store', a.trust)).code).toBe(0);
      expect((await reprise('rejudge', 'merge', shard, '--key', a.keys.reviewerPem, '--out', out)).code).toBe(0);
      return readFileSync(out, 'utf8');
    }

    it('a worker that takes it settles it: the batch is split, and the record is whole', async () => {
      const url = await enqueue('q-stalled', 2);
      await stall('q-stalled', 'b0');
      const events = await drainWorker(url);
      const failed = await jobOf(url, 'b0');
      expect(failed.failedReason).toBe('job stalled more than allowable limit');
      expect(failed.attemptsMade).toBeLessThan(3);
      expect(events.some((e) => e['event'] === 'split' && e['job'] === 'b0')).toBe(true);
      const r = await merge(url);
      expect(r.code, r.err).toBe(0);
      expect(readFileSync(join(a.dir, 'rec.json'), 'utf8')).toBe(await inline());
    });

    it("a worker's sweep settles one another worker failed: an artifact alone gets its record", async () => {
      const one = join(a.dir, 'one');
      mkdirSync(one);
      copyFileSync(join(arch, 'intact.dump.json'), join(one, 'intact.dump.json'));
      const url = await enqueue('q-stalled-swept', 1, one);
      await stall('q-stalled-swept', 'b0');
      // Another worker takes it and fails it for stalling, and is gone before it settles anything.
      const other = new Worker('q-stalled-swept', () => Promise.reject(new Error('never runs')), {
        connection: connection(),
      });
      try {
        for (let i = 0; i < 100 && (await jobOf(url, 'b0')).state !== 'failed'; i++) await sleep(100);
      } finally {
        await other.close(true);
      }
      expect((await jobOf(url, 'b0')).failedReason).toBe('job stalled more than allowable limit');
      const events = await drainWorker(url);
      expect(events.some((e) => e['event'] === 'crashed' && e['job'] === 'b0')).toBe(true);
      const r = await merge(url, '--records', join(a.dir, 'swept.jsonl'));
      expect(r.code, r.err).toBe(0);
      const records = readFileSync(join(a.dir, 'swept.jsonl'), 'utf8').split('\n').slice(1, -2);
      expect(records).toHaveLength(1);
      expect(records[0]).toContain('"verdict":"error"');
      expect(records[0]).toContain('its job was left unfinished');
    });
  });
});
