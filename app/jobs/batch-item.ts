/**
 * One path of a batch, as its item: run, rendered as the batch asked, and for a reviewer's
 * case (BatchJob.rels) with its case part, read while the artifact was open. The batch
 * worker runs it on its thread; the CLI's inline batch on the main one.
 */
import { withReadConfinement } from '../core/files.js';
import { partBytes } from '../engine/case/part-bytes.js';
import { verifyForCase } from '../engine/case/verify-one.js';
import { executeJob } from './execute.js';
import type { BatchItem, BatchJob } from './protocol.js';
import { rendered } from './render.js';

export async function batchItem(job: BatchJob, i: number): Promise<BatchItem> {
  const { paths, mode, options, render, rels } = job;
  const path = paths[i]!;
  if (!rels) {
    const o = await executeJob({ op: 'runPath', path, mode, options });
    return o.ok ? rendered(o.report, render) : o;
  }
  // A case the workbench's host runs opens only what lies in the folders it granted.
  const o = await withReadConfinement(options.readRoots, () =>
    verifyForCase(path, rels[i]!, mode, options, { shown: job.namedInCase ? rels[i]! : path }),
  );
  if (!o.ok)
    return {
      ok: false,
      usage: o.unreadable.usage,
      message: o.said ?? o.unreadable.message,
      inCase: o.unreadable.message,
    };
  return { ...rendered(o.report!, render), part: partBytes(o.part) };
}
