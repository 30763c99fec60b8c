/** An engine host as `reprise serve` makes one, its workers from dist/ (npm run build:cli), granted `roots` and `keys`. */
import { fork, type ChildProcess } from 'node:child_process';
import type { EngineHost } from '../../main/host/engine-host.js';
import type { EngineChild, ToEngine } from '../../main/host/engine-remote.js';
import { dist, distHost } from '../helpers/dist-host.js';

export function testHost(roots: string[], keys: string[] = []): EngineHost {
  return distHost({ roots, ...(keys.length ? { keys } : {}) });
}

/**
 * The engine's process as `reprise serve` forks it (main/webhost/node-engine.ts), from dist/
 * (npm run build:cli) as the other tests of the engine's process run it. `env` is added to
 * this process's environment; `process` is there to signal it.
 */
export function builtEngineChild(env: NodeJS.ProcessEnv = {}): EngineChild & { process: ChildProcess } {
  const c = fork(dist('main/webhost/engine-child.js'), [], {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  c.on('error', () => undefined);
  return {
    process: c,
    send: (m: ToEngine) => {
      if (c.connected) c.send(m);
    },
    onMessage: (l) => c.on('message', l),
    onExit: (l) => c.once('exit', (code, signal) => l(signal ? `signal ${signal}` : `exit code ${code}`)),
    kill: () => void c.kill(),
  };
}
