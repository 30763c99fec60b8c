/**
 * The built-in sample and training artifacts (`reprise examples DIR`). Each kind declares
 * its writer (KindDeclarations.examples). Writers MUST be deterministic: running them twice writes identical
 * bytes (fixed keys, fixed timestamps, no randomness).
 */
import { lstat, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { isMissing } from '../core/files.js';
import { writePrivateKeyFile } from '../core/keys.js';
import { DIRECTORY_KINDS, KINDS } from '../kinds/registry.js';
import type { ExampleFile, ExampleWriter } from '../kinds/types.js';

export type { ExampleFile, ExampleWriter } from '../kinds/types.js';

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

/** The foundation's writer and every kind's, in registry order. */
export async function exampleWriters(): Promise<ExampleWriter[]> {
  const declared = [...KINDS, ...DIRECTORY_KINDS].flatMap((k) => (k.examples ? [k.examples] : []));
  return [foundationWriter, ...(await Promise.all(declared.map((load) => load())))];
}

export async function buildExamples(): Promise<ExampleFile[]> {
  const all: ExampleFile[] = [];
  for (const w of await exampleWriters()) all.push(...(await w.build()));
  all.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return all;
}

/** A file `reprise examples` writes: where under its folder (with `/`), and its bytes. */
export interface ExampleOutput {
  path: string;
  bytes: Uint8Array | string;
}

/** Every example file, then the index (`examples.json`) of what each is for: all that `writeExamples` writes. */
export function exampleOutputs(files: readonly ExampleFile[]): ExampleOutput[] {
  const index = files.map((f) => ({
    path: f.path,
    note: f.note,
    ...(f.expect ? { expect: f.expect } : {}),
    ...(f.options ? { options: f.options } : {}),
  }));
  const json = JSON.stringify({ type: 'reprise.examples/v1', files: index }, null, 2) + '\n';
  return [...files.map((f) => ({ path: f.path, bytes: f.bytes })), { path: 'examples.json', bytes: json }];
}

/** PEM text of a private key (PKCS#8 `PRIVATE KEY`, or a typed one such as `EC PRIVATE KEY`). */
const PRIVATE_KEY_PEM = /^-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----/;

/**
 * Private key files are written 0600 (common.md, keys.ts writePrivateKeyFile), the example keys too: their bytes ship
 * with Reprise, but a folder of examples is copied and used as a starting point, and a key
 * file readable by every user should not be what it starts from. Known by its bytes, so a
 * key any kind's examples add is covered.
 */
function isPrivateKey(bytes: Uint8Array | string): boolean {
  const head = typeof bytes === 'string' ? bytes.slice(0, 64) : Buffer.from(bytes.subarray(0, 64)).toString('latin1');
  return PRIVATE_KEY_PEM.test(head);
}

/**
 * Refuses a folder inside `dir` on the way to an output that is a symbolic link (or no folder):
 * writing through it would put the examples outside `dir`, as a link at a file's own path
 * would (that one the CLI refuses as "not the example"). `dir` itself is the user's to name.
 */
async function refuseLinkedFolders(dir: string, path: string): Promise<void> {
  const parts = path.split('/').slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const p = join(dir, ...parts.slice(0, i));
    let st;
    try {
      st = await lstat(p);
    } catch (e) {
      if (isMissing(e)) return; // made below, as a folder
      throw e;
    }
    if (st.isSymbolicLink() || !st.isDirectory())
      throw new UsageError(
        `${p} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}: Reprise writes examples only inside ${dir}, never through a link (name a new or empty folder)`,
        'path',
      );
  }
}

/**
 * Writes `outputs` under `dir`, creating folders; `flag` 'wx' refuses a file that is there.
 * Every folder on the way is checked before anything is written, and again before each file.
 * Files not in `outputs` (the CLI leaves out one that already holds the very bytes) are not
 * touched, their mode neither: Reprise changes no file it does not write.
 */
export async function writeExampleOutputs(dir: string, outputs: readonly ExampleOutput[], flag = 'w'): Promise<void> {
  for (const f of outputs) await refuseLinkedFolders(dir, f.path);
  for (const f of outputs) {
    const p = join(dir, ...f.path.split('/'));
    await refuseLinkedFolders(dir, f.path);
    await mkdir(dirname(p), { recursive: true });
    if (isPrivateKey(f.bytes)) await writePrivateKeyFile(p, f.bytes, flag);
    else await writeFile(p, f.bytes, { flag });
  }
}

/** Writes every example under `dir` plus an index (`examples.json`) of what each is for. */
export async function writeExamples(dir: string): Promise<ExampleFile[]> {
  const files = await buildExamples();
  await writeExampleOutputs(dir, exampleOutputs(files));
  return files;
}
