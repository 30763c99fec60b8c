import { controlPieces } from '../../../shared/controls';

/**
 * A value the window did not write (a claim id, a rationale or evidence from a journal), with
 * every control and bidirectional character shown as its escape (shared/controls.ts, as the
 * terminal and the HTML pages show them) and marked, so that "claim:\u202egnp.exe" never
 * displays as "claim:exe.png". `keep` names the controls shown as themselves (a rationale's
 * line feeds). Isolated (<bdi>) so a right-to-left claim cannot reorder what surrounds it.
 */
export function Shown({ text, keep = '' }: { text: string; keep?: string }) {
  return (
    <bdi>
      {controlPieces(text, keep).map((p, i) =>
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
