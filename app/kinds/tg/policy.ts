/**
 * TG-POLICY-RESOLUTION: the manifest names its policy bundle by hash; Reprise resolves
 * it from the manifest's own artifacts or from `--policy FILE`, and accepts it only when
 * H(bundle) equals the named hash and the bundle passes every bundle check.
 */
import { UsageError } from '../../core/errors.js';
import { readFailure, readRegularFile } from '../../core/files.js';
import { memoFile } from '../../core/closed.js';
import type { ChainNode, Finding } from '../../../shared/report.js';
import { fail, changedNumbers } from './findings.js';
import { hashValue } from '../../core/hash.js';
import { decodeJsonBytes, JcsError, parseCanonical, type JcsWarning } from '../../core/jcs.js';
import { checkBundle, type Bundle } from './bundle.js';
import { BUNDLE_TYPE } from './constants.js';
import { isObj, ptr, tgNumbers } from './structure.js';
import type { Manifest } from './manifest.js';

export interface Resolved {
  bundle: Bundle | null;
  hash: string | null;
  source: string | null;
  /**
   * Whether the bundle's origin is established: it is the reviewer's `--policy` file. An
   * embedded bundle is the manifest's own word (no bundle carries a signature), so its ε
   * cannot decide a BANDED pass (docs/tg-replay.md, "Whose ε decides").
   */
  governed: boolean;
  findings: Finding[];
  node: ChainNode;
}

/** A `--policy` file, parsed strictly once per process; an unreadable or non-JSON file is a usage error. */
export const loadPolicyFile = memoFile((path: string): Promise<{ value: unknown; warnings: JcsWarning[] }> =>
  readRegularFile(path).then(
    async (bytes) => {
      try {
        const { value, warnings } = parseCanonical(decodeJsonBytes(bytes));
        return { value, warnings };
      } catch (e) {
        throw new UsageError(
          `--policy ${path} is not valid JSON: ${e instanceof JcsError ? e.message : String(e)}`,
          'bad-file',
        );
      }
    },
    async (e: unknown) => {
      throw new UsageError(`cannot read --policy ${path}: ${readFailure(e)}`, 'path');
    },
  ),
);

export async function resolvePolicy(
  m: Manifest,
  goodArtifacts: Set<string>,
  policyPath: string | undefined,
): Promise<Resolved> {
  const want = m.policyContext.bundleHash;
  const findings: Finding[] = [];
  const node = (recomputed: string | null, status: ChainNode['status']): ChainNode => ({
    id: 'policy-bundle',
    label: `policy bundle ${m.policyContext.bundleRef}`,
    recorded: want,
    recomputed,
    status,
    parents: [],
    pointer: '/policyContext/bundleHash',
  });
  if (m.policyContext.bundleRef !== BUNDLE_TYPE)
    findings.push(
      fail('RPR-TG-012', `policyContext.bundleRef must name ${BUNDLE_TYPE}`, {
        pointer: '/policyContext/bundleRef',
        expected: BUNDLE_TYPE,
        actual: m.policyContext.bundleRef,
      }),
    );

  let value: unknown;
  let source: string;
  let base: string;
  let governed = false;
  const embedded = m.artifacts[want];
  // --policy names the governed bundle: given, it decides, embedded bundle or not (a manifest
  // that embeds its own, with a wider ε, is held to the one the reviewer gave).
  if (
    !policyPath &&
    embedded &&
    goodArtifacts.has(want) &&
    isObj(embedded.json) &&
    embedded.json['type'] === BUNDLE_TYPE
  ) {
    value = embedded.json;
    source = 'embedded';
    base = ptr('/artifacts', want, 'json');
  } else if (policyPath) {
    const file = await loadPolicyFile(policyPath);
    value = file.value;
    source = policyPath;
    base = '';
    governed = true;
    findings.push(...changedNumbers(file.warnings, tgNumbers('the --policy file')));
    const got = hashValue(value);
    if (got !== want) {
      findings.push(
        fail('RPR-TG-012', 'the --policy file is not the bundle the manifest names: policy is resolved by hash', {
          pointer: '/policyContext/bundleHash',
          expected: want,
          actual: got,
        }),
      );
      return { bundle: null, hash: got, source, governed: false, findings, node: node(got, 'mismatch') };
    }
  } else {
    findings.push(
      fail(
        'RPR-TG-011',
        'the policy bundle named by hash is neither embedded as an artifact nor given with --policy: nothing can be scored',
        { pointer: '/policyContext/bundleHash', expected: want, actual: null },
      ),
    );
    return { bundle: null, hash: null, source: null, governed: false, findings, node: node(null, 'missing') };
  }
  // Embedded: the artifact check already proved H(value) == want; from --policy: just computed.
  const checked = checkBundle(value, base, want);
  for (const f of checked.findings) findings.push(governed ? { ...f, message: `the --policy file: ${f.message}` } : f);
  return {
    bundle: checked.bundle,
    hash: checked.hash,
    source,
    governed,
    findings,
    node: node(checked.hash, checked.hash === want ? 'match' : 'mismatch'),
  };
}
