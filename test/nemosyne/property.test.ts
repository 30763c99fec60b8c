/**
 * Property tests (fast-check): random mutations of intact packages and random bytes.
 * Never a crash (runBytes never throws); never a pass for a package whose content
 * changed. A mutation may pass only when every entry (name and SHA-256 of its bytes)
 * is exactly the original's: a byte no reader interprets (an attribute, a deflate
 * padding bit) is not package content.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPackageParts, packPackage } from '../../app/kinds/nemosyne/package-writer.js';
import { readEntry, readStructure, resolveLimits } from '../../app/zip/index.js';
import { supportDir, verify } from './helpers.js';

const support = supportDir();

async function contentOf(bytes: Buffer): Promise<string | null> {
  const s = readStructure(bytes, resolveLimits(undefined));
  if (!s.ok) return null;
  const parts: string[] = [];
  for (const e of s.entries) {
    const c = await readEntry(bytes, e, false);
    if (c.findings.length) return null;
    parts.push(`${e.name}=${c.sha256}`);
  }
  return parts.join('\n');
}

type Mutation =
  | { kind: 'flip'; at: number; xor: number }
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; bytes: Uint8Array }
  | { kind: 'delete'; at: number; n: number }
  | { kind: 'overwrite'; at: number; bytes: Uint8Array };

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), n: fc.integer({ min: 1, max: 16 }) }),
  fc.record({
    kind: fc.constant('overwrite' as const),
    at: fc.nat(),
    bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
  }),
);

function apply(b: Buffer, m: Mutation): Buffer {
  const at = m.at % b.length;
  switch (m.kind) {
    case 'flip': {
      const c = Buffer.from(b);
      c[at] = c[at]! ^ m.xor;
      return c;
    }
    case 'truncate':
      return b.subarray(0, at);
    case 'insert':
      return Buffer.concat([b.subarray(0, at), m.bytes, b.subarray(at)]);
    case 'delete':
      return Buffer.concat([b.subarray(0, at), b.subarray(at + m.n)]);
    case 'overwrite': {
      const c = Buffer.from(b);
      Buffer.from(m.bytes).copy(c, at);
      return c;
    }
  }
}

const INTACT = [
  {
    label: 'V2 without digest (pass without flags)',
    bytes: packPackage(buildPackageParts(2, { digest: false })),
    flags: {},
  },
  { label: 'V3 (pass with adapter and registry)', bytes: packPackage(buildPackageParts(3)), flags: support.flags },
  { label: 'V4 (pass with adapter and registry)', bytes: packPackage(buildPackageParts(4)), flags: support.flags },
];

describe('random mutations of intact packages', () => {
  it.each(INTACT)(
    '$label: never a crash, never a pass for changed content',
    async ({ bytes, flags }) => {
      expect((await verify(bytes, flags)).verdict).toBe('pass');
      const original = await contentOf(bytes);
      await fc.assert(
        fc.asyncProperty(mutation, async (m) => {
          const mutated = apply(bytes, m);
          const r = await verify(mutated, flags);
          if (r.verdict === 'pass') expect(await contentOf(mutated)).toBe(original);
        }),
        { numRuns: 400, seed: 5 },
      );
    },
    120_000,
  );

  it('mutations inside the manifest entry data never pass', async () => {
    const bytes = INTACT[1]!.bytes;
    const s = readStructure(bytes, resolveLimits(undefined));
    const m = s.entries.find((e) => e.name === 'manifest.json')!;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: m.dataOffset, max: m.dataEnd - 2 }),
        fc.integer({ min: 1, max: 255 }),
        async (at, xor) => {
          const c = Buffer.from(bytes);
          c[at] = c[at]! ^ xor;
          expect((await verify(c, support.flags)).verdict).not.toBe('pass');
        },
      ),
      { numRuns: 200, seed: 7 },
    );
  }, 60_000);
});

describe('random bytes', () => {
  it('never crash and never pass, with or without a ZIP signature in front', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 2048 }),
        fc.constantFrom([], [0x50, 0x4b, 3, 4], [0x50, 0x4b, 5, 6]),
        async (body, magic) => {
          const r = await verify(Buffer.concat([Buffer.from(magic), body]), support.flags);
          expect(r.verdict).not.toBe('pass');
        },
      ),
      { numRuns: 500, seed: 11 },
    );
  });

  it('random end records over random entries never crash and never pass', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 512 }),
        fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 9, maxLength: 9 }),
        async (body, f) => {
          const eocd = Buffer.alloc(22);
          eocd.writeUInt32LE(0x06054b50, 0);
          for (let i = 0; i < 8; i++) eocd.writeUInt16LE(f[i]!, 4 + 2 * i);
          eocd.writeUInt16LE(f[8]! % 2 === 0 ? 0 : f[8]!, 20);
          const r = await verify(Buffer.concat([Buffer.from([0x50, 0x4b, 3, 4]), body, eocd]), support.flags);
          expect(r.verdict).not.toBe('pass');
        },
      ),
      { numRuns: 500, seed: 13 },
    );
  });
});
