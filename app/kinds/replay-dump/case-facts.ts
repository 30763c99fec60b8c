/**
 * What a replay dump offers a reviewer's case (KindOperations.caseFacts, docs/case.md), read
 * from the model its verification decoded (either encoding; index.ts keeps it per artifact).
 *
 * A dump is named by the artifacts it embeds and its outcome hash; it names its materials
 * (a Nemosyne package may hold the same bytes as a member), its prompt and its pipeline
 * definition. None is expected beside it: a dump embeds what it names. Its times: created,
 * the provider's state captured, the trust decision evaluated; one its verification fails as
 * no .NET time (RDS-003) is counted as a time the case's timeline lacks, never placed.
 *
 * A dump is also named by the run it froze (relation `model-run`): a TG BANDED execution
 * whose pins are this dump's provider, model, prompt, seed and parameters names it so.
 */
import { modelRunKey, type CaseFacts, type CaseIdentity } from '../operations.js';
import { escapePointerToken } from '../../core/jcs.js';
import { isRfc3339Utc } from '../../core/time.js';
import { whyNotDotNetDateTime } from './dotnet-time.js';
import { isObject, type DumpModel } from './model.js';

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function dumpCaseFacts(m: DumpModel | null): CaseFacts {
  const facts: CaseFacts = { identities: [], references: [], events: [] };
  if (!m) return facts;
  if (isObject(m['artifacts']))
    for (const k of Object.keys(m['artifacts']))
      facts.identities.push({ value: k, pointer: `/artifacts/${escapePointerToken(k)}`, copy: true });
  const outcome = str(m['executionOutcomeHash']);
  if (outcome) facts.identities.push({ value: outcome, pointer: '/executionOutcomeHash' });
  facts.identities.push(...runIdentities(m));
  const refer = (pointer: string, relation: string, v: unknown): void => {
    const value = str(v);
    if (value) facts.references.push({ pointer, relation, value, expected: false });
  };
  const materials = Array.isArray(m['materialSnapshotHashSet']) ? m['materialSnapshotHashSet'] : [];
  materials.forEach((h, i) => refer(`/materialSnapshotHashSet/${i}`, 'material', h));
  refer('/promptArtifactHash', 'prompt', m['promptArtifactHash']);
  refer('/pipelineDefinitionHash', 'pipeline', m['pipelineDefinitionHash']);
  // A time that is there is an event, placeable or not (the case lists one it cannot place),
  // but for one that no .NET writer can have written: its verification fails it (RDS-003),
  // so the case counts it as a time the timeline lacks rather than place it.
  const refused: string[] = [];
  const event = (atUtc: unknown, pointer: string, label: string, node: string | null): void => {
    if (atUtc === undefined || atUtc === null) return;
    const why = notDotNet(atUtc);
    if (why === null) facts.events.push({ atUtc, pointer, label, node });
    else refused.push(`${pointer} ${JSON.stringify(atUtc)}: ${why}`);
  };
  event(m['createdAtUtc'], '/createdAtUtc', 'dump created', null);
  const lock = isObject(m['lockedProviderInfo']) ? m['lockedProviderInfo'] : {};
  event(lock['capturedAtUtc'], '/lockedProviderInfo/capturedAtUtc', 'provider state captured', null);
  const trust = isObject(m['trustDecision']) ? m['trustDecision'] : {};
  const decision = str(trust['decision']);
  event(
    trust['evaluatedAtUtc'],
    '/trustDecision/evaluatedAtUtc',
    decision ? `trust decision: ${decision}` : 'trust decision',
    'trust',
  );
  if (refused.length > 0)
    facts.eventsLeftOut = {
      count: refused.length,
      why: `${refused.join('; ')}: times its verification fails (RDS-003), which the timeline does not place`,
    };
  return facts;
}

/** Why a time its verification fails as no .NET time (RDS-003), or null; one not RFC 3339 at all is the case's to list. */
const notDotNet = (v: unknown): string | null => (isRfc3339Utc(v) ? whyNotDotNetDateTime(v) : null);

/**
 * The run's keys (operations.ts modelRunKey): with and without `maxTokens`, since a manifest
 * may pin it or leave it to the provider's default.
 */
function runIdentities(m: DumpModel): CaseIdentity[] {
  const lock = isObject(m['lockedProviderInfo']) ? m['lockedProviderInfo'] : {};
  const params = isObject(m['inferenceParameters']) ? m['inferenceParameters'] : {};
  const run = {
    modelId: lock['providerId'],
    modelVersion: lock['modelId'],
    promptHash: m['promptArtifactHash'],
    seed: m['seed'],
    temperature: params['temperature'],
    topP: params['topP'],
  };
  return [modelRunKey(run), modelRunKey({ ...run, maxTokens: params['maxTokens'] })]
    .filter((v, i, all): v is string => v !== null && all.indexOf(v) === i)
    .map((value) => ({ value, pointer: null }));
}
