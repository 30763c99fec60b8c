/**
 * What upstream's replay refuses before its kernel runs (RPR-NEM-041), on every version:
 * TsatsuAmable/nemosyne src/session/InvestigationReplayRunner.ts (replayPayload, read at
 * c95a15d) ends `success: discrepancies.length === 0`, and these discrepancies (or throws)
 * need no kernel to find:
 *
 * - a commands.log event of an unknown `kind` ("Unsupported or unrecognized event kind"), an
 *   observation, finding or annotation without its entity ("Malformed finding event"), an
 *   item that is not an object (`'kind' in item` throws), and on the semantic-digest path an
 *   item without a kind (the later runners' "missing a research-event kind");
 * - an analysis event upstream could not have written: on the semantic-digest path one with
 *   neither a result nor an intervention, or a result without an executable AnalysisSpec; on
 *   the legacy path one with no command (analysisRefusal);
 * - a representation state it cannot parse (parseRepresentationDecision: an object with a
 *   numeric utilityScore, a provenance, an embodiment with a spatialStrategy), or whose
 *   fitness model copies disagree (compareRepresentationProvenance);
 * - a discovery or NIL state that is not an object of `episodes` / `outcomes`, whose count is
 *   not the manifest's, or one of whose items names another dataset or kernel, or another
 *   representation decision than the package's (compareDiscoveryProvenance, compareNilProvenance).
 *
 * - a discovery or NIL state its store's restore() refuses (store-restore.ts);
 * - a discovery whose decisionDatasetFingerprint is not the decision's, or a NIL outcome whose
 *   sourceDecisionEvidenceHash is not that of the decision's evidence.
 *
 * The identity an item must name is the manifest's analyticalDatasetFingerprint and
 * analyticalKernelVersion when it has them, else its datasetFingerprint and kernelVersion: the
 * later version of the same file reads `manifest.analyticalDatasetFingerprint ??
 * manifest.datasetFingerprint`, which is c95a15d's reading on every package without them.
 * On a V1/V2 package with no investigation digest nothing else would catch these, and a
 * package upstream's replay refuses must not pass here. Members are read as upstream reads
 * them: UTF-8, decoded leniently, and JSON.parse.
 */
import type { Finding } from '../../../shared/report.js';
import { isPlainObject as isObj } from '../../core/closed.js';
import { sha256Hex } from '../../core/hash.js';
import { canonicalizeParsed } from '../../core/jcs.js';
import { fail } from './findings.js';
import type { Manifest } from './manifest.js';
import { discoveryRestoreRefusal, nilRestoreRefusal } from './store-restore.js';

const COMMANDS = 'investigation/commands.log';
const REPRESENTATION = 'investigation/representation.json';
const DISCOVERIES = 'investigation/discoveries.json';
const NIL_OUTCOMES = 'investigation/nil-outcomes.json';

/**
 * The event kinds upstream's replay replays (its switch); any other is a discrepancy. Its
 * later versions (the RF-047 one, with V3) added `remediation` and `refusal`: a package
 * holding them was written by one of those, so they are replayed kinds here too.
 */
const REPLAYED_KINDS = new Set([
  'load',
  'analysis',
  'observation',
  'finding',
  'annotation',
  'structure',
  'recommendation',
  'embodiment',
  'undo',
  'redo',
  'seek',
  'reset',
  'remediation',
  'refusal',
]);
/**
 * The member an event of each kind is malformed without. c95a15d checked the first three;
 * the later versions of the same file check the rest too ("Malformed structure event"…), so
 * a package either version refuses is refused here (remediation and refusal only on the
 * semantic-digest path, as upstream checks them there only).
 */
const PAYLOAD: Record<string, string> = {
  observation: 'observationEntity',
  finding: 'findingEntity',
  annotation: 'annotationEntity',
  structure: 'structureSet',
  recommendation: 'recommendationDecision',
  embodiment: 'embodimentCommand',
};
const SEMANTIC_PAYLOAD: Record<string, string> = { remediation: 'remediationEvent', refusal: 'refusalEvent' };

/** How many refusals of one member are named; the rest are counted in one more. */
const NAMED = 8;

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | null => (typeof v === 'object' && v !== null ? (v as Obj) : null);

/**
 * Whether upstream replays the ledger on its semantic-digest path: a digest algorithm of
 * `…-v2` or later, or a V3+ package (the later runner's `usesSemanticDigest`).
 */
const semanticLedger = (m: Manifest): boolean => m.formatVersion >= 3 || m.investigationDigestAlgorithm !== null;

/** An event by its index, and by its eventId when it has one. */
const eventName = (kind: string, i: number, item: Obj): string =>
  `the ${kind} event #${i}` +
  (typeof item['eventId'] === 'string' ? ` (eventId ${JSON.stringify(item['eventId'])})` : '');

/** Upstream's eventAnalysisSpec: a command the semantic replay can re-run, or false. */
function executableSpec(command: unknown): boolean {
  const c = obj(command);
  return (
    c !== null &&
    obj(c['operation']) !== null &&
    typeof c['algorithmVersion'] === 'string' &&
    typeof c['datasetFingerprint'] === 'string' &&
    typeof c['datasetVersion'] === 'number'
  );
}

/**
 * Why upstream's replay refuses an analysis event before its kernel runs, or null. Upstream
 * writes one of two shapes (src/atlas/AtlasCore.ts `applyAnalysis`: the AnalysisSpec as
 * `command` and its `result`; src/atlas/domain/EvidenceLedger.ts `recordIntervention`: an
 * `intervention` text), and the RF-047 runner (src/session/InvestigationReplayRunner.ts) holds
 * the semantic-digest path to them: no result and no non-empty intervention is "Malformed
 * semantic-v2 analysis event", a result without an executable spec "missing executable
 * AnalysisSpec". The legacy path re-runs whatever `command` holds, so only its absence is
 * refused there (every runner: c95a15d's applyAnalysis throws on it).
 */
function analysisRefusal(item: Obj, i: number, semantic: boolean): string | null {
  const name = eventName('analysis', i, item);
  if (!semantic)
    return item['command'] ? null : `${name} has no command (the AnalysisSpec upstream's legacy replay re-runs)`;
  if (!item['result']) {
    const intervention = item['intervention'];
    if (typeof intervention === 'string' && intervention.length > 0) return null;
    return `${name} carries neither a result nor an intervention: upstream writes an analysis event with the AnalysisSpec and result of a kernel run, or with the text of an intervention, and its semantic replay refuses any other as a "Malformed semantic-v2 analysis event"`;
  }
  return executableSpec(item['command'])
    ? null
    : `${name} carries a result but no executable AnalysisSpec as its command (an operation object, a string algorithmVersion and datasetFingerprint, a numeric datasetVersion), which upstream's semantic replay re-runs`;
}

/** Why upstream's replay refuses one event (an item with a kind), or null. */
function eventRefusal(item: Obj, i: number, semantic: boolean): { at: string; why: string } | null {
  const kind = item['kind'];
  if (typeof kind !== 'string' || !REPLAYED_KINDS.has(kind))
    return { at: `/${i}/kind`, why: `event #${i} is of an unrecognized kind ${JSON.stringify(kind)}` };
  if (kind === 'analysis') {
    const why = analysisRefusal(item, i, semantic);
    return why === null ? null : { at: `/${i}`, why };
  }
  const payload = PAYLOAD[kind] ?? (semantic ? SEMANTIC_PAYLOAD[kind] : undefined);
  if (payload && !item[payload]) return { at: `/${i}`, why: `the ${kind} event #${i} has no ${payload}` };
  if (kind === 'seek' && obj(item['command'])?.['index'] === undefined)
    return { at: `/${i}`, why: `the seek event #${i} has no command.index (the history index it seeks)` };
  return null;
}

/**
 * Each commands.log item upstream's replay cannot replay, by index. An item without a kind
 * is a legacy analysis spec, which only the kernel replays, on the legacy path; on the
 * semantic-digest path every item must be a research event ("Semantic-v2 command log entry
 * #i is missing a research-event kind", in the RF-046 runner and the RF-047 one with V3).
 */
function ledgerRefusals(ledger: readonly unknown[], semantic: boolean): { at: string; why: string }[] {
  const out: { at: string; why: string }[] = [];
  ledger.forEach((item, i) => {
    if (typeof item !== 'object' || item === null) out.push({ at: `/${i}`, why: `event #${i} is not an object` });
    else if (Array.isArray(item) || !('kind' in item)) {
      if (semantic)
        out.push({
          at: `/${i}`,
          why: `entry #${i} is missing a research-event kind (a semantic-digest ledger holds research events, not bare analysis specs)`,
        });
    } else {
      const r = eventRefusal(item as Obj, i, semantic);
      if (r) out.push(r);
    }
  });
  return out;
}

/** The member read as upstream reads it, or why it cannot be. */
function parsed(bytes: Buffer): { value: unknown } | { why: string } {
  try {
    return { value: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch (e) {
    return { why: `it is not JSON (${e instanceof Error ? e.message : String(e)})` };
  }
}

/** parseRepresentationDecision's checks: the decision, or why upstream refuses it. */
function decisionOf(v: unknown): { decision: Obj } | { why: string } {
  const d = isObj(v) ? v : null;
  if (!d) return { why: 'representation state must be a JSON object' };
  if (typeof d['utilityScore'] !== 'number') return { why: 'representation state is missing numeric utilityScore' };
  if (!obj(d['provenance'])) return { why: 'representation state is missing provenance' };
  const embodiment = obj(d['embodiment']);
  if (!embodiment) return { why: 'representation state is missing embodiment' };
  if (!obj(embodiment['spatialStrategy'])) return { why: 'representation state is missing embodied spatial strategy' };
  return { decision: d };
}

/** compareRepresentationProvenance: every copy of the fitness model's version and artifact agrees. */
function representationDrift(d: Obj, model: unknown): string[] {
  const provenance = obj(d['provenance'])!;
  const strategy = obj(obj(obj(d['embodiment'])!['spatialStrategy'])!['provenance']);
  const copies = (k: string): [string, unknown][] => [
    ['decision', d[k]],
    ['decision provenance', provenance[k]],
    ['spatial strategy provenance', strategy?.[k]],
  ];
  const versions = copies('fitnessModelVersion');
  const artifacts = copies('fitnessModelArtifactHash');
  const m = obj(model);
  const version = m?.['fitnessModelVersion'] ?? versions.find(([, v]) => typeof v === 'string' && v.length > 0)?.[1];
  const artifact = m
    ? (m['fitnessModelArtifactHash'] ?? null)
    : (artifacts.find(([, v]) => v !== undefined)?.[1] ?? null);
  const out: string[] = [];
  if (m && !version) out.push('the manifest representation model is missing fitnessModelVersion');
  if (version)
    for (const [from, v] of versions)
      if (v !== version) out.push(`${from} fitnessModelVersion expected ${show(version)}, found ${show(v)}`);
  for (const [from, v] of artifacts)
    if ((v ?? null) !== artifact)
      out.push(`${from} fitnessModelArtifactHash expected ${show(artifact)}, found ${show(v ?? null)}`);
  return out;
}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));

/**
 * upstream's `fnv1aHex(canonicalJsonStringify(decision.evidence))`. Despite its name that
 * fnv1aHex is SHA-256 (src/atlas/DatasetSpace.ts: `fnv1aHex = contentHashHex`, which is
 * `canonicalSha256Hex`, src/security/CryptoHash.ts): the canonical text is hashed as a JSON
 * string, quotes and escapes included, and no evidence at all as `null`. Upstream's canonical
 * text (sorted member names, JSON.stringify's leaves) is JCS's for a JSON.parse'd value, whose
 * only leaves JCS refuses are an overflowed number and nesting past its depth: null then, and
 * the outcome is refused rather than passed.
 */
function evidenceHash(evidence: unknown): string | null {
  if (evidence === undefined) return sha256Hex('null');
  try {
    return sha256Hex(JSON.stringify(canonicalizeParsed(evidence)));
  } catch {
    return null;
  }
}

/** What an item names that must be the decision's: a discovery its dataset, a NIL outcome its evidence. */
function decisionDrift(name: string, context: Obj, decision: Obj, nil: boolean): string | null {
  if (!nil) {
    const fp = context['decisionDatasetFingerprint'];
    const own = obj(decision['provenance'])?.['datasetFingerprint'];
    return fp && fp !== own ? `${name} names decision dataset ${show(fp)}, not the decision's ${show(own)}` : null;
  }
  const claimed = context['sourceDecisionEvidenceHash'];
  if (!claimed) return null;
  const actual = evidenceHash(decision['evidence']);
  if (actual === null)
    return `${name} names a source decision evidence hash the decision's evidence cannot be hashed to`;
  return actual !== claimed
    ? `${name} names source decision evidence hash ${show(claimed)}, not the decision's ${show(actual)}`
    : null;
}

/** One discovery episode's or NIL outcome's disagreements with the manifest and the decision (upstream's compare… functions). */
function itemDrift(
  item: unknown,
  label: string,
  m: Manifest,
  decision: Obj | null,
  refs: { context: string | null; decisionId: string },
): string[] {
  const it = obj(item);
  // Upstream reads item.provenance.datasetFingerprint (and the context's members) unguarded: without them it throws.
  const provenance = obj(it?.['provenance']);
  const raw = refs.context === null ? provenance : it?.[refs.context];
  if (!it || !provenance || raw === null || raw === undefined)
    return [`${label} has no ${!it ? 'object' : !provenance ? 'provenance' : refs.context}`];
  // A context that is a string or number has no members, as upstream reads it.
  const context = obj(raw) ?? {};
  const out: string[] = [];
  const name = `${label} ${show(it[label === 'discovery' ? 'discoveryId' : 'nilId'])}`;
  const dataset = m.raw['analyticalDatasetFingerprint'] ?? m.raw['datasetFingerprint'];
  const kernel = m.raw['analyticalKernelVersion'] ?? m.raw['kernelVersion'];
  if (provenance['datasetFingerprint'] !== dataset)
    out.push(`${name} names dataset ${show(provenance['datasetFingerprint'])}, not the manifest's ${show(dataset)}`);
  if (provenance['kernelVersion'] !== kernel)
    out.push(`${name} names kernel ${show(provenance['kernelVersion'])}, not the manifest's ${show(kernel)}`);
  const ref = context[refs.decisionId];
  if (ref) {
    if (!decision) out.push(`${name} references representation decision ${show(ref)} but the package has none`);
    else if (decision['id'] !== ref)
      out.push(`${name} references decision ${show(ref)}, not the package's ${show(decision['id'])}`);
  }
  const fmv = context['fitnessModelVersion'];
  if (decision && fmv && fmv !== decision['fitnessModelVersion'])
    out.push(`${name} names fitness model version ${show(fmv)}, not the decision's`);
  const fma = context['fitnessModelArtifactHash'];
  if (decision && fma !== undefined && (fma ?? null) !== (decision['fitnessModelArtifactHash'] ?? null))
    out.push(`${name} names fitness model artifact ${show(fma ?? null)}, not the decision's`);
  const drift = decision && decisionDrift(name, context, decision, refs.context === null);
  if (drift) out.push(drift);
  return out;
}

/** A discovery or NIL state: its list, its count against the manifest's, each item's provenance. */
function storeDrift(
  v: unknown,
  spec: {
    list: 'episodes' | 'outcomes';
    label: string;
    declared: number | null;
    context: string | null;
    decisionId: string;
  },
  m: Manifest,
  decision: Obj | null,
): string[] {
  const list = isObj(v) ? v[spec.list] : undefined;
  if (!Array.isArray(list)) return [`it is not an object holding an ${spec.list} array`];
  const out: string[] = [];
  if (spec.declared !== null && list.length !== spec.declared)
    out.push(`${spec.label} count expected ${spec.declared} (the manifest's), found ${list.length}`);
  for (const item of list) out.push(...itemDrift(item, spec.label, m, decision, spec));
  return out;
}

/** A parsed discovery or NIL state: why upstream cannot restore it, or else how it drifts. */
function stateRefusals(
  p: { value: unknown } | { why: string },
  spec: Parameters<typeof storeDrift>[1] & { restore: (v: unknown) => string | null },
  m: Manifest,
  decision: Obj | null,
): string[] {
  if ('why' in p) return [p.why];
  const refused = spec.restore(p.value);
  return refused !== null ? [refused] : storeDrift(p.value, spec, m, decision);
}

/** The findings, NAMED of each member named and the rest counted. */
function findingsOf(entry: string, refusals: { at: string; why: string }[]): Finding[] {
  const shown = refusals.slice(0, NAMED).map((r) =>
    fail('RPR-NEM-041', `${entry}: ${r.why} (upstream's replay refuses the package)`, {
      pointer: `entry:${entry}#${r.at}`,
    }),
  );
  if (refusals.length > NAMED)
    shown.push(
      fail('RPR-NEM-041', `${entry}: ${refusals.length - NAMED} more that upstream's replay refuses`, {
        pointer: `entry:${entry}`,
      }),
    );
  return shown;
}

/** Every RPR-NEM-041 of a package: its ledger (when it is an array) and the states it carries. */
export function replayRefusals(
  m: Manifest,
  ledger: readonly unknown[] | null,
  get: (name: string) => Buffer | null,
): Finding[] {
  const out: Finding[] = ledger ? findingsOf(COMMANDS, ledgerRefusals(ledger, semanticLedger(m))) : [];
  let decision: Obj | null = null;
  const rep = get(REPRESENTATION);
  if (rep) {
    const p = parsed(rep);
    const d = 'why' in p ? p : decisionOf(p.value);
    if ('why' in d) return [...out, ...findingsOf(REPRESENTATION, [{ at: '', why: d.why }])];
    decision = d.decision;
    const drift = representationDrift(decision, m.raw['representationModel']);
    out.push(
      ...findingsOf(
        REPRESENTATION,
        drift.map((why) => ({ at: '', why })),
      ),
    );
  }
  const stores = [
    {
      entry: DISCOVERIES,
      list: 'episodes',
      label: 'discovery',
      declared: m.discoveryCount,
      context: 'representationContext',
      decisionId: 'representationDecisionId',
      restore: discoveryRestoreRefusal,
    },
    {
      entry: NIL_OUTCOMES,
      list: 'outcomes',
      label: 'NIL outcome',
      declared: m.nilOutcomeCount,
      context: null,
      decisionId: 'sourceDecisionId',
      restore: nilRestoreRefusal,
    },
  ] as const;
  for (const s of stores) {
    const bytes = get(s.entry);
    if (!bytes) continue;
    const why = stateRefusals(parsed(bytes), s, m, decision);
    out.push(
      ...findingsOf(
        s.entry,
        why.map((w) => ({ at: '', why: w })),
      ),
    );
  }
  return out;
}
