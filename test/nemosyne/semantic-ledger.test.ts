/**
 * On the semantic-digest path (a `…-v2` digest algorithm, or V3+), upstream's replay takes
 * every commands.log item for a research event: one without a `kind` is a discrepancy
 * ("Semantic-v2 command log entry #i is missing a research-event kind",
 * src/session/InvestigationReplayRunner.ts, the RF-046 runner and the RF-047 one with V3).
 * A red team's V3 whose ledger held bare analysis specs passed. On the legacy path such an
 * item is an analysis spec the kernel replays, and is no refusal.
 */
import { describe, expect, it } from 'vitest';
import { buildPackageParts, packPackage, SAMPLE_COMMANDS } from '../../app/kinds/nemosyne/package-writer.js';
import { samplePackages } from '../../app/kinds/nemosyne/samples.js';
import { ENTRY } from '../../app/kinds/nemosyne/verify.js';
import { readEntry, readStructure, resolveLimits } from '../../app/zip/index.js';
import { supportDir, verify } from './helpers.js';

const support = supportDir();
const BARE = [
  { seq: 1, type: 'loadDataset', at: 1790000000000 },
  { seq: 2, type: 'groupBy', column: 'species', at: 1790000001000 },
];

describe('a kind-less ledger item on the semantic-digest path is refused (RPR-NEM-041)', () => {
  it.each([2, 3, 4] as const)('V%i with a semantic digest: each bare spec, by index', async (v) => {
    const r = await verify(packPackage(buildPackageParts(v, { commands: BARE })), support.flags);
    expect(r.verdict).toBe('fail');
    const refused = r.findings.filter((f) => f.rule === 'RPR-NEM-041');
    expect(refused.map((f) => [f.severity, f.pointer])).toEqual([
      ['fail', `entry:${ENTRY.commands}#/0`],
      ['fail', `entry:${ENTRY.commands}#/1`],
    ]);
    expect(refused[0]!.message).toContain('entry #0 is missing a research-event kind');
  });

  it('an array item is no research event either; on the legacy path (a V2 without a digest) bare specs are no refusal', async () => {
    const arrays = await verify(
      packPackage(buildPackageParts(3, { commands: [SAMPLE_COMMANDS[0], []] })),
      support.flags,
    );
    expect(arrays.findings.filter((f) => f.rule === 'RPR-NEM-041').map((f) => f.pointer)).toEqual([
      `entry:${ENTRY.commands}#/1`,
    ]);
    const legacy = await verify(packPackage(buildPackageParts(2, { digest: false, commands: BARE })));
    expect(legacy.findings.filter((f) => f.rule === 'RPR-NEM-041')).toEqual([]);
    expect(legacy.verdict).toBe('pass');
  });
});

describe("Reprise's own example packages are shaped as upstream writes them", () => {
  it('every ledger item of every intact example is a research event with a kind and an epoch-ms timestamp', async () => {
    const intact = samplePackages().filter((s) => s.name.startsWith('intact/'));
    expect(intact.length).toBeGreaterThan(3);
    for (const s of intact) {
      const zs = readStructure(s.bytes, resolveLimits({}));
      const content = await readEntry(
        s.bytes,
        zs.entries.find((e) => e.name === ENTRY.commands)!,
        true,
      );
      const ledger = JSON.parse(Buffer.from(content.bytes!).toString('utf8')) as Record<string, unknown>[];
      expect(ledger.length, s.name).toBeGreaterThan(0);
      for (const e of ledger) {
        expect(typeof e['kind'], s.name).toBe('string');
        expect(Number.isSafeInteger(e['timestamp']), s.name).toBe(true);
      }
    }
  });
});
