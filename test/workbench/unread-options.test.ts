/**
 * The workbench sends its Open view's fields with every file it opens, so it cannot refuse an
 * option the artifact's kind does not read, as the CLI refuses a flag typed for one file; it
 * said nothing either, and a verdict beside a field set in the Open view read as a check made
 * with it (found by a red team). The host now says which options it was sent that the kind
 * does not read (ApiEvent job-done `unread`), from the kinds' declarations, the one answer
 * the CLI's refusal also uses (app/kinds/registry.ts unreadOptions); the report is unchanged.
 * Jobs through the engine host as the web host runs them (its events as emitted, and once
 * as the window follows a job: test/helpers/job-report.ts). Workers run from dist/ (npm test
 * builds it first).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent, StartJobRequest } from '../../shared/api.js';
import { writeExamples } from '../../app/examples/index.js';
import { runPath } from '../../app/engine/run.js';
import { reportDigest } from '../../app/journal/judgement.js';
import { declaredOptions, kindNamed, unreadOptions } from '../../app/kinds/registry.js';
import type { EngineHost } from '../../main/host/engine-host.js';
import { jobEnd } from '../helpers/job-report.js';
import { testHost } from '../host/helpers.js';

let host: EngineHost;
let ex = '';
beforeAll(async () => {
  ex = join(await mkdtemp(join(tmpdir(), 'reprise-unread-')), 'ex');
  await writeExamples(ex);
  host = testHost([tmpdir()]);
}, 120_000);
afterAll(async () => host.close());

/**
 * The job's end as the host emits it (one job at a time here): its report, and the options it
 * says were not read, always a list (empty when every option sent was read).
 */
async function unreadOf(req: StartJobRequest) {
  const ended = new Promise<ApiEvent>((resolve) => {
    const off = host.subscribe((e) => {
      if (e.type !== 'job-done' && e.type !== 'job-failed') return;
      off();
      resolve(e);
    });
  });
  await host.startJob(req);
  const e = await ended;
  if (e.type !== 'job-done') throw new Error(`the job failed: ${JSON.stringify(e)}`);
  expect(Array.isArray(e.unread), 'the host says which options were not read, none included').toBe(true);
  const unread = e.unread ?? [];
  return { report: e.report, names: unread.map((o) => o.name), unread };
}

const byPath = (rel: string, options: Record<string, string>): StartJobRequest => ({
  source: { type: 'path', path: join(ex, ...rel.split('/')) },
  mode: 'verify',
  options,
});

describe('options the window sends that the artifact’s kind does not read', () => {
  it('providers sent with a TG policy bundle are listed, in their declaration’s words; the report is the CLI’s', async () => {
    const options = { trustStore: join(ex, 'tg', 'trust-store.json'), providers: join(ex, 'dumps', 'providers.json') };
    const { report, unread } = await unreadOf(byPath('tg/bundle.json', options));
    const providers = declaredOptions().find((o) => o.name === 'providers')!;
    expect(unread).toEqual([{ name: 'providers', help: providers.help }]);
    // Said beside the report, never in it: the bytes are those of a run without the option.
    const bare = await runPath(join(ex, 'tg', 'bundle.json'), 'verify', {});
    expect(reportDigest(report)).toBe(reportDigest(bare));
    // And the window's own follower of a job (renderer/src/lib/watch-job.ts) hands it on.
    expect(await jobEnd(host, byPath('tg/bundle.json', options))).toMatchObject({
      ok: true,
      unread: [{ name: 'providers' }],
    });
  }, 60_000);

  it('a trust store and providers sent with a dump, whose kind reads both: nothing listed', async () => {
    const options = {
      trustStore: join(ex, 'dumps', 'trust-store.json'),
      providers: join(ex, 'dumps', 'providers.json'),
    };
    const { report, names } = await unreadOf(byPath('dumps/intact.dump.json', options));
    expect(report.verdict).toBe('pass');
    expect(names).toEqual([]);
  }, 60_000);

  it('the package options sent with every file: listed for a dump, not for a package', async () => {
    const options = {
      trustStore: join(ex, 'dumps', 'trust-store.json'),
      profiles: join(ex, 'packages', 'profiles.json'),
    };
    expect((await unreadOf(byPath('dumps/intact.dump.json', options))).names).toEqual(['profiles']);
    expect((await unreadOf(byPath('packages/intact/v2.nemosyne', options))).names).toEqual([]);
  }, 60_000);

  it('an example’s own options count like any other: its own policy is read, the window’s profiles are not', async () => {
    const { names } = await unreadOf({
      source: { type: 'example', path: 'acgp/trace-blueprint-override.jsonl' },
      mode: 'verify',
      options: { profiles: join(ex, 'packages', 'profiles.json') },
    });
    expect(names).toEqual(['profiles']);
  }, 60_000);

  it('a journal folder opened with providers: listed (a directory kind reads only what it declares)', async () => {
    const { report, names } = await unreadOf(
      byPath('journal/sample', {
        trustStore: join(ex, 'journal', 'trust-store.json'),
        providers: join(ex, 'dumps', 'providers.json'),
      }),
    );
    expect(report.artifact.kind).toBe('journal');
    expect(names).toEqual(['providers']);
  }, 60_000);

  it('an exported report hands every option on, and unknown content was read by no kind: nothing listed', async () => {
    const dump = join(ex, 'dumps', 'intact.dump.json');
    const file = join(ex, 'intact.report.json');
    await writeFile(file, JSON.stringify(await runPath(dump, 'verify', {}), null, 2));
    const providers = join(ex, 'dumps', 'providers.json');
    expect((await unreadOf(byPath('intact.report.json', { artifact: dump, providers }))).names).toEqual([]);
    const unknown = await unreadOf(byPath('unknown/not-an-artifact.json', { providers }));
    expect(unknown.report.artifact.kind).toBe('unknown');
    expect(unknown.names).toEqual([]);
  }, 60_000);
});

describe('the one answer (unreadOptions) the CLI refuses by and the window says', () => {
  it('never counts the engine’s own option or its internal members; a forwarding kind reads all', () => {
    const bundle = kindNamed('tg-policy-bundle')!;
    const internal = { alone: true, flagsTyped: true, readRoots: ['/'], optionWords: { artifact: 'x' }, limits: {} };
    expect(unreadOptions(bundle, { ...internal, trustStore: '/t.json' })).toEqual([]);
    expect(unreadOptions(bundle, { policy: '/p.json', providers: '/r.json' }).map((o) => o.name)).toEqual([
      'providers',
      'policy',
    ]);
    expect(unreadOptions(kindNamed('reprise-report')!, { policy: '/p.json', providers: '/r.json' })).toEqual([]);
    expect(kindNamed('unknown')).toBeNull();
  });
});
