/**
 * The replay-dump kind (seed 001, spec/replay-dump.md): detects both encodings by content,
 * decodes them to one model, verifies it (verify.ts) and replays it (replay.ts).
 */
import { dumpAuthenticity } from './authenticity.js';
import type { KindResult } from '../../core/report.js';
import type { Sniffed } from '../sniff.js';
import type { KindContext, KindHandler, KindOption } from '../types.js';
import { decodeJson, detectJson, strippedDump, type Decoded } from './json-encoding.js';
import { decodeRom, detectRom, loadRomParser } from './rom-encoding.js';
import { replayVerified } from './replay.js';
import { verifyModel, type DumpVerification } from './verify.js';

function decode(s: Sniffed): Decoded & { encoding: 'json' | 'rom' } {
  return detectRom(s) ? { ...decodeRom(s), encoding: 'rom' } : { ...decodeJson(s), encoding: 'json' };
}

async function verifyDump(s: Sniffed, ctx: KindContext, mode: 'verify' | 'replay'): Promise<DumpVerification & { encoding: string }> {
  if (detectRom(s)) await loadRomParser();
  const d = decode(s);
  if (!d.model) {
    const loose = s.jsonObject();
    const id = typeof loose?.['dumpId'] === 'string' ? (loose['dumpId'] as string) : null;
    return { id, findings: d.findings, chain: [], typed: {}, inputHash: null, encoding: d.encoding };
  }
  const trust = await ctx.trustStore();
  // Only a large document is stripped on another thread; a small one skips the wait.
  const stripped = d.encoding === 'json' && s.stripping ? await strippedDump(s) : null;
  const payload = stripped ? () => stripped.payload : () => Buffer.from(d.canonicalWithoutSignature(), 'utf8');
  const v = verifyModel(d.model, trust, payload, mode === 'verify' ? 'warning' : 'unavailable', stripped ?? undefined);
  return { ...v, findings: [...d.findings, ...v.findings], encoding: d.encoding };
}

const DUMP_OPTIONS = [
  { name: 'providers', flag: 'providers', arg: 'FILE', path: 'file', workbench: true, help: 'the provider registry replays re-execute against' },
  { name: 'whatIf', flag: 'what-if', arg: 'model=V|shape=S', multiple: true, replayOnly: true, values: { pattern: /^(model|shape)=.+$/, describe: 'model=VERSION or shape=ADVISOR/ARITY/TENSORTYPE' }, help: 'a what-if substitution (training: the report is a demonstration and never passes)' },
] as const satisfies readonly KindOption[];

export const replayDumpKind: KindHandler<typeof DUMP_OPTIONS> = {
  kind: 'replay-dump',
  options: DUMP_OPTIONS,
  examples: async () => (await import('../../examples/dumps.js')).dumpsWriter,
  detect: (s) => detectRom(s) || detectJson(s),
  // A large JSON dump is parsed while another thread strips it: that thread also checks
  // the signature (about 0.2 s for 100 MiB) when the trust store is at hand before the
  // parse. verifyModel uses the result only for the same key, signature and payload.
  async beforeParse(s, ctx) {
    if (s.firstChar() !== '{') return;
    const trust = await ctx.trustStore().catch(() => null);
    if (trust && trust.keys.length > 0) s.planDuringParse({ omit: 'signature', keyIdMember: 'keyId', keys: new Map(trust.keys.map((k) => [k.keyId, k.publicKey])) });
  },
  async verify(s, ctx): Promise<KindResult> {
    const v = await verifyDump(s, ctx, 'verify');
    return { id: v.id, findings: v.findings, chain: v.chain, authenticity: dumpAuthenticity(v.chain, v.findings), details: { encoding: v.encoding } };
  },
  async replay(s, ctx): Promise<KindResult> {
    const v = await verifyDump(s, ctx, 'replay');
    const r = await replayVerified(v, ctx.options.providers, ctx.options.whatIf);
    return { ...r, authenticity: dumpAuthenticity(v.chain, v.findings), details: { encoding: v.encoding, ...r.details } };
  },
};
