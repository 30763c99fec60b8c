/**
 * The officer's last anchor receipt, kept across a reload of the tab (lib/tab-keep.ts): the
 * receipt the engine returned for the decision just signed, with the journal it was signed
 * into. Read back, it is the receipt of an earlier signing, and is shown only while that
 * journal is the one open and its verification, made since, holds the very entry it names
 * (the case, seq and entry hash): never for another journal, nor for one put in its folder's
 * place since.
 */
import type { AnchorReceipt, JournalStatus } from '../../../shared/api.js';
import { HASH } from '../../../shared/report-shape.js';
import { STATES } from './officer.js';
import { isPlainObject } from '../../../shared/plain-object.js';
import { forgetInTab, isCount, isStrings, keepInTab, keptInTab } from './tab-keep.js';

/** A receipt and the journal (its folder, as the window opened it) the decision was signed into. */
export interface KeptReceipt {
  journal: string;
  receipt: AnchorReceipt;
}

const KEY = 'reprise.receipt';
/** A receipt is a few hundred characters; its proof's findings are few. */
const MAX_CHARS = 64 * 1024;
const MAX_FINDINGS = 64;

const isStrOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';

function isCheckpoint(v: unknown): v is AnchorReceipt['checkpoint'] {
  return isPlainObject(v) && isCount(v['size']) && typeof v['root'] === 'string' && isStrOrNull(v['keyId']);
}

function isReceipt(v: unknown): v is AnchorReceipt {
  return (
    isPlainObject(v) &&
    typeof v['caseId'] === 'string' &&
    STATES.includes(v['state'] as AnchorReceipt['state']) &&
    isCount(v['seq']) &&
    typeof v['entryHash'] === 'string' &&
    HASH.test(v['entryHash']) &&
    typeof v['keyId'] === 'string' &&
    isStrOrNull(v['role']) &&
    isStrOrNull(v['label']) &&
    isCheckpoint(v['checkpoint']) &&
    typeof v['proofVerified'] === 'boolean' &&
    isStrings(v['proofFindings'], MAX_FINDINGS)
  );
}

export const isKeptReceipt = (v: unknown): v is KeptReceipt =>
  isPlainObject(v) && typeof v['journal'] === 'string' && v['journal'] !== '' && isReceipt(v['receipt']);

/** Keeps the receipt of the decision just signed into `journal` (the previous one goes). */
export const keepReceipt = (journal: string, receipt: AnchorReceipt): boolean =>
  keepInTab(KEY, { journal, receipt }, MAX_CHARS);

/** The receipt kept by this tab before it was reloaded, or null (none, or dropped as malformed or too large). */
export const keptReceipt = (): KeptReceipt | null => keptInTab(KEY, isKeptReceipt, MAX_CHARS);

export const forgetReceipt = (): void => forgetInTab(KEY);

/**
 * The kept receipt to show: only while `journal` (the folder open in the window) is the one
 * it was signed into and the journal's verification (`status`, of that folder) holds its
 * entry, by case, seq and entry hash; else null.
 */
export function earlierReceiptShown(
  kept: KeptReceipt | null,
  journal: string,
  status: JournalStatus | null,
): AnchorReceipt | null {
  if (kept === null || journal !== kept.journal || status?.dir !== kept.journal) return null;
  const r = kept.receipt;
  const held = status.cases.some(
    (c) => c.caseId === r.caseId && c.history.some((h) => h.seq === r.seq && h.entryHash === r.entryHash),
  );
  return held ? r : null;
}
