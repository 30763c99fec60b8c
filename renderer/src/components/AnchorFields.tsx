import { CopyValue } from './Copy';

/** Where a signed entry sits in the journal, as every receipt shows it: the entry's hash, the checkpoint, the checked proof. */
export function AnchorFields({
  r,
}: {
  r: { entryHash: string; checkpoint: { size: number; root: string }; proofVerified: boolean; proofFindings: string[] };
}) {
  return (
    <>
      <dt>Entry hash</dt>
      <dd className="small">
        <CopyValue value={r.entryHash} label="the entry hash" testId="receipt-entry-hash" />
      </dd>
      <dt>Checkpoint</dt>
      <dd className="small">
        size {r.checkpoint.size}, root{' '}
        <CopyValue value={r.checkpoint.root} label="the checkpoint root" testId="receipt-checkpoint-root" />
      </dd>
      <dt>Inclusion proof</dt>
      <dd className={r.proofVerified ? 'ok' : 'bad'} data-testid="receipt-proof">
        {r.proofVerified ? '✓ verified against the signed checkpoint' : `✗ not verified: ${r.proofFindings.join('; ')}`}
      </dd>
    </>
  );
}

/**
 * Who signed, as receipts, histories and lists name a key: the role and label the trust
 * store gives it (as the verdict banner names a report's signer), then the whole key id
 * with its copy button. A key the trust store does not list says so.
 * `checked`: a trust store was consulted (without one, the role is unknown, not absent).
 */
export function Signer({
  keyId,
  role,
  label,
  checked,
  copyLabel,
  testId,
  keyTestId,
}: {
  keyId: string;
  role: string | null;
  label: string | null;
  checked: boolean;
  copyLabel: string;
  testId?: string;
  keyTestId?: string;
}) {
  return (
    <span className="signer">
      <span data-testid={testId}>
        {role ? (
          <>
            <strong>{role}</strong>
            {label ? `: ${label}` : ' (no label in the trust store)'}
          </>
        ) : checked ? (
          <strong>a key not in the trust store</strong>
        ) : (
          'role and label unknown (no trust store given)'
        )}
      </span>
      , key <CopyValue value={keyId} label={copyLabel} {...(keyTestId ? { testId: keyTestId } : {})} />
    </span>
  );
}
