/**
 * The manifest's kernelVersion on V3/V4 (a red team: a V3 whose kernelVersion was
 * "evil-kernel/9" while analyticalKernelVersion stayed the example kernel passed verify and
 * replay). Upstream's replay (src/session/InvestigationReplayRunner.ts, the RF-047 runner
 * with V3) compares the kernel it replays with against `kernelVersion` ("Kernel version
 * mismatch") and against the bundle's kernelVersion, which is the analyticalKernelVersion
 * (KERNEL_MISMATCH): a package whose two declarations differ is replayed by no kernel.
 */
import { describe, expect, it } from 'vitest';
import { runBytes } from '../../app/engine/run.js';
import { buildPackageParts, EXAMPLE_KERNEL, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { supportDir, verify } from './helpers.js';

const support = supportDir();

function withKernel(version: 2 | 3 | 4, edit: Record<string, string>): Buffer {
  return packPackage(buildPackageParts(version, { manifest: (m) => Object.assign(m, edit) }));
}

describe('V3/V4: a kernelVersion that is not the analyticalKernelVersion never passes', () => {
  it.each([3, 4] as const)('V%i: fails KERNEL_MISMATCH at the manifest, with and without an adapter', async (v) => {
    const bytes = withKernel(v, { kernelVersion: 'evil-kernel/9' });
    for (const options of [support.flags, {}]) {
      const r = await verify(bytes, options);
      expect(r.verdict).toBe('fail');
      const f = r.findings.find((x) => x.rule === 'KERNEL_MISMATCH')!;
      expect([f.severity, f.pointer, f.expected, f.actual]).toEqual([
        'fail',
        'entry:manifest.json#/kernelVersion',
        EXAMPLE_KERNEL,
        'evil-kernel/9',
      ]);
      expect(f.message).toContain('no kernel can replay this package');
    }
    const replayed = await runBytes('package.nemosyne', bytes, 'replay', support.flags);
    expect(replayed.verdict).toBe('fail');
  });

  it('the intact package, whose two declarations agree, still passes with the adapter and registry', async () => {
    for (const v of [3, 4] as const) expect((await verify(withKernel(v, {}), support.flags)).verdict).toBe('pass');
  });

  it("V2 holds the adapter's kernel to kernelVersion alone (upstream's V2 has no analytical kernel to compare)", async () => {
    const other = await verify(withKernel(2, { kernelVersion: 'evil-kernel/9' }), support.flags);
    expect(other.verdict).toBe('unavailable');
    expect(other.findings.find((x) => x.rule === 'KERNEL_MISMATCH')).toMatchObject({
      severity: 'unavailable',
      expected: 'evil-kernel/9',
      actual: EXAMPLE_KERNEL,
    });
    const declared = await verify(withKernel(2, { analyticalKernelVersion: 'another-kernel/2' }), support.flags);
    expect(declared.findings.filter((x) => x.rule === 'KERNEL_MISMATCH')).toEqual([]);
  });
});
