/**
 * The one definition of a Reprise hash string (common.md): `sha256:` + 64 lowercase hex.
 * The digest itself is computed by app/core/hash.ts (node:crypto) in the engine and by
 * shared/sha256.ts (@noble/hashes) in portable code (the window's renderer/lib/digest.ts, the
 * diff page's ids); both format through here.
 */

export const HASH_PREFIX = 'sha256:';
const HASH_RE = /^sha256:[0-9a-f]{64}$/;
const HEX64_RE = /^[0-9a-f]{64}$/;

export function isHashString(s: unknown): s is string {
  return typeof s === 'string' && HASH_RE.test(s);
}

/** Bare 64 lowercase hex, the form Nemosyne writes. */
export function isBareHex64(s: unknown): s is string {
  return typeof s === 'string' && HEX64_RE.test(s);
}

/**
 * Whether two values name the same SHA-256 digest, each written either way: `sha256:` + hex
 * (Reprise) or bare hex (Nemosyne's upstream form). Anything else is never the same digest.
 */
export function sameDigest(a: unknown, b: unknown): boolean {
  const hex = (s: unknown): string | null =>
    isHashString(s) ? s.slice(HASH_PREFIX.length) : isBareHex64(s) ? s : null;
  const x = hex(a);
  return x !== null && x === hex(b);
}

export function formatHash(hex: string): string {
  return HASH_PREFIX + hex;
}

export const ZERO_HASH = HASH_PREFIX + '0'.repeat(64);

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function toHex(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += HEX[bytes[i]!];
  return s;
}
