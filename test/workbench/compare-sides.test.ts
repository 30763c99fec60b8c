/**
 * The diff the Compare view asks the engine for (app/engine/compare-sides.ts, run by the
 * engine host's journal worker), as `reprise diff` makes it: a number its double does not
 * keep is compared by its literal. The canonical text alone writes
 * `1000000000000000000001` as `1e+21` and `9007199254740993` as `9007199254740992`, so the
 * window called two files differing only there identical while the CLI listed them.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import {
  diffSides as diffRead,
  MAX_CONTENT_BYTES,
  readContent,
  type SideRead,
} from '../../app/engine/compare-sides.js';
import { LITERAL_NOTE, NumberLiterals } from '../../shared/diff.js';
import { diffPage } from '../../shared/diff-html.js';
import type { Report } from '../../shared/report.js';

const report = (kind = 'unknown'): Report =>
  ({ artifact: { kind, id: null, sha256: 'sha256:00' }, verdict: 'fail', findings: [] }) as unknown as Report;

/** Each test's sides share one set of literals, as the worker's two sides of one diff do. */
let literals = new NumberLiterals();
beforeEach(() => void (literals = new NumberLiterals()));

/** One side as the worker reads it: the engine's report and the artifact's content. */
async function side(name: string, text: string | Uint8Array, kind?: string): Promise<SideRead> {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return { name, report: report(kind), content: await readContent({ bytes }, literals) };
}
const diffSides = (l: SideRead, r: SideRead) => diffRead(l, r, literals);

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

  it('content the engine did not parse is not compared, and says why; two kinds are refused', async () => {
    const { result, left } = diffSides(await side('l', '{"a":1,"a":2}'), await side('r', '{"a":1}'));
    expect(left.content).toMatch(/^report compared; content not \(not one I-JSON document: /);
    expect(result.differences.map((d) => d.pointer)).toEqual(['/content']);
    // Bytes that are not UTF-8 are not decoded leniently: two files differing only there are not called identical.
    const bad = diffSides(
      await side('l', Buffer.from([0x22, 0xff, 0x22])),
      await side('r', Buffer.from([0x22, 0xfe, 0x22])),
    );
    expect(bad.left.content).toMatch(/^report compared; content not \(not one I-JSON document: .*UTF-8/);
    // The window's limit is the CLI's: content past 8 MiB (the editor's) is compared; past 64 MiB it is not.
    const past8 = await side('big', `{"n":1,"pad":"${'x'.repeat(9 * 1024 * 1024)}"}`);
    expect(
      diffSides(past8, await side('big2', `{"n":2,"pad":"${'x'.repeat(9 * 1024 * 1024)}"}`)).result.differences,
    ).toMatchObject([{ pointer: '/content/n', left: 1, right: 2 }]);
    const past64 = await side('huge', new Uint8Array(MAX_CONTENT_BYTES + 1));
    expect(past64.content).toEqual({
      why: 'report compared; content not (larger than 64 MiB)',
      reason: 'larger than 64 MiB',
    });
    await expect(async () =>
      diffSides(await side('l', '1', 'replay-dump'), await side('r', '1', 'tg-replay-manifest')),
    ).rejects.toThrow('Cannot compare l (replay-dump) with r (tg-replay-manifest)');
  });
});
