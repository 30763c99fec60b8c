/** The tool's version, read once from the package.json of the installed tree. */
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const p = join(dir, 'package.json');
    if (existsSync(p)) {
      const pkg = JSON.parse(readFileSync(p, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'reprise' && pkg.version) return pkg.version;
    }
    dir = dirname(dir);
  }
  return '0.0.0-unknown';
}

export const VERSION: string = findVersion();
