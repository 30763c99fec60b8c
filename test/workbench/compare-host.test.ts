/**
 * The Compare view's diff made by the engine host (FileSide.compareArtifacts, in the journal
 * worker): each side's content is read through the gate to the CLI's limit (64 MiB), so a
 * file past the editor's 8 MiB is compared in the window as `reprise diff` compares it; a
 * side outside the granted roots, a report the engine did not make, or two kinds are refused.
 * Workers run from dist/ (npm test builds it first).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineHost } from '../../main/host/engine-host.js';
import { distHost } from '../helpers/dist-host.js';
import type { CompareSide } from '../../shared/api.js';
import type { Report } from '../../shared/report.js';
import { jobEnd } from '../helpers/job-report.js';

let host: EngineHost;
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reprise-compare-host-'));
  host = distHost({ roots: [dir] });
}, 120_000);
afterAll(async () => host.close());

/** A file of `text` in the granted root, verified by the host: a side as the window sends it. */
async function side(name: string, text: string): Promise<CompareSide> {
  const path = join(dir, name);
  await writeFile(path, text);
  const source = { type: 'path', path } as const;
  const e = await jobEnd(host, { source, mode: 'verify' });
  if (!e.ok) throw new Error(e.message);
  return { source, name, report: e.report };
}

describe('the Compare view diffed by the engine host', () => {
  it('compares content past the editor’s 8 MiB, as reprise diff does', async () => {
    const pad = 'x'.repeat(9 * 1024 * 1024);
    const left = await side('left.json', `{"n":1e21,"pad":"${pad}"}`);
    const right = await side('right.json', `{"n":1000000000000000000001,"pad":"${pad}y"}`);
    const d = await host.compareArtifacts({ left, right });
    expect(d.left.content).toBe('report and parsed content compared');
    expect(d.kind).toBe('unknown');
    const content = d.result.differences.filter((x) => x.pointer.startsWith('/content'));
    expect(content.map((x) => x.pointer)).toEqual(['/content/n', '/content/pad']);
    expect(content[0]).toMatchObject({ rightLiteral: '1000000000000000000001' });
    expect(content[1]!.span).toBeDefined();
  }, 120_000);

  it('refuses a side outside the granted roots, a report the engine did not make, and two kinds', async () => {
    const ok = await side('small.json', '{"a":1}');
    const outside = { ...ok, source: { type: 'path', path: '/etc/hostname' } as const };
    await expect(host.compareArtifacts({ left: ok, right: outside })).rejects.toThrow(/root|granted/i);
    const forged = { ...ok, report: { artifact: { kind: 'unknown' } } as unknown as Report };
    await expect(host.compareArtifacts({ left: ok, right: forged })).rejects.toThrow("the right side's report");
    // Two known kinds (content no kind claims is compared with any kind: test/diff/cli.test.ts).
    const as = (kind: string) => ({ ...ok, report: { ...ok.report, artifact: { ...ok.report.artifact, kind } } });
    const [manifest, dump] = [as('tg-replay-manifest'), as('replay-dump')] as CompareSide[];
    await expect(host.compareArtifacts({ left: manifest!, right: dump! })).rejects.toThrow(
      'a diff compares two artifacts of one kind',
    );
  }, 60_000);
});
