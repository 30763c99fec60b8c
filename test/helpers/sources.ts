/** Every TypeScript source under a folder (no declaration files), for the tests that read the tree. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function sources(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (/\.tsx?$/.test(p) && !p.endsWith('.d.ts')) out.push(p);
  }
  return out;
}
