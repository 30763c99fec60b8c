/**
 * The diff's page and the report's export page each carry a Content-Security-Policy, first in
 * their head, that allows their inline CSS and nothing else: a slip in their escaping would
 * then run no script and load nothing. An evidence bundle's pages keep their fixed bytes.
 */
import { describe, expect, it } from 'vitest';
import { diffJson } from '../../shared/diff.js';
import { diffPage } from '../../shared/diff-html.js';
import { reportPage } from '../../shared/report-html.js';
import type { Report } from '../../shared/report.js';

const CSP =
  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'\">";

const REPORT = {
  schema: 'reprise.report/v1',
  artifact: { path: 'a.json', kind: 'replay-dump', sha256: 'sha256:1', id: 'a' },
  verdict: 'pass',
  findings: [],
  chain: [],
  run: { tool: 'reprise', version: '0.0.0', startedAtUtc: '2026-12-02T00:00:00.000Z', durationMs: 1 },
} as unknown as Report;

const diff = diffPage({
  title: 't',
  what: 'w',
  left: { name: 'l' },
  right: { name: 'r' },
  result: diffJson({ a: [1], s: 'old' }, { a: [1, 2], s: 'new' }),
});

/** What the pages use fits the policy: inline CSS, links to their own fragments, nothing loaded. */
function fitsPolicy(html: string): void {
  expect(html).toMatch(/<style>[^<]+<\/style>/);
  expect(html).not.toMatch(/<script|<img|<link|<iframe|<form|url\(|@import|@font-face/i);
  expect([...html.matchAll(/href="([^"]*)"/g)].every((m) => m[1]!.startsWith('#'))).toBe(true);
}

describe('the pages’ Content-Security-Policy', () => {
  it('is the first element of the diff page’s head', () => {
    expect(diff).toContain(`<head>${CSP}<meta charset="utf-8">`);
    fitsPolicy(diff);
  });

  it('is the first element of the report page’s head', () => {
    const html = reportPage(REPORT);
    expect(html).toContain(`<head>${CSP}<meta charset="utf-8">`);
    fitsPolicy(html);
  });
});
