/**
 * A deterministic ZIP writer that can also lie. `writeZip` writes an ordinary archive
 * (fixed 1980-01-01 timestamps, fflate raw deflate level 6 as upstream Nemosyne writes,
 * UTF-8 flag on non-ASCII names). `buildZip` writes from raw header fields, each of which
 * can be overridden independently in the local header, the central directory, the data
 * descriptor or the end record: the attack generator of the tests and the corrupted
 * examples are built with it.
 */
import { deflateSync } from 'fflate';
import zlib from 'node:zlib';
import { FLAG_DESCRIPTOR, FLAG_UTF8, SIG_CENTRAL, SIG_DESCRIPTOR, SIG_EOCD, SIG_LOCAL } from './reader.js';

export interface HeaderFields {
  signature: number;
  versionMadeBy: number;
  versionNeeded: number;
  flags: number;
  method: number;
  time: number;
  date: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  nameBytes: Buffer;
  extra: Buffer;
  comment: Buffer;
  diskStart: number;
  internalAttrs: number;
  externalAttrs: number;
  localOffset: number;
}

export interface RawEntry {
  name: string | Buffer;
  data: Uint8Array | string;
  /** 0 stored, 8 deflate (default). */
  method?: number;
  /** Replaces the compressed bytes (after the header fields were computed from `data`). */
  compressed?: Uint8Array;
  local?: Partial<HeaderFields>;
  central?: Partial<HeaderFields>;
  /** Writes a data descriptor (and sets flag bit 3); fields can lie. */
  descriptor?: { signature?: boolean; crc32?: number; compressedSize?: number; uncompressedSize?: number };
  /** Bytes written after this entry (data between entries). */
  after?: Uint8Array;
}

export interface EocdFields {
  diskNumber: number;
  cdDisk: number;
  entriesOnDisk: number;
  entriesTotal: number;
  cdSize: number;
  cdOffset: number;
  commentLength: number;
}

export interface RawArchive {
  entries: RawEntry[];
  /** Bytes before the first entry. */
  prefix?: Uint8Array;
  /** Bytes between the central directory and the end record. */
  beforeEocd?: Uint8Array;
  eocd?: Partial<EocdFields>;
  /** Bytes after the end record (a comment, when eocd.commentLength says so). */
  trailer?: Uint8Array;
  /** Central directory order (indices into entries); default: entry order. */
  centralOrder?: number[];
  /** Deflate with node:zlib instead of fflate (faster; for benchmarks). */
  fastDeflate?: boolean;
}

const DOS_DATE_1980 = (0 << 9) | (1 << 5) | 1;

function bytesOf(d: Uint8Array | string): Buffer {
  return typeof d === 'string' ? Buffer.from(d, 'utf8') : Buffer.from(d.buffer, d.byteOffset, d.byteLength);
}

export function deflateRaw(data: Uint8Array, fast = false): Buffer {
  if (fast) return zlib.deflateRawSync(data, { level: 6 });
  const out = deflateSync(data, { level: 6 });
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength);
}

export function buildZip(a: RawArchive): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  const push = (b: Buffer) => {
    parts.push(b);
    offset += b.length;
  };
  if (a.prefix) push(bytesOf(a.prefix));
  const centrals: HeaderFields[] = [];
  for (const e of a.entries) {
    const data = bytesOf(e.data);
    const method = e.method ?? 8;
    const compressed = e.compressed ? bytesOf(e.compressed) : method === 8 ? deflateRaw(data, a.fastDeflate) : data;
    const base = truthfulFields(e, data, compressed, offset);
    push(Buffer.concat([localHeader({ ...base, ...e.local }), compressed]));
    if (e.descriptor) push(dataDescriptor(e.descriptor, base));
    centrals.push({ ...base, signature: SIG_CENTRAL, ...e.central });
    if (e.after) push(bytesOf(e.after));
  }
  const cdOffset = offset;
  const order = a.centralOrder ?? centrals.map((_, i) => i);
  for (const i of order) push(centralRecord(centrals[i]!));
  const cdSize = offset - cdOffset;
  if (a.beforeEocd) push(bytesOf(a.beforeEocd));
  push(
    endRecord({
      diskNumber: 0,
      cdDisk: 0,
      entriesOnDisk: order.length,
      entriesTotal: order.length,
      cdSize,
      cdOffset,
      commentLength: a.trailer ? a.trailer.length : 0,
      ...a.eocd,
    }),
  );
  if (a.trailer) push(bytesOf(a.trailer));
  return Buffer.concat(parts);
}

/** The header fields that tell the truth about entry `e` written at `offset`. */
function truthfulFields(e: RawEntry, data: Buffer, compressed: Buffer, offset: number): HeaderFields {
  const nameBytes = typeof e.name === 'string' ? Buffer.from(e.name, 'utf8') : e.name;
  const utf8 = typeof e.name === 'string' && /[^\x00-\x7f]/.test(e.name) ? FLAG_UTF8 : 0;
  return {
    signature: SIG_LOCAL,
    versionMadeBy: 20,
    versionNeeded: 20,
    flags: utf8 | (e.descriptor ? FLAG_DESCRIPTOR : 0),
    method: e.method ?? 8,
    time: 0,
    date: DOS_DATE_1980,
    crc32: zlib.crc32(data) >>> 0,
    compressedSize: compressed.length,
    uncompressedSize: data.length,
    nameBytes,
    extra: Buffer.alloc(0),
    comment: Buffer.alloc(0),
    diskStart: 0,
    internalAttrs: 0,
    externalAttrs: 0,
    localOffset: offset,
  };
}

/** A local header with its name and extra field (the data follows it). */
function localHeader(l: HeaderFields): Buffer {
  const h = Buffer.alloc(30);
  h.writeUInt32LE(l.signature, 0);
  h.writeUInt16LE(l.versionNeeded, 4);
  h.writeUInt16LE(l.flags, 6);
  h.writeUInt16LE(l.method, 8);
  h.writeUInt16LE(l.time, 10);
  h.writeUInt16LE(l.date, 12);
  h.writeUInt32LE(l.crc32 >>> 0, 14);
  h.writeUInt32LE(l.compressedSize >>> 0, 18);
  h.writeUInt32LE(l.uncompressedSize >>> 0, 22);
  h.writeUInt16LE(l.nameBytes.length, 26);
  h.writeUInt16LE(l.extra.length, 28);
  return Buffer.concat([h, l.nameBytes, l.extra]);
}

/** A data descriptor, each field the truth from `base` unless `d` overrides it. */
function dataDescriptor(d: NonNullable<RawEntry['descriptor']>, base: HeaderFields): Buffer {
  const dd = Buffer.alloc(d.signature === false ? 12 : 16);
  let q = 0;
  if (d.signature !== false) {
    dd.writeUInt32LE(SIG_DESCRIPTOR, 0);
    q = 4;
  }
  dd.writeUInt32LE((d.crc32 ?? base.crc32) >>> 0, q);
  dd.writeUInt32LE((d.compressedSize ?? base.compressedSize) >>> 0, q + 4);
  dd.writeUInt32LE((d.uncompressedSize ?? base.uncompressedSize) >>> 0, q + 8);
  return dd;
}

/** A central directory record with its name, extra field and comment. */
function centralRecord(c: HeaderFields): Buffer {
  const h = Buffer.alloc(46);
  h.writeUInt32LE(c.signature, 0);
  h.writeUInt16LE(c.versionMadeBy, 4);
  h.writeUInt16LE(c.versionNeeded, 6);
  h.writeUInt16LE(c.flags, 8);
  h.writeUInt16LE(c.method, 10);
  h.writeUInt16LE(c.time, 12);
  h.writeUInt16LE(c.date, 14);
  h.writeUInt32LE(c.crc32 >>> 0, 16);
  h.writeUInt32LE(c.compressedSize >>> 0, 20);
  h.writeUInt32LE(c.uncompressedSize >>> 0, 24);
  h.writeUInt16LE(c.nameBytes.length, 28);
  h.writeUInt16LE(c.extra.length, 30);
  h.writeUInt16LE(c.comment.length, 32);
  h.writeUInt16LE(c.diskStart, 34);
  h.writeUInt16LE(c.internalAttrs, 36);
  h.writeUInt32LE(c.externalAttrs >>> 0, 38);
  h.writeUInt32LE(c.localOffset >>> 0, 42);
  return Buffer.concat([h, c.nameBytes, c.extra, c.comment]);
}

/** The 22-byte end-of-central-directory record (its comment, if any, is the trailer). */
function endRecord(ef: EocdFields): Buffer {
  const z = Buffer.alloc(22);
  z.writeUInt32LE(SIG_EOCD, 0);
  z.writeUInt16LE(ef.diskNumber, 4);
  z.writeUInt16LE(ef.cdDisk, 6);
  z.writeUInt16LE(ef.entriesOnDisk, 8);
  z.writeUInt16LE(ef.entriesTotal, 10);
  z.writeUInt32LE(ef.cdSize >>> 0, 12);
  z.writeUInt32LE(ef.cdOffset >>> 0, 16);
  z.writeUInt16LE(ef.commentLength, 20);
  return z;
}

/** An ordinary deterministic archive of the given files, in the given order. */
export function writeZip(
  files: readonly { name: string; data: Uint8Array | string }[],
  opts: { fastDeflate?: boolean } = {},
): Buffer {
  return buildZip({ entries: files.map((f) => ({ name: f.name, data: f.data })), fastDeflate: opts.fastDeflate });
}
