/**
 * The times a Nemosyne package carries reach a case's timeline (docs/nemosyne.md, "Times";
 * app/kinds/nemosyne/times.ts): the manifest's `createdAt` and each ledger event's
 * `timestamp`, epoch milliseconds as upstream writes them, converted exactly; one that
 * cannot be placed is left off and the package's own report says why (RPR-NEM-039); the
 * ledger's are kept up to `--limit nemosyne-timeline` and the rest counted (RPR-NEM-091).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { driveCase, inlineExecutor } from '../../app/engine/case/index.js';
import { runBytes } from '../../app/engine/run.js';
import { buildPackageParts, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { epochMsUtc } from '../../app/kinds/nemosyne/times.js';
import { tmp } from '../journal/helpers.js';

/** A V2 package as upstream exports it: epoch-ms createdAt, a ledger of ResearchEvents. */
function pkg(createdAt: number, ledger: unknown[]): Buffer {
  return packPackage(
    buildPackageParts(2, { digest: false, commands: ledger, manifest: (m) => (m['createdAt'] = createdAt) }),
  );
}

function caseOf(bytes: Buffer): string {
  const dir = join(tmp('reprise-case-nemosyne-'), 'case');
  mkdirSync(dir);
  writeFileSync(join(dir, 'investigation.nemosyne'), bytes);
  return dir;
}

const LEDGER = [
  { eventId: 's1:1', timestamp: 1777888800123, kind: 'load', command: { op: 'load' } },
  { eventId: 's1:2', timestamp: 1777888860456, kind: 'analysis', command: { op: 'analysis' } },
  { eventId: 's1:3', kind: 'seek', command: { op: 'seek' } }, // no time: places nothing
  { eventId: 's1:4', timestamp: 1777888860456.5, kind: 'undo', command: { op: 'undo' } },
  { eventId: 's1:5', timestamp: 9e15, kind: 'redo', command: { op: 'redo' } },
  { eventId: 's1:6', timestamp: '2026-05-04T10:00:00Z', kind: 'reset', command: { op: 'reset' } },
];

describe("a Nemosyne package's times on a case's timeline", () => {
  it('places createdAt and each ledger timestamp, converted exactly from epoch milliseconds', async () => {
    const report = await driveCase(caseOf(pkg(1777888920789, LEDGER)), inlineExecutor, {});
    expect(report.timeline.map((e) => [e.atUtc, e.pointer, e.label, e.artifact])).toEqual([
      [
        '2026-05-04T10:00:00.123Z',
        'entry:investigation/commands.log#/0/timestamp',
        'ledger: load',
        'investigation.nemosyne',
      ],
      [
        '2026-05-04T10:01:00.456Z',
        'entry:investigation/commands.log#/1/timestamp',
        'ledger: analysis',
        'investigation.nemosyne',
      ],
      ['2026-05-04T10:02:00.789Z', 'entry:manifest.json#/createdAt', 'package exported', 'investigation.nemosyne'],
    ]);
  });

  it("leaves off a time it cannot place, and the package's report says why", async () => {
    const r = await runBytes('p.nemosyne', pkg(1777888920789, LEDGER), 'verify', {});
    const why = r.findings.filter((f) => f.rule === 'RPR-NEM-039');
    expect(why.map((f) => [f.pointer, f.severity])).toEqual([
      ['entry:investigation/commands.log#/3/timestamp', 'warning'],
      ['entry:investigation/commands.log#/4/timestamp', 'warning'],
      ['entry:investigation/commands.log#/5/timestamp', 'warning'],
    ]);
    expect(why[0]!.message).toMatch(/not a whole number of milliseconds/);
    expect(why[1]!.message).toMatch(/outside the years 0000-9999/);
    expect(why[2]!.message).toMatch(/not a number/);
    // A createdAt out of range: no event, and the finding at its pointer.
    const far = await runBytes('p.nemosyne', pkg(-62167219200001, LEDGER.slice(0, 2)), 'verify', {});
    expect(far.findings.filter((f) => f.rule === 'RPR-NEM-039').map((f) => f.pointer)).toEqual([
      'entry:manifest.json#/createdAt',
    ]);
    const farCase = await driveCase(caseOf(pkg(-62167219200001, LEDGER.slice(0, 2))), inlineExecutor, {});
    expect(farCase.timeline.map((e) => e.label)).toEqual(['ledger: load', 'ledger: analysis']);
  });

  it('keeps the ledger times up to --limit nemosyne-timeline and counts the rest', async () => {
    const ledger = Array.from({ length: 5 }, (_, i) => ({ timestamp: 1777888800000 + i * 1000, kind: 'analysis' }));
    const options = { limits: { 'nemosyne-timeline': 2 } };
    const report = await driveCase(caseOf(pkg(1777888920789, ledger)), inlineExecutor, { options });
    expect(report.timeline.map((e) => e.pointer)).toEqual([
      'entry:investigation/commands.log#/0/timestamp',
      'entry:investigation/commands.log#/1/timestamp',
      'entry:manifest.json#/createdAt',
    ]);
    const r = await runBytes('p.nemosyne', pkg(1777888920789, ledger), 'verify', options);
    expect(r.findings.filter((f) => f.rule === 'RPR-NEM-091')).toMatchObject([
      { severity: 'info', message: expect.stringMatching(/3 commands\.log event\(s\) past the first 2/) },
    ]);
  });

  it('converts exactly at the ends of the years RFC 3339 writes, and refuses past them', () => {
    expect(epochMsUtc(0)).toEqual({ atUtc: '1970-01-01T00:00:00.000Z' });
    expect(epochMsUtc(-62167219200000)).toEqual({ atUtc: '0000-01-01T00:00:00.000Z' });
    expect(epochMsUtc(253402300799999)).toEqual({ atUtc: '9999-12-31T23:59:59.999Z' });
    expect(epochMsUtc(253402300800000)).toHaveProperty('why');
    expect(epochMsUtc(-62167219200001)).toHaveProperty('why');
    expect(epochMsUtc(Number.MAX_SAFE_INTEGER + 2)).toHaveProperty('why');
  });
});
