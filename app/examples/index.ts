/**
 * The built-in sample and training artifacts (`reprise examples DIR`). Each kind adds
 * its writer here. Writers MUST be deterministic: running them twice writes identical
 * bytes (fixed keys, fixed timestamps, no randomness).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { dumpsWriter } from './dumps.js';
import { tgWriter } from './tg.js';
import { acgpWriter } from './acgp.js';
import { packagesWriter } from './packages.js';
import { journalWriter } from './journal.js';

export interface ExampleFile {
  /** Path relative to the examples directory, with `/` separators. */
  path: string;
  bytes: Uint8Array | string;
  /** What the file demonstrates, and the verdict and rule it is made for. */
  note: string;
  /** `whatIf`: the substitutions (`model=ref-2`) a trainer example is made to be replayed with. */
  expect?: { verdict: 'pass' | 'fail' | 'unavailable'; rule?: string; command?: 'verify' | 'replay'; whatIf?: string[] };
  /** Engine options the example needs, as paths relative to the examples directory
   * (e.g. {trustStore: 'dumps/trust-store.json'}); the workbench applies them. */
  options?: Partial<Record<'trustStore' | 'providers' | 'policy' | 'profiles' | 'journal', string>>;
}

export interface ExampleWriter {
  readonly name: string;
  build(): Promise<ExampleFile[]> | ExampleFile[];
}

/** A file of content Reprise does not know: it must be RPR-KIND-001. */
const foundationWriter: ExampleWriter = {
  name: 'foundation',
  build: () => [
    {
      path: 'unknown/not-an-artifact.json',
      bytes: '{"hello": "world"}\n',
      note: 'valid JSON of no known kind',
      expect: { verdict: 'fail', rule: 'RPR-KIND-001', command: 'verify' },
    },
  ],
};

export const EXAMPLE_WRITERS: readonly ExampleWriter[] = [foundationWriter, dumpsWriter, tgWriter, acgpWriter, packagesWriter, journalWriter];

export async function buildExamples(): Promise<ExampleFile[]> {
  const all: ExampleFile[] = [];
  for (const w of EXAMPLE_WRITERS) all.push(...(await w.build()));
  all.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return all;
}

/** Writes every example under `dir` plus an index (`examples.json`) of what each is for. */
export async function writeExamples(dir: string): Promise<ExampleFile[]> {
  const files = await buildExamples();
  for (const f of files) {
    const p = join(dir, ...f.path.split('/'));
    await mkdir(dirname(p), { recursive: true });
    await writeFile(p, f.bytes);
  }
  const index = files.map((f) => ({ path: f.path, note: f.note, ...(f.expect ? { expect: f.expect } : {}), ...(f.options ? { options: f.options } : {}) }));
  await writeFile(join(dir, 'examples.json'), JSON.stringify({ type: 'reprise.examples/v1', files: index }, null, 2) + '\n');
  return files;
}
