/**
 * A value shown whole on the page and in the window has each JSON string in it (a member
 * name, a value) isolated, as a pointer's tokens are: the bidirectional algorithm would
 * otherwise reorder the tokens around a string in a right-to-left script, and
 * `{"א": "1"}` would read as `"1" :"א"`, member "1" holding a Hebrew value (found by a red
 * team). And a changed string's shown parts decide once whether a typed backslash is doubled,
 * so a typed `\x0` before a span `a` never reads as the escape `\x0a`.
 */
import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createElement, type ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { cliIn } from '../cli/in-process.js';
import { diffPage } from '../../shared/diff-html.js';
import { diffJson, spanParts, type DiffResult } from '../../shared/diff.js';

/**
 * The window's DiffView, loaded through Vite, which compiles its TSX: the tests' own
 * type-check (tsconfig.test.json) has no JSX, so it is named by a path tsc does not follow.
 */
async function diffView(): Promise<ComponentType<Record<string, unknown>>> {
  const file = 'DiffView.tsx';
  const m = (await import(`../../renderer/src/components/${file}`)) as {
    DiffView: ComponentType<Record<string, unknown>>;
  };
  return m.DiffView;
}

const LEFT = { k: 1 };
const RIGHT = { k: { א: '1', ב: '2' }, t: ['ב', '10', '20', 'א'] };
const side = { name: 's' };
const page = (result: DiffResult) => diffPage({ title: 't', what: 'w', left: side, right: side, result });
const view = async (result: DiffResult) =>
  renderToStaticMarkup(createElement(await diffView(), { result, what: 'w', left: side, right: side, fileBase: 'd' }));

/** The text of every value cell (`<pre>`) with its isolated strings taken out: what is left is JSON's own punctuation. */
const outsideStrings = (html: string): string[] =>
  [...html.matchAll(/<pre>([\s\S]*?)<\/pre>/g)].map((m) => m[1]!.replace(/<bdi>[^<]*<\/bdi>/g, ''));

describe('a value in a right-to-left script, shown whole', () => {
  it('the page isolates each string of it (<bdi>), and no quote is left outside one', () => {
    const html = page(diffJson(LEFT, RIGHT));
    expect(html).toContain('<bdi>&quot;א&quot;</bdi>: <bdi>&quot;1&quot;</bdi>,\n  <bdi>&quot;ב&quot;</bdi>');
    expect(html).toContain('[\n  <bdi>&quot;ב&quot;</bdi>,\n  <bdi>&quot;10&quot;</bdi>,');
    const cells = outsideStrings(html);
    expect(cells.length).toBeGreaterThan(0);
    for (const c of cells) expect(c).not.toContain('&quot;');
    expect(html).not.toMatch(/<script|<link|src=/i);
  });

  it('the window isolates each string of it too', async () => {
    const html = await view(diffJson(LEFT, RIGHT));
    expect(html).toContain('<bdi>&quot;א&quot;</bdi>: <bdi>&quot;1&quot;</bdi>');
    for (const c of outsideStrings(html)) expect(c).not.toContain('&quot;');
  });

  it('a changed string is isolated as one, its span marked inside it', async () => {
    const result = diffJson({ s: 'שלום 1' }, { s: 'שלום 2' });
    expect(page(result)).toContain('<pre><bdi>שלום <del>1</del></bdi></pre>');
    expect(await view(result)).toContain('<pre><bdi>שלום <del>1</del></bdi></pre>');
  });
});

describe('a typed backslash before a span', () => {
  const [a, b] = ['path q\\x0a', 'path q\\x0b'];

  it('is doubled in every part when the whole text would read as an escape', () => {
    const e = diffJson({ s: a }, { s: b }).differences[0]!;
    const p = spanParts(a, e.span!, 'left');
    expect([p.before, p.changed]).toEqual(['path q\\\\x0', 'a']);
    expect(page(diffJson({ s: a }, { s: b }))).toContain('path q\\\\x0<del>a</del>');
  });

  it('in the terminal too, beside its span markers', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'reprise-diff-backslash-'));
    const pad = 'x'.repeat(100);
    await writeFile(join(tmp, 'l.json'), JSON.stringify({ s: `${pad}${a}` }));
    await writeFile(join(tmp, 'r.json'), JSON.stringify({ s: `${pad}${b}` }));
    const r = await cliIn(tmp, 'diff', join(tmp, 'l.json'), join(tmp, 'r.json'));
    await rm(tmp, { recursive: true, force: true });
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain('path q\\\\x0[-a-] → ');
    expect(r.out).toContain('path q\\\\x0{+b+}');
  });
});
