/**
 * What upstream's stores refuse when replay restores a package's discovery or NIL state
 * (part of RPR-NEM-041). TsatsuAmable/nemosyne replayPayload parses each state through its
 * store (`parseDiscoveries`, `parseNilOutcomes`: `restore()` then `toJSON()`); a throw there is
 * the discrepancy "Failed to parse … state from package", and nothing more of that state is
 * compared. The checks, read at:
 *
 * - src/investigation/DiscoveryEpisodeStore.ts (e1a219e) `restore`, with
 *   src/investigation/DiscoveryEpisode.ts (1a3691c) `validateDiscoveryEpisode`;
 * - src/investigation/NoFeasibleRepresentationStore.ts (0ff28be) `restore` and `assertRecord`.
 *
 * They are mirrored as upstream runs them, quirks included: a member read where upstream reads
 * it unguarded (a property of null or undefined, `forEach` or `some` of something that is no
 * array) throws there, so it is a refusal here; a member of a string or number is undefined.
 * Only the first refusal is named, as upstream's throw names only the first.
 */
type Obj = Record<string, unknown>;

const STORE_SCHEMA = '1.0.0';
const EPISODE_SCHEMA = '1.0.0';
const TERMINAL = ['SUPPORTED', 'REFUTED', 'INCONCLUSIVE', 'EXTERNALLY_VALIDATED'];

/** What upstream's store threw, as this module words it. */
class Refused extends Error {}

/** `v[k]` as JavaScript reads it from a JSON value: of null or undefined it throws. */
function at(v: unknown, k: string): unknown {
  if (v === null || v === undefined) throw new Refused(`it reads ${k} of ${String(v)}`);
  if (typeof v === 'string') return k === 'length' ? v.length : undefined;
  return typeof v === 'object' ? (v as Obj)[k] : undefined;
}

const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v.trim().length > 0;
const unit = (v: unknown): boolean =>
  v === undefined || (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= 1);

/**
 * `for (const x of v)`: an array's items, a string's code points, one at a time; anything
 * else throws. Lazy, as upstream's loop is: the first item that refuses ends the restore,
 * so a 95 MiB string is never made into an array of its code points.
 */
function* items(v: unknown, name: string): Generator<unknown, void, undefined> {
  if (Array.isArray(v)) yield* v as unknown[];
  else if (typeof v === 'string') yield* v;
  else throw new Refused(`its ${name} is not iterable`);
}

/** The first thing a store's restore() throws on, or null when it restores. */
function firstRefusal(restore: () => void): string | null {
  try {
    restore();
    return null;
  } catch (e) {
    if (e instanceof Refused) return e.message;
    throw e;
  }
}

/** A store's restore(): its schema version, then each item checked and its id not met before. */
function restoreStore(
  snapshot: unknown,
  store: { name: string; list: string; id: string; duplicate: string; check: (item: unknown) => void },
): string | null {
  return firstRefusal(() => {
    const version = at(snapshot, 'schemaVersion');
    if (version !== STORE_SCHEMA) throw new Refused(`Unsupported ${store.name} schema version: ${String(version)}`);
    const seen = new Set<unknown>();
    for (const item of items(at(snapshot, store.list), store.list)) {
      store.check(item);
      const id = at(item, store.id);
      if (seen.has(id)) throw new Refused(`${store.duplicate}: ${String(id)}`);
      seen.add(id);
    }
  });
}

/** DiscoveryEpisodeStore.restore: null when upstream restores the state, else why not. */
export function discoveryRestoreRefusal(snapshot: unknown): string | null {
  return restoreStore(snapshot, {
    name: 'DiscoveryEpisodeStore',
    list: 'episodes',
    id: 'discoveryId',
    duplicate: 'Duplicate DiscoveryEpisode in snapshot',
    check: (episode) => {
      const issues = episodeIssues(episode);
      if (issues.length > 0) throw new Refused(`Invalid DiscoveryEpisode: ${issues.join('; ')}`);
    },
  });
}

/** validateDiscoveryEpisode's issues, in its order (`path: message`); throws where it throws. */
function episodeIssues(episode: unknown): string[] {
  const issues: string[] = [];
  const add = (path: string, message: string) => issues.push(`${path}: ${message}`);
  const version = at(episode, 'schemaVersion');
  if (version !== EPISODE_SCHEMA) add('schemaVersion', `unsupported schema version: ${String(version)}`);
  for (const k of ['discoveryId', 'investigationId', 'notice'])
    if (!nonEmpty(at(episode, k))) add(k, 'must be non-empty');
  const status = at(episode, 'validationStatus');
  if (status !== 'UNTESTED' && !nonEmpty(at(episode, 'hypothesis')))
    add('hypothesis', 'a hypothesis is required once an episode enters investigation or validation');
  const terminal = TERMINAL.includes(status as string);
  const tests = at(episode, 'analyticalTests');
  if (terminal && at(tests, 'length') === 0)
    add('analyticalTests', 'terminal validation states require at least one analytical test');
  if (terminal && !nonEmpty(at(episode, 'conclusion')))
    add('conclusion', 'terminal validation states require a conclusion');
  testIssues(tests, add);
  judgementIssues(at(episode, 'researcherJudgement'), add);
  contextIssues(at(episode, 'representationContext'), add);
  provenanceIssues(at(episode, 'provenance'), add);
  return issues;
}

type Add = (path: string, message: string) => void;

function testIssues(tests: unknown, add: Add): void {
  if (!Array.isArray(tests)) throw new Refused('its analyticalTests is no array (upstream calls forEach on it)');
  const ids = new Set<unknown>();
  tests.forEach((test: unknown, index) => {
    const path = `analyticalTests[${index}]`;
    const id = at(test, 'id');
    if (!nonEmpty(id)) add(`${path}.id`, 'must be non-empty');
    else if (ids.has(id)) add(`${path}.id`, `duplicate analytical test id: ${String(id)}`);
    else ids.add(id);
    if (!nonEmpty(at(test, 'method'))) add(`${path}.method`, 'must be non-empty');
    if (at(at(test, 'evidenceIds'), 'length') === 0) add(`${path}.evidenceIds`, 'analytical tests must cite evidence');
  });
}

function judgementIssues(judgement: unknown, add: Add): void {
  if (!judgement) return;
  for (const k of ['relevance', 'novelty', 'confidence'])
    if (!unit(at(judgement, k))) add(`researcherJudgement.${k}`, 'must be between 0 and 1');
}

function contextIssues(context: unknown, add: Add): void {
  const path = (k: string) => `representationContext.${k}`;
  for (const k of ['representationDecisionId', 'fitnessModelVersion', 'decisionDatasetFingerprint']) {
    const v = at(context, k);
    if (v !== undefined && !nonEmpty(v)) add(path(k), 'must be non-empty when present');
  }
  const artifact = at(context, 'fitnessModelArtifactHash');
  if (artifact !== undefined && artifact !== null && !nonEmpty(artifact))
    add(path('fitnessModelArtifactHash'), 'must be non-empty when present');
  const ids = at(context, 'decisionEvidenceIds');
  if (ids === undefined || ids === null) return;
  if (!Array.isArray(ids))
    throw new Refused(`its ${path('decisionEvidenceIds')} is no array (upstream calls some on it)`);
  if (ids.some((id) => !nonEmpty(id))) add(path('decisionEvidenceIds'), 'must contain only non-empty ids');
}

function provenanceIssues(provenance: unknown, add: Add): void {
  if (!nonEmpty(at(provenance, 'datasetFingerprint'))) add('provenance.datasetFingerprint', 'must be non-empty');
  const version = at(provenance, 'datasetVersion');
  if (version !== undefined && (!Number.isInteger(version) || (version as number) < 0))
    add('provenance.datasetVersion', 'must be a non-negative integer when present');
  for (const k of ['kernelVersion', 'investigationVersion'])
    if (!nonEmpty(at(provenance, k))) add(`provenance.${k}`, 'must be non-empty');
}

/** NoFeasibleRepresentationStore.restore: null when upstream restores the state, else why not. */
export function nilRestoreRefusal(snapshot: unknown): string | null {
  return restoreStore(snapshot, {
    name: 'NoFeasibleRepresentationStore',
    list: 'outcomes',
    id: 'nilId',
    duplicate: 'Duplicate NIL outcome in snapshot',
    check: assertOutcome,
  });
}

/** assertRecord, which throws at its first problem. */
function assertOutcome(outcome: unknown): void {
  if (!nonEmpty(at(outcome, 'nilId'))) throw new Refused('NIL outcome id must be non-empty');
  const when = at(outcome, 'recordedAt');
  if (typeof when !== 'number' || !Number.isFinite(when) || when < 0)
    throw new Refused('NIL outcome recordedAt must be a non-negative finite number');
  const provenance = at(outcome, 'provenance');
  if (!provenance || !nonEmpty(at(provenance, 'datasetFingerprint')))
    throw new Refused('NIL outcome provenance requires datasetFingerprint');
  if (!nonEmpty(at(provenance, 'kernelVersion'))) throw new Refused('NIL outcome provenance requires kernelVersion');
  const ids = at(provenance, 'evidenceIds');
  if (!Array.isArray(ids)) throw new Refused('NIL outcome provenance requires evidenceIds');
  if (ids.some((id) => !nonEmpty(id))) throw new Refused('NIL outcome evidenceIds must contain only non-empty ids');
}
