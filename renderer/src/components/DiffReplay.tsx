/**
 * A replay's original against its replayed, field by field: under the one hash comparison a
 * dump's replay makes, the expression behind it (tokens recorded against replayed, aligned
 * so that an inserted or dropped token is a row of its own, with both lengths said), and the structured diff of every
 * original value against its replayed one (shared/diff.ts replaySides).
 */
import { useId, useMemo, useState } from 'react';
import { alignItems, type AlignedRows } from '../../../shared/align';
import { diffJson, replaySides, sameJson } from '../../../shared/diff';
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

const cellOf = (list: JsonValue[], i: number): string => (i >= 0 && i < list.length ? shownValue(list[i]) : '');

/** How an alignment's rows differ: items on both sides that differ, and items on one side only. */
function rowCounts(rows: AlignedRows): { changed: number; recordedOnly: number; replayedOnly: number } {
  const c = { changed: 0, recordedOnly: 0, replayedOnly: 0 };
  for (let i = 0; i < rows.a.length; i++) {
    if (rows.same[i]) continue;
    if (rows.b[i] === -1) c.recordedOnly++;
    else if (rows.a[i] === -1) c.replayedOnly++;
    else c.changed++;
  }
  return c;
}

const plural = (n: number, one: string, many: string): string => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** What the token table says above its rows: both lengths, and how the aligned rows differ. */
function tokenSummary(recorded: number, replayed: number, rows: AlignedRows): string {
  const lengths =
    recorded === replayed
      ? `${plural(recorded, 'token', 'tokens')} on both sides`
      : `The lengths differ: ${recorded.toLocaleString('en')} tokens recorded, ${replayed.toLocaleString('en')} replayed`;
  const c = rowCounts(rows);
  const parts = [
    c.changed > 0 && `${plural(c.changed, 'token differs', 'tokens differ')}`,
    c.recordedOnly > 0 && `${plural(c.recordedOnly, 'token', 'tokens')} only recorded`,
    c.replayedOnly > 0 && `${plural(c.replayedOnly, 'token', 'tokens')} only replayed`,
  ].filter(Boolean);
  return `${lengths}; ${parts.length ? parts.join(', ') : 'every token is the same'}.`;
}

/** Tokens recorded against replayed, aligned (shared/align.ts): an inserted token is a row of its own. */
export function DiffTokens({ report }: { report: Pick<Report, 'details'> }) {
  const id = useId();
  const sides = tokenSides(report);
  const rows = useMemo(
    () => (sides ? alignItems(sides.recorded, sides.replayed, (x, y) => sameJson(x, y)) : null),
    // The sides are read from the report: it alone decides them.
    [report],
  );
  if (!sides || !rows) return null;
  const { recorded, replayed, logprobs } = sides;
  const shown = Math.min(rows.a.length, MAX_TOKEN_ROWS);
  const at = (i: number): string => (i === -1 ? '' : String(i));
  return (
    <section aria-labelledby={id} data-testid="diff-tokens">
      <h3 id={id}>Expression tokens: recorded against replayed</h3>
      <p data-testid="token-lengths">
        {tokenSummary(recorded.length, replayed.length, rows)}
        {shown < rows.a.length && ` The first ${shown.toLocaleString('en')} rows are shown.`}
      </p>
      <table className="grid diff-tokens">
        <caption className="visually-hidden">Tokens aligned, recorded and replayed</caption>
        <thead>
          <tr>
            <th scope="col">Recorded position</th>
            <th scope="col">Recorded</th>
            {logprobs && <th scope="col">Recorded log-probability</th>}
            <th scope="col">Replayed position</th>
            <th scope="col">Replayed</th>
            {logprobs && <th scope="col">Replayed log-probability</th>}
            <th scope="col">Same</th>
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: shown }, (_, r) => {
            const [i, j, same] = [rows.a[r]!, rows.b[r]!, rows.same[r]!];
            return (
              <tr key={r} className={same ? undefined : 'differs'}>
                <td>{at(i)}</td>
                <td className="mono small">{i === -1 ? '(none)' : cellOf(recorded, i)}</td>
                {logprobs && <td className="mono small">{cellOf(logprobs.recorded, i)}</td>}
                <td>{at(j)}</td>
                <td className="mono small">{j === -1 ? '(none)' : cellOf(replayed, j)}</td>
                {logprobs && <td className="mono small">{cellOf(logprobs.replayed, j)}</td>}
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
