/**
 * The journal port: what TG replay needs from the evidence journal (app/journal, the
 * journal issue). The adapter to the journal's programmatic API lives in
 * journal-adapter.ts; everything here is the contract TG codes against.
 */
import type { Finding } from '../../../shared/report.js';

export interface AnchoredEntry {
  seq: number;
  entryHash: string;
  recordedAtUtc: string;
  kind: string;
  claimRef: string;
  artifact: string | null;
  body: Record<string, unknown>;
}

export type AnchorCheck = { ok: true; entry: AnchoredEntry } | { ok: false; findings: Finding[] };

export interface Appended {
  seq: number;
  entryHash: string;
}

export interface JournalPort {
  /** The entry at `seq` with hash `entryHash`, proven included under the latest signed checkpoint. */
  verifyAnchor(seq: number, entryHash: string, pointer: string): Promise<AnchorCheck>;
  /** Appends a signed entry (entry + checkpoint on disk before it returns). */
  append(
    kind: string,
    subject: { claimRef: string; artifact?: string },
    body: Record<string, unknown>,
  ): Promise<Appended>;
  /** Opens a quarantine case for a claim routed to human review (source `routing`). */
  openCase(
    claimRef: string,
    artifact: string,
    reason: string,
    details: Record<string, unknown>,
  ): Promise<Appended & { caseId: string }>;
  /** Claims with an open quarantine case (opened, not yet released or upheld). */
  openCases(): Promise<Set<string>>;
  /** Every entry in order (for telemetry). */
  entries(): Promise<AnchoredEntry[]>;
  close(): Promise<void>;
}
