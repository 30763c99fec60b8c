import { claimIdPieces } from '../../../shared/claim-id';
import { controlPieces, escapeControls, type ShownAs } from '../../../shared/controls';
import { claimIdWarning } from '../lib/officer';

/** Pieces of shown text, each escape marked (with `title` saying why it is escaped), isolated in a <bdi>. */
function Pieces({ pieces, title }: { pieces: { text: string; control: boolean }[]; title: string }) {
  return (
    <bdi>
      {pieces.map((p, i) =>
        p.control ? (
          <span key={i} className="control-escape" title={title}>
            {p.text}
          </span>
        ) : (
          p.text
        ),
      )}
    </bdi>
  );
}

/**
 * A value the window did not write (a claim id, a rationale or evidence from a journal), with
 * every control and bidirectional character shown as its escape (shared/controls.ts, as the
 * terminal and the HTML pages show them) and marked, so that "claim:\u202egnp.exe" never
 * displays as "claim:exe.png" (ShownAs: what is kept raw, JSON text, an identifier's
 * invisible characters). Isolated (<bdi>) so a right-to-left claim cannot reorder what surrounds it.
 */
export function Shown({ text, ...as }: { text: string } & ShownAs) {
  return <Pieces pieces={controlPieces(text, as)} title="a control or bidirectional character, shown escaped" />;
}

/**
 * A case's claim id as `quarantine list|show` print it (shared/claim-id.ts `claimIdPieces`): as
 * an identifier, every invisible character escaped, and, when it breaks the form a new case's
 * claim id must have (RPR-QUAR-008), its edge whitespace and, when it is not NFC, every character
 * beyond ASCII escaped too, so `claim:A ` or a decomposed `café` never reads as the claim it draws as.
 */
export function ClaimShown({ claim }: { claim: string }) {
  return (
    <Pieces
      pieces={claimIdPieces(claim)}
      title="a character of the claim id shown escaped: a control, bidirectional or invisible character, edge whitespace, or one of an id not in NFC"
    />
  );
}

/**
 * A claim id as ClaimShown shows it, followed, when it is shown otherwise than it draws, by
 * what the window says of it in words (lib/officer.ts `claimIdWarning`, RPR-QUAR-008): the
 * officer's confirmation and a replay's routing show a claim id the same way, so a claim that
 * draws as another is never read as it in one view and warned of in the next.
 */
export function ClaimWarned({ claim, testId }: { claim: string; testId?: string }) {
  const warning = claimIdWarning(claim);
  return (
    <>
      <ClaimShown claim={claim} />
      {warning && (
        <span className="bad small" data-testid={testId}>
          {' '}
          ({warning})
        </span>
      )}
    </>
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
