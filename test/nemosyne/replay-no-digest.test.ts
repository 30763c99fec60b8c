/**
 * A V1/V2 package that commits to no investigation digest, replayed: upstream's runner re-runs
 * each analysis of its ledger through the kernel and compares output hash and provenance
 * (InvestigationReplayRunner.replayPayload). Reprise has no kernel, so a replay that re-ran
 * none of them is unavailable (KERNEL_MISMATCH), never a PASS (found by a red team: forged
 * analysis results replayed PASS, exit 0). Verified, the same package passes (RPR-NEM-027).
 */
import { describe, expect, it } from 'vitest';
import { runBytes } from '../../app/engine/run.js';
import { buildPackageParts, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { rules } from './helpers.js';

const noDigest = (commands?: unknown[]) =>
  packPackage(buildPackageParts(2, { digest: false, ...(commands && { commands }) }));
const run = (bytes: Buffer, mode: 'verify' | 'replay') => runBytes('p.nemosyne', bytes, mode, {});

describe('replaying a package with no digest', () => {
  it('analysis steps in its ledger: unavailable, saying they were not re-executed; verify still passes', async () => {
    const forged = [
      { kind: 'load' },
      { kind: 'analysis', command: { operation: { op: 'not-an-op' } }, result: { outputHash: 'deadbeef' } },
      { operation: { op: 'also-bogus' } },
    ];
    const bytes = noDigest(forged);
    const replayed = await run(bytes, 'replay');
    expect(replayed.verdict).toBe('unavailable');
    const f = replayed.findings.find((x) => x.rule === 'KERNEL_MISMATCH')!;
    expect([f.severity, f.pointer]).toEqual(['unavailable', 'entry:investigation/commands.log']);
    expect(f.message).toMatch(/^replay: the ledger holds 2 analysis step\(s\), which upstream's replay re-runs/);
    const verified = await run(bytes, 'verify');
    expect(verified.verdict).toBe('pass');
    expect(rules(verified)).toContain('RPR-NEM-027');
  });

  it('a ledger with nothing the kernel re-runs replays as it verifies', async () => {
    const r = await run(noDigest([{ kind: 'load' }, { kind: 'undo' }]), 'replay');
    expect(r.verdict).toBe('pass');
    expect(rules(r)).not.toContain('KERNEL_MISMATCH');
  });
});
