/** An engine host as `reprise serve` makes one, its workers from dist/ (npm run build:cli), granted `roots` and `keys`. */
import { EngineHost } from '../../main/host/engine-host.js';

const dist = (p: string) => new URL(`../../dist/${p}`, import.meta.url);

export function testHost(roots: string[], keys: string[] = []): EngineHost {
  return new EngineHost({
    workerUrl: dist('app/jobs/engine-worker.js'),
    journalWorkerUrl: dist('main/host/journal-worker.js'),
    transport: 'web',
    roots,
    ...(keys.length ? { keys } : {}),
  });
}
