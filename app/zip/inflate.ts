/**
 * The strict ZIP reader, content pass: inflates one entry whose structure readStructure()
 * accepted, capped at its declared size. A declared size is never trusted: the cap is
 * `declared + 1` bytes, so a longer stream is caught one byte past the declaration and
 * memory stays bounded by the (limit-checked) declaration whatever the stream holds.
 *
 * Entries up to SYNC_MAX bytes go through `inflateRawSync({maxOutputLength})` (fastest for
 * the many small entries of a package); larger ones that the caller does not need in
 * memory stream through `createInflateRaw` in 1 MiB steps, hashed chunk by chunk and
 * destroyed the moment they pass the declared size, so peak memory does not grow with
 * the entry.
 */
import { newHasher, sha256Hex } from '../core/hash.js';
import zlib from 'node:zlib';
import type { Finding } from '../../shared/report.js';
import { fail } from '../core/findings.js';
import { METHOD_STORED, type ZipEntry } from './reader.js';

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

function finish(e: ZipEntry, out: Buffer, keep: boolean): EntryContent {
  const findings: Finding[] = [];
  const ptr = `entry:${e.name}`;
  if (out.length > e.uncompressedSize) findings.push(fail('RPR-ZIP-016', `entry ${JSON.stringify(e.name)} inflates past its declared size`, { pointer: ptr, expected: e.uncompressedSize, actual: `>${e.uncompressedSize}` }));
  else if (out.length < e.uncompressedSize) findings.push(fail('RPR-ZIP-017', `entry ${JSON.stringify(e.name)} inflates to fewer bytes than declared`, { pointer: ptr, expected: e.uncompressedSize, actual: out.length }));
  else {
    const crc = crc32(out);
    if (crc !== e.crc32) findings.push(fail('RPR-ZIP-015', `entry ${JSON.stringify(e.name)}: CRC-32 mismatch`, { pointer: ptr, expected: hex8(e.crc32), actual: hex8(crc) }));
  }
  if (findings.length) return { bytes: null, sha256: null, length: out.length, findings };
  return { bytes: keep ? out : null, sha256: sha256Hex(out), length: out.length, findings };
}

export function hex8(n: number): string {
  return (n >>> 0).toString(16).padStart(8, '0');
}

/** Inflates (or copies) one entry synchronously, capped at declared + 1 bytes. */
export function readEntrySync(archive: Uint8Array, e: ZipEntry, keep: boolean): EntryContent {
  const data = Buffer.from(archive.buffer, archive.byteOffset + e.dataOffset, e.dataEnd - e.dataOffset);
  if (e.method === METHOD_STORED) return finish(e, keep ? Buffer.from(data) : data, keep);
  const ptr = `entry:${e.name}`;
  let result: { buffer: Buffer; engine: zlib.InflateRaw };
  try {
    result = zlib.inflateRawSync(data, { maxOutputLength: e.uncompressedSize + 1, chunkSize: Math.max(64, Math.min(e.uncompressedSize + 1, SYNC_MAX)), info: true }) as unknown as { buffer: Buffer; engine: zlib.InflateRaw };
  } catch (err) {
    return { bytes: null, sha256: null, length: 0, findings: [inflateError(e, err, ptr)] };
  }
  const leftover = data.length - result.engine.bytesWritten;
  if (leftover > 0) {
    return {
      bytes: null,
      sha256: null,
      length: result.buffer.length,
      findings: [fail('RPR-ZIP-018', `entry ${JSON.stringify(e.name)}: ${leftover} compressed bytes are left over after the deflate stream ends`, { pointer: ptr, expected: data.length, actual: result.engine.bytesWritten })],
    };
  }
  return finish(e, result.buffer, keep);
}

function inflateError(e: ZipEntry, err: unknown, ptr: string): Finding {
  const code = (err as { code?: string }).code;
  if (code === 'ERR_BUFFER_TOO_LARGE') return fail('RPR-ZIP-016', `entry ${JSON.stringify(e.name)} inflates past its declared size`, { pointer: ptr, expected: e.uncompressedSize, actual: `>${e.uncompressedSize}` });
  return fail('RPR-ZIP-017', `entry ${JSON.stringify(e.name)}: the deflate stream is truncated or corrupt (${code ?? 'error'})`, { pointer: ptr, expected: e.uncompressedSize });
}

/** Streams one large entry through inflate, CRC and SHA-256 without keeping its bytes. */
export function readEntryStreaming(archive: Uint8Array, e: ZipEntry): Promise<EntryContent> {
  const data = Buffer.from(archive.buffer, archive.byteOffset + e.dataOffset, e.dataEnd - e.dataOffset);
  const ptr = `entry:${e.name}`;
  if (e.method === METHOD_STORED) return Promise.resolve(finish(e, data, false));
  return new Promise((resolve) => {
    const inflater = zlib.createInflateRaw({ chunkSize: STEP });
    const hash = newHasher();
    let crc = 0;
    let length = 0;
    let settled = false;
    const settle = (c: EntryContent) => {
      if (settled) return;
      settled = true;
      inflater.removeAllListeners('data');
      inflater.destroy();
      resolve(c);
    };
    inflater.on('data', (chunk: Buffer) => {
      length += chunk.length;
      if (length > e.uncompressedSize) {
        settle({ bytes: null, sha256: null, length, findings: [fail('RPR-ZIP-016', `entry ${JSON.stringify(e.name)} inflates past its declared size`, { pointer: ptr, expected: e.uncompressedSize, actual: `>${e.uncompressedSize}` })] });
        return;
      }
      crc = crc32(chunk, crc);
      hash.update(chunk);
    });
    inflater.on('error', (err) => settle({ bytes: null, sha256: null, length, findings: [inflateError(e, err, ptr)] }));
    inflater.on('end', () => {
      const findings: Finding[] = [];
      if (inflater.bytesWritten < data.length) {
        findings.push(fail('RPR-ZIP-018', `entry ${JSON.stringify(e.name)}: ${data.length - inflater.bytesWritten} compressed bytes are left over after the deflate stream ends`, { pointer: ptr, expected: data.length, actual: inflater.bytesWritten }));
      } else if (length < e.uncompressedSize) {
        findings.push(fail('RPR-ZIP-017', `entry ${JSON.stringify(e.name)} inflates to fewer bytes than declared`, { pointer: ptr, expected: e.uncompressedSize, actual: length }));
      } else if (crc >>> 0 !== e.crc32) {
        findings.push(fail('RPR-ZIP-015', `entry ${JSON.stringify(e.name)}: CRC-32 mismatch`, { pointer: ptr, expected: hex8(e.crc32), actual: hex8(crc) }));
      }
      settle(findings.length ? { bytes: null, sha256: null, length, findings } : { bytes: null, sha256: hash.digest('hex'), length, findings });
    });
    let pos = 0;
    const pump = () => {
      while (!settled && pos < data.length) {
        const slice = data.subarray(pos, Math.min(pos + STEP, data.length));
        pos += slice.length;
        if (!inflater.write(slice)) {
          inflater.once('drain', pump);
          return;
        }
      }
      if (!settled && pos >= data.length) inflater.end();
    };
    pump();
  });
}

/** Reads one entry: synchronously when small or when its bytes are needed, else streaming. */
export async function readEntry(archive: Uint8Array, e: ZipEntry, keep: boolean): Promise<EntryContent> {
  if (keep && e.uncompressedSize > KEEP_MAX) {
    const f = fail('RPR-ZIP-032', `entry ${JSON.stringify(e.name)} must be parsed, and declares more than the ${KEEP_MAX} bytes a parser can hold whatever the limits say`, { pointer: `entry:${e.name}`, expected: KEEP_MAX, actual: e.uncompressedSize });
    return { bytes: null, sha256: null, length: 0, findings: [f] };
  }
  if (keep || e.uncompressedSize <= SYNC_MAX) return readEntrySync(archive, e, keep);
  return readEntryStreaming(archive, e);
}
