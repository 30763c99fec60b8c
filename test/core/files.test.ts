import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../app/core/files.js';

describe('writeFileAtomic', () => {
  it('replaces the file whole and leaves no private file behind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reprise-atomic-'));
    const p = join(dir, 'out.json');
    writeFileSync(p, 'old');
    await Promise.all(Array.from({ length: 8 }, (_, i) => writeFileAtomic(p, `writer ${i} `.repeat(10_000))));
    expect(readFileSync(p, 'utf8')).toMatch(/^(writer \d )+$/);
    expect(
      new Set(
        readFileSync(p, 'utf8')
          .split(' ')
          .filter((w) => /^\d$/.test(w)),
      ).size,
    ).toBe(1); // one writer's bytes, not a mix
    expect(readdirSync(dir)).toEqual(['out.json']);
  });
  it('writes text given in pieces, and a source that fails midway leaves the old file and no private file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reprise-atomic-'));
    const p = join(dir, 'out.json');
    await writeFileAtomic(p, ['{"a":', '1', '}\n'][Symbol.iterator]());
    expect(readFileSync(p, 'utf8')).toBe('{"a":1}\n');
    function* failing(): Generator<string> {
      yield 'half of a new report';
      throw new Error('the source failed');
    }
    await expect(writeFileAtomic(p, failing())).rejects.toThrow('the source failed');
    expect(readFileSync(p, 'utf8')).toBe('{"a":1}\n');
    expect(readdirSync(dir)).toEqual(['out.json']);
  });
  it('a failed write leaves what was there and no private file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reprise-atomic-'));
    const sub = join(dir, 'a-directory');
    mkdirSync(sub);
    writeFileSync(join(sub, 'kept'), 'old');
    await expect(writeFileAtomic(sub, 'x')).rejects.toThrow(); // the rename onto a directory fails
    expect(readdirSync(dir)).toEqual(['a-directory']);
    expect(readFileSync(join(sub, 'kept'), 'utf8')).toBe('old');
    await expect(writeFileAtomic(join(dir, 'no-such-dir', 'out.json'), 'x')).rejects.toThrow();
  });
});
