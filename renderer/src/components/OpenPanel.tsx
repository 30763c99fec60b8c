import { useRef, useState, type DragEvent } from 'react';
import type { CheckMode } from '../../../shared/api';
import { useStore } from '../store';

/** Open: a file picker, a drop zone, and the built-in examples one click away. */
export function OpenPanel() {
  const { openFile, openExample, examples, busy } = useStore();
  const [mode, setMode] = useState<CheckMode>('verify');
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const f = e.dataTransfer.files[0];
    if (f) void openFile(f, mode);
  };

  return (
    <section className="panel open-panel" aria-labelledby="open-h">
      <h2 id="open-h">Open an artifact</h2>
      <fieldset className="mode">
        <legend>Action</legend>
        <label>
          <input type="radio" name="mode" value="verify" checked={mode === 'verify'} onChange={() => setMode('verify')} /> Verify
        </label>
        <label>
          <input type="radio" name="mode" value="replay" checked={mode === 'replay'} onChange={() => setMode('replay')} /> Replay
        </label>
      </fieldset>
      <div
        className={`dropzone${over ? ' over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
      >
        <p>Drop a file here, or</p>
        <label className="button" htmlFor="file-input">
          Choose a file…
        </label>
        <input
          id="file-input"
          ref={input}
          type="file"
          className="visually-hidden"
          disabled={busy}
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void openFile(f, mode);
            e.target.value = '';
          }}
        />
        <p className="hint">The kind is detected from the content, never from the file name.</p>
      </div>
      {examples.length > 0 && (
        <details className="examples" open>
          <summary>Built-in examples ({examples.length})</summary>
          <ul>
            {examples.map((ex) => (
              <li key={ex.path}>
                <button type="button" className="link" disabled={busy} onClick={() => void openExample(ex.path, ex.expect?.command ?? mode)} title={ex.note}>
                  {ex.path}
                </button>
                {ex.expect && <span className={`tag ${ex.expect.verdict}`}>{ex.expect.verdict}</span>}
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
