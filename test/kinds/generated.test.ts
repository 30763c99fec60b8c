/**
 * The lists of kinds outside app/ follow from the registry: shared/kinds.ts (shared/ imports
 * nothing of app/, so the names are generated into it; ARTIFACT_KINDS and DetailsByKind
 * derive from it) and the report schema's kind enum. This test fails while either differs
 * from the registry; with UPDATE_KINDS=1 it writes them instead (what adding a kind runs).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { kindNames } from '../../app/kinds/registry.js';
import { ROOT } from '../helpers/cli.js';

const UPDATE = process.env['UPDATE_KINDS'] === '1';
const SHARED = `${ROOT}shared/kinds.ts`;
const SCHEMA = `${ROOT}docs/report.schema.json`;
const quoted = (names: readonly string[]): string =>
  names.map((n) => JSON.stringify(n).replace(/^"|"$/g, "'")).join(', ');

/** shared/kinds.ts as the registry makes it. */
export function sharedKinds(names: readonly string[]): string {
  return [
    '// Generated from app/kinds/registry.ts: do not edit. Adding a kind to the registry, run',
    '// UPDATE_KINDS=1 npx vitest run test/kinds/generated.test.ts (the test fails while this differs).',
    "/** Every registered kind's name, in registry order (shared/ imports nothing of app/). */",
    `export const REGISTERED_KINDS = [${quoted(names)}] as const;`,
    '',
  ].join('\n');
}

/** The schema's text with its kind enum set to the registry's kinds and `unknown` (nothing else of it changes). */
export function schemaKinds(text: string, names: readonly string[]): string {
  const line = /("kind": \{ "enum": )\[[^\]]*\]/;
  if (!line.test(text)) throw new Error('docs/report.schema.json: no kind enum line');
  return text.replace(line, `$1${JSON.stringify([...names, 'unknown']).replace(/","/g, '", "')}`);
}

async function check(path: string, want: string): Promise<void> {
  const have = await readFile(path, 'utf8');
  if (UPDATE && have !== want) await writeFile(path, want);
  else
    expect(
      have,
      `${path} differs from the registry: run UPDATE_KINDS=1 npx vitest run test/kinds/generated.test.ts`,
    ).toBe(want);
}

describe('the lists of kinds follow from the registry', () => {
  it('shared/kinds.ts names the registry kinds in order', () => check(SHARED, sharedKinds(kindNames())));
  it("the report schema's kind enum is the registry kinds and unknown", async () =>
    check(SCHEMA, schemaKinds(await readFile(SCHEMA, 'utf8'), kindNames())));
  it('a registry the lists do not follow is caught', async () => {
    const names = [...kindNames(), 'another-kind'];
    expect(sharedKinds(names)).not.toBe(await readFile(SHARED, 'utf8'));
    expect(schemaKinds(await readFile(SCHEMA, 'utf8'), names)).toContain('"another-kind", "unknown"]');
  });
});
