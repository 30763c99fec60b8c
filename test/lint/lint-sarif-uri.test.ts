/**
 * SARIF 2.1.0 `artifactLocation.uri` is a URI reference (red team L1): the raw path
 * `../lint sp/a b#c%.md` is not one (a space, `#` cuts a fragment, `%` starts an escape), so
 * a consumer could not find the file. Each segment is percent-encoded; relative stays relative.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { lintText, toSarif } from '../../app/lint/index.js';
import { artifactUri } from '../../app/lint/format.js';
import { cliIn } from '../cli/in-process.js';
import { tmp } from '../journal/helpers.js';

const BAD = '---\nengine: E\noutputs: [a]\nreplay_profile:\n  outputs:\n    a: FUZZY\n---\n';
/** RFC 3986: only unreserved, sub-delims, `:`, `@`, `/` and `%XX` escapes in a path. */
const URI_PATH = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-F]{2})*$/;

interface Sarif {
  runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[];
}
const uris = (s: Sarif) => s.runs[0]!.results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri);

describe('SARIF artifactLocation.uri', () => {
  it('a relative path: each segment percent-encoded, still relative, resolving back to the file', () => {
    const path = '../lint sp/a b#c%.md';
    const [uri] = uris(toSarif([lintText(path, BAD)]) as Sarif);
    expect(uri).toBe('../lint%20sp/a%20b%23c%25.md');
    expect(uri).toMatch(URI_PATH);
    const base = pathToFileURL('/work/here/');
    expect(fileURLToPath(new URL(uri!, base))).toBe(resolve('/work/here', path));
  });

  it('a `:` in the first segment is not read as a scheme; `?` is not a query', () => {
    expect(artifactUri('a:b?.md', '/')).toBe('a%3Ab%3F.md');
  });

  it('on POSIX a backslash is part of the name; on Windows it separates, a drive path is a file: URI', () => {
    expect(artifactUri('x\\y.md', '/')).toBe('x%5Cy.md');
    expect(artifactUri('..\\specs\\a b.md', '\\')).toBe('../specs/a%20b.md');
    expect(artifactUri('C:\\r\\a b.md', '\\')).toBe('file:///C:/r/a%20b.md');
    expect(artifactUri('\\\\host\\share\\a.md', '\\')).toBe('file://host/share/a.md');
  });

  it('the CLI, given an absolute path, writes a file: URI of that file', async () => {
    const dir = join(tmp('reprise-lint-uri-'), 'lint sp');
    mkdirSync(dir);
    const file = join(dir, 'a b#c%[1].md');
    writeFileSync(file, BAD);
    const r = await cliIn(dir, 'lint', file, '--format', 'sarif');
    expect(r.code).toBe(1);
    const [uri] = uris(JSON.parse(r.out) as Sarif);
    expect(uri!.startsWith('file:///')).toBe(true);
    expect(uri!.slice('file://'.length)).toMatch(URI_PATH);
    expect(fileURLToPath(uri!)).toBe(file);
  });
});
