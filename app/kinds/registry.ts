/**
 * The registry of artifact kinds, asked in this order (most specific first). Adding a
 * kind is its own folder under app/kinds/ plus one import and one line here.
 * Detection is by content only, never by file name.
 */
import type { DirectoryKindHandler, KindHandler } from './types.js';
import { acgpEvalKind, acgpTraceKind } from './acgp/index.js';
import { replayDumpKind } from './replay-dump/index.js';
import { tgBundleKind, tgManifestKind } from './tg/index.js';
import { journalKind } from './journal/index.js';
import { nemosynePackageKind } from './nemosyne/index.js';
import { evidenceBundleKind } from './evidence-bundle/index.js';

export const KINDS: readonly KindHandler[] = [replayDumpKind, acgpTraceKind, acgpEvalKind, tgManifestKind, tgBundleKind, evidenceBundleKind, nemosynePackageKind];

export const DIRECTORY_KINDS: readonly DirectoryKindHandler[] = [journalKind];
