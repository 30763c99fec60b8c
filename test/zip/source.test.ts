/**
 * Reading an archive on disk by position (fileSource) gives exactly what reading it from
 * memory gives: the same structure findings and entries for every attack archive, the
 * same content (bytes, SHA-256, findings) for every entry on both inflate paths, and the
 * same results when inflate workers read the file through the shared descriptor.
 */
import { closeSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../app/core/hash.js';
import { readEntry, readStructure, resolveLimits, SYNC_MAX } from '../../app/zip/index.js';
import { fileSource, SourceError, type ZipSource } from '../../app/zip/source.js';
import { cliBuilt, ROOT } from '../helpers/cli.js';
import { both, CASES, text, two } from './cases.js';
import { gen } from './gen.js';
import { digits } from '../helpers/data.js';

const dir = mkdtempSync(join(tmpdir(), 'reprise-zip-source-'));
const fds: number[] = [];
afterAll(() => fds.forEach((fd) => closeSync(fd)));
let n = 0;

function onDisk(buf: Buffer, size = buf.length): ZipSource {
  const p = join(dir, `a${n++}.zip`);
  writeFileSync(p, buf);
  const fd = openSync(p, 'r');
  fds.push(fd);
  return fileSource(fd, size);
}

/** Structure and every entry's content (kept and not kept), from memory and from disk. */
async function both2(buf: Buffer, limits?: Record<string, number>) {
  const L = resolveLimits(limits);
  const read = async (src: Buffer | ZipSource) => {
    const s = readStructure(src, L);
    const contents = [];
    if (s.ok) for (const e of s.entries) contents.push(await readEntry(src, e, false), await readEntry(src, e, true));
    // Kept bytes compare by digest (a deep equality of megabyte buffers is very slow).
    return { s, contents: contents.map((c) => ({ ...c, bytes: c.bytes && sha256Hex(c.bytes) })) };
  };
  return { mem: await read(buf), disk: await read(onDisk(buf)) };
}

describe('an archive on disk reads exactly as in memory', () => {
  it.each(CASES)('%s (%s): same findings and entries', async (_label, rule, bytes, limits) => {
    const { mem, disk } = await both2(bytes(), limits);
    expect(disk).toEqual(mem);
    expect([...disk.s.findings, ...disk.contents.flatMap((c) => c.findings)].map((f) => f.rule)).toContain(rule);
  });

  it('the plain archives, byte for byte (kept entries are identical buffers)', async () => {
    const { mem, disk } = await both2(gen(two()));
    expect(mem.s.ok).toBe(true);
    expect(disk).toEqual(mem);
    expect(disk.contents[1]!.bytes).toBe(sha256Hex(text));
  });

  const big = digits(SYNC_MAX + 1024 * 1024, 7);
  const bigDeflated = zlib.deflateRawSync(big);
  const streaming: [string, () => Buffer, string[]][] = [
    ['a 9 MiB deflated entry', () => gen({ entries: [{ name: 'b', data: big }] }), []],
    ['a 9 MiB stored entry', () => gen({ entries: [{ name: 'b', data: big, method: 0 }] }), []],
    [
      'a stream longer than declared',
      () => gen({ entries: [{ name: 'b', data: big, ...both({ usize: big.length - 1 }) }] }),
      ['RPR-ZIP-016'],
    ],
    [
      'a stream shorter than declared',
      () => gen({ entries: [{ name: 'b', data: big, ...both({ usize: big.length + 1 }) }] }),
      ['RPR-ZIP-017'],
    ],
    [
      'a truncated stream',
      () => gen({ entries: [{ name: 'b', data: big, raw: bigDeflated.subarray(0, bigDeflated.length - 100) }] }),
      ['RPR-ZIP-017'],
    ],
    [
      'compressed bytes left over',
      () => gen({ entries: [{ name: 'b', data: big, raw: Buffer.concat([bigDeflated, Buffer.from('JUNK')]) }] }),
      ['RPR-ZIP-018'],
    ],
    ['a CRC mismatch', () => gen({ entries: [{ name: 'b', data: big, ...both({ crc: 1 }) }] }), ['RPR-ZIP-015']],
    [
      'a small declared size over 9 MiB of compressed data',
      () => gen({ entries: [{ name: 'b', data: 'x', raw: bigDeflated, ...both({ usize: 1 }) }] }),
      ['RPR-ZIP-016'],
    ],
  ];
  it.each(streaming)('streaming path: %s', async (_label, bytes, want) => {
    const { mem, disk } = await both2(bytes());
    expect(disk).toEqual(mem);
    for (const c of disk.contents) expect(c.findings.map((f) => f.rule)).toEqual(want);
    if (!want.length) expect(disk.contents[1]!.bytes).toBe(sha256Hex(big));
  });

  it.skipIf(!cliBuilt())(
    'inflate workers reading the shared descriptor give what the calling thread gives',
    async () => {
      const entries = Array.from({ length: 40 }, (_, i) => ({
        name: `extras/p${i}.csv`,
        data: digits(1024 * 1024, i + 1),
        ...(i === 7 ? both({ crc: 1 }) : {}),
        ...(i % 5 === 0 ? { method: 0 } : {}),
      }));
      const buf = gen({ entries });
      // The built modules: a worker thread runs dist/app/zip/inflate-worker.js.
      const { readEntries } = (await import(
        `${ROOT}dist/app/zip/parallel.js`
      )) as typeof import('../../app/zip/parallel.js');
      const dist = (await import(`${ROOT}dist/app/zip/source.js`)) as typeof import('../../app/zip/source.js');
      const p = join(dir, 'workers.zip');
      writeFileSync(p, buf);
      const fd = openSync(p, 'r');
      fds.push(fd);
      const src = dist.fileSource(fd, buf.length);
      const s = readStructure(src, resolveLimits(undefined));
      expect(s.ok).toBe(true);
      const keep = () => false;
      const workers = await readEntries(src, s.entries, keep, { workers: 2 });
      const inline = await readEntries(buf, s.entries, keep, { workers: 0 });
      expect(workers).toEqual(inline);
      expect(workers[7]!.findings.map((f) => f.rule)).toEqual(['RPR-ZIP-015']);
      expect(workers.filter((c) => c.sha256 !== null)).toHaveLength(39);
    },
  );

  it('a file shorter than when it was opened is a SourceError, not a finding', () => {
    const buf = gen(two());
    expect(() => readStructure(onDisk(buf, buf.length + 100), resolveLimits(undefined))).toThrow(SourceError);
  });
});
