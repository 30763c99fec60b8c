/**
 * Kind `evidence-bundle`: the ZIP `reprise export` writes (docs/evidence-bundle.md).
 * Detected from content: a ZIP local header at offset 0 whose first member is the bundle's
 * manifest. Asked before the Nemosyne kind, which takes any other ZIP. Its verify
 * (index.ts) loads when a job of the kind runs.
 */
import { TRUST_STORE_OPTION, type KindHandler } from '../types.js';
import { EVIDENCE_BUNDLE_RULES, R } from './rule-ids.js';
import type { Sniffed } from '../sniff.js';
import { startsWithLocalHeader } from '../../zip/sniff.js';
import { fileSource } from '../../zip/source.js';
import { MEMBER } from './format.js';

const NAME = Buffer.from(MEMBER.manifest, 'utf8');

export function looksLikeBundle(s: Sniffed): boolean {
  const n = 30 + NAME.length;
  let head: Buffer;
  try {
    // A large file on disk: read only its first local header (never the whole file).
    head =
      s.file && !s.loaded
        ? fileSource(s.file.fd, s.file.size).read(0, Math.min(n, s.file.size))
        : s.bytes.subarray(0, n);
  } catch {
    return false;
  }
  if (head.length < n || !startsWithLocalHeader(head)) return false;
  return head.readUInt16LE(26) === NAME.length && head.subarray(30, 30 + NAME.length).equals(NAME);
}

export const evidenceBundleKind: KindHandler = {
  kind: 'evidence-bundle',
  rules: { doc: 'docs/rules/evidence-bundle.md', ids: EVIDENCE_BUNDLE_RULES },
  // Its checkpoint, judgements and their signers (verify.ts).
  options: [{ ...TRUST_STORE_OPTION, decides: [R.trust] }],
  operations: { export: { what: 'an evidence bundle' }, exportCase: { what: 'a case bundle' } },
  detect: looksLikeBundle,
  load: async () => (await import('./index.js')).evidenceBundleCode,
};
