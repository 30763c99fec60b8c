/**
 * The queue a re-judgement runs on (docs/deploy.md): `redis://[USER:PASSWORD@]HOST:PORT/NAME`,
 * a Redis server and the BullMQ queue NAME on it. The run's statement (list, options, batch
 * count) and the records of artifacts that ended their sandboxed process are kept beside
 * the queue's own keys, under the same `bull:NAME:` prefix, so one `obliterate` of the queue
 * would not leave a stale run behind unnoticed (the statement is checked on every enqueue).
 */
import { Redis } from 'ioredis';
import { UsageError } from '../../core/errors.js';

export interface QueueTarget {
  host: string;
  port: number;
  name: string;
  username?: string;
  password?: string;
}

/** Parses `--queue`; anything else than redis://HOST:PORT/NAME is a usage error. */
export function parseQueueUrl(s: string): QueueTarget {
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new UsageError(`--queue takes redis://HOST:PORT/NAME, not "${s}"`);
  }
  const name = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (u.protocol !== 'redis:' || !u.hostname || !/^[A-Za-z0-9._-]{1,100}$/.test(name) || u.search || u.hash)
    throw new UsageError(`--queue takes redis://HOST:PORT/NAME (NAME: letters, digits, . _ -), not "${s}"`);
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : 6379,
    name,
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
  };
}

/** BullMQ's connection options: a worker's blocking commands must never give up (maxRetriesPerRequest null). */
export function connectionOf(t: QueueTarget) {
  return {
    host: t.host,
    port: t.port,
    maxRetriesPerRequest: null,
    ...(t.username ? { username: t.username } : {}),
    ...(t.password ? { password: t.password } : {}),
  };
}

/** Keys of Reprise's own beside the queue's. */
export const runKey = (t: QueueTarget): string => `bull:${t.name}:reprise-run`;
export const crashKey = (t: QueueTarget): string => `bull:${t.name}:reprise-crashed`;
/** Each batch's items by digest (field `bN`): what a worker holds a job's items to. */
export const batchesKey = (t: QueueTarget): string => `bull:${t.name}:reprise-batches`;

/** A plain client for those keys; fails at once when no server answers (a usage error naming it). */
export async function openRedis(t: QueueTarget): Promise<Redis> {
  const r = new Redis({ ...connectionOf(t), maxRetriesPerRequest: 1, lazyConnect: true, retryStrategy: () => null });
  // Failures reach the caller through connect() and each command; unheard, ioredis would print them raw.
  r.on('error', () => undefined);
  try {
    await r.connect();
  } catch (e) {
    r.disconnect();
    throw new UsageError(
      `cannot reach Redis at ${t.host}:${t.port}: ${e instanceof Error ? e.message : String(e)}`,
      'path',
    );
  }
  return r;
}

/**
 * A client for those keys that waits out a lost connection, as BullMQ's own do: a worker's
 * check of each job (admit.ts) must not fail the job because Redis was away for a moment.
 */
export function lastingRedis(t: QueueTarget): Redis {
  const r = new Redis(connectionOf(t));
  r.on('error', () => undefined); // retried until Redis is back, as the worker's own connections are
  return r;
}
