/**
 * Pathological ROM shapes through the built CLI, each in a child process whose peak RSS
 * (VmHWM, read by a tiny --import hook at exit) and time are measured: a verdict or a
 * one-line error within 10 s and well under 512 MiB, never a V8 fatal error (exit 133).
 * The files (128 MiB each) are written to os.tmpdir() in chunks and deleted.
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
const SIZE = 128 * MiB;
const RSS_BOUND_MIB = 450;
const TIME_BOUND_MS = 10_000;

let dir: string;
let rom: string;
let store: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reprise-rom-hostile-'));
  store = join(dir, 'trust.json');
  writeFileSync(store, trustStoreDocument());
  rom = encodeRom(await buildDump(sampleSpec(), sampleSigner('active')));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Verifies `path` (then deletes it), measured. */
async function verify(path: string): Promise<MeasuredRun> {
  const r = await runMeasured(dir, ['verify', path, '--trust-store', store]);
  rmSync(path, { force: true });
  return r;
}

/** The intact ROM cut where `marker` starts (the cases put their filling there). */
const cut = (marker: string): [string, string] => {
  const i = rom.indexOf(marker);
  return [rom.slice(0, i), rom.slice(i)];
};

type Case = [
  label: string,
  build: () => [head: string, fill: string, tail: string],
  expect: { code: number; rule?: string; size?: number },
];
const CASES: Case[] = [
  // Legal: blank lines (and blank lines of blanks, CRLF) are formatting noise.
  [
    '2^27 blank lines after the front matter (legal): the intact dump still passes',
    () => [...insertAt('# Frozen Execution Environment', '\n')],
    { code: 0 },
  ],
  [
    '2^26 lines of blanks with CRLF before a heading (legal): still passes',
    () => [...insertAt('# Frozen Buffers', ' \r\n')],
    { code: 0 },
  ],
  [
    '128 MiB of indentation before a heading (legal): still passes',
    () => [...insertAt('# Hash Integrity Chain', ' ')],
    { code: 0 },
  ],
  // Inside a fenced block the lines are content: the artifact is 16 MiB of text, a legal
  // (if altered) value that is hashed and signed over, not noise skipped by the reader.
  [
    '2^24 blank lines inside a text artifact: its content changed',
    () => [...insertAt('# Incident 2026-05-03', '\n')],
    { code: 1, rule: 'RDS-F001', size: 16 * MiB },
  ],
  ['one 128 MiB line of prose', () => [...insertAt('# Frozen Buffers', 'x')], { code: 1, rule: 'RPR-DUMP-005' }],
  [
    'one 128 MiB heading',
    () => {
      const [h, t] = cut('# Frozen Buffers');
      return [h + '# ', 'x', t];
    },
    { code: 1, rule: 'RPR-DUMP-001' },
  ],
  [
    'one 128 MiB bullet value',
    () => {
      const [h, t] = cut('* [arity]: 1');
      return [h + '* [arity]: 1', '0', t];
    },
    { code: 1, rule: 'RPR-DUMP-005' },
  ],
  ['millions of headings', () => [rom, '# Frozen Buffers\n', ''], { code: 1, rule: 'RPR-DUMP-003' }],
  [
    'millions of bullets',
    () => {
      const [h, t] = cut('# Hash Integrity Chain');
      return [h, '* [arity]: 1\n', t];
    },
    { code: 1, rule: 'RPR-DUMP-003' },
  ],
  [
    'an unclosed fence followed by 2^26 lines',
    () => [rom + '## sha256:00\n```text\n', 'x\n', ''],
    { code: 1, rule: 'RPR-DUMP-005' },
  ],
  [
    'a 128 MiB front-matter line',
    () => {
      const [h, t] = cut('seed: 42');
      return [h + 'seed: 4', '2', t];
    },
    { code: 1 },
  ],
];

/** Splits the intact ROM before `marker`; the filling goes there, then the marker's line follows. */
function insertAt(marker: string, fill: string): [string, string, string] {
  const [h, t] = cut(marker);
  return [h, fill, t];
}

describe.skipIf(!cliBuilt() || !canMeasureRss())(
  'hostile ROM shapes: bounded time and memory (built CLI, child process)',
  () => {
    for (const [label, build, want] of CASES) {
      it(`${label}: exit ${want.code}${want.rule ? ` with ${want.rule}` : ''}, under ${TIME_BOUND_MS / 1000} s and ${RSS_BOUND_MIB} MiB`, async () => {
        const [head, fill, tail] = build();
        const r = await verify(writeFilled(join(dir, 'hostile.rom.md'), head, fill, tail, want.size ?? SIZE));
        console.log(
          `rom-hostile: ${label}: exit ${r.code}, ${r.ms} ms (${r.cpuMs.toFixed(0)} ms CPU), peak RSS ${r.rssMiB.toFixed(0)} MiB`,
        );
        expect(r.code, r.stderr.slice(0, 2000)).toBe(want.code);
        expect(r.stderr).not.toMatch(/FATAL|heap out of memory|\n\s+at /);
        // One line per finding: nothing of the 128 MiB is echoed back.
        expect(r.stdout.length + r.stderr.length).toBeLessThan(64 * 1024);
        if (want.rule) expect(r.stdout).toContain(want.rule);
        expect(r.cpuMs).toBeLessThan(TIME_BOUND_MS);
        expect(r.rssMiB).toBeLessThan(RSS_BOUND_MIB);
      }, 90_000);
    }
  },
);
