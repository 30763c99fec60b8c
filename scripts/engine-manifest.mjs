// electron-builder `beforePack` hook: writes out/main/engine-manifest.json, the SHA-256 of
// every engine file that is unpacked from the asar (main/host/engine-integrity.ts, built
// into dist/ by `npm run build:cli`). The manifest itself is packed inside the asar.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export default async function beforePack() {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const { buildEngineManifest, ENGINE_MANIFEST } = await import(
    pathToFileURL(join(root, 'dist', 'main', 'host', 'engine-integrity.js')).href
  );
  const mainDir = join(root, 'out', 'main');
  const manifest = buildEngineManifest(mainDir);
  if (Object.keys(manifest.files).length === 0) throw new Error('no engine files in out/main: run npm run build first');
  writeFileSync(join(mainDir, ENGINE_MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
}
