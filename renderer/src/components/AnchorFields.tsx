/** Where a signed entry sits in the journal, as every receipt shows it: the entry's hash, the checkpoint, the checked proof. */
export function AnchorFields({ r }: { r: { entryHash: string; checkpoint: { size: number; root: string }; proofVerified: boolean; proofFindings: string[] } }) {
  return (
    <>
      <dt>Entry hash</dt>
      <dd className="mono small">{r.entryHash}</dd>
      <dt>Checkpoint</dt>
      <dd className="mono small">
        size {r.checkpoint.size}, root {r.checkpoint.root}
      </dd>
      <dt>Inclusion proof</dt>
      <dd className={r.proofVerified ? 'ok' : 'bad'} data-testid="receipt-proof">
        {r.proofVerified ? '✓ verified against the signed checkpoint' : `✗ not verified: ${r.proofFindings.join('; ')}`}
      </dd>
    </>
  );
}
