import { controlPieces, escapeControls, type ShownAs } from '../../../shared/controls';

/**
 * A value the window did not write (a claim id, a rationale or evidence from a journal), with
 * every control and bidirectional character shown as its escape (shared/controls.ts, as the
 * terminal and the HTML pages show them) and marked, so that "claim:\u202egnp.exe" never
 * displays as "claim:exe.png" (ShownAs: what is kept raw, JSON text, an identifier's
 * invisible characters). Isolated (<bdi>) so a right-to-left claim cannot reorder what surrounds it.
 */
export function Shown({ text, ...as }: { text: string } & ShownAs) {
  return (
    <bdi>
      {controlPieces(text, as).map((p, i) =>
        p.control ? (
          <span key={i} className="control-escape" title="a control or bidirectional character, shown escaped">
            {p.text}
          </span>
        ) : (
          p.text
        ),
      )}
    </bdi>
  );
}

/** The line feeds and tabs a rationale keeps (every other control is shown escaped). */
export const RATIONALE_LAYOUT = '\n\t';

/**
 * How a rationale is shown (a case decision's or a judgement's: in its confirmation, the
 * case's history, the judgements listed; a form's warning says when it differs from what was typed): its line feeds and tabs as they are, and every
 * other control and every invisible character escaped, as a signed note's text is. The
 * signature covers hidden tag characters, variation selectors and Hangul fillers as much as
 * the letters, so the officer sees each one before signing it (docs/journal.md, "Invisible
 * characters", why ZWNJ and ZWJ are no exception).
 */
export const RATIONALE_SHOWN: Readonly<ShownAs> = Object.freeze({ keep: RATIONALE_LAYOUT, everyInvisible: true });

/** Whether a rationale is shown otherwise than typed (it holds a character RATIONALE_SHOWN escapes). */
export const rationaleHasEscapes = (text: string): boolean => escapeControls(text, RATIONALE_SHOWN) !== text;
