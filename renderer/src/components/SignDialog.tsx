import { useEffect, useRef, type ReactNode } from 'react';
import { SignBlocked } from './SignBlocked';

/** The ids of one confirmation's parts (tests and aria-describedby name them). */
export interface SignDialogIds {
  dialog: string;
  heading: string;
  cancel: string;
  sign: string;
  blocked: string;
}

/**
 * The modal confirmation before a signature (a judgement, a case decision): what will be
 * signed, then Cancel (or Escape), which writes nothing, and the one button that calls the
 * engine, disabled with the reason beside it when signing was found refused meanwhile.
 */
export function SignDialog({
  ids,
  title,
  signLabel,
  refused,
  onSign,
  onCancel,
  children,
}: {
  ids: SignDialogIds;
  title: string;
  signLabel: string;
  refused: string | null;
  onSign: () => void;
  onCancel: () => void;
  children: ReactNode;
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
      aria-labelledby={ids.heading}
      onCancel={onCancel}
      data-testid={ids.dialog}
    >
      <h2 id={ids.heading}>{title}</h2>
      {children}
      <div className="toolbar">
        <button type="button" onClick={onCancel} data-testid={ids.cancel}>
          Cancel
        </button>
        <button
          type="button"
          className="primary"
          onClick={onSign}
          disabled={refused !== null}
          {...(refused ? { 'aria-describedby': ids.blocked } : {})}
          data-testid={ids.sign}
        >
          {signLabel}
        </button>
      </div>
      {refused && <SignBlocked id={ids.blocked} reason={refused} />}
    </dialog>
  );
}
