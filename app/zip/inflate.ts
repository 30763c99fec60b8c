/**
 * The strict ZIP reader, content pass: inflates one entry whose structure readStructure()
 * accepted, capped at its declared size. A declared size is never trusted: the cap is
 * `declared + 1` bytes, so a longer stream is caught one byte past the declaration and
 * memory stays bounded by the (limit-checked) declaration whatever the stream holds.
 *
 * Entries up to SYNC_MAX bytes go through `inflateRawSync({maxOutputLength})` (fastest for
 * the many small entries of a package); larger ones, and any whose compressed data exceeds
 * SYNC_MAX, stream through `createInflateRaw` in 1 MiB steps, hashed chunk by chunk (and
 * kept only when the caller needs the bytes) and destroyed the moment they pass the
 * declared size, so peak memory does not grow with the entry. The compressed bytes come
 * from a ZipSource: a buffer, or a file read by position one step at a time. The choice
 * of path depends only on the entry's declared sizes, never on the source, so an archive
 * gives the same findings from memory and from disk.
 */
import { newHasher, sha256Hex } from '../core/hash.js';
import zlib from 'node:zlib';
import type { Finding } from '../../shared/report.js';
import { fail } from '../core/findings.js';
import { METHOD_STORED, type ZipEntry } from './reader.js';
import { toSource, type ZipSource } from './source.js';

/** Entries declaring more than this stream (when their bytes are not kept). */
export const SYNC_MAX = 8 * 1024 * 1024;
const STEP = 1024 * 1024;
/** Hard ceiling for an entry held in memory to be parsed (JSON), whatever the limits. */
export const KEEP_MAX = 256 * 1024 * 1024;

export interface EntryContent {
  /** The inflated bytes, when asked for (`keep`) and intact. */
  bytes: Buffer | null;
  /** Bare lowercase hex SHA-256 of the inflated bytes (null when inflation failed). */
  sha256: string | null;
  length: number;
  findings: Finding[];
}

function crc32(data: Uint8Array, prev = 0): number {
  return zlib.crc32(data, prev) >>> 0;
}

/** The size and CRC-32 checks every path ends with (CRC only when the length is right). */
function sizeAndCrc(e: ZipEntry, length: number, crc: () => number): Finding[] {
  const ptr = `entry:${e.name}`;
  if (length > e.uncompressedSize)
    return [
      fail('RPR-ZIP-016', `entry ${JSON.stringify(e.name)} inflates past its declared size`, {
        pointer: ptr,
        expected: e.uncompressedSize,
        actual: `>${e.uncompressedSize}`,
      }),
    ];
  if (length < e.uncompressedSize)
    return [
      fail('RPR-ZIP-017', `entry ${JSON.stringify(e.name)} inflates to fewer bytes than declared`, {
        pointer: ptr,
        expected: e.uncompressedSize,
        actual: length,
      }),
    ];
  const c = crc();
  if (c !== e.crc32)
    return [
      fail('RPR-ZIP-015', `entry ${JSON.stringify(e.name)}: CRC-32 mismatch`, {
        pointer: ptr,
        expected: hex8(e.crc32),
        actual: hex8(c),
      }),
    ];
  return [];
}

function finish(e: ZipEntry, out: Buffer, keep: boolean): EntryContent {
  const findings = sizeAndCrc(e, out.length, () => crc32(out));
  if (findings.length) return { bytes: null, sha256: null, length: out.length, findings };
  return { bytes: keep ? out : null, sha256: sha256Hex(out), length: out.length, findings };
}

export function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

/** Inflates (or copies) one entry synchronously, capped at declared + 1 bytes. */
export function readEntrySync(archive: Uint8Array | ZipSource, e: ZipEntry, keep: boolean): EntryContent {
  const src = toSource(archive);
  // Consumed before this returns (inflated or digested), except a kept stored entry.
  const data =
    keep && e.method === METHOD_STORED ? src.read(e.dataOffset, e.dataEnd) : src.readTemp(e.dataOffset, e.dataEnd);
  // A buffer source gives a view of the archive: a kept entry gets its own copy.
  if (e.method === METHOD_STORED) return finish(e, keep && src.fd === null ? Buffer.from(data) : data, keep);
  const ptr = `entry:${e.name}`;
  let result: { buffer: Buffer; engine: zlib.InflateRaw };
  try {
    result = zlib.inflateRawSync(data, {
      maxOutputLength: e.uncompressedSize + 1,
      chunkSize: Math.max(64, Math.min(e.uncompressedSize + 1, SYNC_MAX)),
      info: true,
    }) as unknown as { buffer: Buffer; engine: zlib.InflateRaw };
  } catch (err) {
    return { bytes: null, sha256: null, length: 0, findings: [inflateError(e, err, ptr)] };
  }
  const leftover = data.length - result.engine.bytesWritten;
  if (leftover > 0)
    return {
      bytes: null,
      sha256: null,
      length: result.buffer.length,
      findings: [leftoverFinding(e, data.length, result.engine.bytesWritten)],
    };
  return finish(e, result.buffer, keep);
}

function leftoverFinding(e: ZipEntry, size: number, used: number): Finding {
  return fail(
    'RPR-ZIP-018',
    `entry ${JSON.stringify(e.name)}: ${size - used} compressed bytes are left over after the deflate stream ends`,
    { pointer: `entry:${e.name}`, expected: size, actual: used },
  );
}

function inflateError(e: ZipEntry, err: unknown, ptr: string): Finding {
  const code = (err as { code?: string }).code;
  if (code === 'ERR_BUFFER_TOO_LARGE')
    return fail('RPR-ZIP-016', `entry ${JSON.stringify(e.name)} inflates past its declared size`, {
      pointer: ptr,
      expected: e.uncompressedSize,
      actual: `>${e.uncompressedSize}`,
    });
  return fail(
    'RPR-ZIP-017',
    `entry ${JSON.stringify(e.name)}: the deflate stream is truncated or corrupt (${code ?? 'error'})`,
    { pointer: ptr, expected: e.uncompressedSize },
  );
}

/**
 * Streams one entry through inflate, CRC and SHA-256, reading its compressed data one
 * STEP at a time; its bytes are collected only when `keep` (capped at declared + 1).
 */
export function readEntryStreaming(archive: Uint8Array | ZipSource, e: ZipEntry, keep = false): Promise<EntryContent> {
  const src = toSource(archive);
  const size = e.dataEnd - e.dataOffset;
  const step = (pos: number) => src.read(e.dataOffset + pos, e.dataOffset + Math.min(pos + STEP, size));
  const hash = newHasher();
  const kept: Buffer[] = [];
  let crc = 0;
  let length = 0;
  const take = (chunk: Buffer) => {
    crc = crc32(chunk, crc);
    hash.update(chunk);
    if (keep) kept.push(chunk);
  };
  const end = (findings: Finding[]): EntryContent =>
    findings.length
      ? { bytes: null, sha256: null, length, findings }
      : { bytes: keep ? Buffer.concat(kept, length) : null, sha256: hash.digest('hex'), length, findings };
  if (e.method === METHOD_STORED) {
    for (let pos = 0; pos < size; pos += STEP) {
      const chunk = step(pos);
      length += chunk.length;
      take(chunk);
    }
    return Promise.resolve(end(sizeAndCrc(e, length, () => crc)));
  }
  const ptr = `entry:${e.name}`;
  return new Promise((resolve, reject) => {
    const inflater = zlib.createInflateRaw({ chunkSize: STEP });
    let settled = false;
    const settle = (c: EntryContent | Error) => {
      if (settled) return;
      settled = true;
      inflater.removeAllListeners('data');
      inflater.destroy();
      if (c instanceof Error) reject(c);
      else resolve(c);
    };
    inflater.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > e.uncompressedSize) {
        settle({
          bytes: null,
          sha256: null,
          length,
          findings: [
            fail('RPR-ZIP-016', `entry ${JSON.stringify(e.name)} inflates past its declared size`, {
              pointer: ptr,
              expected: e.uncompressedSize,
              actual: `>${e.uncompressedSize}`,
            }),
          ],
        });
        return;
      }
      take(chunk);
    });
    inflater.on('error', (err) => settle({ bytes: null, sha256: null, length, findings: [inflateError(e, err, ptr)] }));
    inflater.on('end', () => {
      if (inflater.bytesWritten < size) settle(end([leftoverFinding(e, size, inflater.bytesWritten)]));
      else settle(end(sizeAndCrc(e, length, () => crc >>> 0)));
    });
    let pos = 0;
    const pump = () => {
      try {
        while (!settled && pos < size) {
          const slice = step(pos);
          pos += slice.length;
          if (!inflater.write(slice)) {
            inflater.once('drain', pump);
            return;
          }
        }
      } catch (err) {
        settle(err as Error); // the source failed (SourceError): not the archive's fault
        return;
      }
      if (!settled && pos >= size) inflater.end();
    };
    pump();
  });
}

/**
 * Reads one entry: synchronously when its compressed data is at most SYNC_MAX bytes and
 * it is small or its bytes are needed, else streaming.
 */
export async function readEntry(archive: Uint8Array | ZipSource, e: ZipEntry, keep: boolean): Promise<EntryContent> {
  if (keep && e.uncompressedSize > KEEP_MAX) {
    const f = fail(
      'RPR-ZIP-032',
      `entry ${JSON.stringify(e.name)} must be parsed, and declares more than the ${KEEP_MAX} bytes a parser can hold whatever the limits say`,
      { pointer: `entry:${e.name}`, expected: KEEP_MAX, actual: e.uncompressedSize },
    );
    return { bytes: null, sha256: null, length: 0, findings: [f] };
  }
  if (e.dataEnd - e.dataOffset <= SYNC_MAX && (keep || e.uncompressedSize <= SYNC_MAX))
    return readEntrySync(archive, e, keep);
  return readEntryStreaming(archive, e, keep);
}
