/**
 * Over-deep JSON through the built CLI, in a child process whose peak RSS (VmHWM, read by a
 * tiny --import hook at exit) and time are measured: 64 MiB of `[` (an unclosed array
 * nested millions of levels) as a dump document and as a ROM bullet value is refused at
 * the 512-level limit with ERR_DEPTH within 10 s and under 512 MiB. The files are written
 * to os.tmpdir() and deleted.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRom } from '../../app/kinds/replay-dump/rom-encoding.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { sampleSpec, trustStoreDocument } from '../../app/kinds/replay-dump/examples.js';
import { cliBuilt } from '../helpers/cli.js';
import { canMeasureRss, runMeasured, writeFilled, type MeasuredRun } from '../helpers/measured-cli.js';

const MiB = 1024 * 1024;
const SIZE = 64 * MiB;
const RSS_BOUND_MIB = 512;
const TIME_BOUND_MS = 10_000;

let dir: string;
let rom: string;
let store: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reprise-deep-hostile-'));
  store = join(dir, 'trust.json');
  writeFileSync(store, trustStoreDocument());
  rom = encodeRom(await buildDump(sampleSpec(), sampleSigner('active')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Verifies `path` (then deletes it), measured. */
async function verify(path: string): Promise<MeasuredRun> {
  const r = await runMeasured(dir, ['verify', path, '--trust-store', store], 90_000);
  rmSync(path, { force: true });
  return r;
}

const CASES: [label: string, name: string, build: () => [head: string, tail: string]][] = [
  ['a .dump.json of 64 MiB of `[`', 'deep.dump.json', () => ['', '']],
  [
    'a ROM bullet value of 64 MiB of `[`',
    'deep.rom.md',
    () => {
      const i = rom.indexOf('* [arity]: 1');
      return [rom.slice(0, i) + '* [arity]: ', rom.slice(i + '* [arity]: 1'.length)];
    },
  ],
];

describe.skipIf(!cliBuilt() || !canMeasureRss())(
  'over-deep JSON: refused at the depth limit in bounded time and memory (built CLI)',
  () => {
    for (const [label, name, build] of CASES) {
      it(`${label}: exit 1 with ERR_DEPTH, under ${TIME_BOUND_MS / 1000} s and ${RSS_BOUND_MIB} MiB`, async () => {
        const [head, tail] = build();
        const r = await verify(writeFilled(join(dir, name), head, '[', tail, SIZE));
        const out = r.stdout + r.stderr;
        console.log(
          `deep-hostile: ${label}: exit ${r.code}, ${r.ms} ms (${r.cpuMs.toFixed(0)} ms CPU), peak RSS ${r.rssMiB.toFixed(0)} MiB`,
        );
        expect(r.code, out.slice(0, 2000)).toBe(1);
        expect(out).toContain('ERR_DEPTH');
        expect(out).not.toMatch(/FATAL|heap out of memory|\n\s+at /);
        expect(out.length).toBeLessThan(64 * 1024);
        expect(r.cpuMs).toBeLessThan(TIME_BOUND_MS);
        expect(r.rssMiB).toBeLessThan(RSS_BOUND_MIB);
      }, 120_000);
    }
  },
);
