/** The strict ZIP reader and the deterministic writer (see docs/zip-reader.md). */
export { DEFAULT_LIMITS, LIMIT_NAMES, RATIO_FLOOR, resolveLimits, type ZipLimits } from './limits.js';
export { readStructure, type ZipEntry, type ZipStructure } from './reader.js';
export { readEntry, readEntrySync, readEntryStreaming, SYNC_MAX, type EntryContent } from './inflate.js';
export { buildZip, writeZip, deflateRaw, type RawArchive, type RawEntry, type HeaderFields } from './writer.js';
export { checkName, upstreamSanitize, foldName } from './names.js';
export { looksLikeZip, startsWithLocalHeader } from './sniff.js';
