import type { CaseDecision, CaseView, SigningKey } from '../../../shared/api';
import { CopyValue } from './Copy';
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
        <dd className="mono">{c.claimRef}</dd>
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
        <dd className="rationale-text">{what.rationale}</dd>
        <dt>Signing key</dt>
        <dd className="small" data-testid="confirm-decision-key">
          {key?.keyId ? <CopyValue value={key.keyId} label="the key id that signs" /> : what.keyPath}
          <br />
          {key?.role ?? 'not in the trust store'}
          {key?.label ? ` (${key.label})` : ''}
        </dd>
        <dt>Journal</dt>
        <dd className="mono small">{what.journal}</dd>
      </dl>
    </SignDialog>
  );
}
