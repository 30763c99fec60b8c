/**
 * The Compare view's diff (renderer/src/lib/compare-sides.ts) of what the host reads of two
 * artifacts (main/host/journal-ops.ts artifactContent): a number its double does not keep is
 * compared by its literal, as `reprise diff` compares it. The canonical text alone writes
 * `1000000000000000000001` as `1e+21` and `9007199254740993` as `9007199254740992`, so the
 * window called two files differing only there identical while the CLI listed them.
 */
import { describe, expect, it } from 'vitest';
import { artifactContent } from '../../main/host/journal-ops.js';
import { LITERAL_NOTE } from '../../shared/diff.js';
import { diffPage } from '../../shared/diff-html.js';
import type { Report } from '../../shared/report.js';
import { diffSides, type SideRead } from '../../renderer/src/lib/compare-sides.js';

const report = (kind = 'unknown'): Report =>
  ({ artifact: { kind, id: null, sha256: 'sha256:00' }, verdict: 'fail', findings: [] }) as unknown as Report;

/** One side as the Compare view reads it: the engine's report and the host's content of the file's text. */
async function side(name: string, text: string, kind?: string): Promise<SideRead> {
  return { name, report: report(kind), content: await artifactContent(undefined, new TextEncoder().encode(text)) };
}

describe('the Compare view compares numbers by their literal', () => {
  it('lists the numbers a double cannot hold, with their literals, as reprise diff does', async () => {
    const l = await side('l.json', '{"a":1e21,"b":0.1,"c":-0,"e":9007199254740993}');
    const r = await side('r.json', '{"a":1000000000000000000001,"b":0.2,"c":0,"e":9007199254740992}');
    const { result, left, right } = diffSides(l, r);
    expect(left.content).toBe('report and parsed content compared');
    expect(right.content).toBe('report and parsed content compared');
    expect(result.differences.map((d) => d.pointer)).toEqual(['/content/a', '/content/b', '/content/e']);
    const [a, b, e] = result.differences;
    expect(a).toMatchObject({ op: 'changed', left: 1e21, right: 1e21, rightLiteral: '1000000000000000000001' });
    expect(a).not.toHaveProperty('leftLiteral');
    expect(a).not.toHaveProperty('difference');
    expect(b).toMatchObject({ difference: '0.1' });
    expect(e).toMatchObject({ leftLiteral: '9007199254740993', right: 9007199254740992 });
    expect(e).not.toHaveProperty('rightLiteral');
    // The exported page is built from the same result: it shows the literal and says why.
    const page = diffPage({ title: 't', what: 'two artifacts', left, right, result });
    expect(page).toContain('1000000000000000000001');
    expect(page).toContain(LITERAL_NOTE);
  });

  it('a whole content that is one such number, and one decimal written two ways', async () => {
    const big = diffSides(await side('l', '9007199254740993'), await side('r', '9007199254740992')).result;
    expect(big.differences).toMatchObject([{ pointer: '/content', leftLiteral: '9007199254740993' }]);
    const same = diffSides(
      await side('l', '{"n":9007199254740993.0,"u":1e-400}'),
      await side('r', '{"n":9007199254740993,"u":1E-400}'),
    ).result;
    expect(same.identical).toBe(true);
    const under = diffSides(await side('l', '[0, 1e-400]'), await side('r', '[0, 0]')).result;
    expect(under.differences).toMatchObject([{ pointer: '/content/1', leftLiteral: '1e-400', right: 0 }]);
  });

  it('content the host did not parse is not compared, and says why; two kinds are refused', async () => {
    const { result, left } = diffSides(await side('l', '{"a":1,"a":2}'), await side('r', '{"a":1}'));
    expect(left.content).toMatch(/^report compared; content not \(no canonical form: /);
    expect(result.differences.map((d) => d.pointer)).toEqual(['/content']);
    // Past the host's read (the editor's 8 MiB), the side says it is the window's limit, not the editor's.
    const big = await side('big', `{"n":1,"pad":"${'x'.repeat(8 * 1024 * 1024)}"}`);
    expect(diffSides(big, big).left.content).toBe(
      'report compared; content not (larger than 8 MiB, the most the window reads of an artifact; reprise diff compares content up to 64 MiB)',
    );
    await expect(async () =>
      diffSides(await side('l', '1', 'replay-dump'), await side('r', '1', 'tg-replay-manifest')),
    ).rejects.toThrow('Cannot compare l (replay-dump) with r (tg-replay-manifest)');
  });
});
