/** `reprise serve [--port N] [--root DIR]... [--key FILE]... [--kernel-adapter FILE]...`: start the loopback workbench and print its URL. */
import { existsSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createRemoteEngine, type RemoteEngine } from '../host/engine-remote.js';
import { forkEngine } from './node-engine.js';
import { startWebHost, type WebHost } from './server.js';

const USAGE = 'usage: reprise serve [--port N] [--root DIR]... [--key FILE]... [--kernel-adapter FILE]...\n';
const HELP = `${USAGE}
Serve the workbench on 127.0.0.1 (random port unless --port) and print its URL with the access token.

  --root DIR   a folder whose files the workbench may open by path (repeatable); without it,
               only the built-in examples, uploads and the training journal are reachable
  --key FILE   a private key file the workbench may sign with (repeatable): journal decisions
               and attestations are signed only with keys named here
  --kernel-adapter FILE
               a Nemosyne kernel adapter the engine may run (repeatable): an adapter is code,
               so the Kernel adapter field accepts only adapters named here
`;

type Values = { port?: string; root?: string[]; key?: string[]; 'kernel-adapter'?: string[]; help?: boolean };

function fail(message: string): void {
  process.stderr.write(`reprise: ${message}\n`);
  process.exitCode = 3;
}

/** One granted path: its real path, or why it is refused (naming the path as resolved when it was relative). */
async function granted(
  flag: string,
  p: string,
  want: 'directory' | 'regular file',
): Promise<{ real: string } | string> {
  const abs = resolve(p);
  const st = await stat(abs).catch(() => null);
  if (want === 'directory' ? st?.isDirectory() : st?.isFile()) return { real: await realpath(abs) };
  return `${flag} ${p}: ${abs === p ? '' : `${abs} is `}not a ${want}`;
}

/**
 * Each --root must be a directory, each --key and --kernel-adapter a regular file; answers their
 * real paths. A relative path is resolved against this process's folder, which `npm start` sets
 * to the folder the user ran npm in (scripts/start.js).
 */
async function checkGrants(values: Values): Promise<{ roots: string[]; keys: string[]; adapters: string[] } | string> {
  const out = { roots: [] as string[], keys: [] as string[], adapters: [] as string[] };
  const asked = [
    ['--root', values.root, 'directory', out.roots],
    ['--key', values.key, 'regular file', out.keys],
    ['--kernel-adapter', values['kernel-adapter'], 'regular file', out.adapters],
  ] as const;
  for (const [flag, paths, want, into] of asked)
    for (const p of paths ?? []) {
      const g = await granted(flag, p, want);
      if (typeof g === 'string') return g;
      into.push(g.real);
    }
  return out;
}

export async function serveMain(argv: string[]): Promise<void> {
  let values: Values;
  try {
    values = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        root: { type: 'string', multiple: true },
        key: { type: 'string', multiple: true },
        'kernel-adapter': { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }).values;
  } catch (e) {
    process.stderr.write(`reprise: ${(e as Error).message}\n${USAGE}`);
    process.exitCode = 3;
    return;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return fail('--port takes a number from 0 to 65535');
  const grant = await checkGrants(values);
  if (typeof grant === 'string') return fail(grant);
  const rendererDir = fileURLToPath(new URL('../../../out/renderer/', import.meta.url));
  if (!existsSync(rendererDir + 'index.html')) return fail("the workbench UI is not built; run 'npm run build' first");
  // The engine runs in a child process: a job that kills it (a V8 fatal error) fails that
  // job; this process, serving the window, carries on and starts a fresh engine.
  const api = createRemoteEngine({ start: () => forkEngine(new URL('./engine-child.js', import.meta.url)), grant });
  let host: WebHost;
  try {
    host = await startWebHost({ api, rendererDir, port });
  } catch (e) {
    await api.close();
    return fail(`cannot listen on 127.0.0.1:${port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const reach = grant.roots.length
    ? `files under ${grant.roots.join(', ')}`
    : 'no folder on disk (add --root DIR to open files by path)';
  process.stdout.write(
    `Reprise workbench: ${host.url}\n(loopback only; the token after # is the key: do not share it. Reachable by path: ${reach}. Ctrl-C stops.)\n`,
  );
  let stopping = false;
  const stop = (): void => {
    if (stopping) return; // a second Ctrl-C: the stop under way is bounded (stopServing)
    stopping = true;
    void stopServing(host, api).finally(() => process.exit(0));
  };
  // SIGHUP: the terminal closed.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, stop);
}

/**
 * The normal stop: the web host closed (its connections cut, so an upload still arriving
 * does not hold it open; its picked files' folder removed), then the engine, which removes
 * its own temporary folders before it ends (engine-remote.ts close, bounded: a stop never
 * waits on the engine for ever). Exiting before both are done would leave them in the
 * temporary directory, uploaded evidence and the training officer's private key with them.
 */
export async function stopServing(host: WebHost, api: RemoteEngine): Promise<void> {
  const closed = host.close();
  host.server.closeAllConnections();
  await closed;
  await api.close();
}
