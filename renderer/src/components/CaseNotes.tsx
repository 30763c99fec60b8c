import { useCallback, useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { checkRationale, type JudgementView, type NoteReceipt, type SigningKey } from '../../../shared/api';
import type { CaseJudgement } from '../../../shared/case';
import type { Verdict } from '../../../shared/report';
import { RATIONALE_RULE } from '../../../shared/rationale';
import { useJudgement } from '../judgement-store';
import { focusWhenShown } from '../lib/focus';
import { signingRefusal } from '../lib/sign-gate';
import { statusRefusal } from '../lib/officer';
import { useStore } from '../store';
import { Signer } from './AnchorFields';
import { CopyValue } from './Copy';
import { SignDialog } from './SignDialog';
import { KeyProblems, readKeyToConfirm } from './KeyProblems';
import { RATIONALE_LAYOUT, Shown } from './Shown';
import { rowsOf, workNotesOf, type NoteRow, type SignedNote, type Standing, type WorkNotes } from '../lib/note-rows';

/** The journal the notes are in, and the trust store that names their signers. */
export interface NotesJournal {
  dir: string;
  trustStore: string;
}

const IDS = {
  dialog: 'note-confirm',
  heading: 'note-confirm-h',
  cancel: 'note-confirm-cancel',
  sign: 'note-confirm-sign',
  blocked: 'note-confirm-blocked',
};

/** Ids focus moves to: the receipt after signing, the error when the engine refused, the add button after a cancel. */
const NOTE_RECEIPT = 'note-receipt';
const NOTE_ERROR = 'note-error';
const NOTE_ADD = 'note-add';

/**
 * The journal worked in as the engine lists it on the artifact: its judgements, each with its
 * proof checked against the journal's latest signed checkpoint, and the journal's verdict; or
 * the engine's error (a folder that is no journal, an unreadable trust store), which is shown,
 * never taken for "no note".
 */
function useWorkJudgements(
  journal: NotesJournal,
  artifact: string,
  version: number,
): { work: WorkNotes | null; error: string | null } {
  const api = useStore((s) => s.api);
  const [state, setState] = useState<{ work: WorkNotes | null; error: string | null }>({ work: null, error: null });
  useEffect(() => {
    let live = true;
    void api
      ?.listJudgements({ dir: journal.dir, trustStore: journal.trustStore, artifact })
      .then((l) => live && setState({ work: workNotesOf(l), error: null }))
      .catch((e: unknown) => live && setState({ work: null, error: e instanceof Error ? e.message : String(e) }));
    return () => {
      live = false;
    };
  }, [api, journal.dir, journal.trustStore, artifact, version]);
  return state;
}

/** Who signed a note, as every other list names a signer (Signer); a case journal's key no trust store named here says so. */
function NoteSigner({ row }: { row: NoteRow }) {
  const copyLabel = `the key id that signed note #${row.seq}`;
  if (row.signer)
    return <Signer keyId={row.author} {...row.signer} copyLabel={copyLabel} testId={`note-signer-${row.seq}`} />;
  return (
    <span className="signer">
      <span data-testid={`note-signer-${row.seq}`}>
        role and label not read here (the case lists its journal’s notes without them)
      </span>
      , key <CopyValue value={row.author} label={copyLabel} />
    </span>
  );
}

/**
 * Whether a judgement counts, in the one wording of the notes list and the case's judgements
 * table: why it does not, or why that could not be judged. `testIds` prefixes the test ids.
 */
export function CountsWords({ standing, testIds }: { standing: Omit<Standing, 'unproven'>; testIds: string }) {
  return (
    <>
      {standing.problem !== null && (
        <p className="small sev fail" data-testid={`${testIds}-problem`}>
          Does not count: {standing.problem}.
        </p>
      )}
      {standing.unchecked !== null && (
        <p className="small sev unavailable" data-testid={`${testIds}-unchecked`}>
          Not known to count: {standing.unchecked}.
        </p>
      )}
    </>
  );
}

/** An edit that replaces nothing, and why (the notes list and the case's judgements table say it alike). */
export function EditRefused({ why, testId }: { why: string; testId: string }) {
  return (
    <p className="small" data-testid={testId}>
      It claims to edit an earlier version, which it does not replace: {why}.
    </p>
  );
}

function NoteItem({
  row,
  proof,
  onEdit,
}: {
  row: NoteRow;
  proof: JudgementView | undefined;
  onEdit: (() => void) | null;
}) {
  return (
    <li className={row.supersededBy ? 'note superseded' : 'note'} data-testid={`note-${row.seq}`}>
      <p className="rationale-text" data-testid="note-text">
        <Shown text={row.text} keep={RATIONALE_LAYOUT} everyInvisible />
      </p>
      <p className="small muted">
        #{row.seq} at {row.atUtc}, signed by <NoteSigner row={row} />
        {row.supersedes && row.editRefused === null && row.problem === null && <> · edits an earlier version</>}
      </p>
      <CountsWords standing={row} testIds="note" />
      {row.unproven !== null && (
        <p className="small sev fail" data-testid="note-unproven">
          Not proven: {row.unproven}.
        </p>
      )}
      {row.editRefused !== null && <EditRefused why={row.editRefused} testId="note-edit-refused" />}
      <p className="small" data-testid="note-state">
        {row.supersededBy ? (
          <strong>Superseded: an edit replaced this text (it stays in the journal, signed and provable).</strong>
        ) : row.problem !== null ? (
          <strong>Not a version of the note: it does not count (it stays listed, as everything recorded).</strong>
        ) : (
          'Latest version.'
        )}{' '}
        Entry <CopyValue value={row.entryHash} label={`the entry hash of note #${row.seq}`} />{' '}
        <span data-testid="note-proof">
          {row.caseJournal !== null
            ? `in the case's journal ${row.caseJournal} (open it as the journal you work in to check its proof and edit it)`
            : row.unproven !== null
              ? 'inclusion not proven (see above)'
              : proof === undefined
                ? '(proof being checked…)'
                : proof.proofVerified
                  ? '✓ inclusion proven under the signed checkpoint'
                  : `proof not verified: ${proof.proofFindings.join('; ')}`}
        </span>
      </p>
      {onEdit && (
        <button type="button" className="small" onClick={onEdit} data-testid={`note-edit-${row.seq}`}>
          Edit this note
        </button>
      )}
    </li>
  );
}

/** What will be signed, before anything is written (Cancel writes nothing). */
function NoteConfirm(props: {
  text: string;
  supersedes: string | null;
  artifact: string;
  journal: string;
  signer: SigningKey;
  refused: string | null;
  onSign: () => void;
  onCancel: () => void;
}) {
  const { text, supersedes, artifact, journal, signer } = props;
  return (
    <SignDialog
      ids={IDS}
      title={supersedes ? 'Sign this edit of a note?' : 'Sign this note?'}
      signLabel="Sign and anchor"
      refused={props.refused}
      onSign={props.onSign}
      onCancel={props.onCancel}
    >
      <p>
        The engine signs these fields with your key and appends them to the journal. A signed note is never removed.
      </p>
      <dl className="meta" data-testid="note-confirm-fields">
        <dt>Subject artifact</dt>
        <dd className="small">
          <CopyValue value={artifact} label="the subject artifact hash" />
        </dd>
        <dt>Decision</dt>
        <dd>note</dd>
        <dt>Text</dt>
        <dd className="rationale-text">
          <Shown text={text} keep={RATIONALE_LAYOUT} everyInvisible />
        </dd>
        <dt>Supersedes</dt>
        <dd className="small">
          {supersedes ? <CopyValue value={supersedes} label="the entry it supersedes" /> : 'nothing (a new note)'}
        </dd>
        <dt>Key id</dt>
        <dd className="small">{signer.keyId ?? 'not an Ed25519 key'}</dd>
        <dt>Role</dt>
        <dd>
          {signer.role ?? 'not in the trust store'}
          {signer.label ? ` (${signer.label})` : ''}
        </dd>
        <dt>Journal</dt>
        <dd className="mono small">{journal}</dd>
      </dl>
    </SignDialog>
  );
}

interface Draft {
  text: string;
  supersedes: string | null;
}

/** The form: the text under the one rationale rule, then the confirmation; the engine's refusal beside it. */
function NoteForm(props: {
  draft: Draft;
  setDraft: (d: Draft | null) => void;
  blocked: string | null;
  onReview: () => void;
}) {
  const { draft, setDraft, blocked } = props;
  const [touched, setTouched] = useState(false);
  const problem = checkRationale(draft.text);
  return (
    <form
      className="note-form"
      aria-label={draft.supersedes ? 'Edit the note' : 'Add a note'}
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (!problem && !blocked) props.onReview();
      }}
    >
      <label htmlFor="note-text">
        {draft.supersedes ? 'The note’s new text (signed and journaled)' : 'Note (signed and journaled)'}
      </label>
      <p id="note-rule" className="muted small">
        The rule: {RATIONALE_RULE.summary}
      </p>
      <textarea
        id="note-text"
        rows={3}
        value={draft.text}
        onChange={(e) => setDraft({ ...draft, text: e.target.value })}
        aria-invalid={touched && problem !== null}
        aria-describedby={touched && problem ? 'note-rule note-text-err' : 'note-rule'}
        data-testid="note-text-input"
      />
      {touched && problem && (
        <p id="note-text-err" className="field-error" data-testid="note-text-err">
          {problem}
        </p>
      )}
      <div className="toolbar">
        <button
          type="button"
          onClick={() => {
            setDraft(null);
            // The form goes away with the focus in it: back to the button that adds a note.
            focusWhenShown(NOTE_ADD);
          }}
        >
          Cancel
        </button>
        <button
          type="submit"
          className="primary"
          disabled={blocked !== null}
          {...(blocked ? { 'aria-describedby': 'note-blocked' } : {})}
          data-testid="note-review"
        >
          Review and sign…
        </button>
      </div>
    </form>
  );
}

/** Why nothing can be signed here (no reviewer key chosen, or the window's journal fails verification), or null. */
function useBlocked(journal: NotesJournal): { blocked: string | null; signer: SigningKey | null } {
  const { keys, keyPath, work, status } = useJudgement(
    useShallow((s) => ({ keys: s.keys, keyPath: s.keyPath, work: s.work, status: s.status })),
  );
  const signer = keys.find((k) => k.path === keyPath) ?? null;
  const refusal = work?.dir === journal.dir ? signingRefusal(status) : null;
  const blocked = refusal ?? (signer ? null : 'Choose the reviewer key that signs in the journal header first.');
  return { blocked, signer };
}

/** Signing the draft: the notes recorded here, the last receipt or the engine's refusal; focus then moves to that outcome. */
function useNoteSigning(
  journal: NotesJournal,
  artifact: string,
  draft: Draft | null,
  shown: SigningKey | null,
  done: (r: NoteReceipt) => void,
) {
  const api = useStore((s) => s.api);
  const keyPath = useJudgement((s) => s.keyPath);
  const [added, setAdded] = useState<SignedNote[]>([]);
  const [error, setError] = useState<string | null>(null);
  // Each refusal: the journal may have changed under this tab (another tab's edit), so the list is read again.
  const [refused, setRefused] = useState(0);
  const [receipt, setReceipt] = useState<NoteReceipt | null>(null);
  const sign = useCallback(async () => {
    if (!api || !draft || !shown?.keyId) return;
    setError(null);
    try {
      const r = await api.recordNote({ ...journal, keyFile: keyPath, keyId: shown.keyId, artifact, ...draft });
      const text = draft.text;
      setAdded((a) => [...a, { receipt: r, text }]);
      setReceipt(r);
      done(r);
      // The form that opened the confirmation is gone: focus goes to what replaced it.
      focusWhenShown(NOTE_RECEIPT);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setRefused((n) => n + 1);
      focusWhenShown(NOTE_ERROR);
    }
  }, [api, draft, journal, keyPath, shown, artifact, done]);
  return { sign, added, error, receipt, refused };
}

/**
 * A reviewer's notes on one artifact of a case (docs/journal.md, "Notes"): every version,
 * the superseded ones too, each with its entry hash and its checked proof; a new note, or
 * an edit of the latest version of one, signed after a confirmation that shows exactly
 * what will be signed. Append-only: an edit is a new entry that supersedes, never a change.
 * The engine refuses to sign onto a journal that does not verify; its words are shown.
 * Its state (a draft, the notes signed here, the journal's listing) is of one artifact in one
 * journal: the parent keys it by both, so none of it is carried over to another.
 */
export function CaseNotes({
  journal,
  artifact,
  name,
  notes,
  verdicts,
  onRecorded,
}: {
  journal: NotesJournal;
  artifact: string;
  /** The artifact's path in the case: the heading names it, so the notes cannot read as another artifact's. */
  name: string;
  notes: readonly CaseJudgement[];
  /** Each artifact's verdict in the case, by path: a case journal's decides whether its notes are proven. */
  verdicts: ReadonlyMap<string, Verdict>;
  onRecorded?: (r: NoteReceipt) => void;
}) {
  const { blocked, signer } = useBlocked(journal);
  const refreshKeys = useJudgement((s) => s.refreshKeys);
  const [draft, setDraft] = useState<Draft | null>(null);
  // The key the confirmation shows: the key file read again as it opens, which the engine checks it still holds.
  const [confirming, setConfirming] = useState<SigningKey | null>(null);
  const [keyTrouble, setKeyTrouble] = useState<string | null>(null);
  const done = useCallback(
    (r: NoteReceipt) => {
      setDraft(null);
      onRecorded?.(r);
    },
    [onRecorded],
  );
  const { sign, added, error, receipt, refused } = useNoteSigning(journal, artifact, draft, confirming, done);
  const { work, error: listError } = useWorkJudgements(journal, artifact, added.length + refused);
  const checked = journal.trustStore !== '';
  const rows = useMemo(
    () => rowsOf(notes, work, added, { artifact, checked, verdicts }),
    [notes, work, added, artifact, checked, verdicts],
  );
  return (
    <section className="panel case-notes" aria-labelledby="case-notes-h" data-testid="case-notes">
      <h3 id="case-notes-h">
        Notes on this artifact ({rows.length}): <Shown text={name} />
      </h3>
      {listError !== null && (
        <p className="error" data-testid="notes-list-error">
          The notes of the journal worked in (<Shown text={journal.dir} />) could not be listed:{' '}
          <Shown text={listError} />
        </p>
      )}
      <NoteList
        rows={rows}
        work={work?.judgements ?? []}
        failed={listError !== null}
        editable={!draft}
        setDraft={setDraft}
      />
      {blocked && (
        <p id="note-blocked" className="field-error" data-testid="note-blocked">
          {blocked}
        </p>
      )}
      <NoteOutcome error={error} receipt={draft ? null : receipt} />
      {draft ? (
        <NoteForm
          draft={draft}
          setDraft={setDraft}
          blocked={blocked}
          onReview={() => {
            setKeyTrouble(null);
            if (signer) readKeyToConfirm(refreshKeys, signer.path, statusRefusal, setConfirming, setKeyTrouble);
          }}
        />
      ) : (
        <button
          type="button"
          id={NOTE_ADD}
          onClick={() => setDraft({ text: '', supersedes: null })}
          data-testid="note-add"
        >
          Add a note
        </button>
      )}
      <KeyProblems
        trouble={keyTrouble}
        refusal={signer ? statusRefusal(signer) : null}
        refusalId="note-key-refused"
        testId="note-key"
      />
      {confirming && draft && (
        <NoteConfirm
          {...draft}
          artifact={artifact}
          journal={journal.dir}
          signer={confirming}
          refused={blocked}
          onSign={() => {
            setConfirming(null);
            void sign(); // signs with the key this confirmation showed (this render's `confirming`)
          }}
          onCancel={() => setConfirming(null)}
        />
      )}
    </section>
  );
}

/** Every version of every note, each editable when it is the latest of a note of the journal worked in. */
function NoteList(props: {
  rows: readonly NoteRow[];
  work: readonly JudgementView[];
  /** The journal worked in could not be listed (its error is shown above). */
  failed: boolean;
  editable: boolean;
  setDraft: (d: Draft) => void;
}) {
  const { rows, setDraft } = props;
  const proofs = useMemo(() => new Map(props.work.map((j) => [j.entryHash, j])), [props.work]);
  // Nothing listed because the journal worked in could not be read is not "no note": its error says so.
  if (rows.length === 0) return props.failed ? null : <p className="muted">No note yet.</p>;
  return (
    <ol className="notes">
      {rows.map((r) => (
        <NoteItem
          key={r.entryHash}
          row={r}
          proof={proofs.get(r.entryHash)}
          onEdit={
            r.supersededBy || r.caseJournal !== null || r.problem !== null || r.unproven !== null || !props.editable
              ? null
              : () => setDraft({ text: r.text, supersedes: r.entryHash })
          }
        />
      ))}
    </ol>
  );
}

/** What the last signing produced: the engine's refusal, or the receipt. Focus moves here after it (tabIndex -1, so no live region too). */
function NoteOutcome({ error, receipt }: { error: string | null; receipt: NoteReceipt | null }) {
  return (
    <>
      {error && (
        <p id={NOTE_ERROR} tabIndex={-1} className="error" data-testid="note-error">
          The note was not signed: <Shown text={error} />
        </p>
      )}
      {receipt && (
        <p id={NOTE_RECEIPT} tabIndex={-1} className="small receipt-line" data-testid="note-receipt">
          Signed and anchored: entry #{receipt.seq}, checkpoint size {receipt.checkpoint.size},{' '}
          {receipt.proofVerified ? 'proof verified' : `proof NOT verified: ${receipt.proofFindings.join('; ')}`}.
        </p>
      )}
    </>
  );
}
