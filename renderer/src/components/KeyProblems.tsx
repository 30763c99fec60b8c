import type { SigningKey } from '../../../shared/api';

/**
 * Reads the chosen key file again as a confirmation opens (judgement-store refreshKeys), so the
 * dialog shows the key the file holds now: `open` gets it when it may sign (`refusal` says
 * why not; the form shows that refusal from the refreshed list), `trouble` why it could not be read.
 */
export function readKeyToConfirm(
  refreshKeys: () => Promise<SigningKey | null>,
  keyFile: string,
  refusal: (k: SigningKey) => string | null,
  open: (k: SigningKey) => void,
  trouble: (why: string) => void,
): void {
  void refreshKeys().then(
    (fresh) => {
      if (!fresh?.keyId) trouble(`The key file ${keyFile} holds no usable Ed25519 key now.`);
      else if (!refusal(fresh)) open(fresh);
    },
    (e: unknown) => trouble(`The signing key could not be read again: ${(e as Error).message}`),
  );
}

/** Why the chosen key cannot sign, under a signing form: it could not be read again, or its role or status refuses it. */
export function KeyProblems({
  trouble,
  refusal,
  refusalId,
  testId,
}: {
  trouble: string | null;
  refusal: string | null;
  refusalId: string;
  testId: string;
}) {
  return (
    <>
      {trouble && (
        <p className="bad" role="alert" data-testid={`${testId}-trouble`}>
          {trouble}
        </p>
      )}
      {refusal && (
        <p id={refusalId} className="bad" data-testid={`${testId}-refused`}>
          {refusal}
        </p>
      )}
    </>
  );
}
