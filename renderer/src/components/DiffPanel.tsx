/**
 * The Compare view: two artifacts side by side as a structured diff (shared/diff.ts). Each
 * side is the open result, a built-in example, a file by its path or a picked file, verified
 * or replayed by the engine; two kinds are refused (but for content no kind claims), as
 * `reprise diff` refuses them (docs/compare.md). What is chosen and compared is held in
 * compare-store.ts, whose link the address carries; a link's side that no longer reads as
 * its sharer's run did is said above the diff.
 */
import { useId } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { CheckMode } from '../../../shared/api';
import { escapeControls } from '../../../shared/controls';
import { useCompare, type Choice, type From, type Side } from '../compare-store';
import { useStore } from '../store';
import { artifactExamples } from '../lib/examples';
import { DiffView } from './DiffView';
import { PathField } from './PathField';
import { OptionsSaid } from './ReplayNotes';
import { Shown } from './Shown';

/** The options a link gave a side: no field holds them, so they are said; the side's run takes them alone. */
function LinkedOptions({ options }: { options: Record<string, string> | undefined }) {
  const entries = Object.entries(options ?? {});
  if (entries.length === 0) return null;
  return (
    <p className="small" data-testid="diff-side-linked">
      From the link, this side runs with <OptionsSaid entries={entries} />.
    </p>
  );
}

/** Where a side's artifact is: an example, a path or a picked file (the open result needs nothing more). */
function SideTarget({ label, id, c, set }: { label: string; id: string; c: Choice; set: (c: Choice) => void }) {
  // Artifacts only, as the Open view lists them: no key, trust store or registry to compare.
  const examples = artifactExamples(useStore((s) => s.examples));
  if (c.from === 'example')
    return (
      <div className="field">
        <label htmlFor={`${id}-ex`}>{label}: example</label>
        <select id={`${id}-ex`} value={c.example} onChange={(e) => set({ ...c, example: e.target.value })}>
          <option value="">choose…</option>
          {examples.map((x) => (
            <option key={x.path} value={x.path}>
              {x.path}
            </option>
          ))}
        </select>
      </div>
    );
  if (c.from === 'path')
    return (
      <PathField
        id={`${id}-path`}
        label={`${label}: path`}
        kind="file"
        value={c.path}
        onChange={(path) => set({ ...c, path })}
      />
    );
  if (c.from === 'file')
    return (
      <div className="field">
        <label htmlFor={`${id}-file`}>{label}: file</label>
        <input id={`${id}-file`} type="file" onChange={(e) => set({ ...c, file: e.target.files?.[0] ?? null })} />
      </div>
    );
  return null;
}

/** One side's pickers: where from, which, verified or replayed. */
function SidePicker({ side, c, set }: { side: 'Left' | 'Right'; c: Choice; set: (c: Choice) => void }) {
  const id = useId();
  const artifact = useStore((s) => s.artifact);
  return (
    <fieldset className="diff-side" data-testid={`diff-side-${side.toLowerCase()}`}>
      <legend>{side}</legend>
      <div className="field">
        <label htmlFor={`${id}-from`}>{side}: compare</label>
        <select id={`${id}-from`} value={c.from} onChange={(e) => set({ ...c, from: e.target.value as From })}>
          {/* An option holds text only: the name is escaped as Shown would show it. */}
          <option value="open">
            the open result{artifact ? ` (${escapeControls(artifact.name)})` : ' (none open)'}
          </option>
          <option value="example">a built-in example</option>
          <option value="path">a file by its path</option>
          <option value="file">a file</option>
        </select>
      </div>
      <SideTarget label={side} id={id} c={c} set={set} />
      <div className="field">
        <label htmlFor={`${id}-mode`}>{side}: run</label>
        <select id={`${id}-mode`} value={c.mode} onChange={(e) => set({ ...c, mode: e.target.value as CheckMode })}>
          <option value="verify">verify</option>
          <option value="replay">replay</option>
        </select>
      </div>
      {c.mode === 'replay' && (
        <div className="field">
          <label htmlFor={`${id}-whatif`}>{side}: what-if (training)</label>
          <input
            id={`${id}-whatif`}
            value={c.whatIf}
            placeholder="model=ref-2"
            onChange={(e) => set({ ...c, whatIf: e.target.value })}
          />
        </div>
      )}
      <LinkedOptions options={c.linked} />
    </fieldset>
  );
}

/** The Compare view. */
export function DiffPanel() {
  const api = useStore((s) => s.api);
  const { left, right, busy, error, note, compared, choose, run } = useCompare(
    useShallow((s) => ({
      left: s.left,
      right: s.right,
      busy: s.busy,
      error: s.error,
      note: s.note,
      compared: s.compared,
      choose: s.choose,
      run: s.run,
    })),
  );
  const setSide = (side: Side) => (c: Choice) => choose(side, c);
  return (
    <section className="panel" aria-labelledby="compare-h">
      <h2 id="compare-h">Compare</h2>
      <p className="muted">
        Two artifacts of one kind (or one no kind claims), field by field by JSON pointer: their reports and, for JSON
        artifacts, their parsed content. A replay against its original is in the Replay view. The address names the
        comparison on screen: a reload or the link shared runs both sides again and compares them.
      </p>
      <div className="diff-sides">
        <SidePicker side="Left" c={left} set={setSide('left')} />
        <SidePicker side="Right" c={right} set={setSide('right')} />
      </div>
      <div className="toolbar">
        <button
          type="button"
          className="primary"
          disabled={!api || busy}
          onClick={() => void run()}
          data-testid="diff-run"
        >
          Compare
        </button>
        {busy && <span role="status">Comparing…</span>}
      </div>
      {error && (
        <p role="alert" className="field-error" data-testid="diff-error" id="diff-error" tabIndex={-1}>
          <Shown text={error} />
        </p>
      )}
      {compared && note && (
        <p className="cap-note" role="note" id="diff-seen" tabIndex={-1} data-testid="diff-seen">
          <Shown text={note} />
        </p>
      )}
      {compared && <DiffView {...compared} fileBase="reprise" />}
    </section>
  );
}
