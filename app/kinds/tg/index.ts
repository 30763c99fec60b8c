/**
 * The two TG kinds: `tg-replay-manifest` (verify and replay) and `tg-policy-bundle`
 * (verify only: a bundle has nothing to re-execute). Detection is by the `type` member.
 */
import { fail } from '../../core/findings.js';
import type { KindResult } from '../../core/report.js';
import type { Sniffed } from '../sniff.js';
import type { KindHandler } from '../types.js';
import { BUNDLE_TYPE, MANIFEST_TYPE } from './constants.js';

// The checks (decimal arithmetic, JsonLogic) load on first use, not at engine start-up.
const checks = () => import('./replay.js');

export const tgManifestKind: KindHandler = {
  kind: 'tg-replay-manifest',
  writesOut: true,
  detect: (s: Sniffed) => s.jsonObject()?.['type'] === MANIFEST_TYPE,
  async verify(s, ctx) {
    return (await (await checks()).verifyManifest(s, ctx)).result;
  },
  replay: async (s, ctx) => (await checks()).replayManifest(s, ctx),
};

export const tgBundleKind: KindHandler = {
  kind: 'tg-policy-bundle',
  detect: (s: Sniffed) => s.jsonObject()?.['type'] === BUNDLE_TYPE,
  async verify(s): Promise<KindResult> {
    const { checkBundle } = await import('./bundle.js');
    const j = s.json();
    const o = s.jsonObject();
    const id = typeof o?.['bundleId'] === 'string' ? o['bundleId'] : null;
    if (!j || !j.ok) return { id, findings: [fail('RPR-TG-001', `the bundle is not strict I-JSON: ${j && !j.ok ? j.error.message : 'not JSON'}`, { pointer: j && !j.ok ? (j.error.pointer ?? '') : '' })], chain: [] };
    const c = checkBundle(j.value);
    return {
      id,
      findings: c.findings,
      chain: [{ id: 'bundle', label: 'H(bundle): what manifests name in policyContext.bundleHash', recorded: null, recomputed: c.hash || null, status: c.hash ? 'match' : 'unresolved', parents: [] }],
      details: { tg: { bundleHash: c.hash } },
    };
  },
};
