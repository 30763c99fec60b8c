/**
 * What a request may not change about what it names: a built-in example's own options are
 * the example (a request naming another trust store or artifact is refused, nothing run,
 * instead of checking the example against the request's), and what-if substitutions are a
 * replay's (a verify that names them is refused, as the CLI refuses --what-if without
 * replay, instead of dropping them without a word). Workers run from dist/ (npm test builds it first).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineHost } from '../../main/host/engine-host.js';
import { distHost } from '../helpers/dist-host.js';
import { writeExamples } from '../../app/examples/index.js';
import { jobEnd } from '../helpers/job-report.js';

let host: EngineHost;
let ex = '';
let allActive = '';
beforeAll(async () => {
  ex = join(await mkdtemp(join(tmpdir(), 'reprise-link-requests-')), 'ex');
  await writeExamples(ex);
  host = distHost({ roots: [tmpdir()] });
  // The examples' trust store with every key active: it would pass the revoked-key dump.
  const ts = JSON.parse(await readFile(join(ex, 'dumps', 'trust-store.json'), 'utf8')) as {
    keys: { status: string }[];
  };
  for (const k of ts.keys) k.status = 'active';
  allActive = join(ex, 'ts-all-active.json');
  await writeFile(allActive, JSON.stringify(ts));
}, 120_000);
afterAll(async () => host.close());

const failed = (e: unknown): string => {
  expect(e).toMatchObject({ ok: false });
  return (e as { message: string }).message;
};

describe("a built-in example's own options", () => {
  it('are not replaced by a request naming another trust store: refused, naming the option', async () => {
    const source = { type: 'example' as const, path: 'dumps/fail/revoked-key.dump.json' };
    const own = await jobEnd(host, { source, mode: 'verify' });
    expect(own).toMatchObject({ ok: true, report: { verdict: 'fail' } });
    const message = failed(
      await jobEnd(host, { source, mode: 'verify', options: { trustStore: allActive } }).catch((e: Error) => ({
        ok: false,
        message: e.message,
      })),
    );
    expect(message).toContain('sets its own option trustStore');
    expect(message).toContain(allActive);
  }, 60_000);

  it("are not replaced by a request's artifact", async () => {
    const source = { type: 'example' as const, path: 'reports/other-artifact.report.json' };
    const message = failed(
      await jobEnd(host, {
        source,
        mode: 'verify',
        options: { artifact: join(ex, 'dumps', 'intact.dump.json') },
      }).catch((e: Error) => ({ ok: false, message: e.message })),
    );
    expect(message).toContain('sets its own option artifact');
  }, 60_000);
});

describe('what-if substitutions on a verify', () => {
  it('are refused, nothing run', async () => {
    const message = failed(
      await jobEnd(host, {
        source: { type: 'path', path: join(ex, 'dumps', 'intact.dump.json') },
        mode: 'verify',
        whatIf: ['model=ref-2'],
      }).catch((e: Error) => ({ ok: false, message: e.message })),
    );
    expect(message).toContain('whatIf substitutions apply to a replay only');
  }, 60_000);
});
