/**
 * A replay's original against its replayed, field by field: under the one hash comparison a
 * dump's replay makes, the expression behind it (tokens recorded against replayed, aligned
 * by position, with both lengths said when they differ), and the structured diff of every
 * original value against its replayed one (shared/diff.ts replaySides).
 */
import { useId, useMemo, useState } from 'react';
import { diffJson, replaySides } from '../../../shared/diff';
import { isPlainObject } from '../../../shared/plain-object';
import type { JsonValue, Report } from '../../../shared/report';
import { shownValue } from '../../../shared/report';
import { DiffView } from './DiffView';

/** Differences the Replay view lists at most (a large replay's rows are in the comparisons table above). */
const REPLAY_DIFF_LIMIT = 200;

/** Token rows shown at most; the rest are counted. */
const MAX_TOKEN_ROWS = 2000;

type Obj = { [k: string]: JsonValue };
const obj = (v: JsonValue | undefined): Obj | null => (isPlainObject(v) ? (v as Obj) : null);
const arr = (v: JsonValue | undefined): JsonValue[] | null => (Array.isArray(v) ? v : null);

/** The recorded and replayed token lists (and log-probabilities, when both carry them), or null. */
export function tokenSides(report: Pick<Report, 'details'>): {
  recorded: JsonValue[];
  replayed: JsonValue[];
  logprobs: { recorded: JsonValue[]; replayed: JsonValue[] } | null;
} | null {
  const ex = obj(report.details?.['expression']);
  const rec = obj(ex?.['recorded']);
  const rep = obj(ex?.['replayed']);
  const recorded = arr(rec?.['tokens']);
  const replayed = arr(rep?.['tokens']);
  if (!recorded || !replayed) return null;
  const lr = arr(rec?.['logprobs']);
  const lp = arr(rep?.['logprobs']);
  return { recorded, replayed, logprobs: lr && lp ? { recorded: lr, replayed: lp } : null };
}

const cellOf = (list: JsonValue[], i: number): string => (i < list.length ? shownValue(list[i]) : '');

/** Tokens recorded against replayed, position by position. */
export function DiffTokens({ report }: { report: Pick<Report, 'details'> }) {
  const id = useId();
  const sides = tokenSides(report);
  if (!sides) return null;
  const { recorded, replayed, logprobs } = sides;
  const rows = Math.max(recorded.length, replayed.length);
  const shown = Math.min(rows, MAX_TOKEN_ROWS);
  const differing = Array.from({ length: rows }, (_, i) => cellOf(recorded, i) !== cellOf(replayed, i)).filter(
    Boolean,
  ).length;
  return (
    <section aria-labelledby={id} data-testid="diff-tokens">
      <h3 id={id}>Expression tokens: recorded against replayed</h3>
      <p data-testid="token-lengths">
        {recorded.length === replayed.length
          ? `${recorded.length.toLocaleString('en')} tokens on both sides`
          : `The lengths differ: ${recorded.length.toLocaleString('en')} tokens recorded, ${replayed.length.toLocaleString('en')} replayed`}
        ; {differing.toLocaleString('en')} position{differing === 1 ? '' : 's'} differ.
        {shown < rows && ` The first ${shown.toLocaleString('en')} positions are shown.`}
      </p>
      <table className="grid diff-tokens">
        <caption className="visually-hidden">Tokens by position, recorded and replayed</caption>
        <thead>
          <tr>
            <th scope="col">Position</th>
            <th scope="col">Recorded</th>
            {logprobs && <th scope="col">Recorded log-probability</th>}
            <th scope="col">Replayed</th>
            {logprobs && <th scope="col">Replayed log-probability</th>}
            <th scope="col">Same</th>
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: shown }, (_, i) => {
            const same = cellOf(recorded, i) === cellOf(replayed, i);
            return (
              <tr key={i} className={same ? undefined : 'differs'}>
                <td>{i}</td>
                <td className="mono small">{i < recorded.length ? cellOf(recorded, i) : '(none)'}</td>
                {logprobs && <td className="mono small">{cellOf(logprobs.recorded, i)}</td>}
                <td className="mono small">{i < replayed.length ? cellOf(replayed, i) : '(none)'}</td>
                {logprobs && <td className="mono small">{cellOf(logprobs.replayed, i)}</td>}
                <td>{same ? 'yes' : 'no'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

/**
 * Replays with more comparisons than this build their field-by-field diff when asked: the
 * Replay view of a 100,000-row replay mounts its table first (bench/ui.bench.js).
 */
const AUTO_DIFF_MAX = 1000;

/** The structured diff of every original against its replayed value. */
function ReplayFieldDiff({ report }: { report: Report }) {
  const result = useMemo(() => {
    const { left, right } = replaySides(report);
    return diffJson(left, right, { limit: REPLAY_DIFF_LIMIT });
  }, [report]);
  const name = report.artifact.path;
  return (
    <DiffView
      result={result}
      what="original against replayed"
      left={{ name: `${name} (original)`, kind: report.artifact.kind }}
      right={{ name: `${name} (replayed)`, kind: report.artifact.kind }}
      fileBase={name.split(/[\\/]/).pop() || 'replay'}
      level={3}
    />
  );
}

/** The replay's fields behind its comparisons: the token rows and the structured diff. */
export function DiffReplay({ report }: { report: Report }) {
  const [asked, setAsked] = useState<Report | null>(null);
  const count = report.comparisons?.length ?? 0;
  if (count === 0) return null;
  const shown = count <= AUTO_DIFF_MAX || asked === report;
  return (
    <>
      <DiffTokens report={report} />
      {shown ? (
        <ReplayFieldDiff report={report} />
      ) : (
        <button type="button" onClick={() => setAsked(report)} data-testid="replay-field-diff">
          Compare the {count.toLocaleString('en')} originals against their replayed values field by field
        </button>
      )}
    </>
  );
}
