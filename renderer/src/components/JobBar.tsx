import { useStore } from '../store';
import { useShallow } from 'zustand/react/shallow';
import { Shown } from './Shown';

/** The running job: a progress bar and Cancel; else the last job's note (names in it shown escaped). */
export function JobBar() {
  const { job, cancel, lastJobNote, artifact } = useStore(
    useShallow((s) => ({ job: s.job, cancel: s.cancel, lastJobNote: s.lastJobNote, artifact: s.artifact })),
  );
  if (!job)
    return lastJobNote ? (
      <p className="note" role="status" data-testid="job-note" id="job-note" tabIndex={-1}>
        <Shown text={lastJobNote} />
      </p>
    ) : null;
  const pct = Math.round(job.fraction * 100);
  return (
    <div className="jobbar" role="status" data-testid="job">
      <span>
        {job.mode === 'replay' ? 'Replaying' : 'Verifying'} <Shown text={artifact?.name ?? ''} />… {job.label}
      </span>
      <progress max={100} value={pct} aria-label="Progress">
        {pct}%
      </progress>
      <span className="mono">{pct}%</span>
      <button type="button" onClick={() => void cancel()} data-testid="cancel">
        Cancel
      </button>
    </div>
  );
}
