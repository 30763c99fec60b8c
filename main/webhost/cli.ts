/** `reprise serve [--port N]`: start the loopback workbench and print its URL. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { EngineHost } from '../host/engine-host.js';
import { startWebHost } from './server.js';

export async function serveMain(argv: string[]): Promise<void> {
  let values: { port?: string; help?: boolean };
  try {
    values = parseArgs({ args: argv, options: { port: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true }).values;
  } catch (e) {
    process.stderr.write(`reprise: ${(e as Error).message}\nusage: reprise serve [--port N]\n`);
    process.exitCode = 3;
    return;
  }
  if (values.help) {
    process.stdout.write('usage: reprise serve [--port N]\n\nServe the workbench on 127.0.0.1 (random port unless --port) and print its URL with the access token.\n');
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write('reprise: --port takes a number from 0 to 65535\n');
    process.exitCode = 3;
    return;
  }
  const rendererDir = fileURLToPath(new URL('../../../out/renderer/', import.meta.url));
  if (!existsSync(rendererDir + 'index.html')) {
    process.stderr.write("reprise: the workbench UI is not built; run 'npm run build' first\n");
    process.exitCode = 3;
    return;
  }
  const api = new EngineHost({
    workerUrl: new URL('../../app/workers/engine-worker.js', import.meta.url),
    journalWorkerUrl: new URL('../host/journal-worker.js', import.meta.url),
    transport: 'web',
  });
  let host;
  try {
    host = await startWebHost({ api, rendererDir, port });
  } catch (e) {
    process.stderr.write(`reprise: cannot listen on 127.0.0.1:${port}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
    process.exitCode = 3;
    await api.close();
    return;
  }
  process.stdout.write(`Reprise workbench: ${host.url}\n(loopback only; the token after # is the key: do not share it. Ctrl-C stops.)\n`);
  const stop = (): void => {
    void host.close().then(() => api.close()).then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
