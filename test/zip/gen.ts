/**
 * The tests' own ZIP generator, written from the APPNOTE field tables independently of
 * app/zip/writer.ts: every field of the local header, the central record, the data
 * descriptor and the end record can lie on its own.
 */
import zlib from 'node:zlib';

export interface Local {
  sig: number;
  ver: number;
  flags: number;
  method: number;
  time: number;
  date: number;
  crc: number;
  csize: number;
  usize: number;
  name: Buffer;
  extra: Buffer;
}
export interface Central extends Local {
  madeBy: number;
  comment: Buffer;
  disk: number;
  iattr: number;
  eattr: number;
  offset: number;
}
export interface Eocd {
  sig: number;
  disk: number;
  cdDisk: number;
  onDisk: number;
  total: number;
  cdSize: number;
  cdOffset: number;
  commentLen: number;
}
export interface GenEntry {
  name: string | Buffer;
  data?: Buffer | string;
  method?: number;
  /** Replaces the compressed bytes. */
  raw?: Buffer;
  lh?: Partial<Local>;
  ch?: Partial<Central>;
  /** Bytes written right after the data (a data descriptor, or junk). */
  dd?: Buffer;
  after?: Buffer;
}
export interface Spec {
  entries: GenEntry[];
  prefix?: Buffer;
  beforeEocd?: Buffer;
  eocd?: Partial<Eocd>;
  trailer?: Buffer;
  extraCentral?: Partial<Central>[];
}

export function gen(spec: Spec): Buffer {
  const out: Buffer[] = [];
  let off = 0;
  const put = (b: Buffer) => {
    out.push(b);
    off += b.length;
  };
  if (spec.prefix) put(spec.prefix);
  const cds: Central[] = [];
  for (const e of spec.entries) {
    const data = Buffer.from(e.data ?? 'hello');
    const method = e.method ?? 8;
    const comp = e.raw ?? (method === 8 ? zlib.deflateRawSync(data) : data);
    const name = typeof e.name === 'string' ? Buffer.from(e.name) : e.name;
    const base: Local = {
      sig: 0x04034b50,
      ver: 20,
      flags: typeof e.name === 'string' && /[^\x00-\x7f]/.test(e.name) ? 0x800 : 0,
      method,
      time: 0,
      date: 33,
      crc: zlib.crc32(data) >>> 0,
      csize: comp.length,
      usize: data.length,
      name,
      extra: Buffer.alloc(0),
    };
    const l = { ...base, ...e.lh };
    const h = Buffer.alloc(30);
    h.writeUInt32LE(l.sig, 0);
    h.writeUInt16LE(l.ver, 4);
    h.writeUInt16LE(l.flags, 6);
    h.writeUInt16LE(l.method, 8);
    h.writeUInt16LE(l.time, 10);
    h.writeUInt16LE(l.date, 12);
    h.writeUInt32LE(l.crc >>> 0, 14);
    h.writeUInt32LE(l.csize >>> 0, 18);
    h.writeUInt32LE(l.usize >>> 0, 22);
    h.writeUInt16LE(l.name.length, 26);
    h.writeUInt16LE(l.extra.length, 28);
    const start = off;
    put(Buffer.concat([h, l.name, l.extra, comp]));
    if (e.dd) put(e.dd);
    cds.push({
      ...base,
      madeBy: 20,
      comment: Buffer.alloc(0),
      disk: 0,
      iattr: 0,
      eattr: 0,
      offset: start,
      sig: 0x02014b50,
      ...e.ch,
    });
    if (e.after) put(e.after);
  }
  for (const x of spec.extraCentral ?? []) cds.push({ ...cds[0]!, ...x });
  const cdOffset = off;
  for (const c of cds) {
    const h = Buffer.alloc(46);
    h.writeUInt32LE(c.sig, 0);
    h.writeUInt16LE(c.madeBy, 4);
    h.writeUInt16LE(c.ver, 6);
    h.writeUInt16LE(c.flags, 8);
    h.writeUInt16LE(c.method, 10);
    h.writeUInt16LE(c.time, 12);
    h.writeUInt16LE(c.date, 14);
    h.writeUInt32LE(c.crc >>> 0, 16);
    h.writeUInt32LE(c.csize >>> 0, 20);
    h.writeUInt32LE(c.usize >>> 0, 24);
    h.writeUInt16LE(c.name.length, 28);
    h.writeUInt16LE(c.extra.length, 30);
    h.writeUInt16LE(c.comment.length, 32);
    h.writeUInt16LE(c.disk, 34);
    h.writeUInt16LE(c.iattr, 36);
    h.writeUInt32LE(c.eattr >>> 0, 38);
    h.writeUInt32LE(c.offset >>> 0, 42);
    put(Buffer.concat([h, c.name, c.extra, c.comment]));
  }
  const cdSize = off - cdOffset;
  if (spec.beforeEocd) put(spec.beforeEocd);
  const z: Eocd = {
    sig: 0x06054b50,
    disk: 0,
    cdDisk: 0,
    onDisk: cds.length,
    total: cds.length,
    cdSize,
    cdOffset,
    commentLen: spec.trailer?.length ?? 0,
    ...spec.eocd,
  };
  const t = Buffer.alloc(22);
  t.writeUInt32LE(z.sig, 0);
  t.writeUInt16LE(z.disk, 4);
  t.writeUInt16LE(z.cdDisk, 6);
  t.writeUInt16LE(z.onDisk, 8);
  t.writeUInt16LE(z.total, 10);
  t.writeUInt32LE(z.cdSize >>> 0, 12);
  t.writeUInt32LE(z.cdOffset >>> 0, 16);
  t.writeUInt16LE(z.commentLen, 20);
  put(t);
  if (spec.trailer) put(spec.trailer);
  return Buffer.concat(out);
}

/** A raw deflate stream of `chunks` x 64 MiB of zeros (about 64 KiB per chunk). */
export function zeroBomb(chunks: number): Buffer {
  const block = zlib.deflateRawSync(Buffer.alloc(64 * 1024 * 1024), {
    finishFlush: zlib.constants.Z_FULL_FLUSH,
    level: 9,
  });
  return Buffer.concat([...Array.from({ length: chunks }, () => block), Buffer.from([0x03, 0x00])]);
}

export function descriptor(crc: number, csize: number, usize: number, signature = true): Buffer {
  const b = Buffer.alloc(signature ? 16 : 12);
  let q = 0;
  if (signature) {
    b.writeUInt32LE(0x08074b50, 0);
    q = 4;
  }
  b.writeUInt32LE(crc >>> 0, q);
  b.writeUInt32LE(csize >>> 0, q + 4);
  b.writeUInt32LE(usize >>> 0, q + 8);
  return b;
}
