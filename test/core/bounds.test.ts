/**
 * The bounds checked on JSON text before it is parsed (app/core/jcs/bounds.ts, ERR_LIMIT):
 * distinct member names, items, the length of one name; JSON Lines told at its first line
 * (jcs/lines.ts); and what the stripping thread stops at. Counted on the text, these must
 * never count less than the parse would (a string's colons, commas, brackets and escaped
 * quotes are not members or items), and the engine must say what refused a document.
 */
import { describe, expect, it } from 'vitest';
import { moreItemsThan, moreMemberNamesThan } from '../../app/core/jcs/bounds.js';
import { firstLineEndBeforeValue } from '../../app/core/jcs/lines.js';
import { diagnose, JcsError, parseCanonical, stripArriving, stripToCanonical } from '../../app/core/jcs.js';
import {
  ITEMS_LIMIT,
  MAX_ITEMS,
  MAX_MEMBER_NAMES,
  MAX_NAME_CHARS,
  MEMBER_NAMES_LIMIT,
} from '../../app/core/json-limits.js';
import { runBytes } from '../../app/engine/run.js';

/** `{"k0":0,…}` with `n` distinct names. */
const wide = (n: number): string => '{' + Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',') + '}';

function refusal(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    if (e instanceof JcsError) return e.message; // it starts with the code
    throw e;
  }
  return 'accepted';
}

describe('counting on the text: never less than the parse', () => {
  it('distinct member names, however strings hide colons and quotes', () => {
    const cases: [string, number, boolean][] = [
      ['{"a":1,"b":2}', 1, true],
      ['{"a":1,"b":2}', 2, false],
      ['{"a":1,"a":2}', 1, false],
      ['{"a:b":"c:d", "x" : 1}', 2, false],
      ['{"a:b":"c:d", "x" : 1}', 1, true],
      ['{"q\\"":1,"r":{"q\\"":"s\\":"}}', 2, false],
      ['{"q\\"":1,"r":{"q\\"":"s\\":"}}', 1, true],
      ['["x:", "y\\\\:z", "\\":"]', 0, false],
      ['{"y\\\\":1}', 0, true],
      ['{"ab":1,"b":2,"ab":3}', 2, false],
      ['{"ab":1,"b":2,"ab":3}', 1, true],
    ];
    for (const [text, limit, over] of cases)
      expect(moreMemberNamesThan(text, limit), `${text} over ${limit}`).toBe(over);
  });

  it('items: commas and opening brackets outside strings', () => {
    const cases: [string, number, boolean][] = [
      ['[1,2,3]', 3, false],
      ['[1,2,3]', 2, true],
      ['[1,[2],{"a":3}]', 5, false],
      ['[1,[2],{"a":3}]', 4, true],
      ['["a,b,c,[{"]', 1, false],
      ['["a\\",b", 1]', 2, false],
      ['["a\\",b", 1]', 1, true],
      ['["a\\\\",1,2]', 3, false],
      ['["a\\\\",1,2]', 2, true],
    ];
    for (const [text, limit, over] of cases) expect(moreItemsThan(text, limit), `${text} over ${limit}`).toBe(over);
  });

  it('the first line of JSON Lines, text or bytes; one JSON text never', () => {
    for (const t of ['{"a":1}\n{"b":2}', '[1]\r\n\n  [2]', '{"a":1} \n{']) {
      expect(firstLineEndBeforeValue(t), t).toBe(t.indexOf('\n'));
      expect(firstLineEndBeforeValue(Buffer.from(t)), t).toBe(t.indexOf('\n'));
    }
    for (const t of ['{\n"a":1}', '[{"a":1},\n{"b":2}]', '{"a":{"b":1}\n}', '{"a":1}', '{"a":1}\n', '"a"\n"b"'])
      expect(firstLineEndBeforeValue(t), t).toBe(-1);
  });
});

describe('parseCanonical refuses beyond a bound, before parsing (ERR_LIMIT)', () => {
  it('more distinct member names than the limit, which --limit json-member-names raises', () => {
    const text = wide(MAX_MEMBER_NAMES + 1);
    expect(refusal(() => parseCanonical(text))).toMatch(
      new RegExp(`^ERR_LIMIT: more than ${MAX_MEMBER_NAMES} distinct member names \\(limit ${MEMBER_NAMES_LIMIT}\\)`),
    );
    expect(refusal(() => parseCanonical(text, { limits: { [MEMBER_NAMES_LIMIT]: MAX_MEMBER_NAMES + 1 } }))).toBe(
      'accepted',
    );
    // Names that repeat cost next to nothing, however many members.
    expect(
      refusal(() =>
        parseCanonical('[' + Array.from({ length: MAX_MEMBER_NAMES + 1 }, () => '{"a":0}').join(',') + ']'),
      ),
    ).toBe('accepted');
  });

  it('more items than the limit, which --limit json-items raises', () => {
    const text = '[' + '0,'.repeat(MAX_ITEMS) + '0]';
    expect(refusal(() => parseCanonical(text))).toMatch(new RegExp(`^ERR_LIMIT: more than ${MAX_ITEMS} items`));
    expect(refusal(() => parseCanonical(text, { limits: { [ITEMS_LIMIT]: MAX_ITEMS + 1 } }))).toBe('accepted');
    // Commas inside strings are no items.
    expect(refusal(() => parseCanonical(JSON.stringify([','.repeat(MAX_ITEMS + 1)])))).toBe('accepted');
  });

  it('a member name longer than MAX_NAME_CHARS (a string value may be longer)', () => {
    const name = 'n'.repeat(MAX_NAME_CHARS + 1);
    expect(refusal(() => parseCanonical(`{"a":1,"${name}":0}`))).toMatch(
      new RegExp(`^ERR_LIMIT: a member name of ${MAX_NAME_CHARS + 1} characters`),
    );
    expect(refusal(() => parseCanonical(`{"${name.slice(1)}":0}`))).toBe('accepted');
    expect(refusal(() => parseCanonical(`{"a":"${name}${name}:${name}","b":0}`))).toBe('accepted');
  });

  it('JSON Lines: the precise reader names the second line, and bounds apply to the first', () => {
    expect(refusal(() => parseCanonical('{"a":1}\n{"b":2}\n'))).toBe(
      'ERR_SYNTAX: unexpected data after the JSON value (line 2, column 1)',
    );
    expect(refusal(() => parseCanonical(wide(MAX_MEMBER_NAMES + 1) + '\n{}'))).toMatch(/^ERR_LIMIT: more than/);
  });

  it('nesting too deep is still ERR_DEPTH, though brackets are items', () => {
    expect(refusal(() => parseCanonical('['.repeat(MAX_ITEMS + 10)))).toMatch(/^ERR_DEPTH/);
  });

  it('a huge number is quoted at most 40 characters long', () => {
    const e = diagnose('[' + '9'.repeat(1 << 20) + ']');
    expect(e?.code).toBe('ERR_NONFINITE');
    expect(e!.message.length).toBeLessThan(200);
  });

  it('the precise reader decodes long strings of escapes whole (as JSON.parse does)', () => {
    const value = '"\\'.repeat(1 << 20) + 'é\u2028';
    const text = JSON.stringify({ v: value, w: ['\ud83d\ude00'] });
    expect(diagnose(text)).toBeNull();
    expect(refusal(() => diagnose('["\\ud800"]') ?? 'none')).toBe('accepted');
    expect(diagnose('["\\ud800"]')?.code).toBe('ERR_LONE_SURROGATE');
    expect(diagnose('["a\\x"]')?.message).toMatch(/bad escape/);
    expect(diagnose('["a\\u12"]')?.message).toMatch(/bad \\u escape/);
    expect(diagnose('["a')?.message).toMatch(/unterminated string/);
  });
});

describe('the stripping thread stops where the parse will refuse, keeping nothing', () => {
  const bytes = (s: string) => new Uint8Array(Buffer.from(s));
  it('at JSON Lines, at a second top-level value, at a name too long, past 65,536 spans', () => {
    expect(stripToCanonical(bytes('{"a":1}\n{"b":2}'))).toBeNull();
    const arriving = stripArriving(bytes('{"a":1} {"b":2}'));
    expect(arriving.advance(15)).toBe(false);
    expect(arriving.written).toBeLessThanOrEqual(8);
    expect(stripToCanonical(bytes(`{"${'n'.repeat(MAX_NAME_CHARS + 1)}":0}`))).toBeNull();
    expect(stripToCanonical(bytes(wide(70_000)))).toBeNull();
    expect(stripToCanonical(bytes(JSON.stringify({ a: JSON.parse(wide(70_000)) as unknown })))).toBeNull();
    // A document within them is stripped as before, its literals and numbers included.
    expect(stripToCanonical(bytes('{"a":[true,false,null,-1.5,"x"]}'))?.members.map((m) => m.name)).toEqual(['a']);
    expect(stripToCanonical(bytes('false'))).not.toBeNull();
  });
});

describe('the engine says which bound refused a document, and --limit raises it', () => {
  it('an object of too many names is refused before it is parsed, its kind unread', async () => {
    const r = await runBytes('wide.json', Buffer.from(wide(MAX_MEMBER_NAMES + 1)), 'verify', {});
    expect(r.artifact.kind).toBe('unknown');
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]!.message).toMatch(
      /larger than Reprise parses \(a limit checked before parsing\), so its kind was not read/,
    );
    expect(r.findings[0]!.actual).toMatch(
      new RegExp(`^JSON refused before it was parsed: ERR_LIMIT: .*\\(limit ${MEMBER_NAMES_LIMIT}\\)`),
    );
    const raised = await runBytes('wide.json', Buffer.from(wide(MAX_MEMBER_NAMES + 1)), 'verify', {
      limits: { [MEMBER_NAMES_LIMIT]: MAX_MEMBER_NAMES + 1 },
    });
    expect(raised.findings[0]!.actual).toBe('a JSON object without a "type" any kind claims');
  });
});
