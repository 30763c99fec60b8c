/** The fast strict line parser agrees with the canonicalizer's parser: same values, same refusals. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JcsError, parseCanonical } from '../../app/core/jcs.js';
import { strictParseLine } from '../../app/kinds/acgp/lines.js';

function outcome(f: () => { value: unknown }): unknown {
  try {
    return { ok: f().value };
  } catch (e) {
    return { err: e instanceof JcsError ? e.code : String(e) };
  }
}

describe('strictParseLine', () => {
  it('refuses what parseCanonical refuses (duplicates, escaped lone surrogates, 1e400) and accepts the rest', () => {
    const cases = [
      '{"a":1,"a":2}',
      '{"a":{"b:c":1,"b:c":2}}',
      '{"a":"x:y","b":1}',
      '{"a\\u003a":1,"a:":2}',
      '{"a":"\\ud800"}',
      '{"a":1e400}',
      '{"a":12345678901234567890}',
      '{"a":[1,2,{"x":"::"}]}',
      '{"a":1',
    ];
    for (const c of cases)
      expect(
        outcome(() => strictParseLine(c)),
        c,
      ).toEqual(outcome(() => parseCanonical(c)));
  });

  it('agrees with parseCanonical on random JSON texts, with and without a duplicated member', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 5 }),
        fc.boolean(),
        (obj, dup) => {
          let text = JSON.stringify(obj);
          if (dup) {
            const k = JSON.stringify(Object.keys(obj)[0]!);
            text = `{${k}:0,` + text.slice(1);
          }
          expect(outcome(() => strictParseLine(text))).toEqual(outcome(() => parseCanonical(text)));
        },
      ),
      { numRuns: 500 },
    );
  });
});
