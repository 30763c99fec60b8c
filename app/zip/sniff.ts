/**
 * Recognising a ZIP archive from its bytes, without reading it whole: the one place the
 * engine (which streams a ZIP's hash from the file) and the ZIP kinds (which claim an
 * artifact) ask "is this a ZIP". Recognising is not accepting: anything recognised here
 * still goes through the strict reader (reader.ts), which refuses prepended data, a second
 * end record and every other ambiguity with a finding.
 */
import { SIG_EOCD, SIG_LOCAL } from './reader.js';
import { toSource, type ZipSource } from './source.js';

/** End record (22 bytes) plus the longest comment it may carry (APPNOTE 4.3.16). */
const END_SEARCH = 22 + 0xffff;
const END_MAGIC = Buffer.alloc(4);
END_MAGIC.writeUInt32LE(SIG_EOCD);

function signatureAt0(src: ZipSource): number | null {
  return src.size < 4 ? null : src.read(0, 4).readUInt32LE(0);
}

/**
 * True when the archive starts with a local header: a ZIP with at least one entry, laid
 * out as the strict reader demands. Throws SourceError when a file cannot be read.
 */
export function startsWithLocalHeader(bytes: Uint8Array | ZipSource): boolean {
  return signatureAt0(toSource(bytes)) === SIG_LOCAL;
}

/**
 * True when the bytes look like a ZIP: a local header or an empty archive's end record at
 * offset 0, or an end record within the last 22 + 65535 bytes (so an archive with data
 * prepended is recognised, and then refused by the strict reader, rather than called
 * unknown). Only the first 4 bytes and that tail are read; false when the file cannot be
 * read (it shrank since it was opened).
 */
export function looksLikeZip(bytes: Uint8Array | ZipSource): boolean {
  const src = toSource(bytes);
  try {
    const sig = signatureAt0(src);
    if (sig === SIG_LOCAL || sig === SIG_EOCD) return true;
    if (src.size < 22) return false;
    return src.read(Math.max(0, src.size - END_SEARCH), src.size).lastIndexOf(END_MAGIC) >= 0;
  } catch {
    return false;
  }
}
