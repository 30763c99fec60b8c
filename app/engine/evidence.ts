/**
 * Exporting an evidence bundle (`reprise export`, the workbench's export): the kind that
 * offers the export operation (the evidence bundle's writer) answers, so neither the CLI
 * nor the host reaches into a kind's folder.
 */
import type { TrustStore } from '../core/keys.js';
import type { BundledReport, CaseBundler, JournalBundle } from '../kinds/operations.js';
import type { Report } from '../../shared/report.js';
import { operationFor } from './operations.js';

export type { CaseBundler, JournalBundle, LeftOutArtifact, OmittedEntry } from '../kinds/operations.js';

/** The bundle of `report` with every judgement the journal `dir` holds on its artifact (refused with JournalError). */
export async function bundleFromJournal(
  dir: string,
  report: Report | BundledReport,
  trust: TrustStore | null,
  attestation?: Uint8Array | null,
  limits?: Record<string, number>,
): Promise<JournalBundle> {
  return (await operationFor('export'))(dir, report, trust, attestation ?? null, limits);
}

/**
 * The journal `dir` verified for a case bundle before the case runs (refused with
 * JournalError), and the bundler that writes the bundle of the case against it.
 */
export async function openCaseBundle(
  dir: string,
  trust: TrustStore | null,
  limits?: Record<string, number>,
): Promise<CaseBundler> {
  return (await operationFor('exportCase'))(dir, trust, limits);
}
