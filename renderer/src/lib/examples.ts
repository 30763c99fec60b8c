/**
 * The built-in examples that are artifacts. The examples index (examples.json) gives each
 * artifact the verdict it is made for (`expect`); the files beside them that are no artifact
 * (private keys, trust stores, the provider and profile registries, a kernel adapter, a
 * journal's own files) have none, and neither opening nor comparing one makes sense.
 */
import type { ExampleSummary } from '../../../shared/api';

export const isArtifactExample = (ex: ExampleSummary): boolean => ex.expect !== undefined;

/** The artifacts among the examples whose path holds `filter` (any case), in the host's order. */
export function artifactExamples(examples: readonly ExampleSummary[], filter = ''): ExampleSummary[] {
  const f = filter.toLowerCase();
  return examples.filter((ex) => isArtifactExample(ex) && ex.path.toLowerCase().includes(f));
}
