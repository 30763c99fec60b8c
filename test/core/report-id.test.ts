/** A report carries an artifact id whole only up to MAX_ARTIFACT_ID_CHARS; beyond, its start, length and SHA-256 (issue 27). */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { boundedId, buildReport, MAX_ARTIFACT_ID_CHARS } from '../../app/core/report.js';

describe('artifact ids in reports', () => {
  it('are kept whole up to the bound, and named by start, length and hash beyond it', () => {
    expect(boundedId(null)).toBeNull();
    const edge = 'x'.repeat(MAX_ARTIFACT_ID_CHARS);
    expect(boundedId(edge)).toBe(edge);
    const long = 'trace-' + 'y'.repeat(5 * 1024 * 1024);
    const b = boundedId(long)!;
    expect(b.length).toBeLessThan(256);
    expect(b.startsWith('trace-yyy')).toBe(true);
    expect(b).toContain(`(${long.length} characters; sha256:${createHash('sha256').update(long).digest('hex')})`);
    // Two long ids that differ only at the end stay distinct.
    expect(boundedId(long + 'a')).not.toBe(boundedId(long + 'b'));
    const r = buildReport(
      { path: 'p', kind: 'acgp-eval', sha256: null, id: long, findings: [], chain: [] },
      0,
      () => 0,
    );
    expect(JSON.stringify(r).length).toBeLessThan(2000);
  });
});
