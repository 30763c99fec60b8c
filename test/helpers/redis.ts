/**
 * A real Redis for the queue tests (BullMQ's own maintainers test only against a real
 * server): Debian's redis-server, started on a free loopback port with a temporary
 * directory and no persistence, stopped (and its directory removed) after. Absent, the tests
 * are skipped with the reason, except under CI (env CI set), where they fail: .ci/run
 * installs redis-server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REDIS_SERVER = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find((p) => existsSync(p)) ?? null;

/** Why the queue tests are skipped here, or null when they run (CI never skips them). */
export function redisSkipReason(): string | null {
  if (REDIS_SERVER) return null;
  if (process.env['CI']) return null; // CI must have it: the test then fails on start()
  return 'redis-server is not installed (apt-get install redis-server; .ci/run does)';
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const answers = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const c = connect(port, '127.0.0.1');
    c.once('connect', () => {
      c.write('PING\r\n');
      c.once('data', (d) => {
        c.destroy();
        resolve(String(d).startsWith('+PONG'));
      });
    });
    c.once('error', () => resolve(false));
  });

export interface RedisServer {
  port: number;
  url(name: string): string;
  stop(): Promise<void>;
}

/** Starts redis-server; resolves once it answers PING (at most 200 tries, 50 ms apart). */
export async function startRedis(): Promise<RedisServer> {
  if (!REDIS_SERVER)
    throw new Error('redis-server is not installed: .ci/run installs it (apt-get install redis-server)');
  const dir = mkdtempSync(join(tmpdir(), 'reprise-redis-'));
  const port = await freePort();
  const child: ChildProcess = spawn(
    REDIS_SERVER,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
      '--protected-mode',
      'yes',
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 200 && !(await answers(port)); i++) await new Promise((r) => setTimeout(r, 50));
  if (!(await answers(port))) {
    child.kill('SIGKILL');
    throw new Error(`redis-server did not answer on port ${port}`);
  }
  return {
    port,
    url: (name) => `redis://127.0.0.1:${port}/${name}`,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
