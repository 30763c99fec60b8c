/**
 * The two TG kinds: `tg-replay-manifest` (verify and replay) and `tg-policy-bundle`
 * (verify only: a bundle has nothing to re-execute). Detection is by the `type` member.
 */
import { changedNumbers, fail } from '../../core/findings.js';
import type { KindResult } from '../../core/report.js';
import type { Sniffed } from '../sniff.js';
import type { KindHandler, KindLimit, KindOption } from '../types.js';
import { TG_LIMITS } from './limits.js';
import { BUNDLE_TYPE, MANIFEST_TYPE } from './constants.js';

// The checks (decimal arithmetic, JsonLogic) load on first use, not at engine start-up.
const checks = () => import('./replay.js');

const TG_OPTIONS = [
  { name: 'policy', flag: 'policy', arg: 'FILE', path: 'file', workbench: true, help: 'a policy (a TG policy bundle, an ACGP policy) the artifact is checked against' },
  { name: 'providers', flag: 'providers', arg: 'FILE', path: 'file', workbench: true, help: 'the provider registry replays re-execute against' },
  { name: 'journal', flag: 'journal', arg: 'DIR', workbench: true, help: 'the evidence journal a replay reads judgements from and anchors drift events in' },
  { name: 'key', flag: 'key', arg: 'FILE', path: 'file', help: 'the signing key for what a replay writes to --journal (anchors, cases)' },
  { name: 'whatIf', flag: 'what-if', arg: 'model=V|shape=S', multiple: true, replayOnly: true, values: { pattern: /^(model|shape)=.+$/, describe: 'model=VERSION or shape=ADVISOR/ARITY/TENSORTYPE' }, help: 'a what-if substitution (training: the report is a demonstration and never passes)' },
  { name: 'out', flag: 'out', arg: 'FILE', replayOnly: true, help: 'where a manifest\'s replay writes its comparison (one manifest only; never the input)' },
] as const satisfies readonly KindOption[];
const TG_LIMIT_HELP: Record<keyof typeof TG_LIMITS, string> = {
  'tg-rule-operations': 'JsonLogic operations one manifest\'s rules may take',
  'tg-rule-result-size': 'largest value a rule may build',
};
const TG_LIMIT_LIST: readonly KindLimit[] = Object.entries(TG_LIMITS).map(([name, d]) => ({ name, default: d, help: TG_LIMIT_HELP[name as keyof typeof TG_LIMITS] }));

export const tgManifestKind: KindHandler<typeof TG_OPTIONS> = {
  kind: 'tg-replay-manifest',
  options: TG_OPTIONS,
  limits: TG_LIMIT_LIST,
  examples: async () => (await import('../../examples/tg.js')).tgWriter,
  consistencyOnly: 'a TG replay manifest carries no signature; its hashes and policy binding are internally consistent at best.',
  writesOut: true,
  detect: (s: Sniffed) => s.jsonObject()?.['type'] === MANIFEST_TYPE,
  async verify(s, ctx) {
    return (await (await checks()).verifyManifest(s, ctx)).result;
  },
  replay: async (s, ctx) => (await checks()).replayManifest(s, ctx),
};

export const tgBundleKind: KindHandler = {
  kind: 'tg-policy-bundle',
  consistencyOnly: 'a TG policy bundle carries no signature; H(bundle) is what manifests bind to, not who wrote it.',
  detect: (s: Sniffed) => s.jsonObject()?.['type'] === BUNDLE_TYPE,
  async verify(s): Promise<KindResult> {
    const [{ checkBundle }, { tgNumbers }] = await Promise.all([import('./bundle.js'), import('./structure.js')]);
    const j = s.json();
    const o = s.jsonObject();
    const id = typeof o?.['bundleId'] === 'string' ? o['bundleId'] : null;
    if (!j || !j.ok) return { id, findings: [fail('RPR-TG-001', `the bundle is not strict I-JSON: ${j && !j.ok ? j.error.message : 'not JSON'}`, { pointer: j && !j.ok ? (j.error.pointer ?? '') : '' })], chain: [] };
    const c = checkBundle(j.value);
    return {
      id,
      findings: [...changedNumbers(j.warnings, tgNumbers('the bundle')), ...c.findings],
      chain: [{ id: 'bundle', label: 'H(bundle): what manifests name in policyContext.bundleHash', recorded: null, recomputed: c.hash || null, status: c.hash ? 'match' : 'unresolved', parents: [] }],
      details: { tg: { bundleHash: c.hash } },
    };
  },
};
