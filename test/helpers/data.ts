/** Deterministic, compressible test data: LCG digits with a newline every 20 bytes (about 2:1 deflated). */
export function digits(len: number, seed: number): Buffer {
  const b = Buffer.allocUnsafe(len);
  let x = seed >>> 0;
  for (let i = 0; i < len; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    b[i] = i % 20 === 19 ? 0x0a : 0x30 + ((x >>> 24) % 10);
  }
  return b;
}
