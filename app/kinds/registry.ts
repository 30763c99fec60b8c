/**
 * The registry of artifact kinds, asked in this order (most specific first). Adding a
 * kind is its own folder under app/kinds/ plus one import and one line here.
 * Detection is by content only, never by file name.
 */
import type { DirectoryKindHandler, KindHandler } from './types.js';

export const KINDS: readonly KindHandler[] = [];

export const DIRECTORY_KINDS: readonly DirectoryKindHandler[] = [];
