/**
 * What a TG manifest and a policy bundle offer a reviewer's case (KindOperations.caseFacts,
 * docs/case.md): read from the parse the verification already made (Sniffed caches it).
 *
 * A manifest is named by H(manifest), the hash of its canonical JSON (what a replay's
 * journal entries name it by, as a manifest names its bundle by H(bundle)), by its claim
 * reference (a journal's quarantine case names the same claim) and by the artifacts it
 * embeds; it names its policy bundle (`bundleHash`), each RECORDED output's artifact
 * (`artifactHash`, when the manifest does not embed it) and the journal entry that anchors
 * it, and each BANDED execution names the model run its pins describe (a replay dump of that
 * run: relation `model-run`). A bundle is named by H(bundle), its verification's
 * recomputed hash. Executions carry no time of their own: each is placed at the manifest's
 * `createdAtUtc`, the time they were recorded.
 */
import type { Report } from '../../../shared/report.js';
import { hashCanonicalText } from '../../core/hash.js';
import { modelRunKey, type CaseFacts, type CaseSubject } from '../operations.js';
import { isObj, ptr } from './structure.js';

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

export function manifestCaseFacts(subject: CaseSubject, report: Report): CaseFacts {
  const facts: CaseFacts = { identities: [], references: [], events: [] };
  const m = subject.sniffed?.jsonObject();
  if (!m) return facts;
  // H(manifest), as the replay names it (replay.ts manifestHash): only a strict I-JSON manifest has one.
  const parsed = subject.sniffed?.json();
  if (parsed?.ok) facts.identities.push({ value: hashCanonicalText(parsed.canonical), pointer: null });
  const claim = str(m['claimRef']);
  if (claim) facts.identities.push({ value: claim, pointer: '/claimRef', space: 'claim' });
  const embedded = isObj(m['artifacts']) ? Object.keys(m['artifacts']) : [];
  for (const k of embedded) facts.identities.push({ value: k, pointer: ptr('/artifacts', k), copy: true });
  const policy = isObj(m['policyContext']) ? str(m['policyContext']['bundleHash']) : null;
  if (policy)
    facts.references.push({
      pointer: '/policyContext/bundleHash',
      relation: 'policy-bundle',
      value: policy,
      expected: true,
    });
  // Placeable or not, a time that is there is an event (the case lists one it cannot place).
  const created: unknown = m['createdAtUtc'] ?? null;
  if (created !== null)
    facts.events.push({ atUtc: created, pointer: '/createdAtUtc', label: 'manifest created', node: null });
  const nodes = new Set(report.chain.map((n) => n.id));
  const executions = Array.isArray(m['executions']) ? m['executions'] : [];
  executions.forEach((e, i) => executionFacts(e, ptr('/executions', i), new Set(embedded), created, nodes, facts));
  return facts;
}

function executionFacts(
  e: unknown,
  at: string,
  embedded: ReadonlySet<string>,
  created: unknown,
  nodes: ReadonlySet<string>,
  facts: CaseFacts,
): void {
  if (!isObj(e)) return;
  const id = str(e['executionId']);
  const hash = str(e['artifactHash']);
  // An artifact the manifest embeds is its own part; one it does not must be found beside it.
  if (e['replayMode'] === 'RECORDED' && hash)
    facts.references.push({
      pointer: ptr(at, 'artifactHash'),
      relation: 'artifact-hash',
      value: hash,
      expected: !embedded.has(hash),
    });
  const anchor = isObj(e['anchor']) ? str(e['anchor']['entryHash']) : null;
  // The journal holding the anchored entry decides the anchor: in a verified case the
  // manifest runs again with it (--journal), as `verify MANIFEST --journal DIR` decides it.
  if (anchor)
    facts.references.push({
      pointer: ptr(at, 'anchor'),
      relation: 'anchor',
      value: anchor,
      expected: true,
      option: 'journal',
      optionTakesHolder: true,
      optionInVerifyOnly: true,
    });
  const run = e['replayMode'] === 'BANDED' ? pinnedRun(e['pins']) : null;
  if (run) facts.references.push({ pointer: ptr(at, 'pins'), relation: 'model-run', value: run, expected: false });
  if (created !== null && id) {
    const node = nodes.has(`anchor:${id}`) ? `anchor:${id}` : null;
    const what = [str(e['engine']), str(e['replayMode'])].filter((x) => x !== null).join(', ');
    facts.events.push({ atUtc: created, pointer: at, label: `execution ${id} recorded (${what})`, node });
  }
}

/** The run a BANDED execution's pins describe (operations.ts modelRunKey), or null when a pin is missing (invalid pins fail replay). */
function pinnedRun(pins: unknown): string | null {
  if (!isObj(pins) || !isObj(pins['inferenceParams'])) return null;
  const ip = pins['inferenceParams'];
  const { modelId, modelVersion, promptHash } = pins;
  const { seed, temperature, topP, maxTokens } = ip;
  return modelRunKey({ modelId, modelVersion, promptHash, seed, temperature, topP, maxTokens });
}

/** A policy bundle is named by H(bundle), as its verification recomputed it (chain node `bundle`). */
export function bundleCaseFacts(_subject: CaseSubject, report: Report): CaseFacts {
  const h = report.chain.find((n) => n.id === 'bundle')?.recomputed;
  return { identities: h ? [{ value: h, pointer: null }] : [], references: [], events: [] };
}
