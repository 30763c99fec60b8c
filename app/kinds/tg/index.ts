/**
 * What runs the TG kinds' jobs (declare.ts declares and detects them): a manifest's verify
 * and replay, a bundle's verify.
 */
import { fail, changedNumbers } from './findings.js';
import { Progress } from '../../core/progress.js';
import type { KindResult } from '../../core/report.js';
import type { KindCode } from '../types.js';
import { tgDrift } from './drift.js';
// What it offers a reviewer's case: small, loaded with the kind's code (no import per artifact).
import { bundleCaseFacts, manifestCaseFacts } from './case-facts.js';

// The checks (decimal arithmetic, JsonLogic) load on first use, not at engine start-up.
const checks = () => import('./replay.js');

export const manifestCode: KindCode = {
  async verify(s, ctx) {
    const progress = new Progress((f, label) => ctx.progress(f, label));
    const { result } = await (await checks()).verifyManifest(s, ctx, progress);
    progress.done();
    return result;
  },
  replay: async (s, ctx) => (await checks()).replayManifest(s, ctx),
  operations: {
    attest: async (s, ctx, reviewer) => (await import('./attest.js')).attestReplay(s, ctx, reviewer),
    drift: tgDrift,
    caseFacts: async (subject, report) => manifestCaseFacts(subject, report),
  },
};

export const bundleCode: KindCode = {
  async verify(s): Promise<KindResult> {
    const [{ checkBundle }, { tgNumbers }] = await Promise.all([import('./bundle.js'), import('./structure.js')]);
    const j = s.json();
    const o = s.jsonObject();
    const id = typeof o?.['bundleId'] === 'string' ? o['bundleId'] : null;
    if (!j || !j.ok)
      return {
        id,
        findings: [
          fail('RPR-TG-001', `the bundle is not strict I-JSON: ${j && !j.ok ? j.error.message : 'not JSON'}`, {
            pointer: j && !j.ok ? (j.error.pointer ?? '') : '',
          }),
        ],
        chain: [],
      };
    const c = checkBundle(j.value);
    return {
      id,
      findings: [...changedNumbers(j.warnings, tgNumbers('the bundle')), ...c.findings],
      chain: [
        {
          id: 'bundle',
          label: 'H(bundle): what manifests name in policyContext.bundleHash',
          recorded: null,
          recomputed: c.hash || null,
          status: c.hash ? 'match' : 'unresolved',
          parents: [],
        },
      ],
      details: { tg: { bundleHash: c.hash } },
    };
  },
  operations: {
    caseFacts: async (subject, report) => bundleCaseFacts(subject, report),
  },
};
