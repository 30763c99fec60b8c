/**
 * The engine files that run outside the asar (utilityProcess and worker threads start from
 * files on disk, so electron-builder.yml unpacks them) are not covered by Electron's asar
 * integrity check, and on Linux nothing checks the asar itself. So the build writes a
 * manifest of their SHA-256s into out/main (packed *inside* the asar, where macOS and
 * Windows builds check it), and the main process compares the unpacked files with it
 * before each start of the engine's process, refusing to start a modified engine.
 * See docs/workbench.md for what this does and does not protect on Linux.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { sha256Hex } from '../../app/core/hash.js';

export const ENGINE_MANIFEST = 'engine-manifest.json';
/** The unpacked files, relative to out/main (the asarUnpack list of electron-builder.yml). */
export const ENGINE_FILES = [
  'engine-process.js',
  'engine-worker.js',
  'journal-worker.js',
  'canonical-worker.js',
  'inflate-worker.js',
];
export const ENGINE_DIRS = ['chunks'];

export interface EngineManifest {
  type: 'reprise.engine-manifest';
  files: Record<string, string>;
}

// Plain reads throughout: these are the app's own installed engine files (out/main), never a path from a request.
function listFiles(mainDir: string): string[] {
  const out = ENGINE_FILES.filter((f) => statSync(join(mainDir, f), { throwIfNoEntry: false })?.isFile());
  for (const d of ENGINE_DIRS) {
    const dir = join(mainDir, d);
    if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) continue;
    for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (e.isFile()) out.push(relative(mainDir, join(e.parentPath, e.name)).split(sep).join('/'));
    }
  }
  return out.sort();
}

/** The manifest of the engine files under `mainDir` (out/main). */
export function buildEngineManifest(mainDir: string): EngineManifest {
  const files: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const f of listFiles(mainDir)) files[f] = sha256Hex(readFileSync(join(mainDir, f)));
  return { type: 'reprise.engine-manifest', files };
}

/** Problems found comparing the files under `mainDir` with `manifest` (empty: all match). */
export function engineFileProblems(mainDir: string, manifest: EngineManifest): string[] {
  const problems: string[] = [];
  const expected = new Map(Object.entries(manifest.files));
  for (const name of ENGINE_FILES) if (!expected.has(name)) problems.push(`${name} is not in the manifest`);
  for (const [name, hash] of expected) {
    let actual: string;
    try {
      actual = sha256Hex(readFileSync(join(mainDir, name)));
    } catch {
      problems.push(`${name} is missing`);
      continue;
    }
    if (actual !== hash) problems.push(`${name} does not match its build-time SHA-256`);
  }
  for (const name of listFiles(mainDir)) if (!expected.has(name)) problems.push(`${name} is not in the manifest`);
  return problems;
}

/** Throws (one line) unless the engine files under `mainDir` match its manifest. */
export function checkEngineFiles(mainDir: string): void {
  let manifest: EngineManifest;
  try {
    manifest = JSON.parse(readFileSync(join(mainDir, ENGINE_MANIFEST), 'utf8')) as EngineManifest;
  } catch {
    throw new Error(
      `the engine's file manifest (${ENGINE_MANIFEST}) is missing or unreadable: refusing to start the engine`,
    );
  }
  if (manifest?.type !== 'reprise.engine-manifest' || typeof manifest.files !== 'object' || manifest.files === null)
    throw new Error(`${ENGINE_MANIFEST} is not an engine manifest: refusing to start the engine`);
  const problems = engineFileProblems(mainDir, manifest);
  if (problems.length)
    throw new Error(
      `the engine's files were modified after the build (${problems.slice(0, 3).join('; ')}): refusing to start the engine`,
    );
}
