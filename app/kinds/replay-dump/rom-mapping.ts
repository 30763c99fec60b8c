/**
 * The ROM mapping of a replay dump (docs/rom-mapping.md is the table in prose): where each
 * member of the model sits in a `*.rom.md` file, and how ROM's identifiers (headings, bullet
 * and front-matter keys) are compared after canonicalization. Shared by the reader
 * (rom-reader.ts) and the writer (rom-encoding.ts).
 */
export type Section = 'front' | 'env' | 'chain' | 'buffers';
export type Form = 'json' | 'link' | 'links';

export interface Place {
  section: Section;
  key: string;
  /** Path in the model: a top-level member, or a member of a closed sub-object. */
  path: readonly [string] | readonly [string, string];
  form: Form;
}

/** The mapping; the writer emits each section's keys in this order (canonical JSON order of the paths). */
export const PLACES: readonly Place[] = [
  { section: 'front', key: 'created_at_utc', path: ['createdAtUtc'], form: 'json' },
  { section: 'front', key: 'id', path: ['dumpId'], form: 'json' },
  { section: 'front', key: 'format_version', path: ['formatVersion'], form: 'json' },
  { section: 'front', key: 'kernel_version', path: ['kernelVersion'], form: 'json' },
  { section: 'front', key: 'seed', path: ['seed'], form: 'json' },
  { section: 'front', key: 'type', path: ['type'], form: 'json' },
  { section: 'env', key: 'shape_advisor', path: ['computeShape', 'advisor'], form: 'link' },
  { section: 'env', key: 'arity', path: ['computeShape', 'arity'], form: 'json' },
  { section: 'env', key: 'tensor_type', path: ['computeShape', 'tensorType'], form: 'json' },
  { section: 'env', key: 'max_tokens', path: ['inferenceParameters', 'maxTokens'], form: 'json' },
  { section: 'env', key: 'temperature', path: ['inferenceParameters', 'temperature'], form: 'json' },
  { section: 'env', key: 'top_p', path: ['inferenceParameters', 'topP'], form: 'json' },
  { section: 'env', key: 'capacity_snapshot', path: ['lockedProviderInfo', 'capacitySnapshot'], form: 'json' },
  { section: 'env', key: 'captured_at_utc', path: ['lockedProviderInfo', 'capturedAtUtc'], form: 'json' },
  { section: 'env', key: 'model', path: ['lockedProviderInfo', 'modelId'], form: 'link' },
  { section: 'env', key: 'locked_provider', path: ['lockedProviderInfo', 'providerId'], form: 'link' },
  { section: 'env', key: 'quantization', path: ['lockedProviderInfo', 'quantizationProfile'], form: 'json' },
  { section: 'chain', key: 'outcome_hash', path: ['executionOutcomeHash'], form: 'json' },
  { section: 'chain', key: 'key_id', path: ['keyId'], form: 'json' },
  { section: 'chain', key: 'material_hashes', path: ['materialSnapshotHashSet'], form: 'json' },
  { section: 'chain', key: 'pipeline_hash', path: ['pipelineDefinitionHash'], form: 'json' },
  { section: 'chain', key: 'prompt_hash', path: ['promptArtifactHash'], form: 'json' },
  { section: 'chain', key: 'signature', path: ['signature'], form: 'json' },
  { section: 'chain', key: 'trust_decision', path: ['trustDecision', 'decision'], form: 'json' },
  { section: 'chain', key: 'trust_evaluated_at_utc', path: ['trustDecision', 'evaluatedAtUtc'], form: 'json' },
  { section: 'chain', key: 'trust_key_id', path: ['trustDecision', 'keyId'], form: 'json' },
  { section: 'buffers', key: 'expression', path: ['buffers', 'expression'], form: 'link' },
  { section: 'buffers', key: 'material', path: ['buffers', 'material'], form: 'links' },
  { section: 'buffers', key: 'orchestration', path: ['buffers', 'orchestration'], form: 'link' },
];

export type BodySection = Exclude<Section, 'front'> | 'artifacts';
export const HEADINGS: Record<BodySection, string> = {
  env: 'Frozen Execution Environment',
  chain: 'Hash Integrity Chain',
  buffers: 'Frozen Buffers',
  artifacts: 'Embedded Artifacts',
};
/** The order the writer emits sections in (the reader takes them in any order). */
export const SECTION_ORDER: readonly BodySection[] = ['env', 'chain', 'buffers', 'artifacts'];

/**
 * An identifier (heading name, bullet or front-matter key) as canonicalization compares it
 * (ROM core spec §4 step 1, linguistic normalization): NFKC folds full-width and other
 * compatibility forms, case is folded, runs of whitespace count as one space. Values are
 * never normalized: they are signed data.
 */
export function canonicalId(s: string): string {
  return s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

const sectionById = new Map(SECTION_ORDER.map((k) => [canonicalId(HEADINGS[k]), k]));
export const sectionOf = (name: string): BodySection | undefined => sectionById.get(canonicalId(name));

export const placeByKey = new Map(PLACES.map((p) => [`${p.section}:${p.key}`, p]));
export const placeByPath = new Map(PLACES.map((p) => [p.path.join('.'), p]));
