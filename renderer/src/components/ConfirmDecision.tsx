import type { CaseDecision, CaseView, SigningKey } from '../../../shared/api';
import { keyStanding } from '../lib/officer';
import { CopyValue } from './Copy';
import { ClaimWarned, RATIONALE_SHOWN, Shown } from './Shown';
import { SignDialog } from './SignDialog';

const IDS = {
  dialog: 'confirm-decision',
  heading: 'confirm-decision-h',
  cancel: 'confirm-decision-cancel',
  sign: 'confirm-decision-sign',
  blocked: 'confirm-decision-blocked',
};

export interface DecisionToSign {
  c: CaseView;
  decision: CaseDecision;
  rationale: string;
  key: SigningKey | null;
  keyPath: string;
  journal: string;
}

/**
 * The key that signs, as its file was read when the confirmation opened (the engine signs only
 * if the file still holds this key id): the id, its role and status in the trust store, its label.
 */
export function SigningKeyShown({ keyFile, k }: { keyFile: string; k: SigningKey | null }) {
  return (
    <>
      {k?.keyId ? <CopyValue value={k.keyId} label="the key id that signs" /> : 'no Ed25519 key'}
      <br />
      {k ? keyStanding(k) : 'not in the trust store'}
      {k?.label ? ` (${k.label})` : ''}
      <br />
      <span className="muted">
        read from <span className="mono">{keyFile.split(/[\\/]/).pop()}</span> as this confirmation opened; the engine
        refuses to sign if the file holds another key by then
      </span>
    </>
  );
}

/**
 * Exactly what a case decision's signature covers, before anything is written (as
 * ConfirmSign does for judgements): the entry the journal appends, `quarantine-<decision>`
 * on the case's subject with the body {case, decision, rationale}, and the key that signs
 * it. Cancel (or Escape) writes nothing; only "Sign and record" calls the engine.
 */
export function ConfirmDecision({
  what,
  refused,
  onSign,
  onCancel,
}: {
  what: DecisionToSign;
  refused: string | null;
  onSign: () => void;
  onCancel: () => void;
}) {
  const { c, key } = what;
  const to = c.decisions?.find((d) => d.decision === what.decision)?.to;
  return (
    <SignDialog
      ids={IDS}
      title={`Sign this ${what.decision}?`}
      signLabel={`Sign and record ${what.decision}`}
      refused={refused}
      onSign={onSign}
      onCancel={onCancel}
    >
      <p>
        The engine appends this entry to the journal and signs it with the key below at once. A signed entry cannot be
        taken back.
      </p>
      <dl className="meta" data-testid="confirm-decision-fields">
        <dt>Entry kind</dt>
        <dd className="mono">quarantine-{what.decision}</dd>
        <dt>Subject claim</dt>
        <dd className="mono" data-testid="confirm-decision-claim">
          <ClaimWarned claim={c.claimRef} testId="confirm-decision-claim-warning" />
        </dd>
        {c.artifact && (
          <>
            <dt>Subject artifact</dt>
            <dd className="small">
              <CopyValue value={c.artifact} label="the subject artifact hash" />
            </dd>
          </>
        )}
        <dt>Case</dt>
        <dd className="small">
          {c.caseId} ({c.state}
          {to ? ` → ${to}` : ''}), opening entry{' '}
          {c.openHash ? <CopyValue value={c.openHash} label="the case's opening entry hash" /> : 'unknown'}
        </dd>
        <dt>Decision</dt>
        <dd data-testid="confirm-decision-decision">{what.decision}</dd>
        <dt>Rationale</dt>
        <dd className="rationale-text">
          <Shown text={what.rationale} {...RATIONALE_SHOWN} />
        </dd>
        <dt>Signing key</dt>
        <dd className="small" data-testid="confirm-decision-key">
          <SigningKeyShown keyFile={what.keyPath} k={key} />
        </dd>
        <dt>Journal</dt>
        <dd className="mono small">{what.journal}</dd>
      </dl>
    </SignDialog>
  );
}
