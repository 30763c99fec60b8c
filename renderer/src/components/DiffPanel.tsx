/**
 * The Compare view: two artifacts side by side as a structured diff (shared/diff.ts). Each
 * side is the open result, a built-in example or a picked file, verified or replayed by the
 * engine; two kinds are refused (but for content no kind claims), as `reprise diff` refuses them (docs/compare.md).
 */
import { useId, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { CheckMode, CompareSide, JobSource, RepriseClient } from '../../../shared/api';
import { artifactsWords, type DiffResult } from '../../../shared/diff';
import type { DiffSideLabel } from '../../../shared/diff-html';
import type { Report } from '../../../shared/report';
import { uploadFile } from '../lib/file-prep';
import { startWatchedJob } from '../lib/watch-job';
import { optionsFor, useStore } from '../store';
import { DiffView } from './DiffView';

type From = 'open' | 'example' | 'file';
interface Choice {
  from: From;
  example: string;
  file: File | null;
  mode: CheckMode;
  /** A replay's what-if substitution (`model=ref-2`): two model versions of one artifact. */
  whatIf: string;
}
interface Compared {
  result: DiffResult;
  what: string;
  left: DiffSideLabel;
  right: DiffSideLabel;
}

const whatIfOf = (c: Choice): string[] => (c.mode === 'replay' && c.whatIf.trim() ? [c.whatIf.trim()] : []);

/** Runs one side's job; its report. */
async function jobOn(api: RepriseClient, source: JobSource, c: Choice, opts: Record<string, string>): Promise<Report> {
  const whatIf = whatIfOf(c);
  const req = {
    source,
    mode: c.mode,
    ...(whatIf.length ? { whatIf } : {}),
    ...(Object.keys(opts).length ? { options: opts } : {}),
  };
  const end = await (await startWatchedJob(api, req)).end;
  if (!end.ok) throw new Error(end.message);
  return end.report;
}

/** Runs (or, for the open result in its own mode, takes) one side's report; where its artifact is. */
async function readSide(api: RepriseClient, c: Choice): Promise<CompareSide> {
  const s = useStore.getState();
  let side: CompareSide;
  if (c.from === 'open') {
    const source = s.artifact?.source;
    if (!s.artifact || !source) throw new Error('No artifact is open: open one first, or choose an example or a file.');
    // The report shown is this side's when it was run the same way (action and substitution).
    const same = s.reportMode === c.mode && (s.artifact.whatIf ?? []).join() === whatIfOf(c).join();
    const report = s.report && same ? s.report : await jobOn(api, source, c, optionsFor(source, s.openOptions));
    side = { source, name: s.artifact.name, report };
  } else if (c.from === 'example') {
    if (!c.example) throw new Error('Choose an example for each side.');
    const source: JobSource = { type: 'example', path: c.example };
    side = { source, name: c.example, report: await jobOn(api, source, c, {}) };
  } else {
    if (!c.file) throw new Error('Choose a file for each side.');
    const sent = await uploadFile(api, c.file);
    await sent.sent;
    sent.drop(); // the window's own hash of it is not wanted here
    const source: JobSource = { type: 'upload', uploadId: sent.uploadId };
    side = { source, name: c.file.name, report: await jobOn(api, source, c, optionsFor(source, s.openOptions)) };
  }
  if (whatIfOf(c).length) side.name = `${side.name} (what-if ${whatIfOf(c).join(', ')})`;
  return side;
}

/** Both sides run, then diffed by the engine (their content read there, to the CLI's limit). */
async function compareSides(api: RepriseClient, a: Choice, b: Choice): Promise<Compared> {
  const left = await readSide(api, a);
  const right = await readSide(api, b);
  const { kind: _kind, ...compared } = await api.compareArtifacts({ left, right });
  const modes = a.mode === b.mode ? (a.mode === 'replay' ? 'the replays of ' : '') : 'a verification and a replay of ';
  const kinds = artifactsWords(left.report.artifact.kind, right.report.artifact.kind);
  return { ...compared, what: `${modes}${kinds}` };
}

const NEW_CHOICE: Choice = { from: 'example', example: '', file: null, mode: 'verify', whatIf: '' };

/** One side's pickers: where from, which, verified or replayed. */
function SidePicker({ side, c, set }: { side: 'Left' | 'Right'; c: Choice; set: (c: Choice) => void }) {
  const id = useId();
  const { examples, artifact } = useStore(useShallow((s) => ({ examples: s.examples, artifact: s.artifact })));
  return (
    <fieldset className="diff-side" data-testid={`diff-side-${side.toLowerCase()}`}>
      <legend>{side}</legend>
      <div className="field">
        <label htmlFor={`${id}-from`}>{side}: compare</label>
        <select id={`${id}-from`} value={c.from} onChange={(e) => set({ ...c, from: e.target.value as From })}>
          <option value="open">the open result{artifact ? ` (${artifact.name})` : ' (none open)'}</option>
          <option value="example">a built-in example</option>
          <option value="file">a file</option>
        </select>
      </div>
      {c.from === 'example' && (
        <div className="field">
          <label htmlFor={`${id}-ex`}>{side}: example</label>
          <select id={`${id}-ex`} value={c.example} onChange={(e) => set({ ...c, example: e.target.value })}>
            <option value="">choose…</option>
            {examples.map((x) => (
              <option key={x.path} value={x.path}>
                {x.path}
              </option>
            ))}
          </select>
        </div>
      )}
      {c.from === 'file' && (
        <div className="field">
          <label htmlFor={`${id}-file`}>{side}: file</label>
          <input id={`${id}-file`} type="file" onChange={(e) => set({ ...c, file: e.target.files?.[0] ?? null })} />
        </div>
      )}
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
    </fieldset>
  );
}

/** The Compare view. */
export function DiffPanel() {
  const api = useStore((s) => s.api);
  const [left, setLeft] = useState<Choice>(NEW_CHOICE);
  const [right, setRight] = useState<Choice>(NEW_CHOICE);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [compared, setCompared] = useState<Compared | null>(null);
  const run = async () => {
    if (!api) return;
    setBusy(true);
    setError(null);
    setCompared(null);
    try {
      setCompared(await compareSides(api, left, right));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel" aria-labelledby="compare-h">
      <h2 id="compare-h">Compare</h2>
      <p className="muted">
        Two artifacts of one kind (or one no kind claims), field by field by JSON pointer: their reports and, for JSON
        artifacts, their parsed content. A replay against its original is in the Replay view.
      </p>
      <div className="diff-sides">
        <SidePicker side="Left" c={left} set={setLeft} />
        <SidePicker side="Right" c={right} set={setRight} />
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
        <p role="alert" className="field-error" data-testid="diff-error">
          {error}
        </p>
      )}
      {compared && <DiffView {...compared} fileBase="reprise" />}
    </section>
  );
}
