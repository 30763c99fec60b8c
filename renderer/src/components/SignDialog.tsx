import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
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
 * Focus while a confirmation is open (WAI-ARIA dialog pattern): first on its heading, so
 * what will be signed is read from its start (the first focusable element is a Copy button
 * in the middle of the fields; the Sign button would skip them), and back on the control
 * that opened it when it closes. The closed dialog is removed by its owner before the
 * browser can restore focus itself, which left focus at <body>. After signing, the owner
 * moves focus on to the result once it is shown.
 */
function useDialogFocus(ref: RefObject<HTMLDialogElement | null>, heading: RefObject<HTMLHeadingElement | null>): void {
  // Taken at the first render, before the dialog exists (an effect run twice would take the heading).
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    heading.current?.focus();
    return () => {
      // The dialog is gone by now, so nothing outside it is inert. Focus already placed
      // elsewhere stays; an opener that is gone too (a closed case) has no place to return to.
      const lost = !document.activeElement || document.activeElement === document.body;
      if (lost && opener?.isConnected) opener.focus();
    };
  }, [ref, heading, opener]);
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
  const heading = useRef<HTMLHeadingElement>(null);
  useDialogFocus(ref, heading);
  return (
    <dialog
      ref={ref}
      className="confirm-sign"
      aria-labelledby={ids.heading}
      onCancel={onCancel}
      data-testid={ids.dialog}
    >
      <h2 id={ids.heading} tabIndex={-1} ref={heading}>
        {title}
      </h2>
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
