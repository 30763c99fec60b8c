/**
 * A re-judgement judges under the option files its statement names, or writes nothing: a
 * trust store replaced while a shard or a queued batch was judged (a key revoked mid-run)
 * left verdicts of the new store under the old store's digest, which the merge signed and
 * `verify --shards` passed (found by a red team). Each test changes the file at a point of
 * the run it can name, never after a delay.
 */
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../app/cli/main.js';
import judgeQueued, { REFUSED } from '../../app/jobs/queue/processor.js';
import type { QueueJobData } from '../../app/jobs/queue/run.js';
import { optionDigests } from '../../app/jobs/rejudge/run.js';
import { archive, revokedCopy } from './helpers.js';

const DUMP_SIGNER = (trust: string): string =>
  (JSON.parse(readFileSync(trust, 'utf8')) as { keys: { keyId: string }[] }).keys[0]!.keyId;

describe('an option file changed during a re-judgement', () => {
  it('a shard judged while its trust store was replaced is not written', async () => {
    const a = archive('reprise-rejudge-toctou-');
    const live = join(a.dir, 'live-trust.json');
    copyFileSync(a.trust, live);
    const revoked = revokedCopy(a.trust, DUMP_SIGNER(a.trust), join(a.dir, 'revoked.json'));
    const out = join(a.dir, 'shard.jsonl');
    let err = '';
    const io = {
      // The 'done' event comes once every artifact is judged, before the shard is written.
      out: (t: string) => {
        if (t.includes('"event":"done"')) copyFileSync(revoked, live);
      },
      err: (t: string) => void (err += t),
      stderrIsTTY: false,
      cwd: a.dir,
    };
    const code = await runCli(['rejudge', join(a.examples, 'dumps'), '--out', out, '--trust-store', live], io);
    expect(code, err).toBe(3);
    expect(err).toContain('the option trustStore changed while the shard was judged');
    expect(existsSync(out)).toBe(false);
  });

  it('a queued batch whose trust store changes while it is judged is refused', async () => {
    const a = archive('reprise-rejudge-toctou-q-');
    const live = join(a.dir, 'live-trust.json');
    copyFileSync(a.trust, live);
    const revoked = revokedCopy(a.trust, DUMP_SIGNER(a.trust), join(a.dir, 'revoked.json'));
    const options = { trustStore: live };
    const pathOptions = ['trustStore'];
    const data: QueueJobData = {
      batch: 0,
      items: [{ name: 'intact.dump.json', path: join(a.examples, 'dumps', 'intact.dump.json') }],
      options,
      mode: 'verify',
      digests: await optionDigests(options, pathOptions),
      pathOptions,
    };
    // updateProgress(0) is the job's word that it starts judging, after its first check.
    const job = { data, updateProgress: () => Promise.resolve(copyFileSync(revoked, live)) };
    await expect(judgeQueued(job as never)).rejects.toThrow(
      `${REFUSED} the option files on this worker are not the run's after the job was judged`,
    );
    // The next job, on the same process, is refused as it starts: nothing was remembered.
    await expect(judgeQueued({ data, updateProgress: () => Promise.resolve() } as never)).rejects.toThrow(
      `${REFUSED} the option files on this worker are not the run's as the job starts`,
    );
  });
});
