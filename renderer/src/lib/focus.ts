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
