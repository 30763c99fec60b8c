/**
 * Random text mutations of the intact dump, both encodings, through verify and replay: never
 * an internal error (the engine's "bug" outcome), and a pass only when the mutated text still
 * decodes to the very model that was signed (insignificant whitespace, a blank line).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { executeJob } from '../../app/jobs/execute.js';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { Sniffed } from '../../app/kinds/sniff.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { decodeRom, encodeRom, loadRomParser } from '../../app/kinds/replay-dump/rom-encoding.js';
import type { DumpModel } from '../../app/kinds/replay-dump/model.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { sampleSpec, trustStoreDocument } from '../../app/kinds/replay-dump/examples.js';

const PIECES = [
  '"',
  ':',
  ',',
  '[',
  ']',
  '{',
  '}',
  '\n',
  ' ',
  '*',
  '#',
  '-',
  '\\',
  'a',
  '0',
  '9',
  '.',
  'e',
  'é',
  '😀',
  '\u0000',
  '---\n',
  '[[',
  ']]',
  '`',
  '\t',
  '\r\n',
  'null',
  '1e999',
  '-0',
  '&a',
  '*a',
  '!!js/function',
  '\u2028',
];

let intact: DumpModel;
let store: string;
beforeAll(async () => {
  await loadRomParser();
  intact = await buildDump(sampleSpec(), sampleSigner('active'));
  const dir = await mkdtemp(join(tmpdir(), 'reprise-fuzz-'));
  store = join(dir, 'trust.json');
  await writeFile(store, trustStoreDocument());
});

function mutate(text: string, rnd: () => number): string {
  let t = text;
  const edits = 1 + Math.floor(rnd() * 3);
  for (let j = 0; j < edits; j++) {
    const p = Math.floor(rnd() * (t.length + 1));
    const piece = PIECES[Math.floor(rnd() * PIECES.length)]!;
    const op = Math.floor(rnd() * 4);
    if (op === 0) t = t.slice(0, p) + t.slice(p + 1 + Math.floor(rnd() * 8));
    else if (op === 1) t = t.slice(0, p) + piece + t.slice(p);
    else if (op === 2) t = t.slice(0, p) + piece + t.slice(p + 1);
    else t = t.slice(0, p);
  }
  return t;
}

/** A small seeded generator (mulberry32): the same mutations on every run. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('fuzzing the dump encodings', () => {
  for (const encoding of ['json', 'rom'] as const) {
    it(`${encoding}: 300 random mutations, verify and replay: no internal error; a pass is the signed model`, async () => {
      const original = encoding === 'json' ? encodeJson(intact) : encodeRom(intact);
      const signed = canonicalizeValue(intact);
      const rnd = seeded(encoding === 'json' ? 1 : 2);
      let passes = 0;
      for (let i = 0; i < 300; i++) {
        const text = mutate(original, rnd);
        for (const mode of ['verify', 'replay'] as const) {
          const o = await executeJob({
            op: 'runBytes',
            path: `f.${encoding === 'json' ? 'dump.json' : 'rom.md'}`,
            bytes: Buffer.from(text),
            mode,
            options: { trustStore: store },
          });
          if (!o.ok) {
            expect(o.usage, `${mode} of mutation ${i}: ${o.message}`).toBe(true);
            continue;
          }
          if (o.report.verdict !== 'pass') continue;
          passes++;
          const model =
            encoding === 'json'
              ? (JSON.parse(text) as unknown)
              : decodeRom(new Sniffed('f.rom.md', Buffer.from(text))).model;
          expect(canonicalizeValue(model), `mutation ${i} passed: ${JSON.stringify(text.slice(0, 80))}`).toBe(signed);
        }
      }
      console.log(
        `replay-dump fuzz (${encoding}): 300 mutations x verify/replay, ${passes} passes, each the signed model`,
      );
    }, 120_000);
  }
});
