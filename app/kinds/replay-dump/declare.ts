/**
 * The replay-dump kind (seed 001, spec/replay-dump.md): detects both encodings by content.
 * Decoding, verifying (verify.ts) and replaying (replay.ts) load with index.ts when a job
 * of the kind runs.
 */
import type { Sniffed } from '../sniff.js';
import { TRUST_STORE_OPTION, type KindHandler, type KindOption } from '../types.js';
import { DUMP_RULES } from './rule-ids.js';

/** The `type` of a dump in either encoding (model.ts passes it on to the writers and checks). */
export const DUMP_TYPE = 'kernel.replay_dump';

export function detectJson(s: Sniffed): boolean {
  const o = s.firstChar() === '{' ? s.jsonObject() : null;
  // A dump no parse reads (nested too deep, behind a byte-order mark, not UTF-8) is still a
  // dump when its top-level "type" says so: refused as one (RPR-DUMP-003), with the reason.
  return o ? o['type'] === DUMP_TYPE : s.topLevelString('type') === DUMP_TYPE;
}

/** Detection looks for the front matter's `type` line within this many bytes. */
export const ROM_DETECT_BYTES = 64 * 1024;

/** A UTF-8 byte-order mark (EF BB BF). */
export const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

/**
 * Where a ROM text's front matter starts: 0, or after a byte-order mark, so that a ROM dump
 * saved with one (by an editor) is still told as a dump and refused by name (decodeRom).
 */
function frontMatterAt(s: Sniffed): number {
  for (const at of [[], UTF8_BOM])
    if (s.startsWith([...at, 0x2d, 0x2d, 0x2d, 0x0a]) || s.startsWith([...at, 0x2d, 0x2d, 0x2d, 0x0d, 0x0a]))
      return at.length;
  return -1;
}

export function detectRom(s: Sniffed): boolean {
  const at = frontMatterAt(s);
  if (at === -1) return false;
  const head = s.bytes
    .subarray(at, at + ROM_DETECT_BYTES)
    .toString('utf8')
    .replace(/\r\n/g, '\n');
  const end = head.indexOf('\n---\n', 3);
  const fm = end === -1 ? head : head.slice(0, end);
  // Indented or with blanks around the colon: formatting noise (see rom-reader.ts).
  return /\n[ \t]*type[ \t]*:[ \t]*["']?kernel\.replay_dump["']?[ \t]*\n/.test(fm + '\n');
}

const DUMP_OPTIONS = [
  // Without it, who signed the dump cannot be decided (verify.ts, RDS-007).
  { ...TRUST_STORE_OPTION, decides: ['RDS-007'] },
  {
    name: 'providers',
    flag: 'providers',
    arg: 'FILE',
    path: 'file',
    workbench: true,
    help: 'the provider registry replays re-execute against',
    // A locked provider the built-in registry lacks (app/providers/registry.ts); its other
    // RDS-LOCK-003 findings are of a registry that does name the provider.
    decides: [{ rule: 'RDS-LOCK-003', pointerEndsWith: '/lockedProviderInfo/providerId' }],
  },
  {
    name: 'whatIf',
    flag: 'what-if',
    arg: 'model=V|shape=S',
    multiple: true,
    replayOnly: true,
    values: { pattern: /^(model|shape)=.+$/, describe: 'model=VERSION or shape=ADVISOR/ARITY/TENSORTYPE' },
    help: 'a what-if substitution (training: the report is a demonstration and never passes)',
  },
] as const satisfies readonly KindOption[];

const CANONICAL_DUMP_START = /^[ \t\r\n]*\{[ \t\r\n]*"artifacts"[ \t\r\n]*:/;

export const replayDumpKind: KindHandler<typeof DUMP_OPTIONS> = {
  kind: 'replay-dump',
  rules: { doc: 'docs/rules/replay-dump.md', ids: DUMP_RULES },
  options: DUMP_OPTIONS,
  examples: async () => (await import('./examples.js')).dumpsWriter,
  detect: (s) => detectRom(s) || detectJson(s),
  // A large JSON dump is parsed while another thread strips it: that thread also checks
  // the signature (about 0.2 s for 100 MiB) when the trust store is at hand before the
  // parse. verifyModel uses the result only for the same key, signature and payload.
  async beforeParse(s, ctx) {
    if (s.firstChar() !== '{') return null;
    const trust = await ctx.trustStore().catch(() => null);
    return trust && trust.keys.length > 0
      ? { omit: 'signature', keyIdMember: 'keyId', keys: new Map(trust.keys.map((k) => [k.keyId, k.publicKey])) }
      : null;
  },
  // Every member of a dump is required, so written canonically (the only way the stripped
  // bytes are used) it starts with "artifacts", the first name in RFC 8785 order.
  stripsCanonical: (head) =>
    CANONICAL_DUMP_START.test(Buffer.from(head.buffer, head.byteOffset, Math.min(head.length, 64)).toString('latin1')),
  load: async () => (await import('./index.js')).replayDumpCode,
};
