import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useJudgement } from '../judgement-store';
import { useStore } from '../store';
import { PathField } from './PathField';
import { Signer } from './AnchorFields';
import { JournalVerification } from './JournalView';
import { focusWhenShown, returnFocus } from '../lib/focus';
import { keyStanding } from '../lib/officer';
import { JOURNAL_TOGGLE_ID } from '../lib/bundle-where';
import { Shown } from './Shown';

/** The header's toggle: where Done returns focus when what opened the form is gone (and where the Export view sends one). */
const TOGGLE = JOURNAL_TOGGLE_ID;

/** The journal judgements are recorded in, as the engine last verified it (header). */
export function JournalHeader() {
  // The one journal of the window: judgements, routed drift and quarantine decisions all go to it.
  const { work, status, open, setOpen } = useJudgement(
    useShallow((s) => ({ work: s.work, status: s.status, open: s.formOpen, setOpen: s.setFormOpen })),
  );
  const words = !work
    ? 'no journal open'
    : !status
      ? 'verifying…'
      : `${status.verdict === 'pass' ? 'verified' : status.verdict === 'fail' ? 'FAILS verification' : 'unverified'} · ${status.entries} ${status.entries === 1 ? 'entry' : 'entries'}`;
  return (
    <>
      <button
        type="button"
        id={TOGGLE}
        className={`journal-header ${status?.verdict ?? 'none'}`}
        aria-expanded={open}
        aria-controls="work-journal"
        onClick={() => setOpen(!open)}
        data-testid="work-journal-toggle"
      >
        Journal: {work ? <span className="mono">{work.dir.split(/[\\/]/).pop()}</span> : null}{' '}
        <span data-testid="work-journal-status">{words}</span>
      </button>
      {open && <WorkJournalForm onDone={() => setOpen(false)} />}
    </>
  );
}

/** Choose or create the journal, with its trust store, and the key that signs judgements. */
function WorkJournalForm({ onDone }: { onDone: () => void }) {
  const { work, status, busy, error, openJournal, closeJournal } = useJudgement(
    useShallow((s) => ({
      work: s.work,
      status: s.status,
      busy: s.busy,
      error: s.error,
      openJournal: s.openJournal,
      closeJournal: s.closeJournal,
    })),
  );
  const [dir, setDir] = useState(work?.dir ?? '');
  const [trust, setTrust] = useState(work?.trustStore ?? '');
  const [create, setCreate] = useState(false);
  // What opened the form (the header's toggle, the Journal view's "Change journal…"), taken before the form exists.
  const [opener] = useState(() => document.activeElement);
  const done = (): void => {
    onDone();
    returnFocus(opener, TOGGLE);
  };
  return (
    <section
      id="work-journal"
      className="work-journal panel"
      aria-labelledby="work-journal-h"
      data-testid="work-journal"
    >
      <h2 id="work-journal-h">Journal to record judgements in</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          // A refused journal: focus goes to why, not back to <body>.
          void openJournal(dir.trim(), trust.trim(), create).then((ok) => ok || focusWhenShown('wj-error'));
        }}
      >
        <PathField id="wj-dir" label="Journal directory" kind="directory" value={dir} onChange={setDir} />
        <PathField
          id="wj-trust"
          label="Trust store (names who may sign)"
          kind="file"
          value={trust}
          onChange={setTrust}
        />
        <label>
          <input
            type="checkbox"
            checked={create}
            onChange={(e) => setCreate(e.target.checked)}
            data-testid="wj-create"
          />{' '}
          Create the journal if it does not exist
        </label>
        <div className="toolbar">
          <button
            type="submit"
            className="primary"
            disabled={busy || !dir.trim() || !trust.trim()}
            data-testid="wj-open"
          >
            Open and verify
          </button>
          {work && (
            <button type="button" onClick={closeJournal} data-testid="wj-close">
              Close journal
            </button>
          )}
          <button type="button" onClick={done}>
            Done
          </button>
        </div>
      </form>
      {error && (
        <p id="wj-error" role="alert" className="error" tabIndex={-1} data-testid="wj-error">
          <Shown text={error} />
        </p>
      )}
      {work && status && (
        <div role="status" data-testid="wj-verdict">
          <JournalVerification st={status} showDir />
        </div>
      )}
      {work && <SigningKeyField />}
    </section>
  );
}

/** The keys this host may sign with, named by the journal's trust store; the chosen one shown whole. */
function SigningKeyField() {
  const { keys, keyPath, setKey, pickKey } = useJudgement(
    useShallow((s) => ({ keys: s.keys, keyPath: s.keyPath, setKey: s.setKey, pickKey: s.pickKey })),
  );
  const nativeDialogs = useStore((s) => s.info?.nativeDialogs === true);
  const chosen = keys.find((k) => k.path === keyPath);
  return (
    <div className="field">
      <label htmlFor="wj-key">Signing key</label>
      <select id="wj-key" value={keyPath} onChange={(e) => setKey(e.target.value)} data-testid="wj-key">
        <option value="">— choose the key that signs —</option>
        {keys.map((k) => (
          <option key={k.path} value={k.path} disabled={!k.keyId}>
            {k.label ?? k.path.split(/[\\/]/).pop()} · {keyStanding(k)} ·{' '}
            {k.keyId ? `${k.keyId.slice(0, 19)}…` : 'not an Ed25519 key'}
          </option>
        ))}
      </select>
      {nativeDialogs && (
        <button type="button" onClick={() => void pickKey()} data-testid="wj-pick-key">
          Choose a key file…
        </button>
      )}
      {chosen?.keyId && (
        <p className="small" data-testid="wj-key-signer">
          Signs as{' '}
          <Signer
            keyId={chosen.keyId}
            role={chosen.role ? keyStanding(chosen) : null}
            label={chosen.label}
            checked
            copyLabel="the chosen signing key id"
          />
        </p>
      )}
      {keys.length === 0 && !nativeDialogs && (
        <p className="muted small">
          This host grants no signing key: start reprise serve with --key FILE, or pick one in the desktop app.
        </p>
      )}
    </div>
  );
}
