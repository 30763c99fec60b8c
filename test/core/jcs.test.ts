import { readFileSync } from 'node:fs';
import * as canonicalizeModule from 'canonicalize';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalizeBytes,
  canonicalizeText,
  canonicalizeValue,
  decodeJsonBytes,
  diagnose,
  escapePointerToken,
  JcsError,
  MAX_DEPTH,
  parseCanonical,
  stripToCanonical,
  type MemberSpan,
} from '../../app/core/jcs.js';

// canonicalize is CommonJS typed as an ES default export: take whichever the loader gives.
const canonicalize = ((canonicalizeModule as unknown as { default?: unknown }).default ?? canonicalizeModule) as (
  v: unknown,
) => string;

interface Case {
  id: string;
  input: string;
  output?: string;
  outputHex?: string;
  error?: string;
}
const vectors = JSON.parse(
  readFileSync(new URL('../../../shared/vectors/jcs/cases.json', import.meta.url), 'utf8'),
) as { cases: Case[] };
const numbers = JSON.parse(
  readFileSync(new URL('../../../shared/vectors/jcs/numbers.json', import.meta.url), 'utf8'),
) as {
  cases: { ieeeHex: string; output?: string; error?: string }[];
};

function refusal(text: string): string {
  try {
    canonicalizeText(text);
  } catch (e) {
    if (e instanceof JcsError) return e.code;
    throw e;
  }
  return 'accepted';
}

describe('RFC 8785 vectors (../shared/vectors/jcs/cases.json)', () => {
  it('has vectors to run', () => expect(vectors.cases.length).toBeGreaterThan(20));
  for (const c of vectors.cases) {
    it(c.id, () => {
      if (c.error) {
        expect(refusal(c.input)).toBe(c.error);
      } else {
        const out = canonicalizeBytes(Buffer.from(c.input, 'utf8'));
        expect(out.toString('hex')).toBe(c.outputHex);
        expect(out.toString('utf8')).toBe(c.output);
      }
    });
  }
});

describe('RFC 8785 number serialization (../shared/vectors/jcs/numbers.json)', () => {
  for (const c of numbers.cases) {
    it(c.ieeeHex, () => {
      const n = Buffer.from(c.ieeeHex, 'hex').readDoubleBE(0);
      if (c.output === undefined) {
        expect(() => canonicalizeValue(n)).toThrow(JcsError);
      } else {
        expect(canonicalizeValue(n)).toBe(c.output);
        // And from text: the shortest round-trip form parses back to the same double.
        expect(canonicalizeText(c.output)).toBe(c.output);
      }
    });
  }
  it('refuses Infinity and NaN bit patterns', () => {
    for (const hex of ['7ff0000000000000', 'fff0000000000000', '7fffffffffffffff']) {
      expect(() => canonicalizeValue(Buffer.from(hex, 'hex').readDoubleBE(0))).toThrow(/ERR_NONFINITE/);
    }
  });
});

describe('text-level refusals', () => {
  it('names the duplicate member with a pointer, after unescaping', () => {
    try {
      canonicalizeText('{"outer": {"k": 1, "x": [0, {"a":1, "\\u0061": 2}]}}');
      expect.unreachable();
    } catch (e) {
      expect((e as JcsError).code).toBe('ERR_DUPLICATE_KEY');
      expect((e as JcsError).pointer).toBe('/outer/x/1/a');
    }
  });
  it('finds a duplicate hidden behind an escaped colon elsewhere', () => {
    expect(refusal('{"a":1,"a":2,"b":"\\u003a"}')).toBe('ERR_DUPLICATE_KEY');
  });
  it('accepts colons in strings and keys', () => {
    expect(canonicalizeText('{"t":"10:00:00Z","u:v":"a\\u003ab"}')).toBe('{"t":"10:00:00Z","u:v":"a:b"}');
  });
  it('refuses a byte-order mark', () => {
    expect(() => decodeJsonBytes(Buffer.from('\ufeff{}', 'utf8'))).toThrow(/ERR_BOM/);
    expect(refusal('\ufeff{}')).toBe('ERR_BOM');
  });
  it('refuses invalid UTF-8', () => {
    expect(() => decodeJsonBytes(Buffer.from([0x22, 0xc3, 0x28, 0x22]))).toThrow(/ERR_UTF8/);
  });
  it(`refuses nesting deeper than ${MAX_DEPTH}`, () => {
    expect(refusal('['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1))).toBe('ERR_DEPTH');
    expect(refusal('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH))).toBe('accepted');
    expect(refusal('['.repeat(200000) + ']'.repeat(200000))).toBe('ERR_DEPTH');
  });
  it('refuses lone surrogates in keys and values, with a pointer', () => {
    const e = diagnose('{"a":["ok","\\udc00"]}');
    expect(e?.code).toBe('ERR_LONE_SURROGATE');
    expect(e?.pointer).toBe('/a/1');
    expect(refusal('"\\ud83d\\ude00"')).toBe('accepted');
  });
  it('refuses syntax errors with a line and column', () => {
    const e = diagnose('{\n  "a": 1,\n  "b": tru\n}');
    expect(e?.code).toBe('ERR_SYNTAX');
    expect(e?.line).toBe(3);
    for (const bad of ['', '{', '[1,]', '{"a" 1}', '01', '1.', '"\t"', 'nul', '{} {}', "{'a':1}", 'NaN', '-Infinity']) {
      expect(refusal(bad), bad).toBe('ERR_SYNTAX');
    }
  });
  it('refuses non-finite numbers anywhere', () => {
    expect(refusal('{"a":[1, -1e999]}')).toBe('ERR_NONFINITE');
    expect(diagnose('{"a":[1, -1e999]}')?.pointer).toBe('/a/1');
  });
  it('warns (but does not refuse) on integers that lose precision, naming the member', () => {
    const r = parseCanonical('{"big": 9007199254740993, "ok": 9007199254740992}');
    expect(r.canonical).toBe('{"big":9007199254740992,"ok":9007199254740992}');
    expect(r.warnings).toEqual([expect.objectContaining({ code: 'WARN_PRECISION', pointer: '/big' })]);
  });
  it('warns on the same loss in any notation, and only where the text is not the double', () => {
    const lost = [
      '9007199254740993',
      '-9007199254740993',
      '9007199254740993.0',
      '9.007199254740993e15',
      '90071992547409930e-1',
      '9007199254740992.5',
      '1.0000000000000001e300',
      '12345678901234567890',
    ];
    // Exact (2^53, 2^55 in full), the shortest form of the double (1e300), or below 2^53 (a fraction rounds as usual).
    const kept = [
      '9007199254740992',
      '9007199254740992.0',
      '36028797018963968',
      '1e300',
      '1.5E300',
      '42.00000000000000001',
      '0.1',
      '1E16',
    ];
    for (const t of lost)
      expect(
        parseCanonical(`{"n":[${t}]}`).warnings.map((w) => w.pointer),
        t,
      ).toEqual(['/n/0']);
    for (const t of kept) expect(parseCanonical(`{"n":[${t}]}`).warnings, t).toEqual([]);
    // The lazy walk (large documents) finds the same.
    expect(parseCanonical('{"n":9.007199254740993e15}', { lazy: true }).warnings.map((w) => w.pointer)).toEqual(['/n']);
  });
  it('sorts integer-like keys by code units, not numerically', () => {
    expect(canonicalizeText('{"10":1,"9":2,"-a":3,"1":4}')).toBe('{"-a":3,"1":4,"10":1,"9":2}');
  });
  it('sorts out-of-order objects at any depth, inside in-order parents and arrays', () => {
    // Leaf objects (no nested objects), objects with nested ones, index keys, both in arrays.
    const text =
      '{"a":[{"b":1,"a":[{"y":2,"x":1}]},{"2":0,"10":1}],"b":{"c":{"e":1,"d":{"10":[],"9":{}}}},"c":[1,{"__proto__":1,"_":2}]}';
    expect(canonicalizeText(text)).toBe(
      '{"a":[{"a":[{"x":1,"y":2}],"b":1},{"10":1,"2":0}],"b":{"c":{"d":{"10":[],"9":{}},"e":1}},"c":[1,{"_":2,"__proto__":1}]}',
    );
    expect(canonicalize(JSON.parse(text))).toBe(canonicalizeText(text));
  });
  it('warns on a lost integer deep in an array; beyond 2^53 a fraction is lost too, the shortest form of a double is not', () => {
    expect(parseCanonical('[[{"n":[12345678901234567891]}]]').warnings).toEqual([
      expect.objectContaining({ pointer: '/0/0/n/0' }),
    ]);
    expect(
      parseCanonical('[12345678901234567891.5, 1e300, 123456789012345678]').warnings.map((w) => w.pointer),
    ).toEqual(['/0', '/2']);
  });
  it('keeps __proto__ as data', () => {
    expect(canonicalizeText('{"__proto__":{"polluted":true}}')).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

// An arbitrary JSON value, serialized with members in a random order and random whitespace.
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.string({ unit: 'grapheme' }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: 'binary' }), tie('value'), { maxKeys: 6 }),
  ),
})).value;

describe('agrees with the canonicalize package on arbitrary values', () => {
  it('canonicalizeText(JSON text) === canonicalize(JSON.parse(text))', () => {
    fc.assert(
      fc.property(jsonValue, fc.boolean(), (v, pretty) => {
        const text = JSON.stringify(v, null, pretty ? 2 : undefined);
        const ours = canonicalizeText(text);
        expect(ours).toBe(canonicalize(JSON.parse(text)));
        expect(canonicalizeText(ours)).toBe(ours);
      }),
      { numRuns: 400 },
    );
  });
});

describe('lazy parsing (canonical text serialized on demand)', () => {
  it('refuses what the eager parse refuses, duplicates included, with the same error', () => {
    const bad = [
      '{"a":1,"a":2}',
      '{"a":"x:y","b":{"c":":","c":"::"}}',
      '{"a\\u003a":1,"a:":2}',
      '[{"k":1},{"k":2,"k":3}]',
      '{"n":1e999}',
      '{"s":"\\ud800"}',
      '[' + '['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH) + ']',
    ];
    for (const t of bad) {
      const eager = (() => {
        try {
          parseCanonical(t);
          return 'accepted';
        } catch (e) {
          return (e as Error).message;
        }
      })();
      const lazy = (() => {
        try {
          parseCanonical(t, { lazy: true });
          return 'accepted';
        } catch (e) {
          return (e as Error).message;
        }
      })();
      expect(eager).not.toBe('accepted');
      expect(lazy).toBe(eager);
    }
  });
  it('says whether the text has every member in order (index names never count as in order)', () => {
    expect(parseCanonical('{"a":{"b":1,"c":[{"d":2,"e":3}]}}', { lazy: true }).inOrder).toBe(true);
    expect(parseCanonical('{"a":{"c":1,"b":2}}', { lazy: true }).inOrder).toBe(false);
    expect(parseCanonical('{"a":{"b":1,"1":2}}', { lazy: true }).inOrder).toBe(false);
    expect(parseCanonical('{"1":1,"b":2}', { lazy: true }).inOrder).toBe(false);
    expect(parseCanonical('{"a":{"b":1,"c":2}}').inOrder).toBe(true);
    expect(parseCanonical('{"1":1,"b":2}').inOrder).toBe(false);
  });
  it('agrees with the eager parse on arbitrary values', () => {
    fc.assert(
      fc.property(jsonValue, fc.boolean(), (v, pretty) => {
        const text = JSON.stringify(v, null, pretty ? 1 : undefined);
        const eager = parseCanonical(text);
        const lazy = parseCanonical(text, { lazy: true });
        expect(lazy.canonical).toBe(eager.canonical);
        expect(lazy.inOrder).toBe(eager.inOrder);
        expect(lazy.warnings).toEqual(eager.warnings);
      }),
      { numRuns: 300 },
    );
  });
  it('escapes JSON Pointer tokens (RFC 6901), untouched when there is nothing to escape', () => {
    expect(escapePointerToken('a~b/c')).toBe('a~0b~1c');
    expect(escapePointerToken('~1')).toBe('~01');
    expect(escapePointerToken('sha256:ab')).toBe('sha256:ab');
    expect(escapePointerToken('')).toBe('');
  });
  it('keeps the lazy getter on a prototype: no per-result hidden class holding the document', () => {
    // An object literal with `get canonical()` would give each result its own map in old
    // space, whose getter keeps the text and the value alive through young collections.
    const p = parseCanonical('{"b":[1,2],"a":{"c":"x"}}', { lazy: true });
    expect(Object.getOwnPropertyDescriptor(p, 'canonical')).toBeUndefined();
    expect(p.canonical).toBe('{"a":{"c":"x"},"b":[1,2]}');
    expect(p.canonical).toBe(p.canonical);
    const q = parseCanonical('{"b":1,"a":2}');
    expect(Object.getPrototypeOf(q)).toBe(Object.getPrototypeOf(p));
    expect(q.canonical).toBe('{"a":2,"b":1}');
  });
});

describe('stripToCanonical (canonical bytes from canonically written text)', () => {
  const strip = (t: string) => {
    const r = stripToCanonical(Buffer.from(t, 'utf8'));
    return r && Buffer.from(r.bytes).toString('utf8');
  };
  it('drops whitespace outside strings only, and spans the top-level members', () => {
    const t = '{ "a" : [ 1 , "x y\\n" ] ,\n\t"b\\"c" : { "d" : -0.5 } , "e": "\\u001f" }';
    expect(strip(t)).toBe('{"a":[1,"x y\\n"],"b\\"c":{"d":-0.5},"e":"\\u001f"}');
    const r = stripToCanonical(Buffer.from(t, 'utf8'))!;
    const out = Buffer.from(r.bytes).toString('utf8');
    expect(r.members.map((m) => [m.name, out.slice(m.start, m.end)])).toEqual([
      ['a', '"a":[1,"x y\\n"]'],
      ['b"c', '"b\\"c":{"d":-0.5}'],
      ['e', '"e":"\\u001f"'],
    ]);
  });
  it('spans members in objects three levels deep, never inside arrays', () => {
    const t = '{"a": {"b": {"c": [1, {"x": 2}], "d": "e"}, "f": {"g": {"h": 1}}}, "z": 1}';
    const r = stripToCanonical(Buffer.from(t, 'utf8'))!;
    const out = Buffer.from(r.bytes).toString('utf8');
    const show = (ms: MemberSpan[] | undefined): unknown =>
      ms?.map((m) => [m.name, out.slice(m.value, m.end), show(m.members)]);
    expect(show(r.members)).toEqual([
      [
        'a',
        '{"b":{"c":[1,{"x":2}],"d":"e"},"f":{"g":{"h":1}}}',
        [
          [
            'b',
            '{"c":[1,{"x":2}],"d":"e"}',
            [
              ['c', '[1,{"x":2}]', undefined],
              ['d', '"e"', undefined],
            ],
          ],
          ['f', '{"g":{"h":1}}', [['g', '{"h":1}', undefined]]],
        ],
      ],
      ['z', '1', undefined],
    ]);
  });
  it('refuses (null) every token that is not written as RFC 8785 writes it', () => {
    for (const t of [
      '["\\/"]',
      '["\\u0041"]',
      '["\\u001F"]',
      '["\\u000a"]',
      '["\\ud83d\\ude00"]',
      '[1.0]',
      '[-0]',
      '[1E2]',
      '[1e2]',
      '[0.10]',
      '[12345678901234567890]',
      '[1e21]',
      '[01]',
    ]) {
      expect(strip(t), t).toBeNull();
    }
    expect(strip('[1e+21, 1e-7, 0.1, -3, 9007199254740991, 0]')).toBe('[1e+21,1e-7,0.1,-3,9007199254740991,0]');
  });
  it('accepts a number literal exactly when ECMAScript prints its value the same way', () => {
    const digits = (min: number, max: number) =>
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
    const literal = fc
      .tuple(
        fc.boolean(),
        fc.oneof(
          fc.constant('0'),
          fc.tuple(fc.constantFrom(...'123456789'), digits(0, 22)).map(([a, b]) => a + b),
        ),
        fc.option(digits(1, 24)),
        fc.option(fc.tuple(fc.constantFrom('e', 'E'), fc.constantFrom('', '+', '-'), digits(1, 3))),
      )
      .map(
        ([neg, int, frac, exp]) =>
          `${neg ? '-' : ''}${int}${frac === null ? '' : '.' + frac}${exp === null ? '' : exp.join('')}`,
      );
    fc.assert(
      fc.property(literal, (t) => {
        fc.pre(Number.isFinite(Number(t)));
        expect(strip(`[${t}]`) !== null, t).toBe(String(Number(t)) === t);
      }),
      { numRuns: 3000 },
    );
    for (const x of [
      0.1,
      0.000001,
      1e-7,
      123456789012345.6,
      1234567890123456.8,
      5e-324,
      1.7976931348623157e308,
      2 ** 53,
      0.30000000000000004,
    ]) {
      expect(strip(`[${String(x)}]`), String(x)).toBe(`[${String(x)}]`);
    }
  });
  it('ends on any input, valid or not (it runs on another thread before the parse)', () => {
    for (const t of ['{"a":"xxx', '"\\', '{"a":"\\u00', '{"\\x":1}', '}}}{{{', '-', '1e', '"', '{"a":1,', '\\']) {
      expect(() => stripToCanonical(Buffer.from(t, 'utf8'))).not.toThrow();
    }
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        stripToCanonical(bytes);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'{}[]":,\\u0123456789abcdef-+.eE /ntrfl') }), (t) => {
        stripToCanonical(Buffer.from(t, 'utf8'));
      }),
      { numRuns: 3000 },
    );
  });
  it('gives the same result at any byte alignment of the input (it scans strings a word at a time)', () => {
    fc.assert(
      fc.property(jsonValue, fc.integer({ min: 0, max: 2 }), (v, indent) => {
        const t = Buffer.from(JSON.stringify(v, null, indent) + '"' + 'x'.repeat(9) + '\\"" "é\\\\"', 'utf8');
        const results = [0, 1, 2, 3, 5].map((off) => {
          const holder = new Uint8Array(new ArrayBuffer(t.length + 8));
          holder.set(t, off);
          const r = stripToCanonical(holder.subarray(off, off + t.length));
          return r && Buffer.from(r.bytes).toString('latin1') + JSON.stringify(r.members);
        });
        for (const r of results) expect(r).toBe(results[0]);
      }),
      { numRuns: 300 },
    );
    for (let len = 0; len < 40; len++) {
      const body = 'abcdefghijklmnopqrstuvwxyz0123456789ABCD'.slice(0, len);
      for (let off = 0; off < 4; off++) {
        const t = Buffer.from(`["${body}", "${body}\\n${body}"]`);
        const holder = new Uint8Array(t.length + 8);
        holder.set(t, off);
        const r = stripToCanonical(holder.subarray(off, off + t.length));
        expect(r && Buffer.from(r.bytes).toString('utf8'), `${len}/${off}`).toBe(`["${body}","${body}\\n${body}"]`);
        // Unterminated at every alignment: null, never a hang or a read past the end.
        expect(stripToCanonical(holder.subarray(off, off + 2 + len))).toBeNull();
      }
    }
  });
  it('says `ordered` only when the lazy parse would find members in order, without duplicates or warnings', () => {
    const ordered = (t: string) => stripToCanonical(Buffer.from(t, 'utf8'))?.ordered ?? null;
    expect(ordered('{"a": 1, "ab": {"a": [1, {"x": 1, "y": 2}], "b": 2}, "b": ""}')).toBe(true);
    expect(ordered('[1, "x", null]')).toBe(true);
    expect(ordered('{"": 1, "a": 2}')).toBe(true);
    for (const t of [
      '{"b": 1, "a": 2}',
      '{"ab": 1, "a": 2}',
      '{"a": 1, "a": 2}',
      '{"a": {"y": 1, "x": 2}}',
      '[{"b": 1, "b": 1}]',
      '{"10": 1, "9": 2}',
      '{"1": 1}',
      '{"é": 1, "z": 2}',
      '{"a\\"b": 1}',
      '{"\\u0061": 1, "b": 2}',
    ]) {
      expect(ordered(t), t).not.toBe(true);
    }
    expect(ordered('['.repeat(MAX_DEPTH) + ']'.repeat(MAX_DEPTH))).toBe(true);
    expect(ordered('['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1))).toBe(false);
    // Random objects whose member names may repeat or come in any order: whenever the strip
    // says ordered, the full lazy walk agrees (accepted, in order, no warnings).
    const name = fc.constantFrom('a', 'b', 'ab', 'ba', 'A', '_', 'a b', '', 'z9', '9', 'é', 'a\\nb');
    const doc: fc.Arbitrary<string> = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom('1', '"s"', 'null', '-0.5', '12345678901234567'),
        tie('object'),
        tie('array'),
      ),
      object: fc
        .array(fc.tuple(name, tie('value')), { maxLength: 5 })
        .map((ms) => '{' + ms.map(([k, v]) => `"${k}": ${v as string}`).join(', ') + '}'),
      array: fc.array(tie('value'), { maxLength: 4 }).map((vs) => '[' + (vs as string[]).join(',') + ']'),
    })).object as fc.Arbitrary<string>;
    let proved = 0;
    fc.assert(
      fc.property(doc, (t) => {
        const r = stripToCanonical(Buffer.from(t, 'utf8'));
        if (r?.ordered) proved++;
        let p: ReturnType<typeof parseCanonical> | null;
        try {
          p = parseCanonical(t, { lazy: true });
        } catch {
          p = null;
        }
        if (r?.ordered) {
          expect(p, t).not.toBeNull();
          expect(p!.inOrder, t).toBe(true);
          expect(p!.warnings, t).toEqual([]);
          expect(Buffer.from(r.bytes).toString('utf8'), t).toBe(p!.canonical);
        }
        // And with the proof, the parse gives what the walk gives.
        if (r?.ordered && p) {
          const q = parseCanonical(t, { lazy: true, proven: () => true });
          expect(q.inOrder).toBe(p.inOrder);
          expect(q.canonical).toBe(p.canonical);
        }
      }),
      { numRuns: 3000 },
    );
    expect(proved).toBeGreaterThan(300); // the property above is not vacuous
  });
  it('equals the canonical text of any in-order value, however it was indented', () => {
    fc.assert(
      fc.property(jsonValue, fc.integer({ min: 0, max: 3 }), (v, indent) => {
        const canonical = canonicalizeValue(v);
        // Index-like names ("10" before "9") are reordered by JS: such text is not in order.
        fc.pre(JSON.stringify(JSON.parse(canonical)) === canonical);
        const text = JSON.stringify(JSON.parse(canonical), null, indent);
        expect(strip(text)).toBe(canonical);
      }),
      { numRuns: 300 },
    );
  });
});

describe('canonicalizeValue and canonicalizeParsed', () => {
  it('refuse what is not JSON data, naming where', () => {
    expect(() => canonicalizeValue({ a: [1, { b: Number.NaN }] })).toThrow(/ERR_NONFINITE.*\/a\/1\/b/);
    expect(() => canonicalizeValue({ a: '\ud800' })).toThrow(/ERR_LONE_SURROGATE/);
    expect(() => canonicalizeValue({ a: new Date(0) })).toThrow(TypeError);
    expect(() => canonicalizeValue({ a: undefined })).toThrow(TypeError);
  });
  it("never mutate the caller's value", () => {
    const v = { b: { d: 1, c: 2 }, a: [{ z: 1, y: 2 }] };
    const before = JSON.stringify(v);
    expect(canonicalizeValue(v)).toBe('{"a":[{"y":2,"z":1}],"b":{"c":2,"d":1}}');
    expect(JSON.stringify(v)).toBe(before);
  });
  it('values built in memory (copied in order) and parsed text (reordered as text) give the same bytes', () => {
    // Names an insertion order cannot place (array indexes, __proto__) beside ordinary ones,
    // at any depth, so both of canonicalizeValue's paths run (the copy, and canon's text).
    const name = fc.oneof(fc.constantFrom('__proto__', '0', '9', '10', '4294967295', 'a', '_', 'b'), fc.string());
    const text: fc.Arbitrary<string> = fc.letrec<{ v: string }>((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.constantFrom('1', '"s"', 'null', '-0', '1e300'),
        fc.array(tie('v'), { maxLength: 4 }).map((xs) => `[${xs.join(',')}]`),
        fc
          .uniqueArray(fc.tuple(name, tie('v')), { maxLength: 5, selector: ([k]) => k })
          .map((es) => `{${es.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
      ),
    })).v;
    fc.assert(
      fc.property(text, (t) => {
        expect(canonicalizeValue(JSON.parse(t))).toBe(canonicalizeText(t));
      }),
      { numRuns: 2000 },
    );
  });
  it('canonicalizeParsed agrees with canonicalizeValue on parsed values', async () => {
    const { canonicalizeParsed } = await import('../../app/core/jcs.js');
    fc.assert(
      fc.property(jsonValue, (v) => {
        const parsed = parseCanonical(JSON.stringify(v)).value;
        expect(canonicalizeParsed(parsed)).toBe(canonicalizeValue(parsed));
      }),
      { numRuns: 200 },
    );
  });
});
