/**
 * Kind `nemosyne-package`: Nemosyne investigation packages V1-V4 (seed 002, RFC 0009).
 * Detected from content: a ZIP local header at offset 0, or an end-of-central-directory
 * signature near the end (so an archive with prepended data is still recognised, and
 * then refused by the strict reader rather than called "unknown"). Its verify (index.ts)
 * loads when a job of the kind runs.
 */
import type { KindHandler, KindOption } from '../types.js';
import { NEMOSYNE_RULES } from './rule-ids.js';
import type { Sniffed } from '../sniff.js';
import { looksLikeZip } from '../../zip/sniff.js';
import { fileSource } from '../../zip/source.js';
import { TIMELINE_DEFAULT, TIMELINE_LIMIT } from './limits.js';

/** Any ZIP the evidence-bundle kind (asked first) did not claim, unless it reads as JSON. */
function looksLikePackage(s: Sniffed): boolean {
  return looksLikeZip(archiveOf(s)) && s.firstChar() !== '{' && s.firstChar() !== '[';
}

/** A package on disk is read by position through the engine's descriptor (flat memory). */
export function archiveOf(s: Sniffed) {
  return s.file && !s.loaded ? fileSource(s.file.fd, s.file.size) : s.bytes;
}

const NEMOSYNE_OPTIONS = [
  {
    name: 'profiles',
    flag: 'profiles',
    arg: 'FILE',
    path: 'file',
    workbench: true,
    help: "the kernel profile registry a package's profile is checked against",
    // The recorded uses and receipt-dependent consumers (verify.ts checkConsumers).
    decides: ['RPR-NEM-040'],
  },
  {
    name: 'kernelAdapter',
    flag: 'kernel-adapter',
    arg: 'PATH',
    path: 'file-or-directory',
    workbench: true,
    help: 'the kernel adapter (a command or a module) recomputing the digest root',
    // The investigation digest over the restored state; not a V1/V2 replay's analysis steps,
    // which commit to no digest an adapter's state could be held to (verify.ts noDigest).
    decides: [{ rule: 'KERNEL_MISMATCH', pointerEndsWith: 'entry:manifest.json#/investigationDigest' }],
  },
] as const satisfies readonly KindOption[];

export const nemosynePackageKind: KindHandler<typeof NEMOSYNE_OPTIONS> = {
  kind: 'nemosyne-package',
  rules: { doc: 'docs/rules/nemosyne.md', ids: NEMOSYNE_RULES },
  options: NEMOSYNE_OPTIONS,
  examples: async () => (await import('./examples.js')).packagesWriter,
  consistencyOnly:
    "a package's self-contained hashes establish consistency, not origin; authenticity needs separately signed evidence.",
  limits: [
    {
      name: TIMELINE_LIMIT,
      default: TIMELINE_DEFAULT,
      help: "commands.log event times a package offers a case's timeline; the rest are counted (RPR-NEM-091)",
    },
  ],
  operations: { members: { what: 'a Nemosyne package' } },
  detect: looksLikePackage,
  load: async () => (await import('./index.js')).nemosynePackageCode,
};
