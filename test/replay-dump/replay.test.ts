/**
 * Replay's environment emulation is exact and fail-closed: every divergence from the locked
 * provider info or compute shape aborts `unavailable` before anything runs, with the rule id
 * and both values; a defective registry file is a usage error.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { runBytes, UsageError } from '../../app/engine/run.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { buildDump, sampleSigner, type DumpSpec } from '../../app/kinds/replay-dump/writer.js';
import { sampleSpec, trustStoreDocument } from '../../app/kinds/replay-dump/examples.js';
import { builtinRegistry, registryDocument } from '../../app/providers/registry.js';

let dir: string;
let trust: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reprise-replay-'));
  trust = join(dir, 'trust.json');
  await writeFile(trust, trustStoreDocument());
});

async function replayOf(edit: (s: DumpSpec) => void, providers?: string, whatIf?: string[]): Promise<Report> {
  const spec = sampleSpec();
  edit(spec);
  // The recorded expression is the ref-1 one; what matters here is that nothing runs.
  const m = await buildDump({ ...spec, expression: spec.expression ?? { text: 'recorded' } }, sampleSigner('active'));
  return runBytes('r.dump.json', Buffer.from(encodeJson(m)), 'replay', {
    trustStore: trust,
    ...(providers ? { providers } : {}),
    ...(whatIf ? { whatIf } : {}),
  });
}

describe('environment emulation (fail-closed)', () => {
  const cases: [string, (s: DumpSpec) => void, string, string][] = [
    [
      'unknown provider',
      (s) => (s.lockedProviderInfo.providerId = 'vendor.cloud'),
      'RDS-LOCK-003',
      '/lockedProviderInfo/providerId',
    ],
    ['unknown model', (s) => (s.lockedProviderInfo.modelId = 'ref-9'), 'RDS-LOCK-003', '/lockedProviderInfo/modelId'],
    [
      'quantization not offered',
      (s) => (s.lockedProviderInfo.quantizationProfile = 'q4_k_m'),
      'RDS-LOCK-003',
      '/lockedProviderInfo/quantizationProfile',
    ],
    [
      'capacity differs',
      (s) => (s.lockedProviderInfo.capacitySnapshot = { contextWindow: 9999 }),
      'RDS-F004',
      '/lockedProviderInfo/capacitySnapshot',
    ],
    [
      'shape not offered',
      (s) => (s.computeShape = { advisor: 'advisor.cpu_v1', arity: 3, tensorType: 'fp32' }),
      'RDS-F004',
      '/computeShape',
    ],
    ['kernel major 2', (s) => (s.kernelVersion = '2.0.0'), 'RDS-F003', '/kernelVersion'],
  ];
  for (const [label, edit, rule, pointer] of cases) {
    it(`${label} → unavailable ${rule}, nothing executed`, async () => {
      const r = await replayOf(edit);
      expect(r.verdict).toBe('unavailable');
      const f = r.findings.find((x) => x.rule === rule);
      expect(f, JSON.stringify(r.findings)).toBeDefined();
      expect(f!.severity).toBe('unavailable');
      expect(f!.pointer).toBe(pointer);
      expect(r.chain.some((n) => n.id.startsWith('replay:'))).toBe(false);
      expect(r.comparisons).toEqual([]);
    });
  }

  it('a registry file without the locked model makes replay unavailable; the built-in one passes', async () => {
    const doc = registryDocument(builtinRegistry()) as { providers: { models: { modelId: string }[] }[] };
    doc.providers[0]!.models = doc.providers[0]!.models.filter((m) => m.modelId !== 'ref-1');
    const p = join(dir, 'no-ref1.json');
    await writeFile(p, JSON.stringify(doc));
    const none = await replayOf(() => undefined, p);
    expect(none.verdict).toBe('unavailable');
    expect(none.findings.map((f) => f.rule)).toContain('RDS-LOCK-003');
    const spec = sampleSpec();
    const ok = await runBytes(
      'ok.dump.json',
      Buffer.from(encodeJson(await buildDump(spec, sampleSigner('active')))),
      'replay',
      { trustStore: trust },
    );
    expect(ok.verdict).toBe('pass');
  });

  it('a what-if to a shape the provider lacks is unavailable, labelled a demonstration', async () => {
    const r = await replayOf(() => undefined, undefined, ['shape=advisor.gpu/2/fp32']);
    expect(r.verdict).toBe('unavailable');
    expect(r.details?.['whatIf']).toMatchObject({ demonstration: true });
    expect(r.findings.map((f) => f.rule)).toEqual(expect.arrayContaining(['RPR-DUMP-011', 'RDS-F004']));
    expect(r.findings.find((f) => f.rule === 'RDS-F004')?.message).toContain('the what-if compute shape');
  });

  it('a what-if model the registry lacks is named as the what-if model, not as the locked one', async () => {
    const r = await replayOf(() => undefined, undefined, ['model=ref-9']);
    expect(r.verdict).toBe('unavailable');
    const lock = r.findings.find((f) => f.rule === 'RDS-LOCK-003');
    expect(lock?.message).toContain('the what-if model ref-9');
    expect(lock?.message).not.toContain('locked');
    expect(lock?.expected).toBe('ref-9');
  });

  it('a defective registry file or what-if is a usage error (exit 3), not a finding', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(
      bad,
      JSON.stringify({
        type: 'reprise.providers/v1',
        providers: [{ providerId: 'x', kind: 'magic', models: [], computeShapes: [] }],
      }),
    );
    await expect(replayOf(() => undefined, bad)).rejects.toBeInstanceOf(UsageError);
    await expect(replayOf(() => undefined, join(dir, 'missing.json'))).rejects.toBeInstanceOf(UsageError);
    await expect(replayOf(() => undefined, undefined, ['shape=a/b'])).rejects.toBeInstanceOf(UsageError);
    // The same model offered twice (another quantization first): ambiguous, so refused.
    const doc = registryDocument(builtinRegistry()) as {
      providers: { models: { modelId: string; quantizationProfiles: string[] }[] }[];
    };
    const first = doc.providers[0]!.models[0]!;
    doc.providers[0]!.models.unshift({ ...first, quantizationProfiles: ['int8'] });
    const twice = join(dir, 'twice.json');
    await writeFile(twice, JSON.stringify(doc));
    await expect(replayOf(() => undefined, twice)).rejects.toThrow(/offers model ref-1 twice/);
    // A capacity the reference model does not have cannot be offered for it.
    const capDoc = registryDocument(builtinRegistry()) as { providers: { models: { capacitySnapshot: unknown }[] }[] };
    capDoc.providers[0]!.models[0]!.capacitySnapshot = { contextWindow: 1 };
    const cap = join(dir, 'cap.json');
    await writeFile(cap, JSON.stringify(capDoc));
    await expect(replayOf(() => undefined, cap)).rejects.toThrow(
      /has capacitySnapshot \{"contextWindow":4096\}, not \{"contextWindow":1\}/,
    );
    // A defective registry is refused even when the chain fails (nothing would run).
    const broken = await buildDump(sampleSpec(), sampleSigner('active'));
    const text = encodeJson(broken).replace('"seed": 42', '"seed": 43');
    await expect(
      runBytes('b.dump.json', Buffer.from(text), 'replay', { trustStore: trust, providers: bad }),
    ).rejects.toBeInstanceOf(UsageError);
  });

  it('replay stops at a broken chain: nothing re-executed', async () => {
    const m = await buildDump(sampleSpec(), sampleSigner('active'));
    const text = encodeJson(m).replace('"seed": 42', '"seed": 43');
    const r = await runBytes('b.dump.json', Buffer.from(text), 'replay', { trustStore: trust });
    expect(r.verdict).toBe('fail');
    expect(r.findings.map((f) => f.rule)).toEqual(expect.arrayContaining(['RDS-F005', 'RDS-F001']));
    expect(r.chain.some((n) => n.id.startsWith('replay:'))).toBe(false);
  });
});
