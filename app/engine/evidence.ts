/**
 * Exporting an evidence bundle (`reprise export`, the workbench's export): the kind that
 * offers the export operation (the evidence bundle's writer) answers, so neither the CLI
 * nor the host reaches into a kind's folder.
 */
import type { TrustStore } from '../core/keys.js';
import type { BundledReport, JournalBundle } from '../kinds/operations.js';
import type { Report } from '../../shared/report.js';
import type { CaseReport } from '../../shared/case.js';
import { operationFor } from './operations.js';

export type { JournalBundle } from '../kinds/operations.js';

/** The bundle of `report` with every judgement the journal `dir` holds on its artifact (refused with JournalError). */
export async function bundleFromJournal(
  dir: string,
  report: Report | BundledReport,
  trust: TrustStore | null,
  attestation?: Uint8Array | null,
): Promise<JournalBundle> {
  return (await operationFor('export'))(dir, report, trust, attestation ?? null);
}

/** The case bundle of `caseReport` and its artifacts' reports, with every judgement the journal `dir` holds on them. */
export async function caseBundleFromJournal(
  dir: string,
  caseReport: CaseReport,
  reports: ReadonlyMap<string, Report | BundledReport>,
  trust: TrustStore | null,
): Promise<JournalBundle> {
  return (await operationFor('exportCase'))(dir, caseReport, reports, trust);
}
