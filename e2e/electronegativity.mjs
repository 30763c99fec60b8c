#!/usr/bin/env node
// Electronegativity over the built Electron app (out/main, out/preload, the renderer's
// index.html), with SARIF output, failing on any high or medium finding: the tool itself
// exits 0 whatever it finds, so the SARIF is parsed here. Also fails when the tool could
// not parse a file (an unparsed file is an unchecked file).
//
// Electron version: `-e 45.x` is what we mean, but Electronegativity 1.10.3 hands the
// value to semver unchanged and rejects "45.x" ("Invalid Version"), skipping every file
// and reporting only its global checks. So the pinned 45 line's version is passed
// (package.json: electron ~45.5.0). The renderer's JS bundles (React, Monaco) are left
// out: they are browser libraries, not Electron code, and carry no Electron APIs.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const ELECTRON = process.env.REPRISE_ELECTRON_VERSION ?? '45.5.0';
const out = process.env.REPRISE_OUT ?? join(root, 'out');
for (const p of ['main/index.js', 'preload/index.cjs', 'renderer/index.html']) {
  if (!existsSync(join(out, p))) {
    process.stderr.write(`electronegativity: out/${p} is missing; run 'npx electron-vite build' first\n`);
    process.exit(3);
  }
}
const scan = mkdtempSync(join(tmpdir(), 'reprise-en-'));
cpSync(join(out, 'main'), join(scan, 'main'), { recursive: true });
cpSync(join(out, 'preload'), join(scan, 'preload'), { recursive: true });
cpSync(join(out, 'renderer', 'index.html'), join(scan, 'index.html'));
const sarifPath = process.env.REPRISE_SARIF ?? join(root, 'test-results', 'electronegativity.sarif');
const bin = join(
  root,
  'node_modules',
  '.bin',
  process.platform === 'win32' ? 'electronegativity.cmd' : 'electronegativity',
);
const r = spawnSync(bin, ['-i', scan, '-e', ELECTRON, '-o', sarifPath, '-r', '-v', 'false'], {
  encoding: 'utf8',
  timeout: 300_000,
});
rmSync(scan, { recursive: true, force: true });
const log = `${r.stdout ?? ''}${r.stderr ?? ''}`;
const parseErrors = log.split('\n').filter((l) => l.startsWith('Error parsing'));
let sarif;
try {
  sarif = JSON.parse(readFileSync(sarifPath, 'utf8'));
} catch (e) {
  process.stderr.write(`electronegativity: no SARIF written (${e.message})\n${log}\n`);
  process.exit(3);
}
const results = sarif.runs?.flatMap((run) => run.results ?? []) ?? [];
// SARIF levels: error = HIGH, warning = MEDIUM, note = LOW / informational.
const bad = results.filter((x) => x.level === 'error' || x.level === 'warning');
for (const x of results) {
  const loc = x.locations?.[0]?.physicalLocation;
  process.stdout.write(
    `${x.level.padEnd(7)} ${x.ruleId} ${loc?.artifactLocation?.uri ?? ''}:${loc?.region?.startLine ?? 0} ${x.message?.text ?? ''}\n`,
  );
}
if (parseErrors.length) process.stderr.write(`electronegativity could not parse:\n${parseErrors.join('\n')}\n`);
process.stdout.write(
  `electronegativity (-e ${ELECTRON}): ${results.length} finding(s), ${bad.length} high or medium; SARIF at ${sarifPath}\n`,
);
process.exit(bad.length > 0 || parseErrors.length > 0 ? 1 : 0);
