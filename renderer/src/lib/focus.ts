/**
 * After an action the keyboard focus moves to its result (the verdict, the finding in the
 * editor, the job's note), never dropping to <body>.
 */
/** Moves keyboard focus to the element with this id once it exists (it may mount a frame later). */
export function focusWhenShown(id: string, tries = 20): void {
  const el = document.getElementById(id);
  if (el) {
    el.focus();
    return;
  }
  if (tries > 0) requestAnimationFrame(() => focusWhenShown(id, tries - 1));
}

/**
 * Returns focus to the control that opened a panel, once the panel closes (its own buttons are
 * gone with it); to the element with id `fallback` when that control is gone too or none was
 * focused (the panel opened by itself).
 */
export function returnFocus(opener: Element | null, fallback: string): void {
  if (opener instanceof HTMLElement && opener.isConnected && opener !== document.body) opener.focus();
  else focusWhenShown(fallback);
}

/**
 * Moves focus to the element with id `id` as soon as a store's state first passes `arrived`
 * (an action's result is in the store, so shown a frame later), not when the action's promise
 * settles after more work. Returns the call that stops waiting (the result may never come).
 */
export function focusOnArrival<S>(
  subscribe: (listener: (state: S) => void) => () => void,
  arrived: (state: S) => boolean,
  id: string,
): () => void {
  const stop = subscribe((state) => {
    if (!arrived(state)) return;
    stop();
    focusWhenShown(id);
  });
  return stop;
}
