import { useMemo } from 'react';
import type { CaseArtifact } from '../../../shared/case';
import { fieldOf, optionsNeeded, whereGiven, type OptionNeeded } from '../lib/case-needs';
import { useStore } from '../store';
import { Shown } from './Shown';

/** Artifacts named by path in one item at most; the rest are counted. */
const NAMED = 3;

const artifacts = (n: number): string => `${n.toLocaleString('en')} artifact${n === 1 ? '' : 's'}`;

/** Opens the Open view at the option's field: its engine options unfolded, the field focused once shown. */
function goToField(id: string, tries = 20): void {
  const el = document.getElementById(id);
  if (!el) {
    if (tries > 0) requestAnimationFrame(() => goToField(id, tries - 1));
    return;
  }
  const fold = el.closest('details');
  if (fold) fold.open = true;
  el.focus();
}

function Need({ n }: { n: OptionNeeded }) {
  const setView = useStore((s) => s.setView);
  const field = fieldOf(n.option);
  const more = n.artifacts.length - NAMED;
  return (
    <li data-testid="case-need" data-option={n.option}>
      <code>
        <Shown text={`--${n.flag}`} />
      </code>
      {field && <> ({field.label})</>} would decide findings (<Shown text={n.rules.join(', ')} />) of{' '}
      {artifacts(n.artifacts.length)}:{' '}
      {n.artifacts.slice(0, NAMED).map((p, i) => (
        <span key={p}>
          {i > 0 && ', '}
          <Shown text={p} />
        </span>
      ))}
      {more > 0 && ` and ${more.toLocaleString('en')} more`}. <Shown text={whereGiven(n)} />
      {field && (
        <>
          {' '}
          <button
            type="button"
            className="link"
            onClick={() => {
              setView('open');
              goToField(field.id);
            }}
            data-testid="case-need-go"
          >
            Go to the {field.label} field
          </button>
        </>
      )}
    </li>
  );
}

/**
 * What would decide the case's UNAVAILABLE artifacts that an option the case ran without
 * leaves undecided (CaseArtifact.needs): each option, how many artifacts it would decide
 * findings of, and where it is given. Nothing when no artifact is so.
 */
export function CaseNeeds({ list }: { list: readonly CaseArtifact[] }) {
  const needed = useMemo(() => optionsNeeded(list), [list]);
  if (needed.length === 0) return null;
  const undecided = new Set(needed.flatMap((n) => n.artifacts)).size;
  return (
    <div className="cap-note case-needs" role="note" aria-labelledby="case-needs-h" data-testid="case-needs">
      <p id="case-needs-h">
        <strong>
          {undecided.toLocaleString('en')} UNAVAILABLE artifact{undecided === 1 ? '' : 's'}
        </strong>{' '}
        {undecided === 1 ? 'has' : 'have'} findings that an option the case ran without would decide:
      </p>
      <ul>
        {needed.map((n) => (
          <Need key={n.option} n={n} />
        ))}
      </ul>
    </div>
  );
}
