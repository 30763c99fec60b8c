/** A structured diff side by side (shared/diff.ts): pointer, left, right, the exact difference, the changed span marked. */
import { Fragment, useId } from 'react';
import {
  cutText,
  lengthWords,
  LITERAL_NOTE,
  literalNote,
  shownEntryPieces,
  shownPlace,
  spanCodePoints,
  spanParts,
  type DiffEntry,
  type DiffResult,
} from '../../../shared/diff';
import { diffPage, type DiffSideLabel } from '../../../shared/diff-html';
import { spanStartWords } from '../../../shared/diff-words';
import '../diff.css';
import { download } from './ExportView';
import { Shown } from './Shown';

/** Strings longer than this say their length and where the change starts. */
const LONG = 80;

/** One side of a difference: absent, a changed string with its span marked, a number as written, or the value. */
function DiffValue({ e, side }: { e: DiffEntry; side: 'left' | 'right' }) {
  const v = e[side];
  if (v === undefined) return <span className="diff-absent">absent</span>;
  const literal = side === 'left' ? e.leftLiteral : e.rightLiteral;
  if (literal !== undefined)
    return (
      <>
        <pre>{cutText(literal)}</pre>
        <small className="muted">{LITERAL_NOTE}</small>
      </>
    );
  if (e.span && typeof v === 'string') {
    const p = spanParts(v, e.span, side);
    const Mark = side === 'left' ? 'del' : 'ins';
    return (
      <>
        <pre>
          {p.cutBefore && '…'}
          {/* The string isolated, as each string of a value is (ValueText). */}
          <bdi>
            {p.before}
            <Mark>{p.changed}</Mark>
            {p.cutChanged > 0 && <bdi>{`… (${p.cutChanged.toLocaleString('en')} more characters)`}</bdi>}
            {p.after}
          </bdi>
          {p.cutAfter && '…'}
        </pre>
        {v.length > LONG && (
          <small className="muted">
            {v.length.toLocaleString('en')} characters; {spanStartWords(e.span.prefix)}
          </small>
        )}
      </>
    );
  }
  // As JSON, strings quoted, as the terminal and the page show it: "1" against 1 is a change one
  // can see; a number beyond double precision inside it as written (DiffEntry.leftText).
  const note = literalNote(e, side);
  return (
    <>
      <pre>
        <ValueText e={e} side={side} />
      </pre>
      {note !== null && <small className="muted">{note}</small>}
    </>
  );
}

/**
 * One side shown whole, pretty-printed (shownEntryPieces), each JSON string in it isolated
 * (`<bdi>`), as the page does: a member name or value in a right-to-left script would
 * otherwise reorder the tokens around it, `"א": "1"` reading as `"1" :"א"`.
 */
function ValueText({ e, side }: { e: DiffEntry; side: 'left' | 'right' }) {
  const { pieces, more } = shownEntryPieces(e, side, 2);
  return (
    <>
      {pieces.map((p, i) => (p.string ? <bdi key={i}>{p.text}</bdi> : <Fragment key={i}>{p.text}</Fragment>))}
      {more}
    </>
  );
}

const sideText = (s: DiffSideLabel): string =>
  [s.name, s.kind, s.verdict?.toUpperCase(), s.sha256, s.content].filter(Boolean).join(' · ');

export interface DiffViewProps {
  result: DiffResult;
  what: string;
  left: DiffSideLabel;
  right: DiffSideLabel;
  /** The exported file's name without extension. */
  fileBase: string;
  /** Heading level of the view's own title. */
  level?: 2 | 3;
}

function Summary({ result }: { result: DiffResult }) {
  if (result.identical)
    return (
      <p role="status" data-testid="diff-summary">
        Identical: no difference.
      </p>
    );
  return (
    <>
      <p role="status" data-testid="diff-summary">
        {result.total.toLocaleString('en')} difference{result.total === 1 ? '' : 's'}.
      </p>
      {result.truncated && (
        <p className="cap-note" role="note" data-testid="diff-cap">
          Showing the first {result.differences.length.toLocaleString('en')} of {result.total.toLocaleString('en')}{' '}
          differences (every one is counted;{' '}
          {result.truncatedBy === 'pointers' ? (
            <>their pointers reached {result.pointerBudget.toLocaleString('en')} characters, the most a listing holds</>
          ) : (
            <>
              <code>reprise diff --max-differences N</code> lists more
            </>
          )}
          ).
        </p>
      )}
    </>
  );
}

/** The diff: what was compared, the count, the lengths that differ, every listed difference, its export. */
export function DiffView({ result, what, left, right, fileBase, level = 2 }: DiffViewProps) {
  const H = level === 2 ? 'h2' : 'h3';
  const id = useId();
  const page = () => diffPage({ title: `Reprise diff: ${what}`, what, left, right, result });
  return (
    <section aria-labelledby={id} data-testid="diff-view">
      <H id={id}>Differences: {what}</H>
      <dl className="diff-labels">
        <dt>Left</dt>
        <dd className="mono small">
          <Shown text={sideText(left)} />
        </dd>
        <dt>Right</dt>
        <dd className="mono small">
          <Shown text={sideText(right)} />
        </dd>
      </dl>
      <Summary result={result} />
      <div className="toolbar">
        <button
          type="button"
          onClick={() => download(`${fileBase}.diff.html`, 'text/html', page())}
          data-testid="diff-export"
        >
          Export HTML
        </button>
      </div>
      {result.lengths.length > 0 && (
        <ul className="small" data-testid="diff-lengths">
          {result.lengths.map((l) => (
            <li key={l.pointer}>
              <code>{shownPlace(l)}</code>: {lengthWords(l)}
            </li>
          ))}
        </ul>
      )}
      {!result.identical && <DiffTable differences={result.differences} />}
    </section>
  );
}

function DiffTable({ differences }: { differences: DiffEntry[] }) {
  return (
    <table className="grid diff-table" data-testid="diff-table">
      <caption className="visually-hidden">Differences by JSON pointer</caption>
      <colgroup>
        <col style={{ width: '4%' }} />
        <col style={{ width: '8%' }} />
        <col style={{ width: '20%' }} />
        <col style={{ width: '29%' }} />
        <col style={{ width: '29%' }} />
        <col style={{ width: '10%' }} />
      </colgroup>
      <thead>
        <tr>
          <th scope="col">#</th>
          <th scope="col">Change</th>
          <th scope="col">Pointer</th>
          <th scope="col">Left</th>
          <th scope="col">Right</th>
          <th scope="col">Right − left</th>
        </tr>
      </thead>
      <tbody>
        {differences.map((e, i) => (
          <tr key={i} data-pointer={e.pointer}>
            <td>{i + 1}</td>
            <td>{e.op}</td>
            <td className="mono small">{shownPlace(e)}</td>
            <td>
              <DiffValue e={e} side="left" />
            </td>
            <td>
              <DiffValue e={e} side="right" />
            </td>
            <td className="mono small">
              {e.difference ?? ''}
              {spanCodePoints(e)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
