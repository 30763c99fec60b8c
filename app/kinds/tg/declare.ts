/**
 * The two TG kinds: `tg-replay-manifest` (verify and replay) and `tg-policy-bundle`
 * (verify only: a bundle has nothing to re-execute). Detection is by the `type` member.
 * Their checks (index.ts: decimal arithmetic, JsonLogic) load when a job of theirs runs.
 */
import type { Sniffed } from '../sniff.js';
import { TRUST_STORE_OPTION, type KindHandler, type KindLimit, type KindOption } from '../types.js';
import { TG_RULES } from './rule-ids.js';
import { TG_LIMITS } from './limits.js';
import { BUNDLE_TYPE, MANIFEST_TYPE } from './constants.js';

const TG_OPTIONS = [
  {
    name: 'policy',
    flag: 'policy',
    arg: 'FILE',
    path: 'file',
    workbench: true,
    help: 'a policy (a TG policy bundle, an ACGP policy) the artifact is checked against',
    // A BANDED delta within only the embedded bundle's ε (replay.ts, drift.ts).
    decides: ['RPR-TG-043'],
  },
  {
    name: 'providers',
    flag: 'providers',
    arg: 'FILE',
    path: 'file',
    workbench: true,
    help: 'the provider registry replays re-execute against',
    // A pinned provider the built-in registry lacks (ports.ts); not a model version or an answer of one it has.
    decides: [{ rule: 'RPR-TG-034', pointerEndsWith: '/modelId' }],
  },
  {
    name: 'journal',
    flag: 'journal',
    arg: 'DIR',
    path: 'directory',
    createdWith: 'key',
    workbench: true,
    help: 'the evidence journal a replay reads judgements from and anchors drift events in',
    // A RECORDED output's anchor, proven only against its journal (replay.ts).
    decides: ['RPR-TG-023'],
  },
  {
    name: 'key',
    flag: 'key',
    arg: 'FILE',
    path: 'file',
    help: 'the signing key for what a replay writes to --journal (anchors, cases)',
    // Drift to anchor in the --journal given (replay.ts).
    decides: ['RPR-TG-040'],
  },
  // An anchor's journal, and a journal drift counts from, whose signatures it checks (journal-adapter.ts).
  { ...TRUST_STORE_OPTION, decides: ['RPR-TG-023', 'RPR-TG-051'] },
  {
    name: 'whatIf',
    flag: 'what-if',
    arg: 'model=V|shape=S',
    multiple: true,
    replayOnly: true,
    values: { pattern: /^(model|shape)=.+$/, describe: 'model=VERSION or shape=ADVISOR/ARITY/TENSORTYPE' },
    help: 'a what-if substitution (training: the report is a demonstration and never passes)',
  },
  {
    name: 'out',
    flag: 'out',
    arg: 'FILE',
    replayOnly: true,
    help: "where a manifest's replay writes its comparison (one manifest only; never the input)",
  },
] as const satisfies readonly KindOption[];
const TG_LIMIT_HELP: Record<keyof typeof TG_LIMITS, string> = {
  'tg-rule-operations': "JsonLogic operations one manifest's rules may take",
  'tg-rule-result-size': 'largest value a rule may build',
};
const TG_LIMIT_LIST: readonly KindLimit[] = Object.entries(TG_LIMITS).map(([name, d]) => ({
  name,
  default: d,
  help: TG_LIMIT_HELP[name as keyof typeof TG_LIMITS],
}));

export const tgManifestKind: KindHandler<typeof TG_OPTIONS> = {
  kind: 'tg-replay-manifest',
  rules: { doc: 'docs/rules/tg.md', ids: TG_RULES },
  options: TG_OPTIONS,
  limits: TG_LIMIT_LIST,
  examples: async () => (await import('./examples.js')).tgWriter,
  consistencyOnly:
    'a TG replay manifest carries no signature; its hashes and policy binding are internally consistent at best.',
  writesOut: true,
  operations: {
    attest: { what: 'a TG replay manifest (comp.TG.OUTPUT.REPLAY-MANIFEST.v1_0)' },
    drift: { what: 'a TG replay manifest' },
  },
  detect: (s: Sniffed) => s.jsonObject()?.['type'] === MANIFEST_TYPE,
  load: async () => (await import('./index.js')).manifestCode,
};

export const tgBundleKind: KindHandler = {
  kind: 'tg-policy-bundle',
  rules: { doc: 'docs/rules/tg.md', ids: TG_RULES },
  consistencyOnly: 'a TG policy bundle carries no signature; H(bundle) is what manifests bind to, not who wrote it.',
  detect: (s: Sniffed) => s.jsonObject()?.['type'] === BUNDLE_TYPE,
  load: async () => (await import('./index.js')).bundleCode,
};
