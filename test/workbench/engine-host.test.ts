/**
 * The engine host behind both transports: jobs with progress events and cancellation,
 * examples opened with their options, journal cases decided with a signed rationale and
 * an anchor receipt, and the same over the web host's WebSocket (server-pushed events).
 * Workers run from dist/ (npm test builds it first).
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ApiEvent } from '../../shared/api.js';
import { bytesSource, jobReport } from '../helpers/job-report.js';
import type { EngineHost } from '../../main/host/engine-host.js';
import { distHost } from '../helpers/dist-host.js';
import { asShown } from '../helpers/shown.js';
import { startWebHost, type WebHost } from '../../main/webhost/server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let host: EngineHost;
const events: ApiEvent[] = [];
beforeAll(() => {
  // The tests' files live under the temp folder: it is the root the user chose.
  host = distHost({ roots: [tmpdir()] });
  host.subscribe((e) => events.push(e));
});
afterAll(async () => host.close());

function waitFor(jobId: string): Promise<ApiEvent> {
  return new Promise((resolve) => {
    const off = host.subscribe((e) => {
      if ((e.type === 'job-done' || e.type === 'job-failed') && e.jobId === jobId) {
        off();
        resolve(e);
      }
    });
  });
}

describe('provider offers (the trainer pickers)', () => {
  it("lists the built-in registry, an example's own, and refuses a relative or defective registry path", async () => {
    const builtin = await host.providerOffers({});
    expect(builtin.source).toBe('(built-in)');
    expect(builtin.providers[0]!.models).toEqual(['ref-1', 'ref-2']);
    expect(builtin.providers[0]!.computeShapes.every((s) => /^[^/]+\/\d+\/[a-z0-9]+$/.test(s))).toBe(true);
    const own = await host.providerOffers({ example: 'dumps/whatif/drift.dump.json' });
    // Named as the example names it, never by the private folder the examples were written to.
    expect(own.source).toBe("dumps/providers.json (the built-in example's)");
    expect(own.source).not.toContain(tmpdir());
    expect(own.providers[0]!.computeShapes).toContain('advisor.cpu_v1/4/fp32');
    await expect(host.providerOffers({ providers: 'relative.json' })).rejects.toThrow(/absolute path/);
    // Outside the roots the user chose: refused before anything is read.
    await expect(host.providerOffers({ providers: '/nonexistent/providers.json' })).rejects.toThrow(
      /refused: .* outside the folders/,
    );
    // Inside a root but missing: the registry's own error.
    await expect(host.providerOffers({ providers: join(tmpdir(), 'reprise-no-such-providers.json') })).rejects.toThrow(
      /cannot read provider registry/,
    );
  });
});

describe('engine host jobs', () => {
  it('runs an example with its options (trust store, providers) and pushes the report as an event', async () => {
    const examples = await host.listExamples();
    const ex = examples.find((e) => e.path === 'dumps/unavailable/kernel-major.dump.json');
    expect(ex?.options).toEqual({ trustStore: 'dumps/trust-store.json', providers: 'dumps/providers.json' });
    const { jobId } = await host.startJob({ source: { type: 'example', path: ex!.path }, mode: 'replay' });
    const done = await waitFor(jobId);
    expect(done.type).toBe('job-done');
    if (done.type !== 'job-done') return;
    expect(done.report.verdict).toBe('unavailable');
    expect(done.report.findings.map((f) => f.rule)).toContain('RDS-F003');
  });

  it('without its trust store the intact dump is not a pass: the options matter', async () => {
    const withOpts = await jobReport(host, {
      source: { type: 'example', path: 'dumps/intact.dump.json' },
      mode: 'verify',
    });
    expect(withOpts.verdict).toBe('pass');
    const bytes =
      (await host.listExamples()).length > 0
        ? await (await import('node:fs/promises')).readFile(join(await examplesDir(), 'dumps/intact.dump.json'))
        : Buffer.alloc(0);
    const bare = await jobReport(host, { source: bytesSource('intact.dump.json', bytes), mode: 'verify' });
    expect(bare.verdict).not.toBe('pass');
  });

  it('what-if substitutions reach the engine and are labelled a demonstration', async () => {
    const { jobId } = await host.startJob({
      source: { type: 'example', path: 'dumps/whatif/drift.dump.json' },
      mode: 'replay',
      whatIf: ['model=ref-2'],
    });
    const done = await waitFor(jobId);
    if (done.type !== 'job-done') throw new Error(`expected a report, got ${JSON.stringify(done)}`);
    expect(done.report.verdict).toBe('fail');
    expect(done.report.details?.['whatIf']).toMatchObject({ demonstration: true, substitutions: { model: 'ref-2' } });
  });

  it('cancels a long job: the job fails as cancelled and the pool still answers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reprise-host-'));
    const big = join(dir, 'big.json');
    // ~120 MB of JSON keeps a worker busy long enough to cancel it.
    await writeFile(big, '[' + '"0123456789abcdef0123456789abcdef0123456789abcdef",'.repeat(2_400_000) + '0]');
    const { jobId } = await host.startJob({ source: { type: 'path', path: big }, mode: 'verify' });
    const end = waitFor(jobId);
    await new Promise((r) => setTimeout(r, 50));
    expect(await host.cancelJob({ jobId })).toBe(true);
    const e = await end;
    expect(e).toMatchObject({ type: 'job-failed', jobId, cancelled: true, message: 'cancelled' });
    expect(await host.cancelJob({ jobId })).toBe(false);
    const after = await jobReport(host, {
      source: { type: 'example', path: 'unknown/not-an-artifact.json' },
      mode: 'verify',
    });
    expect(after.findings[0]?.rule).toBe('RPR-KIND-001');
  });

  it('chunked uploads: the job sees exactly the bytes sent, and a short or long upload is refused', async () => {
    const text = Buffer.from('{"type":"something.else","n":1}');
    const { uploadId } = await host.beginUpload({ name: 'up.json', size: text.length });
    await host.uploadChunk({ uploadId, dataBase64: text.subarray(0, 10).toString('base64') });
    await expect(host.startJob({ source: { type: 'upload', uploadId }, mode: 'verify' })).rejects.toMatchObject({
      usage: true,
      message: expect.stringMatching(/incomplete/),
    });
    expect(await host.uploadChunk({ uploadId, dataBase64: text.subarray(10).toString('base64') })).toEqual({
      received: text.length,
    });
    const { jobId } = await host.startJob({ source: { type: 'upload', uploadId }, mode: 'verify' });
    const done = await waitFor(jobId);
    if (done.type !== 'job-done') throw new Error('no report');
    expect(done.report.findings[0]?.rule).toBe('RPR-KIND-001');
    expect(done.report.artifact.path).toBe('up.json');
    const second = await host.beginUpload({ name: 'x', size: 1 });
    await expect(host.uploadChunk({ uploadId: second.uploadId, dataBase64: 'AAAA' })).rejects.toMatchObject({
      usage: true,
      message: expect.stringMatching(/longer than announced/),
    });
  });

  it('refuses bad requests as usage errors', async () => {
    await expect(host.startJob({ source: { type: 'example', path: 'nope' }, mode: 'verify' })).rejects.toMatchObject({
      usage: true,
    });
    await expect(
      host.startJob({ source: { type: 'path', path: 'relative.json' }, mode: 'verify' }),
    ).rejects.toMatchObject({ usage: true });
    await expect(
      host.startJob({ source: { type: 'bytes', name: 'x', dataBase64: '' }, mode: 'explode' as never }),
    ).rejects.toMatchObject({ usage: true });
    await expect(
      host.startJob({ source: { type: 'bytes', name: 'x', dataBase64: '' }, mode: 'verify', whatIf: ['rm -rf'] }),
    ).rejects.toMatchObject({ usage: true });
    expect(await host.pickPath({ kind: 'file', title: 't' })).toBeNull();
  });

  it('progress events carry the job id', () => {
    for (const e of events) if (e.type === 'job-progress') expect(e.jobId).toMatch(/^job-\d+$/);
  });
});

async function examplesDir(): Promise<string> {
  // The host writes examples into a private temp dir; reach it through its own API.
  return (host as unknown as { examples: { files(): Promise<{ dir: string }> } }).examples.files().then((x) => x.dir);
}

describe('journal and quarantine through the host', () => {
  it('lists cases, refuses a thin rationale, releases with a receipt, and the CLI verifies the journal', async () => {
    const demo = await host.createDemoJournal();
    const st = await host.journalStatus({ dir: demo.dir, trustStore: demo.trustStore });
    expect(st.verdict).toBe('pass');
    expect(st.rolesChecked).toBe(true);
    expect(st.cases.map((c) => [c.caseId, c.state])).toEqual([
      ['case-0', 'open'],
      ['case-1', 'open'],
    ]);
    expect(st.cases[0]!.evidence).toMatchObject({ originalExit: 'ACCEPT', replayedExit: 'ACCEPT_WITH_CONDITIONS' });

    const shown = await asShown({ ...demo, caseId: 'case-0' });
    await expect(
      host.decideCase({ ...demo, ...shown, caseId: 'case-0', decision: 'release', rationale: 'ok' }),
    ).rejects.toMatchObject({ usage: true, message: expect.stringMatching(/rationale/) });
    await expect(
      host.decideCase({
        ...demo,
        ...shown,
        caseId: 'case-0',
        decision: 'release',
        rationale: 'a long enough rationale here',
        keyFile: join(demo.dir, 'missing.pem'),
      }),
    ).rejects.toMatchObject({ usage: true });

    const receipt = await host.decideCase({
      ...demo,
      ...shown,
      caseId: 'case-0',
      decision: 'release',
      rationale: 'Replayed twice; the drift is within the reviewer tolerance for this claim.',
    });
    expect(receipt).toMatchObject({
      caseId: 'case-0',
      state: 'released',
      seq: 2,
      proofVerified: true,
      proofFindings: [],
    });
    expect(receipt.entryHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(receipt.checkpoint.size).toBe(3);

    const after = await host.journalStatus({ dir: demo.dir, trustStore: demo.trustStore });
    expect(after.cases[0]!.state).toBe('released');
    expect(after.cases[0]!.history.at(-1)!.text).toContain('Replayed twice');
    await expect(
      host.decideCase({
        ...demo,
        ...shown,
        caseId: 'case-0',
        decision: 'uphold',
        rationale: 'Upholding a case that was already released.',
      }),
    ).rejects.toMatchObject({ usage: true });

    const cli = spawnSync(
      process.execPath,
      [join(ROOT, 'bin/reprise.js'), 'journal', 'verify', demo.dir, '--trust-store', demo.trustStore],
      { encoding: 'utf8' },
    );
    expect(cli.status).toBe(0);
  });

  it('a missing journal directory is a failing status with its finding, not a crash', async () => {
    const st = await host.journalStatus({ dir: join(tmpdir(), 'no-such-journal-dir-xyz') });
    expect(st.verdict).toBe('fail');
    expect(st.findings[0]?.rule).toBe('RPR-JOURNAL-001');
    await expect(
      host.journalStatus({ dir: tmpdir(), trustStore: join(tmpdir(), 'no-such-trust.json') }),
    ).rejects.toMatchObject({ usage: true });
  });
});

describe('events over the web host WebSocket', () => {
  let web: WebHost;
  beforeAll(async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reprise-web-'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>t</title>');
    web = await startWebHost({ api: host, rendererDir: dir });
  });
  afterAll(async () => web.close());

  it('startJob answers with an id, then the report arrives as a server-pushed event', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${web.port}/api?token=${web.token}`, { origin: web.origin });
    await new Promise((r) => ws.once('open', r));
    const msgs: unknown[] = [];
    const done = new Promise<{ event: ApiEvent }>((resolve) =>
      ws.on('message', (d) => {
        const m = JSON.parse(String(d)) as { event?: ApiEvent };
        msgs.push(m);
        if (m.event?.type === 'job-done') resolve(m as { event: ApiEvent });
      }),
    );
    ws.send(
      JSON.stringify({
        id: 1,
        method: 'startJob',
        params: [{ source: { type: 'example', path: 'tg/exact-intact/manifest.json' }, mode: 'replay' }],
      }),
    );
    const ev = await done;
    expect(msgs[0]).toMatchObject({ id: 1, result: { jobId: expect.stringMatching(/^job-/) } });
    if (ev.event.type !== 'job-done') throw new Error('no report');
    expect(ev.event.report.verdict).toBe('pass');
    ws.close();
  });
});
