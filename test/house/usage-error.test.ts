/**
 * One concept, one module: "the user asked something wrong" is app/core/errors.ts
 * UsageError (with its closed UsageCode) in every room. No second class, and no wrapper
 * that builds or converts one (they multiplied: a CLI class, a host class, per-kind
 * helpers). main/host/api-error.ts ApiError is the API's rejection on the wire, not a
 * usage error of its own (its comment says why).
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../app/core/errors.js';
import { FileReadError } from '../../app/core/files.js';
import { KeyError } from '../../app/core/keys.js';
import { JournalError } from '../../app/journal/errors.js';
import { ProviderRegistryError } from '../../app/providers/registry.js';
import { ROOT } from '../helpers/cli.js';
import { sources } from '../helpers/sources.js';

describe('usage errors', () => {
  it('are declared once, in app/core/errors.ts, with no wrapper around them', () => {
    const found: string[] = [];
    for (const f of ['shared', 'app', 'main'].flatMap((r) => sources(join(ROOT, r)))) {
      const text = readFileSync(f, 'utf8');
      for (const m of text.matchAll(/\bclass (\w*Usage\w*)|\bfunction (\w*[uU]sageError\w*)|\bclass (\w*Problem)\b/g))
        found.push(`${relative(ROOT, f)}: ${m[1] ?? m[2] ?? m[3]}`);
    }
    expect(found).toEqual(['app/core/errors.ts: UsageError']);
  });

  it('say what was wrong with a closed code; the readers and registries that fail on user input are usage errors', () => {
    expect(new UsageError('x').usageCode).toBe('arguments');
    expect(new FileReadError('/p', 'ENOENT', 'ENOENT')).toMatchObject({ usageCode: 'path', code: 'ENOENT' });
    const bad = new ProviderRegistryError('providers file: bad');
    expect(bad).toBeInstanceOf(UsageError);
    expect(bad.usageCode).toBe('bad-file');
  });

  it('key and journal errors are usage errors, so every catch site tests one class', () => {
    expect(new KeyError('trust store x refused: y')).toMatchObject({ usageCode: 'bad-file', name: 'KeyError' });
    expect(new KeyError('cannot read key file k: ENOENT', 'path')).toBeInstanceOf(UsageError);
    expect(new JournalError('locked', 'LOCKED')).toMatchObject({
      usageCode: 'refused',
      code: 'LOCKED',
      name: 'JournalError',
    });
    expect(new JournalError('no entry 9', 'USAGE')).toBeInstanceOf(UsageError);
    expect(new JournalError('damaged', 'DAMAGED').usageCode).toBe('bad-file');
    for (const f of sources(join(ROOT, 'app')))
      expect(readFileSync(f, 'utf8'), relative(ROOT, f)).not.toMatch(
        /instanceof (KeyError|JournalError) \|\||\|\| \w+ instanceof (KeyError|JournalError)\b/,
      );
  });
});
