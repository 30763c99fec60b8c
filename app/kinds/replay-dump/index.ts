/**
 * What runs a replay dump's job (declare.ts declares and detects the kind): decodes either
 * encoding to one model, verifies it (verify.ts) and replays it (replay.ts).
 */
import { dumpAuthenticity } from './authenticity.js';
import type { KindResult } from '../../core/report.js';
import type { Sniffed } from '../sniff.js';
import type { KindCode, KindContext } from '../types.js';
import { detectRom } from './declare.js';
import { decodeJson, signedPayload, strippedDump, type Decoded } from './json-encoding.js';
import { decodeRom, loadRomParser } from './rom-encoding.js';
import { replayVerified } from './replay.js';
import { markCutShort, type RomEnd } from './rom-end.js';
import { verifyModel, type DumpVerification } from './verify.js';
import type { DumpModel } from './model.js';
// What it offers a reviewer's case: small, loaded with the kind's code (no import per artifact).
import { dumpCaseFacts } from './case-facts.js';

/** Each artifact's decoded model, for what it offers a case once verified (case-facts.ts) without a second decode. */
const decoded = new WeakMap<Sniffed, DumpModel | null>();

function decode(s: Sniffed): Decoded & { encoding: 'json' | 'rom'; end?: RomEnd } {
  const d = detectRom(s)
    ? { ...decodeRom(s), encoding: 'rom' as const }
    : { ...decodeJson(s), encoding: 'json' as const };
  decoded.set(s, d.model);
  return d;
}

async function verifyDump(
  s: Sniffed,
  ctx: KindContext,
  mode: 'verify' | 'replay',
): Promise<DumpVerification & { encoding: string }> {
  if (detectRom(s)) await loadRomParser();
  const d = decode(s);
  if (!d.model) {
    const loose = s.jsonObject();
    // A dump no parse read still names itself (Sniffed.topLevelString; a ROM dump behind a mark: decodeRom).
    const id =
      d.id ?? (typeof loose?.['dumpId'] === 'string' ? (loose['dumpId'] as string) : s.topLevelString('dumpId'));
    return { id, findings: d.findings, chain: [], typed: {}, inputHash: null, encoding: d.encoding };
  }
  const trust = await ctx.trustStore();
  // Only a large document is stripped on another thread; a small one skips the wait.
  const stripped = d.encoding === 'json' && s.stripping ? await strippedDump(s) : null;
  const model = d.model;
  const payload = stripped ? () => stripped.payload : () => signedPayload(model, s.size);
  const v = verifyModel(model, trust, payload, mode === 'verify' ? 'warning' : 'unavailable', stripped ?? undefined);
  // A ROM text cut at a line's end reads well: where it stops says whether what is missing may be a cut.
  return {
    ...v,
    findings: [...d.findings, ...(d.end ? markCutShort(d.end, v.findings) : v.findings)],
    encoding: d.encoding,
  };
}

export const replayDumpCode: KindCode = {
  async verify(s, ctx): Promise<KindResult> {
    const v = await verifyDump(s, ctx, 'verify');
    return {
      id: v.id,
      findings: v.findings,
      chain: v.chain,
      authenticity: dumpAuthenticity(v.chain, v.findings),
      details: { encoding: v.encoding },
    };
  },
  async replay(s, ctx): Promise<KindResult> {
    const v = await verifyDump(s, ctx, 'replay');
    const r = await replayVerified(v, ctx.options.providers, ctx.options.whatIf);
    return {
      ...r,
      authenticity: dumpAuthenticity(v.chain, v.findings),
      details: { encoding: v.encoding, ...r.details },
    };
  },
  operations: {
    async caseFacts(subject) {
      const s = subject.sniffed;
      if (!s) return { identities: [], references: [], events: [] };
      if (!decoded.has(s)) {
        if (detectRom(s)) await loadRomParser();
        decode(s);
      }
      return dumpCaseFacts(decoded.get(s) ?? null);
    },
  },
};
