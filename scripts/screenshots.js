#!/usr/bin/env node
// Refreshes docs/screenshots/: runs the web-target e2e suite with REPRISE_SCREENSHOTS=1,
// the one switch under which the specs write those tracked files (a normal
// `npx playwright test` leaves the tree as it found it). Build first: `npm run build`.
import { spawnSync } from 'node:child_process';

const r = spawnSync('npx', ['playwright', 'test', '--project=web', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, REPRISE_SCREENSHOTS: '1' },
});
process.exit(r.status ?? 3);
