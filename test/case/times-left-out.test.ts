/**
 * Every time an artifact carries that the timeline does not place is said (RPR-CASE-004),
 * never dropped in silence (docs/case.md, "The timeline"): a Nemosyne package's ledger
 * times past `--limit nemosyne-timeline`, counted with the limit that keeps them, as an ACGP
 * trace's EVALs past `acgp-trajectory` are; its times that are no whole epoch milliseconds
 * in years 0000-9999 (RPR-NEM-039); and a dump's time its own verification refuses as no
 * .NET time (RDS-003: year 0000, a fraction finer than 100 ns), which is not placed.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaseReport } from '../../shared/case.js';
import { driveCase, inlineExecutor } from '../../app/engine/case/index.js';
import { writeExamples } from '../../app/examples/index.js';
import { buildPackageParts, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { tmp } from '../journal/helpers.js';

let ex = '';
beforeAll(async () => {
  ex = join(tmp('reprise-case-left-out-'), 'ex');
  await writeExamples(ex);
}, 120_000);

function folder(files: Record<string, Buffer | string>): string {
  const dir = join(tmp('reprise-case-left-out-'), 'case');
  mkdirSync(dir);
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(dir, name), bytes);
  return dir;
}

const lacks = (c: CaseReport, path: string) =>
  c.findings.filter((f) => f.rule === 'RPR-CASE-004' && f.pointer === `entry:${path}`).map((f) => f.message);

describe("a Nemosyne package's times the case is not offered", () => {
  it('past --limit nemosyne-timeline are counted, with the limit that keeps every one', async () => {
    const dir = folder({});
    cpSync(join(ex, 'packages', 'intact', 'v2.nemosyne'), join(dir, 'v2.nemosyne'));
    const all = await driveCase(dir, inlineExecutor);
    const ledger = all.timeline.filter((e) => e.label.startsWith('ledger:')).length;
    expect(ledger).toBeGreaterThan(0);
    expect(lacks(all, 'v2.nemosyne')).toEqual([]);
    const cut = await driveCase(dir, inlineExecutor, { options: { limits: { 'nemosyne-timeline': 0 } } });
    expect(cut.timeline.map((e) => e.label)).toEqual(['package exported']);
    expect(lacks(cut, 'v2.nemosyne')).toEqual([
      `the timeline lacks times of v2.nemosyne: ${ledger} more were left out: ${ledger} commands.log time(s) past the first 0 its report offers a case (limit nemosyne-timeline; --limit nemosyne-timeline=${ledger} keeps every one)`,
    ]);
  }, 120_000);

  it('that are no whole epoch milliseconds in years 0000-9999 are named, never dropped in silence', async () => {
    const ledger = [
      { eventId: 's1:1', timestamp: 1777888800123, kind: 'load' },
      { eventId: 's1:2', timestamp: 1790000000000.5, kind: 'analysis' },
      { eventId: 's1:3', timestamp: 999999999999999, kind: 'seek' },
      { eventId: 's1:4', kind: 'undo' }, // no time: nothing to lack
    ];
    const parts = buildPackageParts(2, {
      digest: false,
      commands: ledger,
      manifest: (m) => (m['createdAt'] = 1777888920789),
    });
    const c = await driveCase(folder({ 'p.nemosyne': packPackage(parts) }), inlineExecutor);
    expect(c.timeline.map((e) => e.label)).toEqual(['ledger: load', 'package exported']);
    expect(lacks(c, 'p.nemosyne')).toEqual([
      'the timeline lacks times of p.nemosyne: 2 more were left out: 2 cannot be placed in time, not being whole epoch milliseconds in years 0000-9999 (RPR-NEM-039): ' +
        'entry:investigation/commands.log#/1/timestamp 1790000000000.5: not a whole number of milliseconds; ' +
        'entry:investigation/commands.log#/2/timestamp 999999999999999: outside the years 0000-9999 an RFC 3339 time is written in',
    ]);
  }, 120_000);
});

describe("a dump's time its verification refuses as no .NET time", () => {
  it('is not placed, and the case says its timeline lacks it', async () => {
    const dump = JSON.parse(readFileSync(join(ex, 'dumps', 'intact.dump.json'), 'utf8')) as Record<string, unknown>;
    const c = await driveCase(
      folder({
        'zero.json': JSON.stringify({ ...dump, createdAtUtc: '0000-01-01T00:00:00Z' }),
        'fine.json': JSON.stringify({ ...dump, createdAtUtc: '9999-12-31T23:59:59.999999999Z' }),
      }),
      inlineExecutor,
    );
    expect(c.artifacts.map((a) => [a.path, a.verdict])).toEqual([
      ['fine.json', 'fail'],
      ['zero.json', 'fail'],
    ]);
    expect(c.timeline.filter((e) => e.pointer === '/createdAtUtc')).toEqual([]);
    expect(lacks(c, 'zero.json')).toEqual([
      expect.stringContaining(
        `1 more were left out: /createdAtUtc "0000-01-01T00:00:00Z": year 0000, before .NET's DateTime.MinValue (0001-01-01), which no AIKernel writer can hold: times its verification fails (RDS-003), which the timeline does not place`,
      ),
    ]);
    expect(lacks(c, 'fine.json')).toEqual([
      expect.stringContaining(`/createdAtUtc "9999-12-31T23:59:59.999999999Z": a fraction of a second finer than .NET`),
    ]);
  }, 120_000);
});
