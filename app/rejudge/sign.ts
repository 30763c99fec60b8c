/** Signing a re-judgement record (`reprise rejudge merge`); verifying one is the rejudgement kind's. */
import { signBytes, type Signer } from '../core/keys.js';
import { signedBytes, type RejudgementRecord } from './format.js';

/** Signs a record (Ed25519 is deterministic: the same record and key give the same bytes). */
export function signRejudgement(
  unsigned: Omit<RejudgementRecord, 'signer' | 'sig'>,
  signer: Signer,
): RejudgementRecord {
  const r = { ...unsigned, signer: signer.keyId };
  return { ...r, sig: signBytes(signer, signedBytes(r)) };
}
