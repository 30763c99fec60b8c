/**
 * The stripping scan over bytes that arrive in pieces (stripArriving) must give exactly
 * what the scan over the whole bytes gives (stripToCanonical), however the bytes are cut:
 * inside a string, an escape, a number or a run of whitespace, and for text that is not
 * canonical (or not JSON) as well as for text that is.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripArriving, stripToCanonical, type MemberSpan } from '../../app/core/jcs.js';

const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));

/** Strips `bytes` as if they arrived cut at `cuts` (positions, any order); null when not canonical. */
function inPieces(bytes: Uint8Array, cuts: number[]) {
  // The scan reads the buffer beyond the bytes in place only to find it is beyond: zeros there,
  // as in the shared buffer an upload fills, and the true bytes copied in as they arrive.
  const buf = new Uint8Array(bytes.length);
  const s = stripArriving(buf);
  let ok = true;
  for (const c of [...new Set(cuts.map((k) => k % (bytes.length + 1)))].sort((a, b) => a - b).concat(bytes.length)) {
    buf.set(bytes.subarray(0, c));
    if (ok) ok = s.advance(c);
  }
  return ok ? s.end() : null;
}

const view = (r: { bytes: Uint8Array; members: MemberSpan[]; ordered: boolean } | null) =>
  r && { text: Buffer.from(r.bytes).toString('utf8'), members: r.members, ordered: r.ordered };

const SAMPLES = [
  '{ "a": 1, "b": [ 1.5, -0, 1e21, 12345678901234567890, 0.1 ], "c": { "d": "x\\ny\\u0001z", "e": "\\u00e9" } }',
  '{\n  "artifacts": {\n    "k1": { "json": { "rows": [ 1, 2, 3 ] }, "text": "long \\"quoted\\" text évidence ✓" }\n  },\n  "signature": "abc",\n  "type": "t"\n}\n',
  '[ "\\/", 1 ]',
  '{ "b": 1, "a": 2 }',
  '{ "a": "\\uD83D\\uDE00" }',
  '{ "a": "unterminated',
  '  12345.6789  ',
  '{ "x": -0.000001, "y": 1E5, "z": 100000000000000000000000 }',
];

describe('stripping bytes as they arrive', () => {
  it('gives what the whole scan gives, cut at every position of a few samples', () => {
    for (const text of SAMPLES) {
      const bytes = utf8(text);
      const whole = view(stripToCanonical(bytes));
      for (let c = 0; c <= bytes.length; c++) expect(view(inPieces(bytes, [c]))).toEqual(whole);
      expect(
        view(
          inPieces(
            bytes,
            Array.from({ length: bytes.length }, (_, k) => k),
          ),
        ),
      ).toEqual(whole);
    }
  });

  it('gives what the whole scan gives, for any JSON cut anywhere', () => {
    const json = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v, null, 1));
    fc.assert(
      fc.property(fc.oneof(json, fc.string()), fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        const bytes = utf8(text);
        expect(view(inPieces(bytes, cuts))).toEqual(view(stripToCanonical(bytes)));
      }),
      { numRuns: 500 },
    );
  });

  it('a member whose end is set lies in the bytes written so far', () => {
    const bytes = utf8(SAMPLES[1]!);
    const s = stripArriving(bytes);
    for (let c = 1; c <= bytes.length; c++) {
      expect(s.advance(c)).toBe(true);
      const done = (ms: MemberSpan[]): MemberSpan[] =>
        ms.flatMap((m) => [...(m.end >= 0 ? [m] : []), ...done(m.members ?? [])]);
      for (const m of done(s.members)) expect(m.end).toBeLessThanOrEqual(s.written);
    }
  });
});
