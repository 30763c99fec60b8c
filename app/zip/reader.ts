/**
 * The strict ZIP reader, structure pass: everything is checked before a single byte is
 * inflated. The archive must be exactly
 *
 *   [local header, data, (descriptor)]* central directory, end record (22 bytes, no comment)
 *
 * with entries contiguous from offset 0, each central record agreeing with its local
 * header, and nothing else anywhere. This one layout rule defeats overlapping-entry and
 * quoted-overlap bombs, prepended data (polyglots) and ambiguous "which EOCD" archives.
 * ZIP64 is refused: Reprise's archive limit (2 GiB at most) never needs it.
 *
 * Each check yields a finding with an RPR-ZIP-NNN rule (docs/rules/nemosyne.md).
 */
import type { Finding } from '../../shared/report.js';
import { cutShort, fail, warning } from '../core/findings.js';
import { DEFLATE_MAX_RATIO, RATIO_FLOOR, type ZipLimits } from './limits.js';
import { checkName, collisionProblem, fileDirectoryCollisionProblem, foldName } from './names.js';
import { toSource, type ZipSource } from './source.js';

export const SIG_LOCAL = 0x04034b50;
export const SIG_CENTRAL = 0x02014b50;
export const SIG_EOCD = 0x06054b50;
export const SIG_DESCRIPTOR = 0x08074b50;
export const SIG_ZIP64_EOCD = 0x06064b50;
export const SIG_ZIP64_LOCATOR = 0x07064b50;
/** Why a ZIP64 archive is refused, said the same wherever its records are met. */
const ZIP64_REFUSED =
  'ZIP64 archives are refused (Reprise reads archives of at most 65,534 entries and under 2 GiB, which never need it)';

export const METHOD_STORED = 0;
export const METHOD_DEFLATE = 8;

export const FLAG_ENCRYPTED = 0x0001;
export const FLAG_DESCRIPTOR = 0x0008;
export const FLAG_STRONG_ENCRYPTION = 0x0040;
export const FLAG_UTF8 = 0x0800;
export const FLAG_MASKED_HEADERS = 0x2000;

export const EXTRA_ZIP64 = 0x0001;
export const EXTRA_UNICODE_PATH = 0x7075;

export interface ZipEntry {
  /** Position in the central directory. */
  index: number;
  name: string;
  isDirectory: boolean;
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  localOffset: number;
  /** First byte of the entry's (compressed) data. */
  dataOffset: number;
  /** One past its last byte. */
  dataEnd: number;
}

export interface ZipStructure {
  entries: ZipEntry[];
  findings: Finding[];
  /** True when no finding is a fail: the entries may be inflated. */
  ok: boolean;
  centralDirectoryOffset: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

interface Central {
  index: number;
  nameBytes: Buffer;
  name: string | null;
  madeBy: number;
  flags: number;
  method: number;
  crc32: number;
  compressedSize: number;
  uncompressedSize: number;
  externalAttrs: number;
  localOffset: number;
  versionNeeded: number;
  time: number;
  date: number;
}

/** Bytes read from `start` on, addressed by absolute archive offsets (as the checks speak of them). */
class ArchiveWindow {
  constructor(
    private readonly buf: Buffer,
    private readonly base: number,
  ) {}
  static read(src: ZipSource, start: number, end: number): ArchiveWindow {
    return new ArchiveWindow(src.read(start, end), start);
  }
  readUInt16LE(p: number): number {
    return this.buf.readUInt16LE(p - this.base);
  }
  readUInt32LE(p: number): number {
    return this.buf.readUInt32LE(p - this.base);
  }
  subarray(start: number, end: number): Buffer {
    return this.buf.subarray(start - this.base, end - this.base);
  }
  /** The little-endian fields of a record at `p`, by a layout of [offset, width]. */
  fields<K extends string>(p: number, layout: Readonly<Record<K, readonly [number, 2 | 4]>>): Record<K, number> {
    const out = {} as Record<K, number>;
    for (const k in layout)
      out[k] = layout[k][1] === 2 ? this.readUInt16LE(p + layout[k][0]) : this.readUInt32LE(p + layout[k][0]);
    return out;
  }
}

const END_RECORD = {
  diskNumber: [4, 2],
  cdDisk: [6, 2],
  entriesOnDisk: [8, 2],
  entriesTotal: [10, 2],
  cdSize: [12, 4],
  cdOffset: [16, 4],
  commentLength: [20, 2],
} as const;
const LOCAL_HEADER = {
  version: [4, 2],
  flags: [6, 2],
  method: [8, 2],
  time: [10, 2],
  date: [12, 2],
  crc: [14, 4],
  csize: [18, 4],
  usize: [22, 4],
  nameLength: [26, 2],
  extraLength: [28, 2],
} as const;

/** Where the central directory sits, as the end record declares it. */
interface Directory {
  /** Offset of the end record (the last 22 bytes). */
  eocd: number;
  cdOffset: number;
  entriesTotal: number;
}

/**
 * Reads the structure of an archive in memory or on disk (ZipSource: the end record,
 * the central directory and each local header are read by position, never the data).
 * Never throws on hostile input (a file source throws SourceError if the file itself
 * changes or fails); never inflates.
 */
export function readStructure(input: Uint8Array | ZipSource, limits: ZipLimits): ZipStructure {
  const src = toSource(input);
  const findings: Finding[] = [];
  const done = (entries: ZipEntry[] = [], cdOffset = 0): ZipStructure => ({
    entries,
    findings,
    ok: !findings.some((f) => f.severity === 'fail'),
    centralDirectoryOffset: cdOffset,
  });
  const dir = readEndRecord(src, limits, findings);
  if (!dir) return done();
  const centrals = readCentralDirectory(src, dir, limits, findings);
  if (!centrals) return done();
  checkNamesAcrossEntries(centrals, findings);
  checkDeclaredSizes(centrals, limits, findings);
  return done(readLocalHeaders(src, centrals, dir.cdOffset, findings) ?? [], dir.cdOffset);
}

// --- end of central directory: exactly the last 22 bytes -----------------------

/** The end record and what it declares, or null after a finding that stops the read. */
function readEndRecord(src: ZipSource, limits: ZipLimits, findings: Finding[]): Directory | null {
  const len = src.size;
  if (len > limits.maxArchiveBytes) {
    findings.push(
      fail(
        'RPR-ZIP-030',
        `the archive is ${len} bytes, over the limit of ${limits.maxArchiveBytes} (maxArchiveBytes)`,
        { expected: limits.maxArchiveBytes, actual: len },
      ),
    );
    return null;
  }
  if (len < 22) {
    const why = `the archive is ${len} bytes: too short to hold an end-of-central-directory record`;
    const cut = whereCutShort(src);
    findings.push(fail('RPR-ZIP-001', cut ? `${cutShort(why)}: ${cut}` : why));
    return null;
  }
  const eocd = len - 22;
  // The end record, and the 20 bytes before it (where a ZIP64 locator would sit).
  const b = ArchiveWindow.read(src, Math.max(0, eocd - 20), len);
  if (b.readUInt32LE(eocd) !== SIG_EOCD) {
    findings.push(misplacedEndRecord(src, eocd));
    return null;
  }
  const { diskNumber, cdDisk, entriesOnDisk, entriesTotal, cdSize, cdOffset, commentLength } = b.fields(
    eocd,
    END_RECORD,
  );
  if (commentLength !== 0)
    findings.push(
      fail('RPR-ZIP-002', `the end record declares a ${commentLength}-byte comment; archive comments are refused`, {
        expected: 0,
        actual: commentLength,
      }),
    );
  if (diskNumber !== 0 || cdDisk !== 0)
    findings.push(
      fail('RPR-ZIP-004', 'the end record names a disk other than 0 (multi-disk archives are refused)', {
        expected: 0,
        actual: diskNumber || cdDisk,
      }),
    );
  if (entriesOnDisk !== entriesTotal)
    findings.push(
      fail('RPR-ZIP-005', "the end record's entry counts disagree (this disk vs total)", {
        expected: entriesTotal,
        actual: entriesOnDisk,
      }),
    );
  // An archive of 65,535 entries or more needs ZIP64, and that is refused even under a raised
  // maxEntries; its size never needs it (the engine reads no artifact over 2 GiB).
  if (entriesTotal === 0xffff)
    findings.push(
      fail('RPR-ZIP-006', `the end record's entry count is the ZIP64 sentinel: ${ZIP64_REFUSED}`, {
        expected: 'at most 65,534 entries',
        actual: entriesTotal,
      }),
    );
  else if (cdSize === 0xffffffff || cdOffset === 0xffffffff)
    findings.push(
      fail(
        'RPR-ZIP-006',
        'the end record holds a ZIP64 sentinel size or offset that an archive under 2 GiB does not need',
      ),
    );
  if (eocd >= 20 && b.readUInt32LE(eocd - 20) === SIG_ZIP64_LOCATOR)
    findings.push(fail('RPR-ZIP-006', `the archive holds a ZIP64 end-of-central-directory locator: ${ZIP64_REFUSED}`));
  if (findings.length) return null;
  if (entriesTotal === 0) {
    findings.push(fail('RPR-ZIP-025', 'the archive holds no entries'));
    return null;
  }
  if (entriesTotal > limits.maxEntries) {
    findings.push(
      fail(
        'RPR-ZIP-031',
        `the archive declares ${entriesTotal} entries, over the limit of ${limits.maxEntries} (maxEntries)`,
        { expected: limits.maxEntries, actual: entriesTotal },
      ),
    );
    return null;
  }
  if (cdOffset + cdSize !== eocd) {
    findings.push(
      fail(
        'RPR-ZIP-007',
        'the central directory does not end exactly where the end record starts (data between them, or offsets out of bounds)',
        { expected: eocd, actual: cdOffset + cdSize },
      ),
    );
    return null;
  }
  return { eocd, cdOffset, entriesTotal };
}

/** The finding for an archive whose last 22 bytes are not an end record. */
function misplacedEndRecord(src: ZipSource, eocd: number): Finding {
  const len = src.size;
  // Only a signature this close to the end can be an end record followed by a comment.
  const from = Math.max(0, len - 22 - 0xffff - 64);
  const seen = src.read(from, len).lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]), eocd - from);
  const earlier = seen < 0 ? -1 : from + seen;
  if (earlier >= 0 && len - earlier <= 22 + 0xffff + 64) {
    return fail(
      'RPR-ZIP-002',
      `the end-of-central-directory record is not the last 22 bytes (found at ${earlier}, followed by a comment or trailing data)`,
      { expected: eocd, actual: earlier },
    );
  }
  const cut = whereCutShort(src);
  return fail(
    'RPR-ZIP-001',
    cut
      ? `${cutShort('no end-of-central-directory record')}: ${cut}`
      : 'no end-of-central-directory record: not a ZIP archive',
  );
}

// --- an archive cut short --------------------------------------------------------

/** How far the walk through an archive without its end record has come. */
interface Walk {
  /** Where the next record starts. */
  p: number;
  entries: number;
  centrals: number;
}

const SIGNATURES = [SIG_LOCAL, SIG_CENTRAL, SIG_EOCD, SIG_DESCRIPTOR].map((sig) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(sig);
  return b;
});

/**
 * Where an archive without its end record was cut short, or null when it does not look
 * cut: it begins with a local header, and its records (each local header with its data,
 * then the central directory's records, then the end record) follow one another, each
 * where the one before ends, up to the end of the file, where the last is cut off or the
 * next is missing. A file that only begins with the ZIP magic is not called cut short: its
 * records soon stop making sense. Headers only, by position; on refused archives only.
 */
function whereCutShort(src: ZipSource): string | null {
  const len = src.size;
  const w: Walk = { p: 0, entries: 0, centrals: 0 };
  while (w.p < len) {
    const head = src.read(w.p, Math.min(len, w.p + 46));
    if (head.length < 4)
      return SIGNATURES.some((sig) => sig.subarray(0, head.length).equals(head))
        ? `the file begins as a ZIP archive and ends ${head.length} byte(s) into the signature of a record, at offset ${w.p}`
        : null;
    const sig = head.readUInt32LE(0);
    let step: number | string | null = null;
    if (sig === SIG_LOCAL && w.centrals === 0) step = localRecordEnd(src, w, head);
    else if (sig === SIG_CENTRAL && w.entries > w.centrals) step = centralRecordEnd(w, head, len);
    else if (sig === SIG_EOCD && w.centrals > 0 && w.p + 22 > len) step = 'the end-of-central-directory record';
    if (step === null) return null;
    if (typeof step === 'string') return `the file begins as a ZIP archive and ends inside ${step}`;
    if (sig === SIG_LOCAL) w.entries++;
    else w.centrals++;
    w.p = step;
  }
  if (w.p === 0) return null;
  return w.centrals > 0
    ? `the file begins as a ZIP archive and ends after ${w.centrals} central directory record(s), before the end record`
    : `the file begins as a ZIP archive and ends after ${w.entries} entr${w.entries === 1 ? 'y' : 'ies'}, before the central directory`;
}

/** The end of the central directory record at `w.p`, or which record the file ends inside. */
function centralRecordEnd(w: Walk, head: Buffer, len: number): number | string {
  const end =
    head.length < 46 ? Infinity : w.p + 46 + head.readUInt16LE(28) + head.readUInt16LE(30) + head.readUInt16LE(32);
  return end > len ? `central directory record ${w.centrals + 1}` : end;
}

/**
 * The end of the local entry at `w.p` (header, data, descriptor), what of it the file ends
 * inside, or null when its header makes no sense (no ZIP writer writes such a version,
 * method or name).
 */
function localRecordEnd(src: ZipSource, w: Walk, head: Buffer): number | string | null {
  const len = src.size;
  const which = `entry ${w.entries + 1}`;
  if (head.length < 30) return `the local header of ${which}`;
  const l = ArchiveWindow.read(src, w.p, w.p + 30).fields(w.p, LOCAL_HEADER);
  if (l.version > 63 || l.method > 99 || l.nameLength === 0) return null;
  const dataOffset = w.p + 30 + l.nameLength + l.extraLength;
  if (dataOffset > len) return `the local header of ${which}`;
  const nameBytes = src.read(w.p + 30, w.p + 30 + l.nameLength);
  if (nameBytes.some((b) => b < 0x20)) return null;
  const named = `${which} (${JSON.stringify(nameBytes.toString('utf8').slice(0, 60))})`;
  if ((l.flags & FLAG_DESCRIPTOR) === 0 || l.csize !== 0) {
    const dataEnd = dataOffset + l.csize;
    if (dataEnd > len) return `the data of ${named}`;
    if ((l.flags & FLAG_DESCRIPTOR) === 0) return dataEnd;
    const size = dataEnd + 4 <= len && src.read(dataEnd, dataEnd + 4).readUInt32LE(0) === SIG_DESCRIPTOR ? 16 : 12;
    return dataEnd + size <= len ? dataEnd + size : `the data descriptor of ${named}`;
  }
  // Sizes only in the descriptor after the data: the first descriptor whose size fits.
  const end = describedDataEnd(src, dataOffset);
  return end ?? `the data of ${named}`;
}

/** After data whose size only its descriptor gives: the end of that descriptor, or null (none before the end of the file). */
function describedDataEnd(src: ZipSource, dataOffset: number): number | null {
  const CHUNK = 1 << 20;
  for (let from = dataOffset; from < src.size; from += CHUNK) {
    const b = src.read(from, Math.min(src.size, from + CHUNK + 15));
    for (let at = b.indexOf(SIGNATURES[3]!); at !== -1 && at < CHUNK; at = b.indexOf(SIGNATURES[3]!, at + 1)) {
      if (at + 16 <= b.length && b.readUInt32LE(at + 8) === from + at - dataOffset) return from + at + 16;
    }
  }
  return null;
}

// --- central directory ---------------------------------------------------------

/** Every central record, checked one by one, or null after a finding that stops the read. */
function readCentralDirectory(
  src: ZipSource,
  dir: Directory,
  limits: ZipLimits,
  findings: Finding[],
): Central[] | null {
  const { eocd, cdOffset, entriesTotal } = dir;
  const b = ArchiveWindow.read(src, cdOffset, eocd);
  // A second end record (or ZIP64 record) inside the central directory region.
  for (const sig of [SIG_EOCD, SIG_ZIP64_EOCD, SIG_ZIP64_LOCATOR]) {
    const s = Buffer.alloc(4);
    s.writeUInt32LE(sig);
    const at = b.subarray(cdOffset, eocd).indexOf(s);
    if (at >= 0) {
      findings.push(
        fail(
          'RPR-ZIP-003',
          `a second end record (or a ZIP64 record) sits inside the central directory at offset ${cdOffset + at}`,
        ),
      );
      return null;
    }
  }
  const centrals: Central[] = [];
  let p = cdOffset;
  for (let i = 0; i < entriesTotal; i++) {
    if (p + 46 > eocd || b.readUInt32LE(p) !== SIG_CENTRAL) {
      findings.push(
        fail(
          'RPR-ZIP-005',
          `the end record declares ${entriesTotal} entries but the central directory holds only ${i}`,
          { expected: entriesTotal, actual: i },
        ),
      );
      return null;
    }
    const end = p + 46 + b.readUInt16LE(p + 28) + b.readUInt16LE(p + 30) + b.readUInt16LE(p + 32);
    if (end > eocd) {
      findings.push(fail('RPR-ZIP-007', `central directory record ${i} runs past the end of the central directory`));
      return null;
    }
    centrals.push(readCentralRecord(b, p, i, limits, findings));
    p = end;
  }
  if (p !== eocd) {
    findings.push(
      fail('RPR-ZIP-005', `the central directory holds more than the ${entriesTotal} records the end record declares`, {
        expected: eocd,
        actual: p,
      }),
    );
    return null;
  }
  return centrals;
}

/** Central record `i` at `p` (known to lie inside the directory), with its own checks. */
function readCentralRecord(b: ArchiveWindow, p: number, i: number, limits: ZipLimits, findings: Finding[]): Central {
  const nameLength = b.readUInt16LE(p + 28);
  const extraLength = b.readUInt16LE(p + 30);
  const commentLen = b.readUInt16LE(p + 32);
  const c: Central = {
    index: i,
    madeBy: b.readUInt16LE(p + 4),
    flags: b.readUInt16LE(p + 8),
    method: b.readUInt16LE(p + 10),
    crc32: b.readUInt32LE(p + 16),
    compressedSize: b.readUInt32LE(p + 20),
    uncompressedSize: b.readUInt32LE(p + 24),
    externalAttrs: b.readUInt32LE(p + 38),
    localOffset: b.readUInt32LE(p + 42),
    nameBytes: b.subarray(p + 46, p + 46 + nameLength),
    name: null,
    versionNeeded: 0,
    time: 0,
    date: 0,
  };
  const diskStart = b.readUInt16LE(p + 34);
  const versionNeeded = b.readUInt16LE(p + 6);
  const time = b.readUInt16LE(p + 12);
  const date = b.readUInt16LE(p + 14);
  const label = `central directory record ${i}`;
  c.name = decodeName(c.nameBytes, c.flags, findings, label);
  const ptr = c.name !== null ? `entry:${c.name}` : undefined;
  const at = (m: string) => (c.name !== null ? `entry ${JSON.stringify(c.name)}` : label) + ': ' + m;
  c.versionNeeded = versionNeeded;
  c.time = time;
  c.date = date;
  if (commentLen !== 0)
    findings.push(
      fail(
        'RPR-ZIP-002',
        at(`a ${commentLen}-byte entry comment (comments are refused: nothing in the archive may go unchecked)`),
        { pointer: ptr, expected: 0, actual: commentLen },
      ),
    );
  if (diskStart !== 0)
    findings.push(fail('RPR-ZIP-004', at('the entry starts on a disk other than 0'), { pointer: ptr }));
  if (c.compressedSize === 0xffffffff || c.uncompressedSize === 0xffffffff || c.localOffset === 0xffffffff) {
    findings.push(
      fail('RPR-ZIP-006', at('a ZIP64 sentinel size or offset that the archive does not need'), { pointer: ptr }),
    );
  }
  checkExtras(b.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength), findings, at, ptr);
  checkFlagsAndMethod(c.flags, c.method, findings, at, ptr);
  checkAttributes(c, findings, at, ptr);
  if (c.name !== null)
    for (const prob of checkName(c.name, nameLength, limits))
      findings.push((prob.severity === 'fail' ? fail : warning)(prob.rule, at(prob.message), { pointer: ptr }));
  return c;
}

// --- names across entries: duplicates, case/NFC collisions, file vs directory -----

/** The files and directories (named, or implied by a longer name) that names make, under some key. */
interface PathTree {
  files: Map<string, string>;
  /** Directory key -> the first entry that makes it, and the directory as that entry spells it. */
  dirs: Map<string, { entry: string; dir: string }>;
}

const newTree = (): PathTree => ({ files: new Map(), dirs: new Map() });

/** Adds `name` under `key` (the name itself, or foldName of it: both have the same segments). */
function addPath(tree: PathTree, name: string, key: string): void {
  const isDir = name.endsWith('/');
  const keys = (isDir ? key.slice(0, -1) : key).split('/');
  const segs = (isDir ? name.slice(0, -1) : name).split('/');
  const dirCount = isDir ? keys.length : keys.length - 1;
  for (let k = 1; k <= dirCount; k++) {
    const dirKey = keys.slice(0, k).join('/');
    if (!tree.dirs.has(dirKey)) tree.dirs.set(dirKey, { entry: name, dir: segs.slice(0, k).join('/') });
  }
  const fileKey = keys.join('/');
  if (!isDir && !tree.files.has(fileKey)) tree.files.set(fileKey, name);
}

function checkNamesAcrossEntries(centrals: readonly Central[], findings: Finding[]): void {
  const exact = new Set<string>();
  const folded = new Map<string, string>();
  const exactTree = newTree();
  const foldedTree = newTree();
  for (const c of centrals) {
    if (c.name === null) continue;
    const ptr = `entry:${c.name}`;
    if (exact.has(c.name)) {
      findings.push(fail('RPR-ZIP-048', `entry ${JSON.stringify(c.name)} appears more than once`, { pointer: ptr }));
      continue;
    }
    exact.add(c.name);
    const f = foldName(c.name);
    const prior = folded.get(f);
    if (prior !== undefined) {
      const p = collisionProblem(c.name, prior);
      findings.push(warning(p.rule, p.message, { pointer: ptr, expected: prior, actual: c.name }));
    } else folded.set(f, c.name);
    addPath(exactTree, c.name, c.name);
    addPath(foldedTree, c.name, f);
  }
  checkFilesAgainstDirectories(exactTree, foldedTree, findings);
}

/**
 * A file and a directory of one exact name: no reader or file system can take both as
 * the archive has them. Of one name only after foldName, they are two paths to upstream
 * Nemosyne, which keys every entry by its exact name, and one only to a folding file system.
 */
function checkFilesAgainstDirectories(exact: PathTree, folded: PathTree, findings: Finding[]): void {
  for (const [key, name] of exact.files) {
    const d = exact.dirs.get(key);
    if (d !== undefined)
      findings.push(
        fail(
          'RPR-ZIP-047',
          `entry ${JSON.stringify(name)} is a file, and ${JSON.stringify(d.entry)} uses the same name as a directory`,
          { pointer: `entry:${name}` },
        ),
      );
  }
  for (const [key, name] of folded.files) {
    const d = folded.dirs.get(key);
    if (d === undefined || exact.dirs.has(name)) continue;
    const p = fileDirectoryCollisionProblem(name, d.entry, d.dir);
    findings.push(warning(p.rule, p.message, { pointer: `entry:${name}`, expected: d.entry, actual: name }));
  }
}

// --- limits on declared sizes ---------------------------------------------------

function checkDeclaredSizes(centrals: readonly Central[], limits: ZipLimits, findings: Finding[]): void {
  let total = 0;
  for (const c of centrals) {
    const ptr = c.name !== null ? `entry:${c.name}` : undefined;
    if (c.uncompressedSize > limits.maxEntryBytes) {
      findings.push(
        fail(
          'RPR-ZIP-032',
          `an entry declares ${c.uncompressedSize} uncompressed bytes, over the limit of ${limits.maxEntryBytes} (maxEntryBytes)`,
          { pointer: ptr, expected: limits.maxEntryBytes, actual: c.uncompressedSize },
        ),
      );
    }
    total += c.uncompressedSize;
    if (c.uncompressedSize > RATIO_FLOOR && c.uncompressedSize > limits.maxRatio * c.compressedSize) {
      findings.push(
        fail(
          'RPR-ZIP-019',
          `an entry declares ${c.uncompressedSize} bytes from ${c.compressedSize} compressed: ${ratioWhy(c, limits.maxRatio)}`,
          {
            pointer: ptr,
            expected: limits.maxRatio,
            actual: c.compressedSize === 0 ? null : Math.round(c.uncompressedSize / c.compressedSize),
          },
        ),
      );
    }
    if (c.method === METHOD_STORED && c.compressedSize !== c.uncompressedSize) {
      findings.push(
        fail('RPR-ZIP-026', 'a stored entry declares different compressed and uncompressed sizes', {
          pointer: ptr,
          expected: c.uncompressedSize,
          actual: c.compressedSize,
        }),
      );
    }
  }
  if (total > limits.maxTotalBytes)
    findings.push(
      fail(
        'RPR-ZIP-033',
        `the entries declare ${total} uncompressed bytes in all, over the limit of ${limits.maxTotalBytes} (maxTotalBytes)`,
        { expected: limits.maxTotalBytes, actual: total },
      ),
    );
}

/**
 * Why a ratio over maxRatio is refused. Beyond deflate's ceiling the declared size is not
 * the data's. Below it, only a lowered limit refuses: the data may be real, and upstream
 * Nemosyne sets no ratio limit, so the message says how to read the package.
 */
function ratioWhy(c: Central, maxRatio: number): string {
  if (c.uncompressedSize > DEFLATE_MAX_RATIO * c.compressedSize)
    return `a ratio over ${DEFLATE_MAX_RATIO}, which no entry Reprise reads can have (a stored entry is 1:1, and deflate expands at most ${DEFLATE_MAX_RATIO}:1, RFC 1951: a match of at most 258 bytes costs at least 2 bits), so the declared size is not the data's`;
  return `a ratio over ${maxRatio}, the limit set (maxRatio; deflate reaches up to ${DEFLATE_MAX_RATIO}, and upstream Nemosyne sets no ratio limit: --limit maxRatio=${DEFLATE_MAX_RATIO} reads this entry)`;
}

// --- local headers: contiguous from 0 to the central directory, agreeing ---------

/** One entry's local span as read: the entry, and where the next one must start. */
interface LocalSpan {
  entry: ZipEntry;
  spanEnd: number;
}

/** How findings about one entry are worded and pointed. */
interface EntryVoice {
  ptr: string | undefined;
  at: (m: string) => string;
}

/** The entries in central-directory order, or null after a finding that stops the read. */
function readLocalHeaders(
  src: ZipSource,
  centrals: readonly Central[],
  cdOffset: number,
  findings: Finding[],
): ZipEntry[] | null {
  const order = [...centrals].sort((x, y) => x.localOffset - y.localOffset || x.index - y.index);
  const entries: ZipEntry[] = new Array(centrals.length);
  let expectedOffset = 0;
  for (const c of order) {
    const voice: EntryVoice = {
      ptr: c.name !== null ? `entry:${c.name}` : undefined,
      at: (m: string) =>
        (c.name !== null ? `entry ${JSON.stringify(c.name)}` : `central directory record ${c.index}`) + ': ' + m,
    };
    const { ptr, at } = voice;
    const off = c.localOffset;
    if (off > expectedOffset) {
      findings.push(
        fail(
          'RPR-ZIP-008',
          at(
            expectedOffset === 0
              ? `${off} bytes of data precede the first entry`
              : `${off - expectedOffset} bytes of unaccounted data between entries`,
          ),
          { pointer: ptr, expected: expectedOffset, actual: off },
        ),
      );
    } else if (off < expectedOffset) {
      findings.push(
        fail('RPR-ZIP-009', at('the entry overlaps the previous entry'), {
          pointer: ptr,
          expected: expectedOffset,
          actual: off,
        }),
      );
      return null;
    }
    const span = readLocalEntry(src, c, cdOffset, voice, findings);
    if (!span) return null;
    expectedOffset = span.spanEnd;
    entries[c.index] = span.entry;
  }
  if (expectedOffset < cdOffset) {
    findings.push(
      fail(
        'RPR-ZIP-008',
        `${cdOffset - expectedOffset} bytes of unaccounted data between the last entry and the central directory`,
        { expected: cdOffset, actual: expectedOffset },
      ),
    );
  }
  return entries;
}

/** The local header of `c`, checked against its central record, and its data's span. */
function readLocalEntry(
  src: ZipSource,
  c: Central,
  cdOffset: number,
  voice: EntryVoice,
  findings: Finding[],
): LocalSpan | null {
  const { ptr, at } = voice;
  const off = c.localOffset;
  const lh = off + 30 <= cdOffset ? ArchiveWindow.read(src, off, off + 30) : null;
  if (!lh || lh.readUInt32LE(off) !== SIG_LOCAL) {
    findings.push(
      fail('RPR-ZIP-010', at('no local header at the offset the central directory gives'), {
        pointer: ptr,
        actual: off,
      }),
    );
    return null;
  }
  const l = lh.fields(off, LOCAL_HEADER);
  const dataOffset = off + 30 + l.nameLength + l.extraLength;
  if (dataOffset > cdOffset) {
    findings.push(fail('RPR-ZIP-010', at('the local header runs into the central directory'), { pointer: ptr }));
    return null;
  }
  const ne = ArchiveWindow.read(src, off + 30, dataOffset);
  const lName = ne.subarray(off + 30, off + 30 + l.nameLength);
  if (!lName.equals(c.nameBytes)) {
    findings.push(
      fail('RPR-ZIP-011', at('the local header names a different entry than the central directory'), {
        pointer: ptr,
        expected: c.name ?? c.nameBytes.toString('latin1'),
        actual: lName.toString('latin1'),
      }),
    );
  }
  checkLocalAgrees(l, c, voice, findings);
  checkExtras(ne.subarray(off + 30 + l.nameLength, dataOffset), findings, (m) => at('local header: ' + m), ptr);
  const dataEnd = dataOffset + c.compressedSize;
  if (dataEnd > cdOffset) {
    findings.push(
      fail('RPR-ZIP-009', at("the entry's data runs into the next structure (overlap or truncated archive)"), {
        pointer: ptr,
        expected: cdOffset,
        actual: dataEnd,
      }),
    );
    return null;
  }
  let spanEnd = dataEnd;
  if ((c.flags & FLAG_DESCRIPTOR) !== 0) {
    const size = readDescriptor(src, c, dataEnd, cdOffset, voice, findings);
    if (size === null || !streamedAlike(src, dataOffset, dataEnd, size, voice, findings)) return null;
    spanEnd = dataEnd + size;
  }
  const entry: ZipEntry = {
    index: c.index,
    name: c.name ?? '',
    isDirectory: c.name?.endsWith('/') ?? false,
    method: c.method,
    flags: c.flags,
    crc32: c.crc32,
    compressedSize: c.compressedSize,
    uncompressedSize: c.uncompressedSize,
    localOffset: off,
    dataOffset,
    dataEnd,
  };
  return { entry, spanEnd };
}

/** The local header's fields against the central record's. */
function checkLocalAgrees(
  l: Record<keyof typeof LOCAL_HEADER, number>,
  c: Central,
  { ptr, at }: EntryVoice,
  findings: Finding[],
): void {
  if (l.flags !== c.flags)
    findings.push(
      fail('RPR-ZIP-012', at('local header flags disagree with the central directory'), {
        pointer: ptr,
        expected: c.flags,
        actual: l.flags,
      }),
    );
  if (l.version !== c.versionNeeded)
    findings.push(
      fail('RPR-ZIP-012', at('local header "version needed" disagrees with the central directory'), {
        pointer: ptr,
        expected: c.versionNeeded,
        actual: l.version,
      }),
    );
  if (l.time !== c.time || l.date !== c.date)
    findings.push(
      fail('RPR-ZIP-012', at('local header modification time disagrees with the central directory'), {
        pointer: ptr,
        expected: [c.date, c.time],
        actual: [l.date, l.time],
      }),
    );
  if (l.method !== c.method)
    findings.push(
      fail('RPR-ZIP-012', at('local header compression method disagrees with the central directory'), {
        pointer: ptr,
        expected: c.method,
        actual: l.method,
      }),
    );
  const deferred = (c.flags & FLAG_DESCRIPTOR) !== 0;
  const agree = (field: string, local: number, central: number) => {
    // A size of 0xFFFFFFFF is ZIP64's sentinel (the size is in a ZIP64 extra field), not a size that disagrees.
    if (field !== 'CRC-32' && local === 0xffffffff && central !== local)
      findings.push(
        fail('RPR-ZIP-006', at(`the local header's ${field} is the ZIP64 sentinel: ${ZIP64_REFUSED}`), {
          pointer: ptr,
          expected: central,
          actual: local,
        }),
      );
    else if (local !== central && !(deferred && local === 0))
      findings.push(
        fail('RPR-ZIP-013', at(`local header ${field} disagrees with the central directory`), {
          pointer: ptr,
          expected: central,
          actual: local,
        }),
      );
  };
  agree('CRC-32', l.crc, c.crc32);
  agree('compressed size', l.csize, c.compressedSize);
  agree('uncompressed size', l.usize, c.uncompressedSize);
}

/** The records a streaming reader looks for to find where an entry with a data descriptor ends. */
const STREAM_STOPS = [SIG_LOCAL, SIG_DESCRIPTOR, SIG_CENTRAL].map((sig) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(sig);
  return b;
});
/** The bytes of an entry's data scanned at a time for STREAM_STOPS. */
const SCAN_CHUNK = 1 << 20;

/**
 * Whether a streaming reader reads the entry this reader reads. An entry with a data
 * descriptor has no size before its data, so a streaming reader (fflate's `Unzip`, which
 * Nemosyne's `unpack` uses: docs/nemosyne.md) ends it at the first local header, data
 * descriptor or central record signature it meets in the data. A descriptor without its
 * signature (`size` 12), or such a signature inside the data, would give it other bytes
 * (a receipt 4 bytes short), or none: refused, never decided by one reader alone.
 */
function streamedAlike(
  src: ZipSource,
  dataOffset: number,
  dataEnd: number,
  size: number,
  { ptr, at }: EntryVoice,
  findings: Finding[],
): boolean {
  const refuse = (why: string, actual?: number): false => {
    findings.push(fail('RPR-ZIP-014', at(why), { pointer: ptr, ...(actual === undefined ? {} : { actual }) }));
    return false;
  };
  if (size === 12)
    return refuse(
      'the data descriptor has no signature: a streaming reader, which ends the entry at one, reads other bytes',
    );
  for (let from = dataOffset; from < dataEnd; from += SCAN_CHUNK) {
    // Three bytes of overlap: a signature across two chunks is found in the second.
    const chunk = src.read(Math.max(dataOffset, from - 3), Math.min(dataEnd, from + SCAN_CHUNK));
    const hit = STREAM_STOPS.map((s) => chunk.indexOf(s)).filter((i) => i >= 0);
    if (hit.length > 0)
      return refuse(
        'the data of an entry with a data descriptor holds a ZIP record signature: a streaming reader ends the entry there, and reads other bytes',
        Math.max(dataOffset, from - 3) + Math.min(...hit),
      );
  }
  return true;
}

/** The data descriptor after `dataEnd`: its size (12, or 16 with a signature), or null when missing. */
function readDescriptor(
  src: ZipSource,
  c: Central,
  dataEnd: number,
  cdOffset: number,
  { ptr, at }: EntryVoice,
  findings: Finding[],
): number | null {
  let d = dataEnd;
  let size = 12;
  const dd = ArchiveWindow.read(src, dataEnd, Math.min(dataEnd + 16, cdOffset));
  if (d + 16 <= cdOffset && dd.readUInt32LE(d) === SIG_DESCRIPTOR) {
    d += 4;
    size = 16;
  }
  if (d + 12 > cdOffset) {
    findings.push(
      fail('RPR-ZIP-014', at('flag bit 3 promises a data descriptor, but none follows the data'), { pointer: ptr }),
    );
    return null;
  }
  const dCrc = dd.readUInt32LE(d);
  const dCsize = dd.readUInt32LE(d + 4);
  const dUsize = dd.readUInt32LE(d + 8);
  if (dCrc !== c.crc32 || dCsize !== c.compressedSize || dUsize !== c.uncompressedSize) {
    findings.push(
      fail('RPR-ZIP-014', at('the data descriptor disagrees with the central directory'), {
        pointer: ptr,
        expected: [c.crc32, c.compressedSize, c.uncompressedSize],
        actual: [dCrc, dCsize, dUsize],
      }),
    );
  }
  return size;
}

function decodeName(bytes: Buffer, flags: number, findings: Finding[], label: string): string | null {
  if (flags & FLAG_UTF8) {
    try {
      return utf8.decode(bytes);
    } catch {
      findings.push(fail('RPR-ZIP-050', `${label}: the name is flagged UTF-8 but is not valid UTF-8`));
      return null;
    }
  }
  for (const x of bytes) {
    if (x >= 0x80) {
      findings.push(
        fail(
          'RPR-ZIP-050',
          `${label}: the name has non-ASCII bytes without the UTF-8 flag (its meaning depends on the reader's code page)`,
          { actual: bytes.toString('latin1') },
        ),
      );
      return null;
    }
  }
  return bytes.toString('latin1');
}

function checkExtras(extra: Buffer, findings: Finding[], at: (m: string) => string, pointer: string | undefined): void {
  let q = 0;
  while (q < extra.length) {
    if (q + 4 > extra.length) {
      findings.push(fail('RPR-ZIP-024', at('a truncated extra field'), { pointer }));
      return;
    }
    const id = extra.readUInt16LE(q);
    const size = extra.readUInt16LE(q + 2);
    if (q + 4 + size > extra.length) {
      findings.push(
        fail('RPR-ZIP-024', at(`extra field 0x${id.toString(16).padStart(4, '0')} runs past the extra area`), {
          pointer,
        }),
      );
      return;
    }
    if (id === EXTRA_ZIP64)
      findings.push(fail('RPR-ZIP-006', at('a ZIP64 extra field that the archive does not need'), { pointer }));
    if (id === EXTRA_UNICODE_PATH)
      findings.push(
        fail('RPR-ZIP-023', at('a Info-ZIP unicode-path extra field (0x7075): a second, possibly different, name'), {
          pointer,
        }),
      );
    q += 4 + size;
  }
}

function checkFlagsAndMethod(
  flags: number,
  method: number,
  findings: Finding[],
  at: (m: string) => string,
  pointer: string | undefined,
): void {
  if (flags & (FLAG_ENCRYPTED | FLAG_STRONG_ENCRYPTION | FLAG_MASKED_HEADERS) || method === 99) {
    findings.push(fail('RPR-ZIP-021', at('the entry is encrypted'), { pointer, actual: flags }));
  } else if (method !== METHOD_STORED && method !== METHOD_DEFLATE) {
    findings.push(
      fail('RPR-ZIP-020', at(`compression method ${method} (only stored and deflate are read)`), {
        pointer,
        expected: [METHOD_STORED, METHOD_DEFLATE],
        actual: method,
      }),
    );
  }
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
/** The POSIX file types an extractor (Info-ZIP, libarchive) would create as something other than a file. */
const SPECIAL_TYPES = new Map<number, string>([
  [S_IFLNK, 'a symbolic link'],
  [0o010000, 'a FIFO'],
  [0o020000, 'a character device'],
  [0o060000, 'a block device'],
  [0o140000, 'a socket'],
]);

/**
 * Refuses what an extractor would make into something other than the file or directory
 * the name says: a symlink or device by the Unix type bits (host Unix, type bits set), a
 * directory bit on a file name or the reverse. Type bits left at 0 are common and
 * harmless: Python's zipfile writes permissions 0o600 with no type, and extractors take
 * such an entry for what its name says (a file, or a directory for a name ending in
 * `/`); upstream Nemosyne never reads external attributes at all. A type value POSIX
 * does not define is nothing an extractor can create, so it is read like no type.
 */
function checkAttributes(
  c: Central,
  findings: Finding[],
  at: (m: string) => string,
  pointer: string | undefined,
): void {
  const host = c.madeBy >> 8;
  const isDirName = c.name?.endsWith('/') ?? false;
  const dosDir = (c.externalAttrs & 0x10) !== 0;
  if (host === 3) {
    const mode = c.externalAttrs >>> 16;
    const type = mode & S_IFMT;
    const special = SPECIAL_TYPES.get(type);
    if (special) {
      findings.push(
        fail(
          'RPR-ZIP-022',
          at(type === S_IFLNK ? 'the entry is a symbolic link' : `the entry is ${special} (mode ${mode.toString(8)})`),
          { pointer, actual: mode.toString(8) },
        ),
      );
      return;
    }
    if ((type === S_IFDIR && !isDirName) || (type === S_IFREG && isDirName)) {
      findings.push(fail('RPR-ZIP-022', at("the entry's directory attribute and its name disagree"), { pointer }));
      return;
    }
  }
  if (dosDir && !isDirName)
    findings.push(fail('RPR-ZIP-022', at("the entry's directory attribute and its name disagree"), { pointer }));
  if (c.externalAttrs & 0x40) findings.push(fail('RPR-ZIP-022', at('the entry is marked as a device'), { pointer }));
  if (isDirName && c.uncompressedSize !== 0)
    findings.push(
      fail('RPR-ZIP-022', at('a directory entry with content'), { pointer, expected: 0, actual: c.uncompressedSize }),
    );
}
