/** JsonLogic's `var` finds only what the data itself holds, never a prototype's member. */
import { describe, expect, it } from 'vitest';
import { evaluate, ruleBudget } from '../../app/kinds/tg/engines/metered-logic.js';

const run = (logic: unknown, data: unknown): unknown => evaluate(logic, data, ruleBudget());

describe('var reads own members only', () => {
  it('keeps the library rules: paths, indices, strings, defaults, the whole data', () => {
    const data = { a: { b: [10, 20] }, s: 'abc', z: 0 };
    expect(run({ var: 'a.b.1' }, data)).toBe(20);
    expect(run({ var: 's.length' }, data)).toBe(3);
    expect(run({ var: 's.0' }, data)).toBe('a');
    expect(run({ var: 'z' }, data)).toBe(0);
    expect(run({ var: ['nope', 7] }, data)).toBe(7);
    expect(run({ var: 'nope' }, data)).toBeNull();
    expect(run({ var: '' }, data)).toEqual(data);
    expect(run({ missing: ['a', 'q'] }, data)).toEqual(['q']);
  });
  const inherited = [...Object.getOwnPropertyNames(Object.prototype), '__proto__'];
  for (const name of inherited) {
    it(`"${name}" and "${name}.name" are not members of the data`, () => {
      expect(run({ var: name }, { x: 1 })).toBeNull();
      expect(run({ var: `${name}.name` }, { x: 1 })).toBeNull();
      expect(run({ var: `x.${name}` }, { x: { y: 1 } })).toBeNull();
      expect(run({ missing: [name] }, { x: 1 })).toEqual([name]);
    });
  }
  it('a member the data does have under such a name is found', () => {
    const data = JSON.parse('{"constructor": 5, "__proto__": 6}') as unknown;
    expect(run({ var: 'constructor' }, data)).toBe(5);
    expect(run({ var: '__proto__' }, data)).toBe(6);
  });
});
