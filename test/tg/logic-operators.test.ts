/**
 * A policy bundle's modifier condition is JsonLogic that runs only at replay. Verify checks
 * its operators without running it, against the operators json-logic-js evaluates, so a
 * bundle whose modifier replay would refuse never verifies as a pass.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import jsonLogic from 'json-logic-js';
import { describe, expect, it } from 'vitest';
import { checkBundle } from '../../app/kinds/tg/bundle.js';
import { LOGIC_OPERATORS, unknownOperator } from '../../app/kinds/tg/engines/rule-evaluator.js';
import { EXAMPLE_BUNDLE } from '../../app/kinds/tg/examples.js';
import { runBytes } from '../../app/engine/run.js';

const librarySource = readFileSync(createRequire(import.meta.url).resolve('json-logic-js'), 'utf8');

describe('the operators JsonLogic evaluates', () => {
  it('are the library’s table and the operators its apply handles itself, without log and method', () => {
    const table = librarySource.slice(
      librarySource.indexOf('var operations = {'),
      librarySource.indexOf('jsonLogic.is_logic'),
    );
    const tabled = [...table.matchAll(/^ {4}"([^"]+)": function/gm)].map((m) => m[1]!);
    const apply = librarySource.slice(
      librarySource.indexOf('jsonLogic.apply = function'),
      librarySource.indexOf('jsonLogic.uses_data'),
    );
    const handled = [...apply.matchAll(/op ={2,3} "([^"]+)"/g)].map((m) => m[1]!);
    expect(tabled.length).toBeGreaterThan(20);
    const expected = new Set([...tabled, ...handled].filter((op) => op !== 'log' && op !== 'method'));
    expect([...LOGIC_OPERATORS].sort()).toEqual([...expected].sort());
  });

  it('each is one the library runs; a name outside the list is one it refuses', () => {
    for (const op of LOGIC_OPERATORS)
      expect(() => jsonLogic.apply({ [op]: [[1], { var: '' }] }, {}), op).not.toThrow(/Unrecognized operation/);
    for (const op of ['frobnicate', 'method', 'log', 'Math.max'])
      expect(() => jsonLogic.apply({ [op]: [1] }, {}), op).toThrow(/Unrecognized operation/);
  });

  it('the first unknown operator is named with its pointer, however deep', () => {
    expect(unknownOperator({ and: [true, { '>': [{ var: 'x' }, 1] }] })).toBeNull();
    expect(unknownOperator({ and: [{ frob: [1] }, { method: [] }] }, '/w')).toEqual({
      op: 'frob',
      pointer: '/w/and/0/frob',
    });
    expect(unknownOperator({ var: { 'a/b': 1 } })).toEqual({ op: 'a/b', pointer: '/var/a~1b' });
    // A literal object of two members is data, as apply treats it.
    expect(unknownOperator({ '==': [{ a: 1, b: 2 }, 1] })).toBeNull();
    let deep: unknown = { zzz: [] };
    for (let i = 0; i < 100_000; i++) deep = { '!': [deep] };
    expect(unknownOperator(deep)?.op).toBe('zzz');
  });
});

describe('verifying a bundle', () => {
  const withWhen = (when: unknown) => ({
    ...EXAMPLE_BUNDLE,
    modifiers: [...EXAMPLE_BUNDLE.modifiers, { id: 'extra', when, factor: 1 }],
  });
  const at = `/modifiers/${EXAMPLE_BUNDLE.modifiers.length}/when`;

  it('a modifier whose condition uses an operator JsonLogic lacks is a fail at its pointer', async () => {
    const checked = checkBundle(withWhen({ or: [false, { method: [{ var: 'x' }, 'constructor'] }] }));
    expect(checked.findings).toEqual([
      expect.objectContaining({ severity: 'fail', pointer: `${at}/or/1/method`, actual: 'method' }),
    ]);
    const bytes = Buffer.from(JSON.stringify(withWhen({ frobnicate: [1] })));
    const report = await runBytes('bundle.json', bytes, 'verify', {});
    expect(report.verdict).toBe('fail');
    expect(report.findings.map((f) => f.pointer)).toContain(`${at}/frobnicate`);
  });

  it('known operators verify as before', () => {
    expect(checkBundle(withWhen({ '>=': [{ var: 'score' }, 0.5] })).findings).toEqual([]);
    expect(checkBundle(EXAMPLE_BUNDLE).findings).toEqual([]);
  });
});
