/**
 * The members of a Nemosyne package, for a reviewer to read: each entry with the digest
 * its manifest records for it and the same digest recomputed from the entry's bytes, and
 * one member's content (JSON as raw and canonical text, the dataset also as a table).
 *
 * Read only through the strict ZIP reader with its limits, like verify.ts: an archive the
 * reader refuses is not browsed (its findings say why), so nothing here sees bytes that
 * verification would not have accepted as an archive. A member that is not valid JSON is
 * shown as text with a note, never parsed leniently.
 */
import { isPlainObject } from '../../core/closed.js';
import type { PackageMember, PackageMemberContent, PackageMembers } from '../../../shared/api.js';
import { isBareHex64 } from '../../../shared/hash-format.js';
import { shownValue } from '../../../shared/report.js';
import { formatHash, sha256Hex } from '../../core/hash.js';
import { decodeJsonBytes, JcsError, parseCanonical } from '../../core/jcs.js';
import { resolveLimits, type ZipLimits } from '../../zip/limits.js';
import { readStructure, type ZipEntry } from '../../zip/reader.js';
import { readEntry } from '../../zip/inflate.js';
import type { ZipSource } from '../../zip/source.js';
import { MembersError } from '../operations.js';
import { datasetIdentityHex } from './dataset-identity.js';
import { ENTRY } from './verify.js';

/** Largest member shown as text (as the artifact editor's limit). */
export const MAX_MEMBER_TEXT_BYTES = 8 * 1024 * 1024;
/** Rows of the dataset shown in its table (the digest always covers all of them). */
export const MAX_TABLE_ROWS = 2000;

/** The package cannot be browsed (the strict reader refused it, or no such member): what the user can fix. */
export { MembersError as PackageMembersError };

const ROLES: Record<string, string> = {
  [ENTRY.manifest]: 'manifest',
  [ENTRY.receipts]: 'envelope',
  [ENTRY.commands]: 'command log',
  [ENTRY.dataset]: 'dataset',
  [ENTRY.forma]: 'forma',
};

/** Which manifest member records a digest of which entry, and how it is computed. */
const RECORDED: Record<string, { field: string; name: string }> = {
  [ENTRY.dataset]: { field: 'datasetFingerprint', name: 'sha256-canonical-dataset-v1 identity' },
  [ENTRY.receipts]: { field: 'evidenceReceiptDigest', name: 'SHA-256 of the exact bytes' },
  [ENTRY.forma]: { field: 'formaDigest', name: 'SHA-256 of the exact bytes' },
};

const show = (v: string): string => (isBareHex64(v) ? formatHash(v) : v);

function strictJson(bytes: Uint8Array): unknown {
  return parseCanonical(decodeJsonBytes(bytes)).value;
}

function structure(archive: Uint8Array | ZipSource, limits: ZipLimits): ZipEntry[] {
  const zs = readStructure(archive, limits);
  if (!zs.ok) {
    const first = zs.findings.find((f) => f.severity === 'fail');
    throw new MembersError(
      `the strict ZIP reader refuses this archive, so its members are not shown: ${first ? `${first.rule} ${first.message}` : 'it is not a valid archive'}`,
    );
  }
  return zs.entries.filter((e) => !e.isDirectory);
}

async function bytesOf(archive: Uint8Array | ZipSource, e: ZipEntry): Promise<Buffer | null> {
  const c = await readEntry(archive, e, true);
  return c.findings.length === 0 ? c.bytes : null;
}

/** The manifest's members, or null when it is missing or not a JSON object. */
async function manifestOf(
  archive: Uint8Array | ZipSource,
  entries: ZipEntry[],
): Promise<Record<string, unknown> | null> {
  const e = entries.find((x) => x.name === ENTRY.manifest);
  const b = e ? await bytesOf(archive, e) : null;
  if (!b) return null;
  try {
    const v = strictJson(b);
    return isPlainObject(v) ? v : null;
  } catch {
    return null;
  }
}

/** The dataset identity of the dataset's bytes, or null when they are not a dataset. */
function identityOf(bytes: Buffer): string | null {
  try {
    return formatHash(datasetIdentityHex(strictJson(bytes)));
  } catch {
    return null;
  }
}

async function memberOf(
  archive: Uint8Array | ZipSource,
  e: ZipEntry,
  manifest: Record<string, unknown> | null,
): Promise<PackageMember> {
  const bytes = await bytesOf(archive, e);
  const rec = RECORDED[e.name];
  const recorded =
    rec && manifest && typeof manifest[rec.field] === 'string' ? show(manifest[rec.field] as string) : null;
  const sha256 = bytes ? formatHash(sha256Hex(bytes)) : null;
  const recomputed = !rec || !bytes ? null : e.name === ENTRY.dataset ? identityOf(bytes) : sha256;
  return {
    path: e.name,
    size: e.uncompressedSize,
    role: ROLES[e.name] ?? 'other',
    sha256,
    recordedDigest: recorded,
    recomputedDigest: recomputed,
    digestName: rec?.name ?? null,
  };
}

/** The dataset as a table: its declared columns, each row's value per column as JSON text. */
function tableOf(value: unknown): PackageMemberContent['table'] {
  if (!isPlainObject(value) || !Array.isArray(value['columns']) || !Array.isArray(value['rows'])) return null;
  const columns = value['columns'].map((c) => (isPlainObject(c) && typeof c['name'] === 'string' ? c['name'] : null));
  if (columns.some((c) => c === null)) return null;
  const names = columns as string[];
  const rows = value['rows']
    .slice(0, MAX_TABLE_ROWS)
    .map((r) => names.map((n) => (isPlainObject(r) && Object.hasOwn(r, n) ? shownValue(r[n]) : '')));
  return { columns: names, rows, totalRows: value['rows'].length };
}

function contentOf(path: string, bytes: Buffer): PackageMemberContent {
  const none = { path, raw: null, canonical: null, table: null };
  if (bytes.length > MAX_MEMBER_TEXT_BYTES)
    return { ...none, note: `larger than ${MAX_MEMBER_TEXT_BYTES / 1048576} MiB: not shown` };
  let raw: string;
  try {
    raw = decodeJsonBytes(bytes);
  } catch {
    return {
      ...none,
      raw: new TextDecoder('utf-8', { fatal: false }).decode(bytes),
      note: 'not valid UTF-8: shown with replacement characters',
    };
  }
  try {
    const p = parseCanonical(raw);
    return { path, raw, canonical: p.canonical, table: path === ENTRY.dataset ? tableOf(p.value) : null, note: null };
  } catch (e) {
    return {
      ...none,
      raw,
      note: e instanceof JcsError ? `no canonical form: ${e.message}` : 'not a single JSON document: no canonical form',
    };
  }
}

/** Lists a package's members with their digests, and reads `path` when it is given. */
export async function packageMembers(
  archive: Uint8Array | ZipSource,
  path?: string,
  limits?: Record<string, number>,
): Promise<PackageMembers> {
  const entries = structure(archive, resolveLimits(limits));
  const manifest = await manifestOf(archive, entries);
  const members: PackageMember[] = [];
  for (const e of entries) members.push(await memberOf(archive, e, manifest));
  if (path === undefined) return { members, member: null };
  const e = entries.find((x) => x.name === path);
  if (!e) throw new MembersError(`the package has no member ${JSON.stringify(path)}`);
  const bytes = await bytesOf(archive, e);
  if (!bytes)
    return {
      members,
      member: {
        path,
        raw: null,
        canonical: null,
        table: null,
        note: 'the member fails its size or CRC-32 check: not shown',
      },
    };
  return { members, member: contentOf(path, bytes) };
}
