import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MerkleTree,
  leafHash,
  merkleRoot,
  verifyConsistency,
  verifyInclusion,
  EMPTY_ROOT,
} from '../../app/journal/merkle.js';

const vectors = JSON.parse(
  readFileSync(join(__dirname, '..', '..', '..', 'shared', 'vectors', 'merkle', 'roots.json'), 'utf8'),
) as {
  leavesHex: string[];
  roots: { treeSize: number; rootHex: string }[];
};

function flipBit(b: Uint8Array, bit: number): Buffer {
  const c = Buffer.from(b);
  c[Math.floor(bit / 8) % c.length]! ^= 1 << (bit % 8);
  return c;
}

describe('RFC 9162 Merkle vectors (../shared/vectors/merkle/roots.json)', () => {
  const leaves = vectors.leavesHex.map((h) => Buffer.from(h, 'hex'));
  it('has the eight published leaves and nine roots', () => {
    expect(leaves).toHaveLength(8);
    expect(vectors.roots).toHaveLength(9);
  });
  for (const r of vectors.roots) {
    it(`reproduces the root of size ${r.treeSize} (incremental tree and reference recursion)`, () => {
      const t = new MerkleTree();
      for (const l of leaves.slice(0, r.treeSize)) t.appendLeaf(l);
      expect(t.root().toString('hex')).toBe(r.rootHex);
      expect(merkleRoot(leaves.slice(0, r.treeSize)).toString('hex')).toBe(r.rootHex);
      // and as a prefix of the full tree
      const full = new MerkleTree();
      for (const l of leaves) full.appendLeaf(l);
      expect(full.root(r.treeSize).toString('hex')).toBe(r.rootHex);
    });
  }
  it('the empty tree root is SHA-256 of nothing', () => {
    expect(EMPTY_ROOT.toString('hex')).toBe(vectors.roots[0]!.rootHex);
  });
});

describe('inclusion and consistency proofs for every size 1..64', () => {
  const N = 64;
  const data = Array.from({ length: N }, (_, i) => Buffer.from(`leaf-${i}`));
  const tree = new MerkleTree();
  for (const d of data) tree.appendLeaf(d);

  it('the incremental roots equal the reference recursion at every size', () => {
    for (let n = 1; n <= N; n++) expect(tree.root(n).equals(merkleRoot(data.slice(0, n)))).toBe(true);
  });

  it('every inclusion proof verifies, and fails when one bit of the proof, the index or the root changes', () => {
    let checked = 0;
    for (let n = 1; n <= N; n++) {
      const root = tree.root(n);
      for (let i = 0; i < n; i++) {
        const proof = tree.inclusionProof(i, n);
        const leaf = leafHash(data[i]!);
        expect(verifyInclusion(leaf, i, n, proof, root)).toBe(true);
        // one bit of each proof element
        proof.forEach((p, k) => {
          const bad = proof.slice();
          bad[k] = flipBit(p, (i * 7 + k * 13) % 256);
          expect(verifyInclusion(leaf, i, n, bad, root)).toBe(false);
        });
        // one bit of the index (every bit position that matters for this size)
        for (let bit = 1; bit <= 64; bit *= 2) expect(verifyInclusion(leaf, i ^ bit, n, proof, root)).toBe(false);
        // one bit of the root, and of the leaf
        expect(verifyInclusion(leaf, i, n, proof, flipBit(root, (i + n) % 256))).toBe(false);
        expect(verifyInclusion(flipBit(leaf, i % 256), i, n, proof, root)).toBe(false);
        // a proof that is one element short or long
        if (proof.length > 0) expect(verifyInclusion(leaf, i, n, proof.slice(0, -1), root)).toBe(false);
        expect(verifyInclusion(leaf, i, n, [...proof, root], root)).toBe(false);
        checked++;
      }
    }
    expect(checked).toBe((N * (N + 1)) / 2);
  });

  it('every consistency proof verifies, and fails when one bit of the proof, a size or a root changes', () => {
    let checked = 0;
    for (let n = 1; n <= N; n++) {
      const r2 = tree.root(n);
      for (let m = 1; m <= n; m++) {
        const r1 = tree.root(m);
        const proof = tree.consistencyProof(m, n);
        expect(verifyConsistency(m, n, r1, r2, proof)).toBe(true);
        proof.forEach((p, k) => {
          const bad = proof.slice();
          bad[k] = flipBit(p, (m * 5 + k * 11) % 256);
          expect(verifyConsistency(m, n, r1, r2, bad)).toBe(false);
        });
        expect(verifyConsistency(m, n, flipBit(r1, m % 256), r2, proof)).toBe(false);
        expect(verifyConsistency(m, n, r1, flipBit(r2, n % 256), proof)).toBe(false);
        for (let bit = 1; bit <= 64; bit *= 2) {
          const m2 = m ^ bit;
          if (m2 >= 1 && m2 <= n) expect(verifyConsistency(m2, n, r1, r2, proof)).toBe(false);
          // The second size is bound by the signed checkpoint that carries r2, not by the
          // path: RFC 9162's algorithm accepts any second size whose path has the same shape
          // (5 and 7, say). So a flipped second size is checked against the root of that size.
          const n2 = n ^ bit;
          if (n2 >= m && n2 <= N && n2 !== n) expect(verifyConsistency(m, n2, r1, tree.root(n2), proof)).toBe(false);
        }
        checked++;
      }
    }
    expect(checked).toBe((N * (N + 1)) / 2);
  });

  it('refuses out-of-range requests instead of proving nonsense', () => {
    expect(() => tree.inclusionProof(64, 64)).toThrow(RangeError);
    expect(() => tree.consistencyProof(5, 65)).toThrow(RangeError);
    expect(verifyInclusion(leafHash(data[0]!), 0, 0, [], EMPTY_ROOT)).toBe(false);
    expect(verifyConsistency(5, 4, tree.root(5), tree.root(4), [])).toBe(false);
  });

  it('handles sizes far beyond 2^32 with plain arithmetic (no 32-bit shifts)', () => {
    // Tree of 2^40 + 3 leaves: the root splits at 2^40; the right subtree is (x, y | z).
    // The last leaf z's audit path is [MTH(x, y), MTH(D[0:2^40])]. Verification must walk
    // it without truncating the index or size to 32 bits.
    const size = 2 ** 40 + 3;
    const left = Buffer.alloc(32, 7); // stands for MTH(D[0:2^40])
    const right = merkleRoot(['x', 'y', 'z']);
    const root = createHash('sha256')
      .update(Buffer.from([1]))
      .update(left)
      .update(right)
      .digest();
    const z = leafHash('z');
    const xy = merkleRoot(['x', 'y']);
    expect(verifyInclusion(z, size - 1, size, [xy, left], root)).toBe(true);
    expect(verifyInclusion(z, size - 1 - 2 ** 32, size, [xy, left], root)).toBe(false);
    expect(verifyInclusion(z, size - 1, size - 2 ** 32, [xy, left], root)).toBe(false);
  });
});
