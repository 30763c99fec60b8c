import { useEffect, useRef } from 'react';
import type { JudgementDecision, SigningKey } from '../../../shared/api';
import { CopyValue } from './Copy';
import { SignBlocked } from './SignBlocked';

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
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      className="confirm-sign"
      aria-labelledby="confirm-h"
      onCancel={onCancel}
      data-testid="confirm-sign"
    >
      <h2 id="confirm-h">Sign this judgement?</h2>
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
        <dd className="rationale-text">{what.rationale}</dd>
        <dt>Key id</dt>
        <dd className="small">
          {what.key.keyId ? <CopyValue value={what.key.keyId} label="the key id that signs" /> : 'not an Ed25519 key'}
        </dd>
        <dt>Role</dt>
        <dd>
          {what.key.role ?? 'not in the trust store'}
          {what.key.label ? ` (${what.key.label})` : ''}
        </dd>
        <dt>Journal</dt>
        <dd className="mono small">{what.journal}</dd>
      </dl>
      <div className="toolbar">
        <button type="button" onClick={onCancel} data-testid="confirm-cancel">
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          onClick={onSign}
          disabled={refused !== null}
          {...(refused ? { 'aria-describedby': 'confirm-blocked' } : {})}
          data-testid="confirm-sign-button"
        >
          Sign and anchor
        </button>
      </div>
      {refused && <SignBlocked id="confirm-blocked" reason={refused} />}
    </dialog>
  );
}
