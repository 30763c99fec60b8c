/**
 * A saved permalink of a diff page (shared/diff-html.ts rowIds) names the same field on the
 * page of a later comparison of the same files, whatever else that comparison lists: long
 * pointers alike at both ends are told apart by a hash of the whole pointer, never by their
 * order in the listing; short pointers keep the ids every earlier page gave them.
 */
import { describe, expect, it } from 'vitest';
import { diffJson } from '../../shared/diff.js';
import { diffPage, rowIds } from '../../shared/diff-html.js';
import type { JsonValue } from '../../shared/report.js';

const [X, Y] = ['x'.repeat(60), 'y'.repeat(40)];
const AAA = `${X}AAA${Y}`;
const BBB = `${X}BBB${Y}`;

/** Each listed difference's pointer with its id. */
const idsOf = (left: JsonValue, right: JsonValue): Map<string, string> => {
  const { differences } = diffJson(left, right);
  const ids = rowIds(differences);
  return new Map(differences.map((e, i) => [e.pointer, ids[i]!]));
};

describe('diff page permalinks', () => {
  it('name the same long pointer alike whether or not a pointer alike at both ends is listed before it', () => {
    const both = idsOf({ [AAA]: 1, [BBB]: 1 }, { [AAA]: 2, [BBB]: 2 });
    const onlyB = idsOf({ [AAA]: 1, [BBB]: 1 }, { [AAA]: 1, [BBB]: 2 });
    expect(both.get(`/${BBB}`)).toBe(onlyB.get(`/${BBB}`));
    // Nor does any id of one comparison name the other pointer in the next.
    expect(onlyB.get(`/${BBB}`)).not.toBe(both.get(`/${AAA}`));
    expect(new Set(both.values()).size).toBe(2);
    for (const id of both.values()) expect(id).not.toMatch(/~\d+$/);
  });

  it('a link saved from one comparison never names another field on the page of a later one', () => {
    const first = idsOf({ [AAA]: 1, [BBB]: 1 }, { [AAA]: 2, [BBB]: 2 });
    const page = (right: JsonValue): string =>
      diffPage({
        title: 't',
        what: 'w',
        left: { name: 'l.json' },
        right: { name: 'r.json' },
        result: diffJson({ [AAA]: 1, [BBB]: 1 }, right),
      });
    const rowOf = (html: string, id: string): string | undefined =>
      new RegExp(`<tr id="${id}">[\\s\\S]*?</tr>`).exec(html)?.[0];
    // Only BBB changed the second time: AAA's saved link names no row, BBB's names BBB's.
    const onlyB = page({ [AAA]: 1, [BBB]: 3 });
    expect(rowOf(onlyB, first.get(`/${AAA}`)!)).toBeUndefined();
    expect(rowOf(onlyB, first.get(`/${BBB}`)!)).toContain('BBB');
  });

  it('keeps the ids of short pointers as every earlier page wrote them', () => {
    expect(rowIds(diffJson({ score: 1, 'a b': 1 }, { score: 2 }).differences)).toEqual([
      'd-removed-%2Fa%20b',
      'd-changed-%2Fscore',
    ]);
  });

  it('holds a long id short, with the pointer’s length and hash between its start and end', () => {
    const [id] = rowIds(diffJson({ [AAA]: 1 }, { [AAA]: 2 }).differences);
    // The hash is 128 bits of SHA-256 in hex (pointerHash).
    expect(id).toMatch(/^d-changed-%2Fx{45}~104~h[0-9a-f]{32}~y{16}$/);
  });
});
