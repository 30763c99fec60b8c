/**
 * Sample replay dumps for `reprise examples DIR` (under `dumps/`), both encodings, signed
 * by the documented sample keys (writer.ts: Ed25519 seed = SHA-256("reprise/examples/dumps/<name>")),
 * with a sample trust store and provider registry. One intact dump, one per fail-closed
 * rule, one whose locked model the registry lacks, and a what-if drift scenario.
 * Every byte is fixed: running the writer twice writes identical files.
 */
import type { JsonValue } from '../../../shared/report.js';
import { hashValue } from '../../core/hash.js';
import { TRUST_STORE_TYPE, trustStoreEntry, type Signer } from '../../core/keys.js';
import { encodeJson } from './json-encoding.js';
import type { DumpModel } from './model.js';
import { encodeRom } from './rom-encoding.js';
import { buildDump, closeChain, sampleSigner, signModel, type DumpSpec } from './writer.js';
import { builtinRegistry, registryDocument } from '../../providers/registry.js';
import type { ExampleFile, ExampleWriter } from '../types.js';

export const TRUST_STORE_PATH = 'dumps/trust-store.json';
export const PROVIDERS_PATH = 'dumps/providers.json';

/** The sample dump's frozen conditions. */
export function sampleSpec(overrides: Partial<DumpSpec> = {}): DumpSpec {
  return {
    dumpId: 'dump.exec.20260504.001',
    createdAtUtc: '2026-05-04T10:00:00Z',
    kernelVersion: '0.0.7',
    seed: 42,
    inferenceParameters: { maxTokens: 24, temperature: 0.7, topP: 0.9 },
    lockedProviderInfo: {
      capacitySnapshot: { contextWindow: 4096 },
      capturedAtUtc: '2026-05-04T09:59:58Z',
      modelId: 'ref-1',
      providerId: 'reprise.reference',
      quantizationProfile: 'fp32',
    },
    computeShape: { advisor: 'advisor.cpu_v1', arity: 1, tensorType: 'fp32' },
    prompt: {
      mediaType: 'text/markdown',
      text: '---\nid: "ref.rom.prompt_artifact"\ntype: "prompt"\n---\n# Task\nSummarise the incident report in one sentence for the audit log.\n',
    },
    pipeline: {
      mediaType: 'application/json',
      json: {
        steps: [
          { op: 'retrieve', source: 'material' },
          { op: 'generate', provider: 'locked' },
        ],
      },
    },
    materials: [
      {
        mediaType: 'text/markdown',
        text: '# Incident 2026-05-03\nThe nightly export job wrote 1,204 records; 3 were rejected by the schema check.\n',
      },
      { mediaType: 'application/json', json: { rejected: 3, total: 1204 } },
    ],
    trust: { decision: 'trusted', evaluatedAtUtc: '2026-05-04T10:00:01Z' },
    ...overrides,
  };
}

/** A sample: one model written in both encodings, with the verdict it is made for. */
interface Sample {
  name: string;
  model: DumpModel;
  /** JSON text when it must differ from encodeJson(model) (the RDS-004 sample). */
  jsonText?: string;
  romText?: string;
  command: 'verify' | 'replay';
  verdict: 'pass' | 'fail' | 'unavailable';
  rule?: string;
  /** Flags beyond --trust-store and --providers (paths relative to the examples dir). */
  extra?: string[];
  note: string;
}

/** Extra command-line arguments each sample needs, relative to the examples directory. */
export interface SampleRun {
  path: string;
  command: 'verify' | 'replay';
  args: string[];
  verdict: 'pass' | 'fail' | 'unavailable';
  rule?: string;
}

function without(m: DumpModel, path: string[]): DumpModel {
  const copy = JSON.parse(JSON.stringify(m)) as Record<string, unknown>;
  if (path.length === 1) delete copy[path[0]!];
  else delete (copy[path[0]!] as Record<string, unknown>)[path[1]!];
  return copy;
}

function withValue(m: DumpModel, path: string[], v: JsonValue): DumpModel {
  const copy = JSON.parse(JSON.stringify(m)) as Record<string, unknown>;
  if (path.length === 1) copy[path[0]!] = v;
  else (copy[path[0]!] as Record<string, unknown>)[path[1]!] = v;
  return copy;
}

export async function buildSamples(): Promise<Sample[]> {
  const active = sampleSigner('active');
  const intact = await buildDump(sampleSpec(), active);
  const s: Sample[] = [];
  s.push({
    name: 'intact',
    model: intact,
    command: 'verify',
    verdict: 'pass',
    note: 'an intact dump: verify and replay pass (replay also with --workers 2)',
  });
  pushAlteredSamples(s, intact, active);
  await pushSignerSamples(s, active);
  await pushReplaySamples(s, intact, active);
  return s;
}

/** The intact dump altered one way each (re-signed where only the alteration must be wrong). */
function pushAlteredSamples(s: Sample[], intact: DumpModel, active: Signer): void {
  // RDS-001 / RDS-F002: a mandatory field missing (re-signed, so only the missing field is wrong).
  s.push({
    name: 'fail/missing-field',
    model: signModel(without(intact, ['dumpId']), active),
    command: 'verify',
    verdict: 'fail',
    rule: 'RDS-F002',
    note: 'dumpId removed and re-signed: RDS-001 and RDS-F002 (loading denied)',
  });
  // RDS-LOCK-002: lockedProviderInfo incomplete.
  s.push({
    name: 'fail/incomplete-lock',
    model: signModel(closeChain(without(intact, ['lockedProviderInfo', 'capacitySnapshot'])), active),
    command: 'verify',
    verdict: 'fail',
    rule: 'RDS-LOCK-002',
    note: 'lockedProviderInfo.capacitySnapshot removed, chain closed and re-signed: RDS-LOCK-002 and RDS-F002',
  });
  // RDS-002: a material reference that resolves to no artifact.
  {
    const ghost = hashValue({ ghost: 'material that was never captured' });
    const ms = [...(intact['materialSnapshotHashSet'] as string[]), ghost].sort();
    let m = withValue(intact, ['materialSnapshotHashSet'], ms);
    m = withValue(m, ['buffers', 'material'], ms);
    s.push({
      name: 'fail/unresolved-reference',
      model: signModel(closeChain(m), active),
      command: 'verify',
      verdict: 'fail',
      rule: 'RDS-002',
      note: 'a material hash with no artifact behind it (chain closed, re-signed): RDS-002',
    });
  }
  // RDS-003: a timestamp with an offset.
  s.push({
    name: 'fail/bad-timestamp',
    model: signModel(withValue(intact, ['createdAtUtc'], '2026-05-04T12:00:00+02:00'), active),
    command: 'verify',
    verdict: 'fail',
    rule: 'RDS-003',
    note: 'createdAtUtc with a +02:00 offset (re-signed): RDS-003',
  });
  // RDS-004: two members out of canonical order inside a JSON artifact (its hash and the
  // signature are over canonical JSON, so both still verify). Inside one value this is RDS-004
  // in both encodings; ROM's bullets, headings and front-matter keys are sets, never RDS-004.
  {
    const arts = JSON.parse(JSON.stringify(intact['artifacts'])) as Record<
      string,
      { json?: Record<string, JsonValue> }
    >;
    const k = Object.keys(arts).find((h) => arts[h]!.json?.['rejected'] !== undefined)!;
    const { rejected, total } = arts[k]!.json!;
    arts[k]!.json = { total: total!, rejected: rejected! };
    const jsonText = encodeJson(withValue(intact, ['artifacts'], arts as JsonValue), 'model');
    const romText = encodeRom(intact).replace('{"rejected":3,"total":1204}', '{"total":1204,"rejected":3}');
    s.push({
      name: 'fail/key-order',
      model: intact,
      jsonText,
      romText,
      command: 'verify',
      verdict: 'fail',
      rule: 'RDS-004',
      note: 'a JSON material written with "total" before "rejected" (members inside one value keep canonical order in both encodings): RDS-004',
    });
  }
  // RDS-F001: an artifact altered after signing.
  {
    const arts = JSON.parse(JSON.stringify(intact['artifacts'])) as Record<string, { text?: string }>;
    const k = intact['promptArtifactHash'] as string;
    arts[k]!.text = arts[k]!.text!.replace('one sentence', 'two sentences');
    s.push({
      name: 'fail/altered-artifact',
      model: withValue(intact, ['artifacts'], arts as JsonValue),
      command: 'verify',
      verdict: 'fail',
      rule: 'RDS-F001',
      note: 'the prompt text changed after signing: its hash no longer matches its key (RDS-F001)',
    });
  }
  // RDS-F001: bad signature (a signed member changed afterwards, chain otherwise intact).
  s.push({
    name: 'fail/bad-signature',
    model: withValue(intact, ['trustDecision', 'evaluatedAtUtc'], '2026-05-04T10:00:02Z'),
    command: 'verify',
    verdict: 'fail',
    rule: 'RDS-F001',
    note: 'trustDecision.evaluatedAtUtc changed after signing: the signature fails (RDS-F001)',
  });
  // RDS-F005: outcome hash that does not bind the recorded conditions (re-signed).
  s.push({
    name: 'fail/outcome-mismatch',
    model: signModel(withValue(intact, ['executionOutcomeHash'], hashValue({ forged: true })), active),
    command: 'verify',
    verdict: 'fail',
    rule: 'RDS-F005',
    note: 'executionOutcomeHash replaced (re-signed): RDS-F005',
  });
}

/** Dumps signed by a revoked or unknown key, or recording a trust decision Reprise disagrees with. */
async function pushSignerSamples(s: Sample[], active: Signer): Promise<void> {
  const revoked = sampleSigner('revoked');
  const unknown = sampleSigner('unknown');
  // Revoked key (RDS-007 fail) and unknown key (RDS-007 unavailable).
  s.push({
    name: 'fail/revoked-key',
    model: await buildDump(sampleSpec({ dumpId: 'dump.exec.20260504.002' }), revoked),
    command: 'verify',
    verdict: 'fail',
    rule: 'RDS-007',
    note: 'signed by the sample key "revoked", which the sample trust store lists as revoked: RDS-007',
  });
  s.push({
    name: 'unavailable/unknown-key',
    model: await buildDump(sampleSpec({ dumpId: 'dump.exec.20260504.003' }), unknown),
    command: 'verify',
    verdict: 'unavailable',
    rule: 'RDS-007',
    note: 'signed by the sample key "unknown", absent from the sample trust store: RDS-007 unavailable',
  });
  // Recorded trust decision disagreeing with Reprise's.
  s.push({
    name: 'fail/trust-disagreement',
    model: await buildDump(
      sampleSpec({
        dumpId: 'dump.exec.20260504.004',
        trust: { decision: 'revoked', evaluatedAtUtc: '2026-05-04T10:00:01Z' },
      }),
      active,
    ),
    command: 'verify',
    verdict: 'fail',
    rule: 'RDS-007',
    note: 'the recorded trustDecision says "revoked" for an active key: RDS-007 shows both decisions',
  });
}

/** Dumps made for replay: aborted unavailable, or replayed under a what-if. */
async function pushReplaySamples(s: Sample[], intact: DumpModel, active: Signer): Promise<void> {
  // Replay: the locked model is not in the registry.
  {
    const spec = sampleSpec({ dumpId: 'dump.exec.20260504.005' });
    const expr = intact['artifacts'] as Record<string, { json?: JsonValue }>;
    const expression = expr[(intact['buffers'] as { expression: string }).expression]!.json!;
    spec.lockedProviderInfo = { ...spec.lockedProviderInfo, modelId: 'ref-3' };
    s.push({
      name: 'unavailable/missing-model',
      model: await buildDump({ ...spec, expression }, active),
      command: 'replay',
      verdict: 'unavailable',
      rule: 'RDS-LOCK-003',
      note: 'locked to model ref-3, which the provider registry does not offer: replay aborts unavailable (RDS-LOCK-003); verify passes',
    });
  }
  // Replay: a compute shape the provider does not offer (RDS-F004).
  {
    const spec = sampleSpec({
      dumpId: 'dump.exec.20260504.006',
      expression: { text: 'recorded on an accelerator Reprise does not emulate' },
    });
    spec.computeShape = { advisor: 'advisor.gpu_v9', arity: 32, tensorType: 'bf16' };
    s.push({
      name: 'unavailable/shape-divergence',
      model: await buildDump(spec, active),
      command: 'replay',
      verdict: 'unavailable',
      rule: 'RDS-F004',
      note: 'locked compute shape advisor.gpu_v9/32/bf16 is not offered: replay aborts unavailable (RDS-F004)',
    });
  }
  // Replay: kernel major version outside the supported range (RDS-F003).
  s.push({
    name: 'unavailable/kernel-major',
    model: await buildDump(sampleSpec({ dumpId: 'dump.exec.20260504.007', kernelVersion: '1.0.0' }), active),
    command: 'replay',
    verdict: 'unavailable',
    rule: 'RDS-F003',
    note: 'kernelVersion 1.0.0: replay aborts unavailable (RDS-F003); verify gives a warning',
  });
  // What-if drift (training): replay the intact dump under ref-2.
  s.push({
    name: 'whatif/drift',
    model: await buildDump(sampleSpec({ dumpId: 'dump.exec.20260504.008' }), active),
    command: 'replay',
    verdict: 'fail',
    rule: 'RDS-F005',
    extra: ['--what-if', 'model=ref-2'],
    note: 'training: replay with --what-if model=ref-2 (or shape=advisor.cpu_v1/4/fp32) to see drift; labelled a demonstration (details.whatIf), never pass',
  });
}

export function trustStoreDocument(): string {
  const doc = {
    type: TRUST_STORE_TYPE,
    keys: [
      trustStoreEntry(
        sampleSigner('active'),
        'reviewer',
        'sample dump signer (seed SHA-256("reprise/examples/dumps/active"))',
      ),
      trustStoreEntry(sampleSigner('revoked'), 'reviewer', 'sample revoked key', 'revoked'),
    ],
  };
  return JSON.stringify(doc, null, 2) + '\n';
}

export function sampleRuns(samples: readonly Sample[]): SampleRun[] {
  const runs: SampleRun[] = [];
  for (const x of samples) {
    for (const ext of ['dump.json', 'rom.md']) {
      runs.push({
        path: `dumps/${x.name}.${ext}`,
        command: x.command,
        args: [
          '--trust-store',
          TRUST_STORE_PATH,
          ...(x.command === 'replay' ? ['--providers', PROVIDERS_PATH] : []),
          ...(x.extra ?? []),
        ],
        verdict: x.verdict,
        ...(x.rule ? { rule: x.rule } : {}),
      });
    }
  }
  return runs;
}

export const dumpsWriter: ExampleWriter = {
  name: 'replay-dumps',
  async build(): Promise<ExampleFile[]> {
    const samples = await buildSamples();
    const files: ExampleFile[] = [
      {
        path: TRUST_STORE_PATH,
        bytes: trustStoreDocument(),
        note: 'sample trust store for dumps/: pass it as --trust-store (key "active" active, key "revoked" revoked)',
      },
      {
        path: PROVIDERS_PATH,
        bytes: JSON.stringify(registryDocument(builtinRegistry()), null, 2) + '\n',
        note: 'sample provider registry (= the built-in one: reprise.reference with ref-1, ref-2): pass it as --providers',
      },
    ];
    for (const x of samples) {
      const flags = `--trust-store ${TRUST_STORE_PATH}${x.command === 'replay' ? ` --providers ${PROVIDERS_PATH}` : ''}${x.extra ? ' ' + x.extra.join(' ') : ''}`;
      const whatIf = (x.extra ?? []).flatMap((a, i, all) => (a === '--what-if' && all[i + 1] ? [all[i + 1]!] : []));
      const expect = {
        verdict: x.verdict,
        command: x.command,
        ...(x.rule ? { rule: x.rule } : {}),
        ...(whatIf.length ? { whatIf } : {}),
      };
      const options = {
        trustStore: TRUST_STORE_PATH,
        ...(x.command === 'replay' ? { providers: PROVIDERS_PATH } : {}),
      };
      files.push({
        path: `dumps/${x.name}.dump.json`,
        bytes: x.jsonText ?? encodeJson(x.model),
        note: `${x.note}. Run: reprise ${x.command} ${flags}`,
        expect,
        options,
      });
      files.push({
        path: `dumps/${x.name}.rom.md`,
        bytes: x.romText ?? encodeRom(x.model),
        note: `ROM twin: ${x.note}. Run: reprise ${x.command} ${flags}`,
        expect,
        options,
      });
    }
    return files;
  },
};
