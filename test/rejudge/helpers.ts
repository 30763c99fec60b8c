/** The examples (`reprise examples`) as an archive to re-judge, a signing key and a trust store for records. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Job } from 'bullmq';
import { judgedOptionNames, judgeOptions } from '../../app/cli/commands/rejudge.js';
import { parseQueueUrl } from '../../app/jobs/queue/connection.js';
import judgeQueued from '../../app/jobs/queue/processor.js';
import { runQueueWorker } from '../../app/jobs/queue/worker.js';
import { cli, makeKeys, tmp, type Keys } from '../journal/helpers.js';

export interface Archive {
  dir: string;
  /** The examples, the archive re-judged. */
  examples: string;
  /** The dumps' trust store, the one the archive is judged under. */
  trust: string;
  keys: Keys;
}

export function archive(prefix = 'reprise-rejudge-'): Archive {
  const dir = tmp(prefix);
  const examples = join(dir, 'examples');
  const w = cli(['examples', examples]);
  if (w.status !== 0) throw new Error(`examples: ${w.stderr}`);
  const keysDir = join(dir, 'keys');
  mkdirSync(keysDir);
  return { dir, examples, trust: join(examples, 'dumps', 'trust-store.json'), keys: makeKeys(keysDir) };
}

/** A copy of a trust store (outside the archive) with `keyId` revoked. */
export function revokedCopy(trust: string, keyId: string, out: string): string {
  const doc = JSON.parse(readFileSync(trust, 'utf8')) as { keys: { keyId: string; status: string }[] };
  const k = doc.keys.find((x) => x.keyId === keyId);
  if (!k) throw new Error(`${keyId} is not in ${trust}`);
  k.status = 'revoked';
  writeFileSync(out, JSON.stringify(doc, null, 2));
  return out;
}

/** Runs the CLI and fails with its stderr unless it exits `code`. */
export function ok(args: string[], code = 0): string {
  const r = cli(args);
  if (r.status !== code) throw new Error(`reprise ${args.join(' ')} exited ${r.status}, not ${code}: ${r.stderr}`);
  return r.stdout;
}

/**
 * A draining worker in this process: what `reprise worker --queue URL --drain` runs, with its
 * sandboxed processor's function in place of its file (built only by `npm run build`), or another file.
 */
export async function drainWorker(
  url: string,
  processor: string | ((job: Job) => Promise<unknown>) = (job) => judgeQueued(job as never),
): Promise<Record<string, unknown>[]> {
  const events: Record<string, unknown>[] = [];
  const settings = {
    concurrency: 1,
    stalledInterval: 500,
    lockDuration: 1000,
    drain: true,
    jobTimeout: 60_000,
    rules: { options: judgedOptionNames(), pathOptions: judgeOptions({}).pathOptions },
  };
  await runQueueWorker(
    parseQueueUrl(url),
    settings,
    { event: (name, fields) => events.push({ event: name, ...fields }), counts: () => undefined },
    processor as never,
  );
  return events;
}
