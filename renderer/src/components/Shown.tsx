import { controlPieces, type ShownAs } from '../../../shared/controls';

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
