/** `reprise lint`: DL-104 over Markdown/MDX engine specifications (files or directories). */
import { readdir, stat } from 'node:fs/promises';
import { MAX_WHOLE_FILE_BYTES, readRegularFile } from '../core/files.js';
import { join } from 'node:path';
import { lintText, type LintResult } from './dl104.js';

export { lintText, frontMatter, type LintResult, type Diagnostic } from './dl104.js';
export { formatText, toJson, toSarif } from './format.js';

const SPEC_FILE = /\.(md|mdx)$/i;

/** Files to lint: explicit files as given; directories walked recursively (sorted) for .md/.mdx. */
export async function collectSpecFiles(paths: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (p: string, explicit: boolean): Promise<void> => {
    const st = await stat(p);
    if (st.isFile()) {
      if (explicit || SPEC_FILE.test(p)) out.push(p);
      return;
    }
    // A path given that is neither (a FIFO, a device) is read, and refused there in one line.
    if (!st.isDirectory()) {
      if (explicit) out.push(p);
      return;
    }
    const names = (await readdir(p)).sort();
    for (const n of names) if (n !== 'node_modules' && !n.startsWith('.')) await walk(join(p, n), false);
  };
  for (const p of paths) await walk(p, true);
  return out;
}

export async function lintFile(path: string): Promise<LintResult> {
  const bytes = await readRegularFile(path, MAX_WHOLE_FILE_BYTES);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return {
      path,
      isSpec: false,
      engine: null,
      diagnostics: [{ rule: 'DL-104', level: 'error', message: 'the file is not UTF-8 text', line: 1 }],
    };
  }
  return lintText(path, text);
}
