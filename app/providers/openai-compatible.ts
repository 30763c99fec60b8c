/**
 * `openai-compatible`: a real HTTP adapter for servers that speak the OpenAI
 * chat-completions protocol (llama.cpp server, Ollama, vLLM).
 *
 * - `GET {baseUrl}/v1/models` MUST list the locked model id, else `unavailable`.
 * - `POST {baseUrl}/v1/chat/completions` with the frozen seed, temperature, top_p and
 *   max_tokens (stream off). The expression is `{"finishReason", "text"}` from choices[0].
 * - Every environmental failure (refused connection, timeout, HTTP error, malformed JSON
 *   or a response of the wrong shape) becomes an `unavailable` finding, never a crash.
 * - No substitution (RDS-LOCK-003): redirects are not followed (a redirect would route the
 *   replay to another server), and an answer that names another model than the locked one
 *   is refused.
 */
import type { Finding } from '../../shared/report.js';
import { canonicalizeValue } from '../core/jcs.js';
import { unavailable } from '../core/findings.js';
import type { ExecutionRequest, ExecutionResult, FrozenArtifact, Provider, ProviderEntry } from './types.js';

export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * The largest answer body read (a model list or one completion is a few KiB; a
 * max_tokens-bounded completion far below this). A server that sends more (an endless
 * /v1/models) is cut off at this many bytes and is `unavailable` (RPR-PROV-005), so a
 * hostile or broken server cannot take the replay's memory.
 */
export const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** The body as text, or null once it passes `max` bytes (the rest is not read: the stream is cancelled). */
async function readCapped(res: Response, max: number): Promise<string | null> {
  if (!res.body) return '';
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await res.body.cancel().catch(() => undefined);
    return null;
  }
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.byteLength;
    if (n > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, n).toString('utf8');
}

type Fetched = { ok: true; status: number; body: unknown } | { ok: false; finding: Finding };

function artifactText(a: FrozenArtifact): string {
  return a.text !== undefined ? a.text : canonicalizeValue(a.json ?? null);
}

/** The chat messages built from the frozen buffers (documented in docs/reference-provider.md). */
export function chatMessages(req: ExecutionRequest): { role: string; content: string }[] {
  return [
    { role: 'system', content: artifactText(req.pipeline) },
    ...req.materials.map((m) => ({ role: 'user', content: artifactText(m) })),
    { role: 'user', content: artifactText(req.prompt) },
  ];
}

export class OpenAiCompatibleProvider implements Provider {
  private readonly base: string;
  private readonly timeoutMs: number;
  constructor(readonly entry: ProviderEntry) {
    this.base = (entry.baseUrl ?? '').replace(/\/+$/, '');
    this.timeoutMs = entry.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  private async request(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Fetched> {
    const url = `${this.base}${path}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers:
          body === undefined
            ? { accept: 'application/json' }
            : { accept: 'application/json', 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'manual',
      });
    } catch (e) {
      return { ok: false, finding: networkFinding(e, url, this.timeoutMs) };
    }
    // The timeout's signal covers the body too: a server that drips bytes is cut off at
    // timeoutMs in all, not only after a silence.
    let text: string | null;
    try {
      text = await readCapped(res, MAX_RESPONSE_BYTES);
    } catch (e) {
      return { ok: false, finding: networkFinding(e, url, this.timeoutMs) };
    }
    if (text === null) {
      return {
        ok: false,
        finding: unavailable(
          'RPR-PROV-005',
          `${method} ${url} answered with more than ${MAX_RESPONSE_BYTES} bytes, the limit for an answer; the rest was not read`,
          { expected: `at most ${MAX_RESPONSE_BYTES} bytes` },
        ),
      };
    }
    if (res.status >= 300 && res.status < 400) {
      const to = res.headers.get('location');
      return {
        ok: false,
        finding: unavailable(
          'RPR-PROV-003',
          `${method} ${url} answered HTTP ${res.status}, a redirect${to ? ` to ${to}` : ''}: Reprise does not follow redirects, so a replay is never routed to another server`,
          { expected: 200, actual: res.status },
        ),
      };
    }
    if (!res.ok) {
      return {
        ok: false,
        finding: unavailable('RPR-PROV-003', `${method} ${url} answered HTTP ${res.status}`, {
          expected: 200,
          actual: res.status,
        }),
      };
    }
    try {
      return { ok: true, status: res.status, body: JSON.parse(text) as unknown };
    } catch {
      return {
        ok: false,
        finding: unavailable('RPR-PROV-004', `${method} ${url} answered with malformed JSON`, {
          actual: text.slice(0, 200),
        }),
      };
    }
  }

  async ensureAvailable(modelId: string): Promise<Finding[]> {
    const r = await this.request('GET', '/v1/models');
    if (!r.ok) return [r.finding];
    const data = (r.body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data))
      return [unavailable('RPR-PROV-004', `GET ${this.base}/v1/models: the answer has no "data" array`)];
    const ids = data.map((m) => (m as { id?: unknown } | null)?.id).filter((x): x is string => typeof x === 'string');
    if (!ids.includes(modelId)) {
      return [
        unavailable(
          'RDS-LOCK-003',
          `the server at ${this.base} does not list the locked model ${modelId}; Reprise never substitutes another`,
          { pointer: '/lockedProviderInfo/modelId', expected: modelId, actual: ids.slice(0, 20) },
        ),
      ];
    }
    return [];
  }

  async execute(req: ExecutionRequest): Promise<ExecutionResult> {
    const body = {
      model: req.modelId,
      messages: chatMessages(req),
      seed: req.seed,
      temperature: req.parameters.temperature,
      top_p: req.parameters.topP,
      max_tokens: req.parameters.maxTokens,
      stream: false,
    };
    const r = await this.request('POST', '/v1/chat/completions', body);
    if (!r.ok) return { ok: false, findings: [r.finding] };
    // A server may serve another model than the one asked for (an alias, a fallback): the
    // answer names the model that produced it, and only the locked one is accepted.
    const answered = (r.body as { model?: unknown } | null)?.model;
    if (answered !== undefined && answered !== req.modelId) {
      return {
        ok: false,
        findings: [
          unavailable(
            'RDS-LOCK-003',
            `the server at ${this.base} answered with model ${JSON.stringify(answered)}, not the locked model ${req.modelId}; Reprise never accepts a substitute`,
            {
              pointer: '/lockedProviderInfo/modelId',
              expected: req.modelId,
              actual: typeof answered === 'string' ? answered : JSON.stringify(answered),
            },
          ),
        ],
      };
    }
    const choice = (r.body as { choices?: unknown } | null)?.choices;
    const first = Array.isArray(choice)
      ? (choice[0] as { message?: { content?: unknown }; finish_reason?: unknown } | undefined)
      : undefined;
    const content = first?.message?.content;
    if (typeof content !== 'string') {
      return {
        ok: false,
        findings: [
          unavailable(
            'RPR-PROV-004',
            `POST ${this.base}/v1/chat/completions: the answer has no choices[0].message.content string`,
          ),
        ],
      };
    }
    const finishReason = typeof first?.finish_reason === 'string' ? first.finish_reason : null;
    return { ok: true, expression: { finishReason, text: content } };
  }
}

function networkFinding(e: unknown, url: string, timeoutMs: number): Finding {
  const err = e as { name?: string; cause?: { code?: string; name?: string } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError' || err?.cause?.name === 'TimeoutError') {
    return unavailable('RPR-PROV-002', `${url} did not answer within ${timeoutMs} ms`);
  }
  const code = err?.cause?.code ?? 'error';
  return unavailable('RPR-PROV-001', `cannot reach ${url}: ${code === 'ECONNREFUSED' ? 'connection refused' : code}`);
}
