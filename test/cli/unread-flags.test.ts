/**
 * A flag typed for one file whose kind reads no such option is refused (exit 3), not
 * ignored: `verify bundle.json --policy OTHER` said nothing and checked the bundle alone,
 * which reads as a check against OTHER (found by a red team). Where a flag is for some of
 * the files (a folder, a case) or is handed on (an exported report's artifact), or is the
 * engine's own (`--trust-store`), nothing changes.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tmp } from '../journal/helpers.js';
import { cliIn, examplesIn } from './in-process.js';

let ex = '';
let out = '';
const cli = (...args: string[]) => cliIn(out, ...args);

beforeAll(async () => {
  ex = await examplesIn('reprise-unread-');
  out = tmp('reprise-unread-out-');
}, 120_000);

describe('a flag no check of the one file named reads', () => {
  it('--policy on a TG policy bundle, --providers on a package, --policy on a dump: exit 3, nothing run', async () => {
    const cases: [string[], string][] = [
      [
        ['verify', join(ex, 'tg', 'bundle.json'), '--policy', join(ex, 'acgp', 'policy.json')],
        `--policy is not read for ${join(ex, 'tg', 'bundle.json')} (kind tg-policy-bundle): refused rather than run without it`,
      ],
      [
        ['verify', join(ex, 'packages', 'intact', 'v2.nemosyne'), '--providers', join(ex, 'dumps', 'providers.json')],
        `--providers is not read for ${join(ex, 'packages', 'intact', 'v2.nemosyne')} (kind nemosyne-package)`,
      ],
      [
        ['verify', join(ex, 'dumps', 'intact.dump.json'), '--policy', join(ex, 'tg', 'bundle.json')],
        '(kind replay-dump): refused',
      ],
    ];
    for (const [args, words] of cases) {
      const r = await cli(...args);
      expect(r, args.join(' ')).toMatchObject({ code: 3, out: '' });
      expect(r.err).toContain(words);
    }
  });

  it('names every unread flag at once: a dump replayed with --journal and --key', async () => {
    const r = await cli(
      'replay',
      join(ex, 'dumps', 'intact.dump.json'),
      '--journal',
      join(ex, 'journal', 'sample'),
      '--key',
      join(ex, 'journal', 'keys', 'reviewer.pem'),
    );
    expect(r.code).toBe(3);
    expect(r.err).toContain('--journal and --key are not read for');
    expect(r.err).toContain('refused rather than run without them');
  });

  it("a flag the kind reads, the engine's own, one for a folder, or one an exported report hands on: run", async () => {
    const bundle = join(ex, 'tg', 'bundle.json');
    const manifest = join(ex, 'tg', 'exact-intact', 'manifest.json');
    expect((await cli('verify', manifest, '--policy', bundle)).code).not.toBe(3);
    expect((await cli('verify', bundle, '--trust-store', join(ex, 'tg', 'trust-store.json'))).code).toBe(0);
    expect((await cli('verify', join(ex, 'tg', 'exact-intact'), '--policy', bundle)).code).not.toBe(3);
    const report = join(ex, 'reports', 'well-formed.report.json');
    const r = await cli(
      'verify',
      report,
      '--artifact',
      join(ex, 'acgp', 'seed-eval.json'),
      '--policy',
      join(ex, 'acgp', 'policy.json'),
    );
    expect(r.code, r.err).not.toBe(3);
  });
});
