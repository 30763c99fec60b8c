import type { JudgementDecision, SigningKey } from '../../../shared/api';
import { CopyValue } from './Copy';
import { SigningKeyShown } from './ConfirmDecision';
import { RATIONALE_SHOWN, Shown } from './Shown';
import { SignDialog } from './SignDialog';

const IDS = {
  dialog: 'confirm-sign',
  heading: 'confirm-h',
  cancel: 'confirm-cancel',
  sign: 'confirm-sign-button',
  blocked: 'confirm-blocked',
};

export interface ToSign {
  artifact: string;
  reportDigest: string | null;
  pointer: string;
  label: string;
  decision: JudgementDecision;
  rationale: string;
  key: SigningKey;
  journal: string;
}

/**
 * Exactly what the signature will cover, before anything is written: a modal dialog whose
 * Cancel (or Escape) writes nothing; only "Sign and anchor" calls the engine, and not once
 * the journal was found to fail verification meanwhile (`refused` says why).
 */
export function ConfirmSign({
  what,
  refused,
  onSign,
  onCancel,
}: {
  what: ToSign;
  refused: string | null;
  onSign: () => void;
  onCancel: () => void;
}) {
  return (
    <SignDialog
      ids={IDS}
      title="Sign this judgement?"
      signLabel="Sign and anchor"
      refused={refused}
      onSign={onSign}
      onCancel={onCancel}
    >
      <p>
        The engine signs these fields with your key and anchors the entry in the journal at once. A signed entry cannot
        be taken back.
      </p>
      <dl className="meta" data-testid="confirm-fields">
        <dt>Subject artifact</dt>
        <dd className="small">
          <CopyValue value={what.artifact} label="the subject artifact hash" />
        </dd>
        <dt>Report digest</dt>
        <dd className="small">
          {what.reportDigest ? (
            <CopyValue value={what.reportDigest} label="the report digest" />
          ) : (
            'computed by the engine from the report shown'
          )}
        </dd>
        <dt>Item</dt>
        <dd>
          {what.label} <span className="mono small">({what.pointer === '' ? 'the whole report' : what.pointer})</span>
        </dd>
        <dt>Decision</dt>
        <dd data-testid="confirm-decision">{what.decision}</dd>
        <dt>Rationale</dt>
        <dd className="rationale-text">
          <Shown text={what.rationale} {...RATIONALE_SHOWN} />
        </dd>
        <dt>Signing key</dt>
        <dd className="small" data-testid="confirm-key">
          <SigningKeyShown keyFile={what.key.path} k={what.key} />
        </dd>
        <dt>Journal</dt>
        <dd className="mono small">{what.journal}</dd>
      </dl>
    </SignDialog>
  );
}
