/**
 * An artifact the workbench opens is opened on its own (EngineOptions.alone), as one file
 * named to the CLI is: a link's `artifact=`, which only an exported report reads, is refused
 * for a dump rather than run without (a dump's PASS would read as the check it asked for),
 * in words that name the link's option, not a CLI flag; a report still takes it.
 * Workers run from dist/ (npm test builds it first).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineHost } from '../../main/host/engine-host.js';
import { distHost } from '../helpers/dist-host.js';
import { writeExamples } from '../../app/examples/index.js';
import { runPath } from '../../app/engine/run.js';
import { jobEnd } from '../helpers/job-report.js';

let host: EngineHost;
let ex = '';
beforeAll(async () => {
  host = distHost({ roots: [tmpdir()] });
  ex = join(await mkdtemp(join(tmpdir(), 'reprise-alone-')), 'ex');
  await writeExamples(ex);
}, 120_000);
afterAll(async () => host.close());

describe("a link's artifact= on what the workbench opens", () => {
  it('is refused for a dump, naming the option as the window sets it', async () => {
    const dump = join(ex, 'dumps', 'intact.dump.json');
    const e = await jobEnd(host, { source: { type: 'path', path: dump }, mode: 'verify', options: { artifact: dump } });
    expect(e).toMatchObject({ ok: false, cancelled: false });
    const message = (e as { message: string }).message;
    expect(message).toContain("the link's artifact option applies to exported reports");
    expect(message).toContain('is of kind replay-dump');
    expect(message).not.toContain('--artifact');
  }, 60_000);

  it('is taken by an exported report, which is checked against it', async () => {
    const dump = join(ex, 'dumps', 'intact.dump.json');
    const report = await runPath(dump, 'verify', {});
    const file = join(ex, 'intact.report.json');
    await writeFile(file, JSON.stringify(report, null, 2));
    const e = await jobEnd(host, { source: { type: 'path', path: file }, mode: 'verify', options: { artifact: dump } });
    expect(e).toMatchObject({ ok: true, report: { artifact: { kind: 'reprise-report' } } });
  }, 60_000);
});
