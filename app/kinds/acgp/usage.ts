/**
 * The engine's UsageError (exit 3, one line), loaded lazily: engine/run.ts imports the
 * kind registry, which imports this kind, so a static import would be a cycle that breaks
 * whoever imports this kind first.
 */
export async function usageError(message: string): Promise<Error> {
  const { UsageError } = await import('../../engine/run.js');
  return new UsageError(message);
}
