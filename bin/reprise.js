#!/usr/bin/env node
// The composition root of the `reprise` command: the engine's CLI lives in app/, the
// loopback web host in main/. This launcher is the only place that knows both rooms.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = new URL('../dist/', import.meta.url);
if (!existsSync(fileURLToPath(new URL('app/cli/main.js', dist)))) {
  process.stderr.write("reprise: the CLI is not built; run 'npm run build:cli' (npm ci does it) first\n");
  process.exit(3);
}

const argv = process.argv.slice(2);
if (argv[0] === 'serve') {
  const { serveMain } = await import(new URL('main/webhost/cli.js', dist).href);
  await serveMain(argv.slice(1));
} else {
  const { main } = await import(new URL('app/cli/main.js', dist).href);
  await main(argv);
}
