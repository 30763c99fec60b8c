import { useStore } from '../store';
import { useShallow } from 'zustand/react/shallow';

/** The running job: a progress bar and Cancel. */
export function JobBar() {
  const { job, cancel, lastJobNote, artifact } = useStore(
    useShallow((s) => ({ job: s.job, cancel: s.cancel, lastJobNote: s.lastJobNote, artifact: s.artifact })),
  );
  if (!job)
    return lastJobNote ? (
      <p className="note" role="status" data-testid="job-note" id="job-note" tabIndex={-1}>
        {lastJobNote}
      </p>
    ) : null;
  const pct = Math.round(job.fraction * 100);
  return (
    <div className="jobbar" role="status" data-testid="job">
      <span>
        {job.mode === 'replay' ? 'Replaying' : 'Verifying'} {artifact?.name}… {job.label}
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
