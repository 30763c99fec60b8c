/**
 * RFC 9162 (Certificate Transparency v2) Merkle tree: leaf and node hashing, tree heads,
 * inclusion and consistency proofs and their verification (sections 2.1.1 to 2.1.4).
 *
 * Sizes and indices are plain JavaScript numbers (exact integers up to 2^53) handled with
 * division and remainder, never with 32-bit shift operators. Hashes are raw 32-byte
 * Buffers here; the journal formats them as `sha256:` strings.
 */
import { sha256 } from '../core/hash.js';

// Merkle hashing goes through app/core/hash.ts's sha256, a one-shot digest (crypto.hash)
// over one prefixed buffer: a tree hashes many 33- and 65-byte inputs, where a Hash object
// per call would cost 3-5x more than the hashing itself (see bench/journal).

/** `SHA-256(0x00 ‖ leaf)` */
export function leafHash(data: Uint8Array | string): Buffer {
  const b = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const x = Buffer.allocUnsafe(b.length + 1);
  x[0] = 0x00;
  x.set(b, 1);
  return sha256(x);
}

/** `SHA-256(0x01 ‖ left ‖ right)` */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  const x = Buffer.allocUnsafe(1 + left.length + right.length);
  x[0] = 0x01;
  x.set(left, 1);
  x.set(right, 1 + left.length);
  return sha256(x);
}

/** The root of the empty tree: SHA-256 of the empty string. */
export const EMPTY_ROOT: Buffer = sha256(Buffer.alloc(0));

/** The largest power of two strictly smaller than n (n >= 2). */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

function isPow2(n: number): boolean {
  if (n < 1) return false;
  while (n % 2 === 0) n /= 2;
  return n === 1;
}

function isSize(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

/** log2 of a power of two (exact for any safe integer power of two). */
function log2(n: number): number {
  let level = 0;
  for (let s = n; s > 1; s /= 2) level++;
  return level;
}

/**
 * The RFC 9162 algorithms (root, PATH, PROOF) over any store of complete, aligned subtree
 * hashes: `stored(level, k)` is the hash of leaves [k·2^level, (k+1)·2^level), which the
 * caller only asks for when that block lies inside the tree. The in-memory tree, the
 * journal's tree file and a tree grown from a frontier differ only in where those hashes
 * come from, so the proofs are written once.
 */
export abstract class MerkleView {
  abstract get size(): number;
  protected abstract stored(level: number, index: number): Buffer;

  /** The hash of the complete aligned block `index` at `level` (a tree continued from this one reads its blocks here). */
  block(level: number, index: number): Buffer {
    return this.stored(level, index);
  }

  leaf(index: number): Buffer {
    if (!isSize(index) || index >= this.size) throw new RangeError(`no leaf ${index}`);
    return this.stored(0, index);
  }

  /** MTH(D[start:end]) for 0 <= start < end <= size, from stored aligned subtrees. */
  subtree(start: number, end: number): Buffer {
    const n = end - start;
    if (n === 1) return this.leaf(start);
    if (isPow2(n) && start % n === 0) return this.stored(log2(n), start / n);
    const k = splitPoint(n);
    return nodeHash(this.subtree(start, start + k), this.subtree(start + k, end));
  }

  /** The tree head at `treeSize` (default: the whole tree). */
  root(treeSize: number = this.size): Buffer {
    if (!isSize(treeSize) || treeSize > this.size) throw new RangeError(`tree size ${treeSize} out of range`);
    return treeSize === 0 ? EMPTY_ROOT : this.subtree(0, treeSize);
  }

  /** RFC 9162 2.1.3.1 PATH(m, D[0:n]): the audit path of leaf `index` in the tree of `treeSize` leaves. */
  inclusionProof(index: number, treeSize: number = this.size): Buffer[] {
    if (!isSize(treeSize) || treeSize > this.size || !isSize(index) || index >= treeSize)
      throw new RangeError(`no leaf ${index} in a tree of ${treeSize}`);
    const out: Buffer[] = [];
    this.path(index, 0, treeSize, out);
    return out;
  }

  private path(m: number, start: number, end: number, out: Buffer[]): void {
    const n = end - start;
    if (n <= 1) return;
    const k = splitPoint(n);
    if (m < k) {
      this.path(m, start, start + k, out);
      out.push(this.subtree(start + k, end));
    } else {
      this.path(m - k, start + k, end, out);
      out.push(this.subtree(start, start + k));
    }
  }

  /** RFC 9162 2.1.4.1 PROOF(m, D[0:n]): consistency of the tree of m leaves with the tree of n. */
  consistencyProof(m: number, n: number = this.size): Buffer[] {
    if (!isSize(m) || !isSize(n) || n > this.size || m > n)
      throw new RangeError(`no consistency proof from ${m} to ${n}`);
    const out: Buffer[] = [];
    if (m === 0 || m === n) return out;
    this.subproof(m, 0, n, true, out);
    return out;
  }

  private subproof(m: number, start: number, end: number, b: boolean, out: Buffer[]): void {
    const n = end - start;
    if (m === n) {
      if (!b) out.push(this.subtree(start, end));
      return;
    }
    const k = splitPoint(n);
    if (m <= k) {
      this.subproof(m, start, start + k, b, out);
      out.push(this.subtree(start + k, end));
    } else {
      this.subproof(m - k, start + k, end, false, out);
      out.push(this.subtree(start, start + k));
    }
  }
}

/**
 * One level's hashes in one growing buffer (32 bytes each): a tree of a million leaves holds
 * two million hashes, which as separate Buffer objects would cost several times their bytes.
 */
class HashRow {
  private buf = Buffer.allocUnsafe(32 * 64);
  length = 0;

  push(h: Uint8Array): void {
    if ((this.length + 1) * 32 > this.buf.length) {
      const bigger = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(bigger, 0, 0, this.length * 32);
      this.buf = bigger;
    }
    this.buf.set(h, this.length * 32);
    this.length++;
  }

  /** A view of hash `i` (valid until the row grows; callers hash it at once or copy it). */
  at(i: number): Buffer {
    return this.buf.subarray(i * 32, i * 32 + 32);
  }
}

/**
 * An append-only Merkle tree in memory that keeps every complete, aligned subtree hash
 * (level j holds the hashes of the aligned 2^j-leaf blocks), so the root at any size and any
 * RFC 9162 proof cost O(log² n) hash operations at most.
 */
export class MerkleTree extends MerkleView {
  private readonly levels: HashRow[] = [new HashRow()];

  get size(): number {
    return this.levels[0]!.length;
  }

  protected stored(level: number, index: number): Buffer {
    const row = this.levels[level];
    if (!row || index >= row.length) throw new RangeError(`no subtree ${index} at level ${level}`);
    return Buffer.from(row.at(index));
  }

  /** Appends one leaf hash (use `leafHash` on the leaf data); returns the hashes it completed, leaf first (the tlog storage order). */
  appendLeafHash(h: Buffer): Buffer[] {
    const completed = [h];
    let level = 0;
    let node = h;
    for (;;) {
      const row = this.levels[level]!;
      row.push(node);
      const i = row.length - 1;
      if (i % 2 === 0) return completed;
      node = nodeHash(row.at(i - 1), node);
      completed.push(node);
      level++;
      if (this.levels.length === level) this.levels.push(new HashRow());
    }
  }

  appendLeaf(data: Uint8Array | string): void {
    this.appendLeafHash(leafHash(data));
  }
}

/**
 * The compact range of a tree of `size` leaves: its maximal aligned perfect subtrees, left to
 * right, as [level, index] (one per set bit of `size`, largest first). Their hashes are all an
 * append-only tree needs to keep to grow and to give its root (the tree's right edge).
 */
export function frontierBlocks(size: number): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  let p = 1;
  while (p * 2 <= size) p *= 2;
  for (; p >= 1; p /= 2) {
    if (size - start >= p) {
      out.push([log2(p), start / p]);
      start += p;
    }
  }
  return out;
}

/**
 * Where the hash of block `index` at `level` sits in the append-only sequence of stored
 * hashes used by Go's transparency-log package (golang.org/x/mod/sumdb/tlog,
 * StoredHashIndex): each leaf hash is stored, followed by the hashes of the subtrees it
 * completes. The journal's tree file follows this layout, so appending a leaf appends to
 * the file and any stored hash is one read away. Written from the layout's definition
 * (level L's k-th hash follows level L+1's... sequence), with arithmetic, not 32-bit shifts.
 */
export function storedHashIndex(level: number, index: number): number {
  let n = index;
  for (let l = level; l > 0; l--) n = 2 * n + 1;
  let i = 0;
  for (; n > 0; n = Math.floor(n / 2)) i += n;
  return i + level;
}

/** How many hashes the tlog layout stores for a tree of `size` leaves. */
export function storedHashCount(size: number): number {
  if (size === 0) return 0;
  let count = storedHashIndex(0, size - 1) + 1;
  for (let i = size - 1; i % 2 === 1; i = Math.floor(i / 2)) count++;
  return count;
}

/**
 * A tree that continues one whose complete blocks are read from elsewhere (the journal's
 * tree file, or a frontier checked against a signed root): blocks wholly before `baseSize`
 * come from `base`, blocks after it are kept in memory as leaves are appended, and a block
 * across the boundary is hashed from its halves. This is what lets an append, or a
 * verification since a held checkpoint, cost O(log n) and not a re-read of every entry.
 */
export class ContinuedTree extends MerkleView {
  private readonly grown = new Map<string, Buffer>();
  private n: number;

  constructor(
    readonly baseSize: number,
    private readonly base: (level: number, index: number) => Buffer,
  ) {
    super();
    this.n = baseSize;
  }

  get size(): number {
    return this.n;
  }

  protected stored(level: number, index: number): Buffer {
    const width = 2 ** level;
    const start = index * width;
    if (start + width <= this.baseSize) return this.base(level, index);
    const key = `${level}/${index}`;
    const have = this.grown.get(key);
    if (have) return have;
    if (level === 0 || start + width > this.n) throw new RangeError(`no subtree ${index} at level ${level}`);
    const h = nodeHash(this.stored(level - 1, 2 * index), this.stored(level - 1, 2 * index + 1));
    this.grown.set(key, h);
    return h;
  }

  /** Appends one leaf hash; returns the hashes it completed, leaf first (the tlog storage order). */
  appendLeafHash(h: Buffer): Buffer[] {
    const i = this.n;
    this.grown.set(`0/${i}`, h);
    this.n++;
    const completed = [h];
    for (let level = 0, k = i; k % 2 === 1; level++, k = Math.floor(k / 2))
      completed.push(this.stored(level + 1, Math.floor(k / 2)));
    return completed;
  }
}

/** A frontier's hashes as a `base` for ContinuedTree: only the frontier's own blocks are known. */
export function frontierBase(size: number, hashes: readonly Buffer[]): (level: number, index: number) => Buffer {
  const blocks = frontierBlocks(size);
  if (hashes.length !== blocks.length)
    throw new RangeError(`a frontier of a tree of ${size} has ${blocks.length} hashes, not ${hashes.length}`);
  const byKey = new Map(blocks.map(([l, k], i) => [`${l}/${k}`, hashes[i]!]));
  return (level, index) => {
    const h = byKey.get(`${level}/${index}`);
    if (h) return h;
    // Any other old block is under a frontier block: it is not kept, and no root or proof of a
    // size >= the frontier's needs it except through the frontier block itself.
    throw new RangeError(`subtree ${index} at level ${level} is inside the frontier, not kept`);
  };
}

/** MTH of a list of leaf data (reference implementation, straight from the RFC's recursion). */
export function merkleRoot(leaves: readonly (Uint8Array | string)[]): Buffer {
  const rec = (a: number, b: number): Buffer => {
    const n = b - a;
    if (n === 0) return EMPTY_ROOT;
    if (n === 1) return leafHash(leaves[a]!);
    const k = splitPoint(n);
    return nodeHash(rec(a, a + k), rec(a + k, b));
  };
  return rec(0, leaves.length);
}

/** RFC 9162 2.1.3.2: verifies an inclusion proof (audit path) of a leaf hash against a root. */
export function verifyInclusion(
  leaf: Uint8Array,
  index: number,
  treeSize: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  if (!isSize(index) || !isSize(treeSize) || index >= treeSize) return false;
  let fn = index;
  let sn = treeSize - 1;
  let r: Uint8Array = leaf;
  for (const p of proof) {
    if (p.length !== 32) return false;
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn = fn / 2;
        sn = Math.floor(sn / 2);
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && Buffer.from(r).equals(Buffer.from(root));
}

/** RFC 9162 2.1.4.2: verifies a consistency proof between two tree heads. */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proof: readonly Uint8Array[],
): boolean {
  if (!isSize(first) || !isSize(second) || first > second) return false;
  const eq = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.from(a).equals(Buffer.from(b));
  if (first === second) return proof.length === 0 && eq(firstRoot, secondRoot);
  if (first === 0) return proof.length === 0 && eq(firstRoot, EMPTY_ROOT);
  if (proof.length === 0) return false;
  for (const p of proof) if (p.length !== 32) return false;
  const path: Uint8Array[] = isPow2(first) ? [firstRoot, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr: Uint8Array = path[0]!;
  let sr: Uint8Array = path[0]!;
  for (let i = 1; i < path.length; i++) {
    const c = path[i]!;
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      while (fn % 2 === 0 && fn !== 0) {
        fn = fn / 2;
        sn = Math.floor(sn / 2);
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && eq(fr, firstRoot) && eq(sr, secondRoot);
}
