/**
 * The digest that binds a judgement, a case and a bundle to the report they are about. A
 * module of its own, with nothing of the journal behind it: every worker of a reviewer's
 * case digests each report it makes (app/engine/case/part.ts), and need not load the
 * journal's writer and verifier to do so.
 */
import { hashValue } from '../core/hash.js';
import type { Report } from '../../shared/report.js';

/**
 * The report's digest: `H(report without run, with artifact.path removed)`, RFC 8785
 * canonical JSON, SHA-256. `run` holds times; the path is where the file lay when it was
 * opened (a window upload names the file, the CLI the path typed): neither says what was
 * reviewed, and both differ between two openings of the same bytes.
 */
export function reportDigest(report: Omit<Report, 'run'> & Partial<Pick<Report, 'run'>>): string {
  const { run: _run, artifact, ...rest } = report as Report;
  const { path: _path, ...art } = artifact;
  return hashValue({ ...rest, artifact: art });
}
