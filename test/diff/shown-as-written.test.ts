/**
 * What the diff shows is what the files hold (docs/compare.md): a number a double cannot hold
 * inside a larger value shown whole (an added array, a change of type) is shown as written,
 * in the terminal, the page and the window; span markers typed in a string never read as the
 * terminal's own; and a long string's span says where it starts.
 */
import { mkdtempSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inProcessCli } from '../helpers/in-process-cli.js';
import { diffSides, readContent, type SideRead } from '../../app/engine/compare-sides.js';
import {
  diffJson,
  indentJson,
  LITERALS_NOTE,
  NumberLiterals,
  parseKeepingLiterals,
  shownEntryCut,
  shownMarked,
  type DiffResult,
} from '../../shared/diff.js';
import { diffPage } from '../../shared/diff-html.js';
import type { JsonValue, Report } from '../../shared/report.js';

const tmp = mkdtempSync(join(tmpdir(), 'reprise-diff-written-'));
afterAll(() => rm(tmp, { recursive: true, force: true }));

const diff = (...args: string[]) => inProcessCli(tmp, ['diff', ...args]);

async function files(left: string, right: string, name: string): Promise<[string, string]> {
  const [l, r] = [join(tmp, `${name}-l.json`), join(tmp, `${name}-r.json`)];
  await writeFile(l, left);
  await writeFile(r, right);
  return [l, r];
}

const BIG = '9007199254740993';
const DOUBLE = '9007199254740992';

describe('a number beyond double precision inside a value shown whole', () => {
  it('the terminal shows it as written, never as its double, and says so', async () => {
    const [l, r] = await files(`[1,2,[3,${BIG}]]`, `[0,1,2,[3,${BIG}]]`, 'inside');
    const text = await diff(l, r);
    expect(text.code, text.err).toBe(1);
    expect(text.out).not.toContain(DOUBLE);
    expect(text.out).toContain(`changed  /content/2  [3,${BIG}] → 2  (${LITERALS_NOTE})`);
    expect(text.out).toContain(`added    /content/3  (absent) → [3,${BIG}]  (${LITERALS_NOTE})`);
  });

  it('--json keeps the values as JSON data and adds their text as written', async () => {
    const [l, r] = await files(`[1,2,[3,${BIG}]]`, `[0,1,2,[3,${BIG}]]`, 'inside-json');
    const json = await diff(l, r, '--json');
    expect(json.code, json.err).toBe(1);
    const d = JSON.parse(json.out) as DiffResult;
    const at = (p: string) => d.differences.find((e) => e.pointer === p)!;
    expect(at('/content/2')).toMatchObject({ left: [3, Number(BIG)], right: 2, leftText: `[3,${BIG}]` });
    expect(at('/content/2')).not.toHaveProperty('rightText');
    expect(at('/content/3')).toMatchObject({ right: [3, Number(BIG)], rightText: `[3,${BIG}]` });
    // Deterministic: two runs print the same.
    expect((await diff(l, r, '--json')).out).toBe(json.out);
  });

  it('the page shows it as written, laid out as any value, with the note', async () => {
    const [l, r] = await files(`{"a":{"x":[${BIG},"s"]}}`, `{"a":"gone","b":{"y":${BIG}}}`, 'page');
    const html = join(tmp, 'page.html');
    const run = await diff(l, r, '--html', html);
    expect(run.code, run.err).toBe(1);
    const page = await readFile(html, 'utf8');
    expect(page).not.toContain(DOUBLE);
    expect(page).toContain(
      `<pre>{\n  <bdi>&quot;x&quot;</bdi>: [\n    ${BIG},\n    <bdi>&quot;s&quot;</bdi>\n  ]\n}</pre>`,
    );
    expect(page).toContain(`<pre>{\n  <bdi>&quot;y&quot;</bdi>: ${BIG}\n}</pre>`);
    expect(page).toContain(LITERALS_NOTE);
  });

  it('the window (the engine-made diff, cloned across to it) shows it as written', async () => {
    const literals = new NumberLiterals();
    const report = { artifact: { kind: 'unknown', id: null, sha256: 'sha256:00' }, verdict: 'fail', findings: [] };
    const side = async (name: string, text: string): Promise<SideRead> => ({
      name,
      report: report as unknown as Report,
      content: await readContent({ bytes: new TextEncoder().encode(text) }, literals),
    });
    const made = diffSides(await side('l.json', `[[3,${BIG}]]`), await side('r.json', `[7]`), literals);
    // The result crosses from the engine host's worker to the window by structured clone.
    const result = structuredClone(made.result);
    const e = result.differences.find((x) => x.pointer === '/content/0')!;
    // What DiffView shows (shownEntryCut, as the page: pretty-printed).
    expect(shownEntryCut(e, 'left', 2)).toBe(`[\n  3,\n  ${BIG}\n]`);
    expect(diffPage({ title: 't', what: 'w', left: made.left, right: made.right, result })).not.toContain(DOUBLE);
  });

  it('a cut value counts what it leaves out in the characters as written', () => {
    const literals = new NumberLiterals();
    const text = `[${Array.from({ length: 200 }, () => BIG).join(',')}]`;
    const a = parseKeepingLiterals(text, literals)!.value;
    const d = diffJson({ a }, {}, { literals });
    const e = d.differences[0]!;
    expect(e.leftText).toBe(text);
    expect(shownEntryCut(e, 'left', undefined, 117)).toBe(
      `${text.slice(0, 117)}… (${(text.length - 117).toLocaleString('en')} more characters)`,
    );
  });
});

describe('indentJson lays out compact JSON text as JSON.stringify does', () => {
  const values: JsonValue[] = [
    [],
    {},
    [[], {}, [[]], { a: {} }],
    { 'a"b': ['x,y', 'p:q', '[{', '\\', '"]}'], n: -1.5e-7, t: true, z: null },
    [1, [2, [3, { k: 'v', e: [] }]], 'end'],
    'a "string" with [brackets], {braces}: and commas',
    42,
  ];
  for (const v of values)
    it(JSON.stringify(v), () => {
      for (const indent of [1, 2, 4])
        expect(indentJson(JSON.stringify(v), indent)).toBe(JSON.stringify(v, null, indent));
    });
});

/** The terminal line of the difference at `pointer` between two files that differ (exit 1). */
async function changedLine(l: string, r: string, pointer: string): Promise<string> {
  const text = await diff(l, r);
  expect(text.code, text.err).toBe(1);
  return text.out.split('\n').find((x) => x.includes(pointer))!;
}

describe('span markers typed in a string are escaped in the terminal', () => {
  const pad = 'reviewed by the second approver, ledger '.repeat(2);
  it('a right string holding [-7-]{+9+} reads unambiguously', async () => {
    const [l, r] = await files(
      JSON.stringify({ note: `${pad}acct 7 approved` }),
      JSON.stringify({ note: `${pad}acct [-7-]{+9+} approved` }),
      'markers',
    );
    const line = await changedLine(l, r, '/content/note');
    expect(line).toContain('acct [-7-] approved → ');
    expect(line).toContain('acct {+[\\-7-\\]{\\+9+\\}+} approved');
    // The right side holds exactly one opening and one closing marker: its span's.
    const right = line.split(' → ')[1]!;
    expect(right.match(/\{\+/g)).toHaveLength(1);
    expect(right.match(/\+\}/g)).toHaveLength(1);
    expect(right.match(/\[-|-\]/g)).toBeNull();
  });

  it('a typed backslash between a marker’s characters is doubled, so it never reads as the escape', () => {
    expect(shownMarked('a [-b')).toBe('a [\\-b');
    expect(shownMarked('a [\\-b')).toBe('a [\\\\-b');
    expect(shownMarked('[-]')).toBe('[\\-\\]');
    expect(shownMarked('C:\\dir {+x')).toBe('C:\\\\dir {\\+x');
    // Text with no marker is shown as before (a Windows path keeps its single backslashes).
    expect(shownMarked('C:\\dir')).toBe('C:\\dir');
    // Controls are still escaped, once.
    expect(shownMarked('[-\u001b')).toBe('[\\-\\x1b');
  });
});

describe("the terminal says where a long string's span starts", () => {
  it('a one-character change in a 1 MB string: changed after the first 500,000 characters', async () => {
    const s = 'a'.repeat(1_000_000);
    const [l, r] = await files(
      JSON.stringify({ big: s }),
      JSON.stringify({ big: `${s.slice(0, 500_000)}b${s.slice(500_001)}` }),
      'long',
    );
    const line = await changedLine(l, r, '/content/big');
    expect(line).toContain('[-a-]');
    expect(line).toContain('(changed after the first 500,000 characters; 1,000,000 → 1,000,000 characters)');
    expect(line).not.toContain('changed from 500,000');
  });

  it('the page says it in the same words as the terminal and the window (shared/diff-words.ts)', () => {
    const s = 'a'.repeat(1_000);
    const page = (l: string, r: string) => {
      const result = diffJson({ big: l }, { big: r });
      return diffPage({ title: 't', what: 'w', left: { name: 'l' }, right: { name: 'r' }, result });
    };
    const mid = page(s, `${s.slice(0, 500)}b${s.slice(501)}`);
    expect(mid).toContain('1,000 characters; changed after the first 500 characters');
    expect(mid).not.toContain('changed from 500');
    expect(page(s, `b${s.slice(1)}`)).toContain('1,000 characters; changed from the start');
    expect(page(s, `ab${s.slice(2)}`)).toContain('1,000 characters; changed after the first character');
  });

  it('strings of at most 80 characters, shown whole in their context, say nothing more', async () => {
    const [l, r] = await files(
      JSON.stringify({ s: `${'x'.repeat(70)}1` }),
      JSON.stringify({ s: `${'x'.repeat(70)}2` }),
      'short',
    );
    const line = (await diff(l, r)).out.split('\n').find((x) => x.includes('/content/s'))!;
    expect(line).toContain('[-1-]');
    expect(line).not.toMatch(/changed (from|after)/);
  });
});
