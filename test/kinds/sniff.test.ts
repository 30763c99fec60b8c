import { describe, expect, it } from 'vitest';
import { Sniffed } from '../../app/kinds/sniff.js';

describe('Sniffed.json()', () => {
  it('serializes the canonical text only when read, through a prototype getter', () => {
    const s = new Sniffed('x.json', Buffer.from('{"b":[1,2],"a":{"c":"x"}}'));
    const j = s.json();
    expect(j?.ok).toBe(true);
    if (!j?.ok) return;
    // No own accessor: an object literal with a getter costs a hidden class per document
    // that keeps the document alive through young collections (app/core/jcs.ts, Parsed).
    expect(Object.getOwnPropertyDescriptor(j, 'canonical')).toBeUndefined();
    expect(j.value).toEqual({ a: { c: 'x' }, b: [1, 2] });
    expect(j.inOrder).toBe(false);
    expect(j.warnings).toEqual([]);
    expect(j.canonical).toBe('{"a":{"c":"x"},"b":[1,2]}');
    expect(s.json()).toBe(j);
  });
  it('keeps refusals as they were', () => {
    const j = new Sniffed('x.json', Buffer.from('{"a":1,"a":2}')).json();
    expect(j?.ok).toBe(false);
    if (j && !j.ok) expect(j.loose).toEqual({ a: 2 });
  });
});
