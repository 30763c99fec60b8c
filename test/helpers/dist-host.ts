/**
 * An engine host over the built workers in dist/ (npm run build:cli first): EngineHost starts
 * its engine and journal workers from JavaScript files, which only the CLI build emits, so a
 * test of the host runs the workers as `reprise serve` does, not this tree's sources.
 */
import { EngineHost, type EngineHostOptions } from '../../main/host/engine-host.js';

/** A file the CLI build emitted, by its path under dist/. */
export const dist = (p: string): URL => new URL(`../../dist/${p}`, import.meta.url);

/**
 * An EngineHost whose workers are dist/'s, for the web transport unless `options` names
 * another; the caller's other options (roots, keys, adapters, workers, workerLimits, or its
 * own worker URLs) are passed through as given.
 */
export function distHost(options: Partial<EngineHostOptions> = {}): EngineHost {
  return new EngineHost({
    workerUrl: dist('app/jobs/engine-worker.js'),
    journalWorkerUrl: dist('main/host/journal-worker.js'),
    transport: 'web',
    ...options,
  });
}
