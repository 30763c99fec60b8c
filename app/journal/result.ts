/** Turns a journal verification into the engine's KindResult (for reports of kind `journal`). */
import type { ChainNode, JsonValue } from '../../shared/report.js';
import type { KindResult } from '../core/report.js';
import { formatHash } from '../core/hash.js';
import type { JournalVerification } from './verify.js';

export function journalKindResult(v: JournalVerification): KindResult {
  const cp = v.latestCheckpoint;
  const chain: ChainNode[] = [];
  if (cp) {
    const recomputed = cp.treeSize <= v.entryLines ? formatHash(v.tree.root(cp.treeSize).toString('hex')) : null;
    chain.push({
      id: 'checkpoint:latest',
      label: `latest checkpoint (tree of ${cp.treeSize} entries)`,
      recorded: cp.rootHash,
      recomputed,
      status: recomputed === null ? 'missing' : recomputed === cp.rootHash ? 'match' : 'mismatch',
      parents: [],
    });
  }
  const byState: Record<string, number> = Object.create(null) as Record<string, number>;
  for (const c of v.cases.cases) byState[c.state] = (byState[c.state] ?? 0) + 1;
  const details: { [key: string]: JsonValue } = {
    entries: v.entryLines,
    checkpoints: v.checkpointLines,
    root: v.root,
    // Reports carry the latest checkpoint so a recipient can hold it (truncation evidence).
    latestCheckpoint: cp ? (JSON.parse(JSON.stringify(cp)) as JsonValue) : null,
    cases: byState,
    // Every key an entry or checkpoint is signed by (the origin statement names them), sorted.
    signers: v.signers.keys,
    ...(v.signers.more ? { signersMore: true } : {}),
    // A `--since` pass checked the signatures after the held checkpoint only.
    ...(v.signers.from > 0 ? { signersFrom: v.signers.from } : {}),
  };
  // The claim id warnings too (RPR-QUAR-008): a reader of the journal's report must not take a
  // lookalike claim for the one it draws as, though the journal itself holds.
  return { id: cp ? cp.rootHash : null, findings: [...v.findings, ...v.claimIds], chain, details };
}
