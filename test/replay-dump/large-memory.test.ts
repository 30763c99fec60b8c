/**
 * A large dump not written canonically (members out of order: RDS-004) cannot take its signed
 * payload or its JSON artifacts' canonical bytes from its own bytes: they are written from
 * the model in pieces (app/core/jcs/pieces.ts), never as one canonical string. Held here by
 * size, not time: the longest canonical text core serializes while such a dump is verified
 * (in either encoding) stays far below the dump's size, and the verdict and chain are those
 * of the intact dump, its signature checked.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { runBytes } from '../../app/engine/run.js';
import { STRIP_IN_WORKER_MIN } from '../../app/kinds/sniff.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { encodeRom } from '../../app/kinds/replay-dump/rom-encoding.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { sampleSpec, trustStoreDocument } from '../../app/kinds/replay-dump/examples.js';
import type { DumpModel } from '../../app/kinds/replay-dump/model.js';

/** The longest canonical text core's serializer returned since the last reset. */
const longest = vi.hoisted(() => ({ chars: 0 }));
vi.mock('../../app/core/jcs/serialize.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../app/core/jcs/serialize.js')>();
  const seen = <A extends unknown[]>(f: (...a: A) => string) =>
    function (...a: A): string {
      const s = f(...a);
      longest.chars = Math.max(longest.chars, s.length);
      return s;
    };
  return {
    ...real,
    serialize: seen(real.serialize),
    canonicalizeParsed: seen(real.canonicalizeParsed),
    canonicalizeValue: seen(real.canonicalizeValue),
  };
});

let store: string;
let json: string;
let rom: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'reprise-large-memory-'));
  store = join(dir, 'trust.json');
  await writeFile(store, trustStoreDocument());
  // A long text artifact and a large JSON artifact whose rows hold their members out of order.
  const text = Array.from({ length: 90_000 }, (_, i) => `- "quoted" C:\\path\ttab évidence ✓ #${i}`).join('\n');
  const rows = Array.from({ length: 25_000 }, (_, i) => ({ tag: `r${i} ${'note '.repeat(30)}`, score: i / 7, id: i }));
  const spec = sampleSpec({
    dumpId: 'dump.large.unordered',
    expression: { text: 'recorded' },
    materials: [
      { mediaType: 'text/markdown', text },
      { mediaType: 'application/json', json: { rows } },
    ],
  });
  const m = await buildDump(spec, sampleSigner('active'));
  // Top-level members in reverse: not canonical, so the stripped bytes are not used.
  const reversed: DumpModel = {};
  for (const k of Object.keys(m).reverse()) reversed[k] = m[k];
  json = encodeJson(reversed, 'model');
  rom = encodeRom(m);
}, 120_000);

describe('a large dump not written canonically', () => {
  for (const encoding of ['json', 'rom'] as const)
    it(`is verified without its canonical text whole (${encoding})`, async () => {
      const doc = Buffer.from(encoding === 'json' ? json : rom, 'utf8');
      expect(doc.length).toBeGreaterThan(STRIP_IN_WORKER_MIN);
      longest.chars = 0;
      const r = await runBytes(`x.${encoding === 'json' ? 'dump.json' : 'rom.md'}`, doc, 'verify', {
        trustStore: store,
      });
      expect(r.artifact.kind).toBe('replay-dump');
      expect(r.chain.find((n) => n.id === 'signature')?.status).toBe('match');
      expect(r.chain.every((n) => n.status === 'match')).toBe(true);
      const rules = r.findings.filter((f) => f.severity !== 'info').map((f) => `${f.rule} ${f.pointer ?? ''}`);
      expect(rules).toEqual(encoding === 'json' ? ['RDS-004 /trustDecision'] : []);
      // The payload is about the document's size, the JSON artifact about 40% of it: neither is one string.
      expect(longest.chars).toBeGreaterThan(0);
      expect(longest.chars).toBeLessThan(doc.length / 16);
    });
});
