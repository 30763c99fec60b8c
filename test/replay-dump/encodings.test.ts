/**
 * Bad input in either encoding gives a clear finding with its rule id (and a `line:n`
 * pointer in ROM), never a crash; the ROM mapping round-trips exactly.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { runBytes } from '../../app/engine/run.js';
import { Sniffed } from '../../app/kinds/sniff.js';
import { decodeJson, encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { decodeRom, encodeRom, loadRomParser } from '../../app/kinds/replay-dump/rom-encoding.js';
import { orderFromText, type DumpModel } from '../../app/kinds/replay-dump/model.js';
import { canonicalizeParsed, canonicalizeValue, parseCanonical } from '../../app/core/jcs.js';
import fc from 'fast-check';
import { buildDump, sampleSigner, signModel } from '../../app/kinds/replay-dump/writer.js';
import { sampleSpec, trustStoreDocument } from '../../app/kinds/replay-dump/examples.js';

let intact: DumpModel;
let json: string;
let rom: string;
let store: string;

beforeAll(async () => {
  await loadRomParser();
  intact = await buildDump(sampleSpec(), sampleSigner('active'));
  json = encodeJson(intact);
  rom = encodeRom(intact);
  const dir = await mkdtemp(join(tmpdir(), 'reprise-enc-'));
  store = join(dir, 'trust.json');
  await writeFile(store, trustStoreDocument());
});

const verify = (name: string, text: string | Buffer, trust = true): Promise<Report> =>
  runBytes(
    name,
    Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'),
    'verify',
    trust ? { trustStore: store } : {},
  );
const rules = (r: Report) => r.findings.map((f) => f.rule);

describe('ROM mapping', () => {
  it('decodes to exactly the model the JSON encoding holds (round trip both ways)', () => {
    const fromRom = decodeRom(new Sniffed('x.rom.md', Buffer.from(rom))).model;
    const fromJson = decodeJson(new Sniffed('x.dump.json', Buffer.from(json))).model;
    expect(JSON.stringify(fromJson)).toBe(JSON.stringify(intact));
    expect(JSON.parse(JSON.stringify(fromRom))).toEqual(intact);
    expect(encodeRom(fromRom!)).toBe(rom);
  });

  it('keeps text artifacts byte-exact, including backtick runs, trailing newlines and empty text', async () => {
    const spec = sampleSpec({
      prompt: { mediaType: 'text/markdown', text: '```js\nx\n```\n\n````\n\n' },
      materials: [{ mediaType: 'text/plain', text: '' }],
    });
    const m = await buildDump(spec, sampleSigner('active'));
    const r = await verify('t.rom.md', encodeRom(m));
    expect(r.verdict).toBe('pass');
    expect(encodeRom(m)).toContain('`````text');
  });

  it('the seed-style [[ref]] links decode to strings', () => {
    expect(rom).toContain('* [locked_provider]: [[reprise.reference]]');
    expect(rom).toContain('* [shape_advisor]: [[advisor.cpu_v1]]');
  });
});

describe('the writer writes what its reader accepts', () => {
  // V8 enumerates integer-like member names first ("9" before "10"); JCS puts "10" first.
  it('member names that look like integers are written in canonical order, in both encodings', async () => {
    const spec = sampleSpec({
      materials: [{ mediaType: 'application/json', json: { '2025': 'x', '99': 'y', a: { '10': 1, '9': 2 } } }],
      lockedProviderInfo: {
        ...sampleSpec().lockedProviderInfo,
        capacitySnapshot: { '9': 2, '10': 1, contextWindow: 4096 },
      },
    });
    const m = await buildDump(spec, sampleSigner('active'));
    const j = encodeJson(m);
    expect(j).toContain('{"10":1,"9":2,"contextWindow":4096}');
    expect(j).toContain('{"2025":"x","99":"y","a":{"10":1,"9":2}}');
    for (const [name, text] of [
      ['i.dump.json', j],
      ['i.rom.md', encodeRom(m)],
    ] as const) {
      const r = await verify(name, text);
      expect(r.verdict, JSON.stringify(r.findings)).toBe('pass');
    }
  });

  // U+2028/U+2029 end a line for a JS regex's `.`, not for ROM (lines end with LF only);
  // a long dumpId pushes the front matter's `type` line past 4 KiB.
  it('a ROM twin with U+2028/U+2029 in values, or a 4 KB dumpId, verifies like its JSON', async () => {
    const specs = [
      sampleSpec({
        lockedProviderInfo: {
          ...sampleSpec().lockedProviderInfo,
          capacitySnapshot: { contextWindow: 4096, note: 'a\u2028b' },
        },
      }),
      sampleSpec({ materials: [{ mediaType: 'text/markdown\u2029', text: 'line\u2028still one line' }] }),
      sampleSpec({ dumpId: 'd'.repeat(4010) }),
    ];
    for (const spec of specs) {
      const m = await buildDump(spec, sampleSigner('active'));
      for (const [name, text] of [
        ['u.dump.json', encodeJson(m)],
        ['u.rom.md', encodeRom(m)],
      ] as const) {
        const r = await verify(name, text);
        expect(r.verdict, `${name}: ${JSON.stringify(r.findings)}`).toBe('pass');
      }
    }
  });
});

describe('integers beyond 2^53 that a double cannot hold are refused (spec/common.md), naming the member', () => {
  // The signature covers the canonical (rounded) value: 9007199254740993 and
  // 9007199254740992 sign alike, so an edit between them must not pass.
  let m: DumpModel;
  let key: string;
  beforeAll(async () => {
    m = await buildDump(
      sampleSpec({ materials: [{ mediaType: 'application/json', json: { n: 9007199254740992 } }] }),
      sampleSigner('active'),
    );
    key = (m['materialSnapshotHashSet'] as string[])[0]!;
    expect((await verify('p.dump.json', encodeJson(m))).verdict).toBe('pass');
  });
  it('in a JSON artifact, in both encodings, in any notation', async () => {
    for (const [name, text] of [
      ['p.dump.json', encodeJson(m)],
      ['p.rom.md', encodeRom(m)],
    ] as const) {
      for (const forged of ['9007199254740993', '9007199254740993.0', '9.007199254740993e15', '90071992547409930e-1']) {
        const edited = text.replace('9007199254740992', forged);
        expect(edited).not.toBe(text);
        const r = await verify(name, edited);
        expect(r.verdict, `${name} ${forged}`).toBe('fail');
        const f = r.findings.find((x) => x.rule === 'RPR-DUMP-003');
        expect(f?.pointer, JSON.stringify(r.findings)).toBe(`/artifacts/${key}/json/n`);
      }
      // The same value in another exact spelling is the same signed value: still a pass.
      expect((await verify(name, text.replace('9007199254740992', '9007199254740992.0'))).verdict).toBe('pass');
    }
  });
  it('in a bullet value and in the front matter (ROM)', async () => {
    const cap = encodeRom(intact).replace('{"contextWindow":4096}', '{"contextWindow":12345678901234567890}');
    expect((await verify('c.rom.md', cap)).findings.find((x) => x.rule === 'RPR-DUMP-003')?.pointer).toBe(
      '/lockedProviderInfo/capacitySnapshot/contextWindow',
    );
    const seed = encodeRom(intact).replace('seed: 42', 'seed: 9007199254740993');
    expect((await verify('s.rom.md', seed)).findings.find((x) => x.rule === 'RPR-DUMP-003')?.pointer).toBe('/seed');
  });
});

describe('bad input gives a finding, never a crash', () => {
  const romCases: [string, (t: string) => string, string, string?][] = [
    ['unknown heading', (t) => t.replace('# Frozen Buffers', '# Thawed Buffers'), 'RPR-DUMP-001'],
    ['unknown bullet key', (t) => t.replace('* [arity]: 1', '* [arity]: 1\n* [lanes]: 2'), 'RPR-DUMP-001'],
    ['unknown front-matter key', (t) => t.replace('seed: 42\n', 'seed: 42\nextra: 1\n'), 'RPR-DUMP-001'],
    // Refused before YAML reads it (its unique-key check is quadratic: 40,000 keys took 12 s).
    [
      'front matter of 40,000 keys',
      (t) =>
        t.replace(
          'type: "kernel.replay_dump"\n',
          'type: "kernel.replay_dump"\n' + Array.from({ length: 40000 }, (_, i) => `k${i}: 1\n`).join(''),
        ),
      'RPR-DUMP-005',
      'line:',
    ],
    ['duplicate front-matter key', (t) => t.replace('seed: 42\n', 'seed: 42\nseed: 43\n'), 'RPR-DUMP-003'],
    // YAML drops a comment: text the model, the report and the signature never see.
    [
      'a comment line in the front matter',
      (t) => t.replace('seed: 42\n', 'seed: 42\n# APPROVED BY AUDITOR\n'),
      'RPR-DUMP-005',
      'line:',
    ],
    [
      'a trailing comment in the front matter',
      (t) => t.replace('seed: 42\n', 'seed: 42 # x\n'),
      'RPR-DUMP-005',
      'line:',
    ],
    // Refused before YAML reads it (YAML held about 37 bytes per byte: a 40 MB line took 1.8 GB).
    [
      'a front-matter line of more than 16 Ki characters',
      (t) => t.replace('seed: 42\n', `seed: 42\nzz: "${'a'.repeat(16 * 1024)}"\n`),
      'RPR-DUMP-005',
      'line:',
    ],
    [
      'a front matter of more than 64 Ki characters',
      (t) =>
        t.replace(
          'type: "kernel.replay_dump"\n',
          'type: "kernel.replay_dump"\n' +
            Array.from({ length: 5 }, (_, i) => `z${i}: "${'a'.repeat(15 * 1024)}"\n`).join(''),
        ),
      'RPR-DUMP-005',
      'line:',
    ],
    [
      'a front-matter line of exactly 16 Ki characters is read by YAML',
      (t) => t.replace('seed: 42\n', `seed: 42\nzz: "${'a'.repeat(16 * 1024 - 6)}"\n`),
      'RPR-DUMP-001',
      'line:',
    ],
    ['duplicate bullet', (t) => t.replace('* [arity]: 1', '* [arity]: 1\n* [arity]: 1'), 'RPR-DUMP-003'],
    ['YAML alias / custom tag', (t) => t.replace('seed: 42', 'seed: !!js/function "x"'), 'RPR-DUMP-005'],
    ['free text line', (t) => t.replace('# Frozen Buffers', 'Some prose.\n# Frozen Buffers'), 'RPR-DUMP-005', 'line:'],
    ['unclosed fence', (t) => t.slice(0, t.lastIndexOf('```')), 'RPR-DUMP-005'],
    // CRLF ends of the structural lines are noise, but inside a fenced block every character
    // is the artifact's content: converting the whole file alters the text artifacts.
    ['CRLF everywhere, fenced content included', (t) => t.replace(/\n/g, '\r\n'), 'RDS-F001'],
    ['bullet value that is not JSON', (t) => t.replace('* [arity]: 1', '* [arity]: one'), 'RPR-DUMP-005'],
    [
      'front-matter value YAML reads but JSON does not (hex)',
      (t) => t.replace('seed: 42', 'seed: 0x2A'),
      'RPR-DUMP-005',
      'line:',
    ],
    [
      'front-matter value YAML reads but JSON does not (single quotes)',
      (t) => t.replace(/^id: "(.*)"$/m, "id: '$1'"),
      'RPR-DUMP-005',
      'line:',
    ],
    [
      'front-matter value YAML reads but JSON does not (plain text)',
      (t) => t.replace('kernel_version: "0.0.7"', 'kernel_version: 0.0.7'),
      'RPR-DUMP-005',
      'line:',
    ],
    ['artifact named __proto__', (t) => t.replace(/^## sha256:[0-9a-f]{64}$/m, '## __proto__'), 'RPR-DUMP-004'],
    ['nested JSON out of order', (t) => t.replace('{"contextWindow":4096}', '{"contextWindow":4096,"a":1}'), 'RDS-004'],
    // Each ROM value is parsed alone; the depth limit still counts from the dump's root.
    [
      'artifact JSON nested deeper than 512 from the root',
      (t) =>
        t.replace(
          '{"rejected":3,"total":1204}',
          '{"rejected":3,"total":1204,"z":' + '['.repeat(509) + ']'.repeat(509) + '}',
        ),
      'RPR-DUMP-003',
    ],
    [
      'bullet JSON nested deeper than 512 from the root',
      (t) =>
        t.replace('{"contextWindow":4096}', '{"contextWindow":4096,"z":' + '['.repeat(510) + ']'.repeat(510) + '}'),
      'RPR-DUMP-003',
    ],
  ];
  it("ROM: the front matter's bounds say which was passed, and where", async () => {
    const line = await verify('long.rom.md', rom.replace('seed: 42\n', `seed: 42\nzz: "${'a'.repeat(40_000)}"\n`));
    expect(line.findings[0]).toMatchObject({
      rule: 'RPR-DUMP-005',
      pointer: 'line:7',
      message: expect.stringMatching(
        /^this front-matter line is 40006 characters long, more than 16384; a ROM dump's front matter holds six keys/,
      ) as unknown,
    });
    const all = await verify(
      'long.rom.md',
      rom.replace(
        'type: "kernel.replay_dump"\n',
        'type: "kernel.replay_dump"\n' +
          Array.from({ length: 5 }, (_, i) => `z${i}: "${'a'.repeat(15 * 1024)}"\n`).join(''),
      ),
    );
    expect(all.findings[0]!.message).toMatch(/^the front matter is longer than 65536 characters;/);
  });
  for (const [label, mutate, rule, ptr] of romCases) {
    it(`ROM: ${label} → ${rule}`, async () => {
      const r = await verify('bad.rom.md', mutate(rom));
      expect(r.artifact.kind).toBe('replay-dump');
      expect(r.verdict).toBe('fail');
      expect(rules(r), JSON.stringify(r.findings)).toContain(rule);
      if (ptr) expect(r.findings.find((f) => f.rule === rule)!.pointer).toMatch(/^line:\d+$/);
    });
  }

  const jsonCases: [string, (t: string) => string, string][] = [
    ['duplicate member', (t) => t.replace('"seed": 42,', '"seed": 42,\n  "seed": 42,'), 'RPR-DUMP-003'],
    ['unknown top-level member', (t) => t.replace('"seed": 42,', '"seed": 42,\n  "seedx": 1,'), 'RPR-DUMP-001'],
    ['unknown nested member', (t) => t.replace('"arity": 1,', '"arity": 1,\n    "lanes": 2,'), 'RPR-DUMP-001'],
    ['wrong type', (t) => t.replace('"seed": 42,', '"seed": "42",'), 'RPR-DUMP-002'],
    [
      'upper-case hash',
      (t) =>
        t.replace(
          /"promptArtifactHash": "sha256:([0-9a-f]+)"/,
          (_m, h: string) => `"promptArtifactHash": "sha256:${h.toUpperCase()}"`,
        ),
      'RPR-DUMP-004',
    ],
    ['impossible date', (t) => t.replace('2026-05-04T10:00:00Z', '2026-02-30T10:00:00Z'), 'RDS-003'],
    ['not semver', (t) => t.replace('"0.0.7"', '"v7"'), 'RPR-DUMP-007'],
    ['formatVersion 2', (t) => t.replace('"formatVersion": 1', '"formatVersion": 2'), 'RPR-DUMP-006'],
    [
      'lockedProviderInfo removed',
      (t) => t.replace(/ {2}"lockedProviderInfo": \{[^}]*\{[^}]*\}[^}]*\},\n/, ''),
      'RDS-LOCK-001',
    ],
    [
      'lockedProviderInfo null',
      (t) => t.replace(/ {2}"lockedProviderInfo": \{[^}]*\{[^}]*\}[^}]*\},\n/, '  "lockedProviderInfo": null,\n'),
      'RDS-LOCK-001',
    ],
    [
      'lockedProviderInfo null: loading denied',
      (t) => t.replace(/ {2}"lockedProviderInfo": \{[^}]*\{[^}]*\}[^}]*\},\n/, '  "lockedProviderInfo": null,\n'),
      'RDS-F002',
    ],
    [
      'lockedProviderInfo a string',
      (t) =>
        t.replace(
          / {2}"lockedProviderInfo": \{[^}]*\{[^}]*\}[^}]*\},\n/,
          '  "lockedProviderInfo": "reprise.reference/ref-1",\n',
        ),
      'RDS-LOCK-001',
    ],
    [
      'lockedProviderInfo a list: loading denied',
      (t) => t.replace(/ {2}"lockedProviderInfo": \{[^}]*\{[^}]*\}[^}]*\},\n/, '  "lockedProviderInfo": [],\n'),
      'RDS-F002',
    ],
    ['seed removed: not fully frozen', (t) => t.replace('  "seed": 42,\n', ''), 'RDS-005'],
    ['arity malformed: not fully frozen', (t) => t.replace('"arity": 1,', '"arity": "1",'), 'RDS-005'],
    [
      'expression buffer removed: snapshot incomplete',
      (t) => t.replace(/ {4}"expression": "sha256:[0-9a-f]{64}",\n/, ''),
      'RDS-006',
    ],
  ];
  for (const [label, mutate, rule] of jsonCases) {
    it(`JSON: ${label} → ${rule}`, async () => {
      const t = mutate(json);
      expect(t).not.toBe(json);
      const r = await verify('bad.dump.json', t);
      expect(r.verdict).toBe('fail');
      expect(rules(r), JSON.stringify(r.findings)).toContain(rule);
    });
  }

  it('a reference to an artifact that is present but malformed says so (not "no such artifact")', async () => {
    const k = intact['promptArtifactHash'] as string;
    const m = JSON.parse(JSON.stringify(intact)) as DumpModel;
    (m['artifacts'] as Record<string, Record<string, unknown>>)[k]!['mediaType'] = '';
    const r = await verify('m.dump.json', encodeJson(m));
    expect(r.verdict).toBe('fail');
    const refs = r.findings.filter((f) => f.rule === 'RDS-002');
    expect(refs.map((f) => f.pointer).sort()).toEqual(['/buffers/orchestration', '/promptArtifactHash']);
    for (const f of refs) expect(f.actual).toBe('a malformed artifact');
    expect(r.findings.find((f) => f.pointer === `/artifacts/${k}/mediaType`)?.rule).toBe('RPR-DUMP-002');
  });

  it('a non-canonical base64 signature (same bytes, other padding bits) is refused', async () => {
    const sig = intact['signature'] as string;
    const last = sig[85]!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const alt = alphabet[alphabet.indexOf(last) ^ 1]!;
    const forged = sig.slice(0, 85) + alt + '==';
    expect(Buffer.from(forged, 'base64').equals(Buffer.from(sig, 'base64'))).toBe(true);
    const r = await verify('sig.dump.json', json.replace(sig, forged));
    expect(r.verdict).toBe('fail');
    expect(rules(r)).toContain('RDS-F001');
  });

  it('without a trust store the signature cannot be decided: unavailable RDS-007', async () => {
    const r = await verify('x.dump.json', json, false);
    expect(r.verdict).toBe('unavailable');
    expect(r.findings.find((f) => f.rule === 'RDS-007')?.severity).toBe('unavailable');
  });

  it('a kernel major outside the supported range is a warning for verify (RDS-F003)', async () => {
    const m = await buildDump(sampleSpec({ kernelVersion: '3.1.4' }), sampleSigner('active'));
    const r = await verify('k.dump.json', encodeJson(m));
    expect(r.verdict).toBe('pass');
    expect(r.findings.find((f) => f.rule === 'RDS-F003')?.severity).toBe('warning');
  });

  it('a trustDecision naming another key is RDS-007', async () => {
    const m = JSON.parse(JSON.stringify(intact)) as DumpModel;
    (m['trustDecision'] as Record<string, string>)['keyId'] = sampleSigner('unknown').keyId;
    const r = await verify('td.dump.json', encodeJson(signModel(m, sampleSigner('active'))));
    expect(r.verdict).toBe('fail');
    expect(r.findings.find((f) => f.rule === 'RDS-007' && f.pointer === '/trustDecision/keyId')).toBeDefined();
  });

  it('non-UTF-8 bytes and truncated files are refused', async () => {
    const bad = Buffer.concat([
      Buffer.from(json.slice(0, 100)),
      Buffer.from([0xff, 0xfe]),
      Buffer.from(json.slice(100)),
    ]);
    expect((await verify('u.dump.json', bad)).verdict).toBe('fail');
    const romBad = Buffer.concat([Buffer.from(rom.slice(0, 200)), Buffer.from([0xc3]), Buffer.from(rom.slice(200))]);
    const r = await verify('u.rom.md', romBad);
    expect(r.verdict).toBe('fail');
    expect(rules(r)).toContain('RPR-DUMP-005');
    expect((await verify('t.dump.json', json.slice(0, json.length / 2))).verdict).toBe('fail');
  });

  it('member order is read from the text, including array-index-like names', () => {
    expect(orderFromText('{"a":1,"b":{"10":1,"9":2},"c":[{"x":1,"y":2}]}')).toBeNull();
    expect(orderFromText('{"a":1,"b":{"9":1,"10":2}}')?.pointer).toBe('/b/10');
    expect(orderFromText('{"a":[{"y":"\\"}","x":1}]}')?.pointer).toBe('/a/0/x');
  });

  it('canonicalizeParsed equals canonicalizeValue on parsed values (property test)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const parsed = parseCanonical(JSON.stringify(v)).value;
        expect(canonicalizeParsed(parsed)).toBe(canonicalizeValue(parsed));
        const sorted = JSON.parse(canonicalizeValue(parsed)) as unknown;
        expect(canonicalizeParsed(sorted)).toBe(canonicalizeValue(parsed));
      }),
      { numRuns: 500 },
    );
    expect(canonicalizeParsed(JSON.parse('{"b":1,"10":2,"9":3}'))).toBe('{"10":2,"9":3,"b":1}');
  });
});
