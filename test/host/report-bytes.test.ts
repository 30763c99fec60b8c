/**
 * A report is the same bytes whichever host verified it (docs/workbench.md, "Nemosyne
 * options"): a judgement binds a report by its digest, so a finding may not name the
 * workbench's control in the window and the CLI's flag on the command line. A V3 package
 * without its profile registry, through the engine host and through the CLI: one digest.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../shared/api.js';
import type { Report } from '../../shared/report.js';
import { writeExamples } from '../../app/examples/index.js';
import { reportDigest } from '../../app/journal/judgement.js';
import type { EngineHost } from '../../main/host/engine-host.js';
import { testHost } from './helpers.js';

const BIN = join(__dirname, '..', '..', 'bin', 'reprise.js');
let root = '';
let host: EngineHost;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'reprise-report-bytes-'));
  await writeExamples(join(root, 'ex'));
  host = testHost([root]);
});
afterAll(() => host.close());

/** The report of one job the host ran on `path`. */
async function hostReport(path: string): Promise<Report> {
  const ended = new Promise<ApiEvent>((resolve) => {
    const off = host.subscribe((e) => {
      if (e.type !== 'job-done' && e.type !== 'job-failed') return;
      off();
      resolve(e);
    });
  });
  await host.startJob({ source: { type: 'path', path }, mode: 'verify' });
  const e = await ended;
  if (e.type !== 'job-done') throw new Error(`the job failed: ${JSON.stringify(e)}`);
  return (e as Extract<ApiEvent, { type: 'job-done' }>).report;
}

describe('a report verified by the engine host and by the CLI', () => {
  it('is the same report, naming both the CLI flag and the window control that resolve it', async () => {
    const pkg = join(root, 'ex', 'packages', 'governed', 'RECEIPT_NOT_FOUND.nemosyne');
    const viaHost = await hostReport(pkg);
    const cli = spawnSync(process.execPath, [BIN, 'verify', pkg, '--json'], { encoding: 'utf8' });
    const viaCli = JSON.parse(cli.stdout) as Report;
    const nem040 = viaHost.findings.find((f) => f.rule === 'RPR-NEM-040');
    expect(nem040?.message).toContain('--profiles FILE');
    expect(nem040?.message).toContain('the Profile registry field');
    expect(reportDigest(viaHost)).toBe(reportDigest(viaCli));
  }, 60_000);
});
