/**
 * A long pointer's id holds a hash of the whole pointer (shared/diff-html.ts rowIds): the
 * pointers are the inputs' member names, anyone's to choose, so the hash must be one nobody
 * can make two pointers share, or the second listed takes the order's `~2` and a saved link
 * to one field opens another on the page of a later comparison.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { diffJson } from '../../shared/diff.js';
import { diffPage, rowIds } from '../../shared/diff-html.js';
import type { JsonValue } from '../../shared/report.js';
import { sha256TextHex } from '../../shared/sha256.js';

// Two member names built to share a 64-bit multiply-xor hash under `/content/`: alike at both
// ends and of one length, so an id that cannot hold them whole tells them apart by its hash alone.
const K1 = `${'k'.repeat(50)}ljnihaA${'z'.repeat(30)}`;
const K2 = `${'k'.repeat(50)}djmhfj\uc30e${'z'.repeat(30)}`;
const [P1, P2] = [`/content/${K1}`, `/content/${K2}`];

const idsOf = (left: JsonValue, right: JsonValue): Map<string, string> => {
  const { differences } = diffJson(left, right);
  const ids = rowIds(differences);
  return new Map(differences.map((e, i) => [e.pointer, ids[i]!]));
};

const page = (left: JsonValue, right: JsonValue): string =>
  diffPage({ title: 't', what: 'w', left: { name: 'l' }, right: { name: 'r' }, result: diffJson(left, right) });

/** The first 128 bits of the SHA-256 of the pointer as a JSON string, by node:crypto. */
const expectedHash = (p: string): string =>
  `h${createHash('sha256').update(JSON.stringify(p), 'utf8').digest('hex').slice(0, 32)}`;

describe('diff page permalinks of crafted pointers', () => {
  it('tells the two pointers apart by their hashes, neither by its order', () => {
    const both = idsOf({ content: { [K1]: 1, [K2]: 1 } }, { content: { [K1]: 2, [K2]: 2 } });
    const [id1, id2] = [both.get(P1)!, both.get(P2)!];
    expect(id1).not.toBe(id2);
    for (const id of [id1, id2]) expect(id).not.toMatch(/~\d+$/);
    expect(id1).toBe(`d-changed-%2Fcontent%2F${'k'.repeat(35)}~96~${expectedHash(P1)}~${'z'.repeat(16)}`);
    expect(id2).toBe(`d-changed-%2Fcontent%2F${'k'.repeat(35)}~96~${expectedHash(P2)}~${'z'.repeat(16)}`);
  });

  it('a link saved to one never names the other on the page of a later comparison', () => {
    const first = idsOf({ content: { [K1]: 1, [K2]: 1 } }, { content: { [K1]: 2, [K2]: 2 } });
    const onlyK1 = page({ content: { [K1]: 1, [K2]: 1 } }, { content: { [K1]: 3, [K2]: 1 } });
    const rowOf = (html: string, id: string): string | undefined =>
      new RegExp(`<tr id="${id}">[\\s\\S]*?</tr>`).exec(html)?.[0];
    expect(rowOf(onlyK1, first.get(P2)!)).toBeUndefined();
    expect(rowOf(onlyK1, first.get(P1)!)).toContain('ljnihaA');
  });

  it('hashes lone surrogates apart, each by its own SHA-256', () => {
    const ids = rowIds(diffJson({ '\ud800': 1, '\ud801': 1 }, {}).differences);
    expect(ids).toEqual([
      `d-removed-%2F%EF%BF%BD~${expectedHash('/\ud800')}`,
      `d-removed-%2F%EF%BF%BD~${expectedHash('/\ud801')}`,
    ]);
  });
});

describe('sha256TextHex', () => {
  it('is the SHA-256 of the text’s UTF-8, as node:crypto gives it', () => {
    for (const t of ['', 'abc', 'café', '\u{1f600}', K2, 'x'.repeat(1000)])
      expect(sha256TextHex(t)).toBe(createHash('sha256').update(t, 'utf8').digest('hex'));
  });
});
