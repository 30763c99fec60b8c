/** Starts an engine child (engine-child.ts, or a test's own entry) with Node's child_process. */
import { fork } from 'node:child_process';
import type { EngineChild, ToEngine } from '../host/engine-remote.js';

export function forkEngine(entry: string | URL): EngineChild {
  // 'advanced' serialization: an upload's raw chunks cross as bytes, not as JSON arrays.
  const c = fork(entry, [], {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [],
  });
  // A send racing the child's death: the 'exit' handler fails the call; do not crash the server.
  c.on('error', () => undefined);
  return {
    send: (m: ToEngine) => {
      if (c.connected) c.send(m);
    },
    onMessage: (l) => c.on('message', l),
    onExit: (l) => c.once('exit', (code, signal) => l(signal ? `signal ${signal}` : `exit code ${code}`)),
    kill: () => void c.kill(),
  };
}
