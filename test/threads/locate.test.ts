/** workerScript finds a worker next to its module (dist/) or one level up (Electron's out/main/chunks/). */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { workerScript } from '../../app/threads/locate.js';

it('prefers the script beside the module, then one level up, else names the one beside it', async () => {
  const root = await mkdtemp(join(tmpdir(), 'reprise-locate-'));
  await mkdir(join(root, 'chunks'));
  const base = pathToFileURL(join(root, 'chunks', 'run.js')).href;
  expect(workerScript('w.js', base).href).toBe(pathToFileURL(join(root, 'chunks', 'w.js')).href);
  await writeFile(join(root, 'w.js'), '');
  expect(workerScript('w.js', base).href).toBe(pathToFileURL(join(root, 'w.js')).href);
  await writeFile(join(root, 'chunks', 'w.js'), '');
  expect(workerScript('w.js', base).href).toBe(pathToFileURL(join(root, 'chunks', 'w.js')).href);
});
