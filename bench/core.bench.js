// The common core: canonicalization (text in, canonical bytes out) of one 50 MiB
// document against `canonicalize` (JSON.parse + the npm package) and the bare
// JSON.parse + JSON.stringify lower bound; SHA-256 of 256 MiB against `openssl dgst`.
// Targets (issue 2): canonicalizer >= 1.25x canonicalize; hashing >= 0.9x OpenSSL.
import { spawnSync } from 'node:child_process';
import { existsSync, openSync, writeSync, closeSync, statSync } from 'node:fs';
import { join } from 'node:path';
import canonicalize from 'canonicalize';
import { canonicalizeText } from '../dist/app/core/jcs.js';
import { hashFile } from '../dist/app/core/hash.js';

/** Deterministic pseudo-random JSON with unsorted members, strings with escapes, numbers. */
function makeDocument(targetBytes, sortedMembers) {
  let seed = 0x9e3779b9;
  const rnd = () => (seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu'];
  const word = () => words[Math.floor(rnd() * words.length)];
  const leaf = () => {
    const r = rnd();
    if (r < 0.3) return Math.round(rnd() * 1e6) / 1000;
    if (r < 0.4) return Math.floor(rnd() * 1e9);
    if (r < 0.5) return rnd() < 0.5;
    if (r < 0.55) return null;
    if (r < 0.6) return `${word()} "quoted" \u00e9\n${word()}`;
    return `${word()}-${word()}-${Math.floor(rnd() * 1e6)}`;
  };
  const record = (depth) => {
    const o = {};
    const n = 4 + Math.floor(rnd() * 8);
    for (let i = 0; i < n; i++) {
      const k = `${word()}_${Math.floor(rnd() * 100)}`;
      o[k] = depth < 2 && rnd() < 0.25 ? record(depth + 1) : rnd() < 0.1 ? [leaf(), leaf(), leaf()] : leaf();
    }
    if (!sortedMembers) return o;
    const s = {};
    for (const k of Object.keys(o).sort()) s[k] = o[k];
    return s;
  };
  const items = [];
  let size = 0;
  while (size < targetBytes) {
    const r = record(0);
    size += JSON.stringify(r).length + 1;
    items.push(r);
  }
  const doc = sortedMembers
    ? { alpha: { generated: true }, items, zeta: 'document' }
    : { zeta: 'document', items, alpha: { generated: true } };
  return JSON.stringify(doc, null, 1);
}

export default async function (ctx) {
  // Document A: members written in canonical order, as canonical writers (Reprise among
  // them) emit them; pretty-printed, so the text still differs from its canonical form.
  // Document B: every object's members out of order, the worst case for sort-when-needed.
  for (const [label, sorted] of [
    ['A (members in order)', true],
    ['B (every object out of order)', false],
  ]) {
    const text = makeDocument(37 * 1024 * 1024, sorted); // ~50 MiB once pretty-printed
    ctx.line(`canonicalization document ${label}`, `${(text.length / 1048576).toFixed(1)} MiB`);
    if (canonicalizeText(text) !== canonicalize(JSON.parse(text)))
      throw new Error('canonicalizer disagrees with the canonicalize package');
    // Interleave the three so load on the machine hits each alike; median of 3.
    const t = { lower: [], pkg: [], ours: [] };
    for (let i = 0; i < 3; i++) {
      t.lower.push(await ctx.time(() => Buffer.from(JSON.stringify(JSON.parse(text))), 1));
      t.pkg.push(await ctx.time(() => Buffer.from(canonicalize(JSON.parse(text))), 1));
      t.ours.push(await ctx.time(() => Buffer.from(canonicalizeText(text)), 1));
    }
    const med = (a) => a.sort((x, y) => x - y)[1];
    const [tLower, tPkg, tOurs] = [med(t.lower), med(t.pkg), med(t.ours)];
    ctx.line(`  JSON.parse+JSON.stringify (lower bound)`, `${tLower.toFixed(0)} ms`);
    ctx.line(`  JSON.parse+canonicalize (npm)`, `${tPkg.toFixed(0)} ms`);
    ctx.line(`  reprise canonicalizeText (with text checks)`, `${tOurs.toFixed(0)} ms`);
    ctx.line(
      `  RATIO ${label.split(' ')[0]} canonicalizer vs canonicalize (target >= 1.25)`,
      `${(tPkg / tOurs).toFixed(2)}x`,
    );
    ctx.line(
      `  RATIO ${label.split(' ')[0]} canonicalizer vs lower bound (fraction)`,
      `${(tLower / tOurs).toFixed(2)}`,
    );
    ctx.line(`  RATIO ${label.split(' ')[0]} canonicalize vs lower bound (fraction)`, `${(tLower / tPkg).toFixed(2)}`);
  }

  const file = join(ctx.work, 'hash-256MiB.bin');
  const size = 256 * 1024 * 1024;
  if (!existsSync(file) || statSync(file).size !== size) {
    const fd = openSync(file, 'w');
    const chunk = Buffer.alloc(1024 * 1024);
    for (let i = 0; i < 256; i++) {
      for (let j = 0; j < chunk.length; j += 4) chunk.writeUInt32LE((i * 2654435761 + j * 40503) >>> 0, j);
      writeSync(fd, chunk);
    }
    closeSync(fd);
  }
  const openssl = spawnSync('openssl', ['version'], { encoding: 'utf8' });
  const ours = await hashFile(file);
  let tSsl = null;
  if (openssl.status === 0) {
    const check = spawnSync('openssl', ['dgst', '-sha256', '-r', file], { encoding: 'utf8' });
    if (!ours.endsWith(check.stdout.split(' ')[0])) throw new Error('hash disagrees with openssl');
    tSsl = await ctx.time(() => spawnSync('openssl', ['dgst', '-sha256', file]), 3);
  }
  const tHash = await ctx.time(() => hashFile(file), 3);
  ctx.line(
    'reprise hashFile (node:crypto, 4 MiB chunks)',
    `${tHash.toFixed(0)} ms (${(size / 1048576 / (tHash / 1000)).toFixed(0)} MiB/s)`,
  );
  if (tSsl !== null) {
    ctx.line('openssl dgst -sha256', `${tSsl.toFixed(0)} ms (${(size / 1048576 / (tSsl / 1000)).toFixed(0)} MiB/s)`);
    ctx.line('RATIO hashing vs openssl (target >= 0.9)', `${(tSsl / tHash).toFixed(2)}x`);
  } else ctx.line('RATIO hashing vs openssl', 'skipped: openssl not installed');
}
