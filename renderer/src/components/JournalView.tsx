import { useState } from 'react';
import { AnchorFields, Signer } from './AnchorFields';
import {
  checkRationale,
  RATIONALE_RULE,
  type AnchorReceipt,
  type CaseDecision,
  type CaseView,
  type JournalStatus,
  type SigningKey,
} from '../../../shared/api';
import { ClaimShown, RATIONALE_SHOWN, rationaleHasEscapes, Shown } from './Shown';
import { focusOnArrival, focusWhenShown } from '../lib/focus';
import { CaseQueue } from './CaseQueue';
import { claimIdWarning, keyRefusal, keyStanding } from '../lib/officer';
import { earlierReceiptShown } from '../lib/kept-receipt';
import { ConfirmDecision } from './ConfirmDecision';
import { EvidenceDeltas } from './EvidenceDeltas';
import { KeyProblems, readKeyToConfirm } from './KeyProblems';
import { CopyValue } from './Copy';
import { useStore } from '../store';
import { useShallow } from 'zustand/react/shallow';
import { useJudgement } from '../judgement-store';
import { signingRefusal } from '../lib/sign-gate';
import { SignBlocked } from './SignBlocked';

/** The key decisions are signed with (the one `decide` sends, chosen in the journal header), with its holder. */
function SigningKeyLine() {
  const { keys, setFormOpen } = useJudgement(useShallow((s) => ({ keys: s.keys, setFormOpen: s.setFormOpen })));
  const keyFile = useStore((s) => s.journal.keyFile);
  const k = keyFile ? keys.find((x) => x.path === keyFile) : undefined;
  return (
    <p className="small" data-testid="decision-key">
      Signed with{' '}
      {k ? (
        <>
          <strong>{`${k.label ?? k.path.split(/[\\/]/).pop()} · ${keyStanding(k)}`}</strong>
          {k.keyId && (
            <>
              {' '}
              key <CopyValue value={k.keyId} label="the key id that signs the decision" />
            </>
          )}
        </>
      ) : (
        <strong>no key chosen</strong>
      )}{' '}
      <button type="button" className="link" onClick={() => setFormOpen(true)}>
        change in the journal header
      </button>
    </p>
  );
}

/** The decisions the journal allows from the case's state (the host lists them), as radio buttons. */
function DecisionChoice({
  c,
  decision,
  setDecision,
}: {
  c: CaseView;
  decision: CaseDecision;
  setDecision: (d: CaseDecision) => void;
}) {
  const allowed = c.decisions?.map((d) => d.decision) ?? (['release', 'uphold', 'escalate'] as const);
  return (
    <fieldset>
      <legend>Decision</legend>
      {allowed.map((d) => (
        <label key={d}>
          <input
            type="radio"
            name={`decision-${c.caseId}`}
            value={d}
            checked={decision === d}
            onChange={() => setDecision(d)}
          />{' '}
          {d}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * Beside the rationale field, when the text typed (or pasted) holds a character the
 * confirmation shows escaped: a control, a bidirectional or an invisible one (hidden tag
 * characters, a variation selector, a Hangul filler, ZWJ), all signed as they are.
 */
export function RationaleEscapes({ rationale }: { rationale: string }) {
  if (!rationaleHasEscapes(rationale)) return null;
  return (
    <p className="bad small" data-testid="rationale-controls">
      The rationale holds control, bidirectional or invisible characters; they are signed as typed, and the confirmation
      and the case history show them escaped.
    </p>
  );
}

/** The signed decision on an open case: the decision, the rationale (the engine's rule), the key; confirmed before signing. */
function DecisionForm({ c }: { c: CaseView }) {
  const { decide, journalBusy, journal } = useStore(
    useShallow((s) => ({ decide: s.decide, journalBusy: s.journalBusy, journal: s.journal })),
  );
  const { keys, refreshKeys } = useJudgement(useShallow((s) => ({ keys: s.keys, refreshKeys: s.refreshKeys })));
  // A journal that fails verification: the engine would refuse the decision, so the button says why instead.
  const refused = useStore((s) => signingRefusal(s.journalStatus));
  const [decision, setDecision] = useState<CaseDecision>('release');
  const [rationale, setRationale] = useState('');
  const [touched, setTouched] = useState(false);
  // The key as its file was read when the confirmation opened: what it shows, and the only key the engine signs with.
  const [confirming, setConfirming] = useState<SigningKey | null>(null);
  const [keyTrouble, setKeyTrouble] = useState<string | null>(null);
  // The engine's one rule (shared/rationale.ts): the form refuses exactly what decideCase refuses.
  const problem = checkRationale(rationale);
  const short = problem !== null;
  const key = keys.find((k) => k.path === journal.keyFile);
  const wrongKey = keyRefusal(c, decision, key);
  const sign = (shown: SigningKey): void => {
    setConfirming(null);
    // Focus moves to the receipt as soon as it is shown, not once the journal has been verified
    // again after it (which may take a while, with focus at <body> meanwhile: the dialog is gone
    // and the form's button disabled or, for a now closed case, gone too).
    const before = useStore.getState().receipt;
    const stop = focusOnArrival(
      useStore.subscribe,
      (s) => s.receipt !== null && s.receipt !== before,
      DECISION_RECEIPT,
    );
    void decide(c, decision, rationale, shown.keyId ?? '').then((ok) => {
      stop();
      if (ok) setRationale('');
      // Why it was refused: never left at <body>.
      else focusWhenShown(JOURNAL_ERROR);
    });
  };
  const blockedBy = refused ? DECISION_BLOCKED : wrongKey ? DECISION_KEY_REFUSED : null;
  return (
    <form
      className="decision"
      aria-label={`Decide ${c.caseId}`}
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (short || !journal.keyFile || refused || wrongKey) return;
        setKeyTrouble(null);
        // Read the key file again now: the dialog shows the key it holds at this moment (not the
        // one listed when the journal was opened), and the engine signs only if it still does.
        readKeyToConfirm(refreshKeys, journal.keyFile, (k) => keyRefusal(c, decision, k), setConfirming, setKeyTrouble);
      }}
    >
      <DecisionChoice c={c} decision={decision} setDecision={setDecision} />
      <label htmlFor="rationale">Rationale (required: {RATIONALE_RULE.summary}; it is signed and journaled)</label>
      <textarea
        id="rationale"
        rows={4}
        value={rationale}
        onChange={(e) => setRationale(e.target.value)}
        aria-invalid={touched && short}
        aria-describedby="rationale-help"
        data-testid="rationale"
      />
      <RationaleEscapes rationale={rationale} />
      <p id="rationale-help" className={touched && short ? 'bad' : 'muted small'}>
        {touched && short
          ? `${problem}; the rule: ${RATIONALE_RULE.summary}.`
          : 'It is signed with the officer key and journaled.'}
      </p>
      <SigningKeyLine />
      {touched && !journal.keyFile && (
        <p className="bad">Choose the officer key that signs this decision (journal header, Signing key).</p>
      )}
      <KeyProblems trouble={keyTrouble} refusal={wrongKey} refusalId={DECISION_KEY_REFUSED} testId="decision-key" />
      <button
        type="submit"
        className="primary"
        disabled={journalBusy || blockedBy !== null}
        {...(blockedBy ? { 'aria-describedby': blockedBy } : {})}
        data-testid="sign-decision"
      >
        Review and sign {decision}…
      </button>
      {refused && <SignBlocked id={DECISION_BLOCKED} reason={refused} />}
      {confirming && (
        <ConfirmDecision
          what={{ c, decision, rationale, key: confirming, keyPath: journal.keyFile, journal: journal.dir }}
          refused={refused ?? wrongKey}
          onSign={() => sign(confirming)}
          onCancel={() => setConfirming(null)}
        />
      )}
    </form>
  );
}

/** Ids focus moves to: the receipt once a decision is signed, the error when the journal refused. */
const DECISION_RECEIPT = 'decision-receipt';
/** The receipt this tab kept from before it was reloaded: never focused, never the one just signed. */
const EARLIER_RECEIPT = 'earlier-receipt';
const JOURNAL_ERROR = 'journal-error';
const DEMO_ERROR = 'demo-journal-error';
/** Why the decision cannot be signed (beside its button): the journal fails verification, or the key's role. */
const DECISION_BLOCKED = 'decision-sign-blocked';
const DECISION_KEY_REFUSED = 'decision-key-refused';

/**
 * What the journal answered after a decision was written: the entry, who signed it, its
 * checkpoint, its checked proof. Focus moves here after signing (so no live region too).
 * `earlier`: the receipt this tab kept from before it was reloaded, said to be an earlier
 * signing's (lib/kept-receipt.ts shows it only while the journal open holds its entry).
 * It takes its receipt as a prop, so a test renders it (test/renderer/kept-across-reload.test.ts).
 */
export function AnchorReceiptView({
  r,
  checked,
  earlier = false,
}: {
  r: AnchorReceipt;
  checked: boolean;
  earlier?: boolean;
}) {
  const id = earlier ? EARLIER_RECEIPT : DECISION_RECEIPT;
  // Above the queue (the case it is of need not be chosen), a heading of the view's own level.
  const Heading = earlier ? 'h3' : 'h4';
  return (
    <section
      id={id}
      className="receipt"
      tabIndex={-1}
      aria-labelledby={`${id}-h`}
      data-testid={earlier ? 'earlier-receipt' : 'receipt'}
    >
      <Heading id={`${id}-h`}>{earlier ? 'Anchor receipt of an earlier signing' : 'Anchor receipt'}</Heading>
      {earlier && (
        <p className="small" data-testid="earlier-receipt-note">
          This decision was signed in this tab before the page was reloaded: its receipt is kept by the tab, not signed
          again. The journal, verified again since, holds its entry #{r.seq}.
        </p>
      )}
      <dl className="meta">
        <dt>Case</dt>
        <dd>
          {r.caseId} is now <strong>{r.state}</strong>
        </dd>
        <dt>Entry seq</dt>
        <dd className="mono">{r.seq}</dd>
        <dt>Signed by</dt>
        <dd data-testid="receipt-signer">
          <Signer
            keyId={r.keyId}
            role={r.role}
            label={r.label}
            checked={checked}
            copyLabel="the key id that signed the decision"
            testId="receipt-signer-role"
            keyTestId="receipt-signer-key"
          />
        </dd>
        <AnchorFields r={r} />
      </dl>
    </section>
  );
}

/** A journal error (tabIndex -1: focus moves to it when the action the user took was refused). */
function JournalError({ text }: { text: string }) {
  return (
    <p id={JOURNAL_ERROR} role="alert" className="error" tabIndex={-1} data-testid="journal-error">
      <Shown text={text} />
    </p>
  );
}

/** The case's events, each with its signer named as the trust store names the key, and its rationale as RATIONALE_SHOWN shows it. */
export function CaseHistory({ c, checked }: { c: CaseView; checked: boolean }) {
  return (
    <ol className="history" data-testid="case-history">
      {c.history.map((h) => (
        <li key={h.seq} data-seq={h.seq}>
          <span className="mono small">#{h.seq}</span> <strong>{h.decision}</strong> {h.atUtc}
          <div className="small">
            Signed by{' '}
            <Signer
              keyId={h.author}
              role={h.role}
              label={h.label}
              checked={checked}
              copyLabel={`the key id that signed entry #${h.seq}`}
              testId="history-signer"
              keyTestId="history-key"
            />
          </div>
          <div className="rationale-text">
            <Shown text={h.text} {...RATIONALE_SHOWN} />
          </div>
        </li>
      ))}
    </ol>
  );
}

function CaseDetail({ c, checked }: { c: CaseView; checked: boolean }) {
  const { receipt, journalError } = useStore(useShallow((s) => ({ receipt: s.receipt, journalError: s.journalError })));
  const closed = c.state === 'released' || c.state === 'upheld';
  const myReceipt = receipt && receipt.caseId === c.caseId ? receipt : null;
  const claimWarning = claimIdWarning(c.claimRef);
  return (
    <div className="case-detail" data-testid="case-detail">
      <h3>
        {c.caseId} <span className={`state ${c.state}`}>{c.state}</span>
      </h3>
      <dl className="meta">
        <dt>Claim</dt>
        <dd className="mono" data-testid="case-claim">
          <ClaimShown claim={c.claimRef} />
        </dd>
        {claimWarning && (
          <dd className="bad small" data-testid="case-claim-warning">
            ({claimWarning})
          </dd>
        )}
        <dt>Source</dt>
        <dd>{c.source}</dd>
        <dt>Opened</dt>
        <dd>{c.openedAtUtc}</dd>
      </dl>
      <h4>Evidence</h4>
      {c.evidence ? (
        <pre className="evidence mono small" data-testid="case-evidence" tabIndex={0} aria-label="Case evidence">
          <Shown text={JSON.stringify(c.evidence, null, 2)} keep={'\n'} json />
        </pre>
      ) : (
        <p className="muted">The case was opened without recorded evidence.</p>
      )}
      <EvidenceDeltas deltas={c.deltas} />
      <h4>History</h4>
      <CaseHistory c={c} checked={checked} />
      {!closed && <DecisionForm c={c} />}
      {journalError && <JournalError text={journalError} />}
      {myReceipt && <AnchorReceiptView r={myReceipt} checked={checked} />}
    </div>
  );
}

/** The receipt kept from before a reload, while its journal is the one open and holds its entry, and no newer receipt is shown. */
function EarlierReceipt({ st }: { st: JournalStatus }) {
  const r = useStore((s) => (s.receipt ? null : earlierReceiptShown(s.earlierReceipt, s.journal.dir, st)));
  return r && <AnchorReceiptView r={r} checked={st.rolesChecked} earlier />;
}

/**
 * The engine's verification of the journal (here and in the header's form): its verdict, entries,
 * checkpoint, findings; among them, as `journal verify` lists them, its RPR-QUAR-008 warnings of
 * the claim ids that may draw as another claim's, in the engine's words (app/journal/claim-ids.ts).
 */
export function JournalVerification({ st, showDir = false }: { st: JournalStatus; showDir?: boolean }) {
  return (
    <>
      <p className={st.verdict === 'pass' ? 'ok' : 'bad'} data-testid="journal-verification">
        Journal{' '}
        {showDir && (
          <span className="mono">
            <Shown text={st.dir} />{' '}
          </span>
        )}
        {st.verdict === 'pass' ? 'verified' : st.verdict.toUpperCase()}: {st.entries} entries, checkpoint{' '}
        {st.checkpointSize ?? 'none'}
        {st.rolesChecked ? ', signers checked against the trust store' : ', signers NOT checked (no trust store)'}.
      </p>
      {st.findings.length > 0 && (
        <ul className="journal-findings">
          {st.findings.map((f, i) => (
            <li key={i} data-rule={f.rule} data-testid="journal-finding">
              <span className={`sev ${f.severity}`}>{f.severity}</span> <span className="mono">{f.rule}</span>{' '}
              <Shown text={f.message} />{' '}
              {f.pointer && (
                <span className="mono small">
                  at <Shown text={f.pointer} />
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

/** Change, verify again, or create a training journal; a refusal of either is shown here and focused. */
function JournalToolbar({ showLoadError }: { showLoadError: boolean }) {
  const { journal, loadJournal, journalBusy, journalError } = useStore(
    useShallow((s) => ({
      journal: s.journal,
      loadJournal: s.loadJournal,
      journalBusy: s.journalBusy,
      journalError: s.journalError,
    })),
  );
  const { openDemoJournal, setFormOpen, formOpen, busy } = useJudgement(
    useShallow((s) => ({
      openDemoJournal: s.openDemoJournal,
      setFormOpen: s.setFormOpen,
      formOpen: s.formOpen,
      busy: s.busy,
    })),
  );
  const [demoError, setDemoError] = useState<string | null>(null);
  const verify = async (): Promise<void> => {
    await loadJournal();
    if (useStore.getState().journalError) focusWhenShown(JOURNAL_ERROR);
  };
  const createDemo = async (): Promise<void> => {
    setDemoError(null);
    await openDemoJournal();
    const { error, formOpen: open } = useJudgement.getState();
    setDemoError(error);
    // The header's form shows the same error when it is open: focus that one, not a second copy.
    if (error) focusWhenShown(open ? 'wj-error' : DEMO_ERROR);
  };
  return (
    <>
      <div className="toolbar">
        <button
          type="button"
          className={journal.dir ? '' : 'primary'}
          onClick={() => setFormOpen(true)}
          data-testid="change-journal"
        >
          {journal.dir ? 'Change journal…' : 'Open a journal…'}
        </button>
        {journal.dir && (
          <button type="button" onClick={() => void verify()} disabled={journalBusy} data-testid="load-journal">
            Verify again
          </button>
        )}
        <button
          type="button"
          onClick={() => void createDemo()}
          disabled={journalBusy || busy}
          data-testid="demo-journal"
        >
          Create a training journal
        </button>
      </div>
      {demoError && !formOpen && (
        <p id={DEMO_ERROR} role="alert" className="error" tabIndex={-1} data-testid="demo-journal-error">
          Could not create the training journal: <Shown text={demoError} />
        </p>
      )}
      {showLoadError && journalError && <JournalError text={journalError} />}
    </>
  );
}

/** Journal and quarantine: the case queue, a case with its evidence, the signed decision form. */
export function JournalView() {
  const { journal, journalStatus: st } = useStore(
    useShallow((s) => ({ journal: s.journal, journalStatus: s.journalStatus })),
  );
  const [chosen, setChosen] = useState<string | null>(null);
  const c = st?.cases.find((x) => x.caseId === chosen) ?? null;
  return (
    <section className="panel" aria-labelledby="journal-h">
      <h2 id="journal-h">Journal and quarantine</h2>
      {journal.dir ? (
        <dl className="meta">
          <dt>Journal</dt>
          <dd className="mono" data-testid="journal-dir">
            {journal.dir}
          </dd>
          <dt>Trust store</dt>
          <dd className="mono" data-testid="journal-trust">
            {journal.trustStore}
          </dd>
        </dl>
      ) : (
        <p className="muted">
          No journal is open. Open one in the journal header (it is the one journal of this window), or create a
          training journal.
        </p>
      )}
      {/* A chosen case shows the journal's error beside its decision form instead. */}
      <JournalToolbar showLoadError={c === null} />
      {st && (
        <>
          <JournalVerification st={st} />
          <EarlierReceipt st={st} />
          <h3>Case queue ({st.cases.length})</h3>
          <CaseQueue cases={st.cases} chosen={chosen} choose={setChosen} />
          {c && <CaseDetail key={c.caseId} c={c} checked={st.rolesChecked} />}
        </>
      )}
    </section>
  );
}
