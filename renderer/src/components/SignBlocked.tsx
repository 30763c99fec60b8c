/**
 * Why a sign button is disabled, shown beside it; the button names this paragraph in its
 * aria-describedby, so a screen reader says why as it reads the button.
 */
export function SignBlocked({ id, reason }: { id: string; reason: string }) {
  return (
    <p id={id} className="bad small" data-testid="sign-blocked">
      {reason}
    </p>
  );
}
