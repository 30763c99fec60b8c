import { useState, type MouseEvent } from 'react';
import { Shown } from './Shown';

/**
 * A value shown whole (it wraps; no tooltip needed) with a button that copies it. The one
 * copy control of every hash, key id and pointer. A pointer or a found value comes from the
 * artifact: shown escaped (Shown), copied as it is.
 */
export function CopyValue({ value, label, testId }: { value: string; label: string; testId?: string }) {
  const [done, setDone] = useState(false);
  const copy = (e: MouseEvent): void => {
    // Inside a clickable row (a finding, a chain node) copying must not also open the row.
    e.stopPropagation();
    void navigator.clipboard?.writeText(value).then(
      () => {
        setDone(true);
        setTimeout(() => setDone(false), 1500);
      },
      () => setDone(false),
    );
  };
  return (
    <span className="copy-value">
      <span className="mono" data-testid={testId}>
        <Shown text={value} />
      </span>{' '}
      <button
        type="button"
        className="copy"
        onClick={copy}
        onKeyDown={(e) => e.stopPropagation()}
        aria-label={`Copy ${label}`}
        data-copy={value}
      >
        {done ? 'Copied' : 'Copy'}
      </button>
    </span>
  );
}
