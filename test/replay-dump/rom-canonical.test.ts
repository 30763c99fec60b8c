/**
 * ROM is canonicalized before it is hashed (AIKernel.NET docs/specs/03.ROM_CORE_SPEC.md §4,
 * AC1; docs/rom-mapping.md "Canonicalization"): a ROM twin with its bullets, headings,
 * artifacts and front-matter keys shuffled, re-indented, renumbered, with CRLF structural
 * lines or `-` bullets decodes to the same model and gets the same chain, hashes and
 * verdict as the JSON twin, with no RDS-004. A changed value, a removed or a duplicated
 * entry still fails.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { runBytes } from '../../app/engine/run.js';
import { Sniffed } from '../../app/kinds/sniff.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { decodeRom, encodeRom, loadRomParser } from '../../app/kinds/replay-dump/rom-encoding.js';
import type { DumpModel } from '../../app/kinds/replay-dump/model.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { sampleSpec, trustStoreDocument } from '../../app/kinds/replay-dump/examples.js';
import { emitRomDoc, parseRomDoc, type Noise } from './rom-variants.js';

let store: string;
let intact: DumpModel;
let rom: string;
let jsonReport: Report;

const verify = (name: string, text: string): Promise<Report> =>
  runBytes(name, Buffer.from(text, 'utf8'), 'verify', { trustStore: store });
const rules = (r: Report) => r.findings.map((f) => f.rule).sort();

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'reprise-rom-canon-'));
  store = join(dir, 'trust.json');
  await writeFile(store, trustStoreDocument());
  await loadRomParser();
  intact = await buildDump(sampleSpec(), sampleSigner('active'));
  rom = encodeRom(intact);
  jsonReport = await verify('twin.dump.json', encodeJson(intact));
  expect(jsonReport.verdict).toBe('pass');
});

const NOISES: [string, Noise][] = [
  ['bullets, headings, artifacts and front-matter keys shuffled', { shuffle: 1 }],
  ['shuffled with another seed', { shuffle: 7 }],
  ['re-indented and padded (spaces, tabs, blanks around the colon)', { indent: true }],
  ['headings renumbered (# 1. …, ## 4.2 …)', { number: true }],
  ['structural lines ended with CRLF', { crlf: true }],
  ['"-" bullets and extra blank lines', { dash: true, blankLines: true }],
  ['all of it at once', { shuffle: 3, indent: true, number: true, crlf: true, dash: true, blankLines: true }],
];

describe('ROM canonicalization: formatting variants are the same document', () => {
  for (const [label, noise] of NOISES) {
    it(`${label}: same model, same chain and hashes, same verdict as the JSON twin, no RDS-004`, async () => {
      const variant = emitRomDoc(parseRomDoc(rom), noise);
      expect(variant).not.toBe(rom);
      const decoded = decodeRom(new Sniffed('v.rom.md', Buffer.from(variant, 'utf8')));
      expect(decoded.findings).toEqual([]);
      expect(JSON.parse(JSON.stringify(decoded.model))).toEqual(intact);
      const r = await verify('v.rom.md', variant);
      expect(r.verdict).toBe(jsonReport.verdict);
      expect(r.chain).toEqual(jsonReport.chain);
      expect(rules(r)).toEqual(rules(jsonReport));
      expect(rules(r)).not.toContain('RDS-004');
    });
  }

  it('the twins of an altered dump agree too: the shuffled ROM fails exactly as the JSON does', async () => {
    const altered = { ...intact, seed: 43 };
    const j = await verify('a.dump.json', encodeJson(altered));
    const r = await verify(
      'a.rom.md',
      emitRomDoc(parseRomDoc(encodeRom(altered)), { shuffle: 5, indent: true, number: true }),
    );
    expect(j.verdict).toBe('fail');
    expect(r.verdict).toBe('fail');
    expect(r.chain).toEqual(j.chain);
    expect(rules(r)).toEqual(rules(j));
  });
});

describe('ROM canonicalization: a changed value, a removal or a duplication still fails', () => {
  const noisy = () => emitRomDoc(parseRomDoc(rom), { shuffle: 11, indent: true, number: true });
  const cases: [string, (t: string) => string, string][] = [
    ['a bullet value changed', (t) => t.replace(/\[arity\] : {2}1/, '[arity] :  2'), 'RDS-F001'],
    [
      'a number changed in its last digit',
      (t) => t.replace(/\[temperature\] : {2}0\.7/, '[temperature] :  0.71'),
      'RDS-F001',
    ],
    ['a link target changed', (t) => t.replace('[[reprise.reference]]', '[[reprise.reference2]]'), 'RDS-F001'],
    ['a front-matter value changed', (t) => t.replace(/seed: {3}42/, 'seed:   43'), 'RDS-F001'],
    ['an artifact media type changed', (t) => t.replace('"text/markdown"', '"text/plain"'), 'RDS-F001'],
    ['a bullet removed', (t) => t.replace(/^.*\[top_p\].*\n/m, ''), 'RDS-001'],
    ['a bullet duplicated with the same value', (t) => t.replace(/^(.*\[arity\].*\n)/m, '$1$1'), 'RPR-DUMP-003'],
    [
      'a bullet duplicated under another case',
      (t) => t.replace(/^(.*)\[arity\](.*\n)/m, '$1[arity]$2$1[ARITY]$2'),
      'RPR-DUMP-003',
    ],
    [
      'a heading duplicated under other numbering',
      (t) => t.replace(/^(\s*#\s+)\d+\. Frozen Buffers/m, '$1 9. Frozen Buffers\n# 10. Frozen Buffers'),
      'RPR-DUMP-003',
    ],
    [
      'a front-matter key duplicated under another case',
      (t) => t.replace(/^(\s*)seed:/m, '$1Seed: 42\nseed:'),
      'RPR-DUMP-003',
    ],
  ];
  for (const [label, mutate, rule] of cases) {
    it(`${label} → ${rule}`, async () => {
      const before = noisy();
      const t = mutate(before);
      expect(t).not.toBe(before);
      const r = await verify('bad.rom.md', t);
      expect(r.verdict).toBe('fail');
      expect(rules(r), JSON.stringify(r.findings)).toContain(rule);
    });
  }

  it('members inside one bullet value are no ROM set: their order is still RDS-004, as in the JSON twin', async () => {
    const t = noisy().replace('{"contextWindow":4096}', '{"contextWindow":4096,"a":1}');
    expect(rules(await verify('o.rom.md', t))).toContain('RDS-004');
  });
});
