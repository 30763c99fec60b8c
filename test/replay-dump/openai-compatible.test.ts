/**
 * The openai-compatible provider against a local HTTP server (127.0.0.1 only) that speaks
 * the protocol: a replay passes when the server lists the locked model and answers the
 * same expression; every failure (model not listed, refused connection, timeout, HTTP
 * error, malformed JSON, wrong shape) is an `unavailable` finding, never a crash.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { runBytes } from '../../app/engine/run.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { sampleSpec, trustStoreDocument } from '../../app/kinds/replay-dump/examples.js';
import { PROVIDERS_TYPE } from '../../app/providers/registry.js';
import { cpuMsSince } from '../helpers/measured-cli.js';

type Mode =
  | 'ok'
  | 'model-missing'
  | 'http500'
  | 'malformed'
  | 'timeout'
  | 'bad-shape'
  | 'other-text'
  | 'post-http503'
  | 'post-timeout'
  | 'post-stall'
  | 'redirect'
  | 'other-model'
  | 'models-endless'
  | 'post-endless'
  | 'models-drip'
  | 'post-drip'
  | 'models-declared-huge';
let mode: Mode = 'ok';
let lastBody: Record<string, unknown> | null = null;
let server: Server;
let port = 0;
let dir: string;
let dumpBytes: Buffer;

function providersFile(p: number, timeoutMs = 400): string {
  return JSON.stringify({
    type: PROVIDERS_TYPE,
    providers: [
      {
        providerId: 'local.llama',
        kind: 'openai-compatible',
        baseUrl: `http://127.0.0.1:${p}`,
        timeoutMs,
        models: [
          { modelId: 'tiny-llama-q8', quantizationProfiles: ['q8_0'], capacitySnapshot: { contextWindow: 2048 } },
        ],
        computeShapes: [{ advisor: 'advisor.cpu_v1', arity: 1, tensorType: 'fp32' }],
      },
    ],
  });
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString('utf8')));
    req.on('end', () => {
      if (mode === 'timeout') return; // never answers
      const target = mode.startsWith('models-')
        ? req.url === '/v1/models'
        : mode.startsWith('post-') && req.url === '/v1/chat/completions';
      if (target && (mode.endsWith('-endless') || mode.endsWith('-drip'))) {
        // An answer that never ends: 64 KiB chunks as fast as the client reads, or one byte
        // every 20 ms (under any idle timeout), until the client hangs up.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(mode.startsWith('models-') ? '{"object":"list","data":[' : '{"choices":[{"message":{"content":"');
        const chunk = mode.endsWith('-endless')
          ? Buffer.alloc(64 * 1024, mode.startsWith('models-') ? ' ' : 'a')
          : Buffer.from(' ');
        const pump = (): void => {
          if (res.destroyed) return;
          if (mode.endsWith('-drip')) {
            res.write(chunk);
            setTimeout(pump, 20);
          } else while (!res.destroyed && res.write(chunk));
        };
        res.on('drain', () => mode.endsWith('-endless') && pump());
        pump();
        return;
      }
      if (mode === 'models-declared-huge' && req.url === '/v1/models') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(1 << 30) });
        res.write('{"data":[');
        return;
      }
      if (mode === 'http500') {
        res.writeHead(500).end('{"error":"boom"}');
        return;
      }
      if (mode === 'redirect' && req.url === '/v1/models') {
        // To a server that would list the model: following it would route the replay elsewhere.
        res.writeHead(302, { location: '/elsewhere/v1/models' }).end();
        return;
      }
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET' && (req.url === '/v1/models' || req.url === '/elsewhere/v1/models')) {
        res.end(
          JSON.stringify({
            object: 'list',
            data: [{ id: mode === 'model-missing' ? 'another-model' : 'tiny-llama-q8', object: 'model' }],
          }),
        );
        return;
      }
      if (req.method === 'POST' && req.url === '/v1/chat/completions') {
        lastBody = JSON.parse(body) as Record<string, unknown>;
        if (mode === 'post-timeout') return; // the models answered; the completion never does
        if (mode === 'post-http503') {
          res.writeHead(503).end('{"error":"overloaded"}');
          return;
        }
        if (mode === 'post-stall') {
          res.write('{"choices": [{"index": 0, '); // headers and part of the body, then nothing
          return;
        }
        if (mode === 'malformed') res.end('{"choices": [');
        else if (mode === 'bad-shape') res.end('{"choices": []}');
        else
          res.end(
            JSON.stringify({
              id: 'x',
              object: 'chat.completion',
              model: mode === 'other-model' ? 'tiny-llama-q4' : 'tiny-llama-q8',
              choices: [
                {
                  index: 0,
                  finish_reason: 'stop',
                  message: {
                    role: 'assistant',
                    content:
                      mode === 'other-text' ? 'something else' : 'Three of 1,204 records failed the schema check.',
                  },
                },
              ],
            }),
          );
        return;
      }
      res.writeHead(404).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  dir = await mkdtemp(join(tmpdir(), 'reprise-openai-'));
  await writeFile(join(dir, 'trust.json'), trustStoreDocument());
  await writeFile(join(dir, 'providers.json'), providersFile(port));
  const spec = sampleSpec({
    dumpId: 'dump.openai.001',
    expression: { finishReason: 'stop', text: 'Three of 1,204 records failed the schema check.' },
  });
  spec.lockedProviderInfo = {
    capacitySnapshot: { contextWindow: 2048 },
    capturedAtUtc: '2026-05-04T09:59:58Z',
    modelId: 'tiny-llama-q8',
    providerId: 'local.llama',
    quantizationProfile: 'q8_0',
  };
  dumpBytes = Buffer.from(encodeJson(await buildDump(spec, sampleSigner('active'))));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});

async function replay(providers = join(dir, 'providers.json')): Promise<Report> {
  return runBytes('openai.dump.json', dumpBytes, 'replay', { trustStore: join(dir, 'trust.json'), providers });
}

describe('openai-compatible provider', () => {
  it('passes when the server lists the locked model and answers the recorded expression; sends the frozen parameters', async () => {
    mode = 'ok';
    const r = await replay();
    expect(r.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(r.verdict).toBe('pass');
    expect(lastBody).toMatchObject({
      model: 'tiny-llama-q8',
      seed: 42,
      temperature: 0.7,
      top_p: 0.9,
      max_tokens: 24,
      stream: false,
    });
    expect((lastBody!['messages'] as { role: string }[]).map((m) => m.role)).toEqual([
      'system',
      'user',
      'user',
      'user',
    ]);
  });

  it('fails (RDS-F005) when the server answers something else', async () => {
    mode = 'other-text';
    const r = await replay();
    expect(r.verdict).toBe('fail');
    expect(r.findings.map((f) => f.rule)).toContain('RDS-F005');
    expect((r.details?.['expression'] as { replayed: { text: string } }).replayed.text).toBe('something else');
  });

  const cases: [Mode | 'refused', string][] = [
    ['model-missing', 'RDS-LOCK-003'],
    ['http500', 'RPR-PROV-003'],
    ['malformed', 'RPR-PROV-004'],
    ['bad-shape', 'RPR-PROV-004'],
    ['timeout', 'RPR-PROV-002'],
    ['refused', 'RPR-PROV-001'],
  ];
  for (const [m, rule] of cases) {
    it(`${m} → unavailable ${rule}`, async () => {
      mode = m === 'refused' ? 'ok' : m;
      let providers = join(dir, 'providers.json');
      if (m === 'refused') {
        // a port that was just free: bind, note it, close it
        const tmp = createServer();
        await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', r));
        const closedPort = (tmp.address() as AddressInfo).port;
        await new Promise<void>((r) => tmp.close(() => r()));
        providers = join(dir, 'providers-refused.json');
        await writeFile(providers, providersFile(closedPort));
      }
      const r = await replay(providers);
      expect(r.verdict).toBe('unavailable');
      const f = r.findings.find((x) => x.rule === rule);
      expect(f, JSON.stringify(r.findings)).toBeDefined();
      expect(f!.severity).toBe('unavailable');
      expect(r.chain.some((n) => n.id.startsWith('replay:'))).toBe(false);
    });
  }

  // The server listed the model, then the completion itself fails: still unavailable, and
  // never a replayed expression or a verdict about the outcome.
  const afterListing: [Mode, string, RegExp][] = [
    ['post-http503', 'RPR-PROV-003', /answered HTTP 503/],
    ['post-timeout', 'RPR-PROV-002', /did not answer within 400 ms/],
    ['post-stall', 'RPR-PROV-002', /did not answer within 400 ms/],
    ['malformed', 'RPR-PROV-004', /malformed JSON/],
    ['redirect', 'RPR-PROV-003', /redirect to \/elsewhere\/v1\/models: Reprise does not follow redirects/],
    ['other-model', 'RDS-LOCK-003', /answered with model "tiny-llama-q4", not the locked model tiny-llama-q8/],
  ];
  // A hostile or broken server cannot take the replay's memory or time: a body past the
  // cap is cut off (RPR-PROV-005), a dripping one at timeoutMs in all (not per silence:
  // the finding names the 400 ms; a per-silence timer would never fire and the test would
  // time out). What is bounded is CPU time and memory, never the wall clock.
  const hostile: [Mode, string, RegExp][] = [
    ['models-endless', 'RPR-PROV-005', /GET .*\/v1\/models answered with more than 16777216 bytes/],
    ['post-endless', 'RPR-PROV-005', /POST .*\/v1\/chat\/completions answered with more than 16777216 bytes/],
    ['models-declared-huge', 'RPR-PROV-005', /more than 16777216 bytes/],
    ['models-drip', 'RPR-PROV-002', /did not answer within 400 ms/],
    ['post-drip', 'RPR-PROV-002', /did not answer within 400 ms/],
  ];
  for (const [m, rule, message] of hostile) {
    it(`${m} → unavailable ${rule}, within seconds and bounded memory`, async () => {
      mode = m;
      // The endless answers get a long timeout, so that the cap, not the clock, ends them.
      let providers = join(dir, 'providers.json');
      if (m.endsWith('-endless'))
        await writeFile((providers = join(dir, 'providers-long.json')), providersFile(port, 15_000));
      const rss0 = process.memoryUsage().rss;
      const cpu0 = process.cpuUsage();
      const r = await replay(providers);
      const cpuMs = cpuMsSince(cpu0);
      expect(r.verdict).toBe('unavailable');
      const f = r.findings.find((x) => x.rule === rule);
      expect(f, JSON.stringify(r.findings)).toBeDefined();
      expect(f!.message).toMatch(message);
      expect(cpuMs).toBeLessThan(10_000); // the server and the replay both run here
      expect(process.memoryUsage().rss - rss0).toBeLessThan(200 * 1024 * 1024);
    }, 20_000);
  }

  for (const [m, rule, message] of afterListing) {
    it(`${m} → unavailable ${rule}, with what happened`, async () => {
      mode = m;
      const r = await replay();
      expect(r.verdict).toBe('unavailable');
      const f = r.findings.find((x) => x.rule === rule);
      expect(f, JSON.stringify(r.findings)).toBeDefined();
      expect(f!.severity).toBe('unavailable');
      expect(f!.message).toMatch(message);
      expect(r.findings.map((x) => x.rule)).not.toContain('RDS-F005');
      expect(r.details?.['expression']).toBeUndefined();
    });
  }
});
