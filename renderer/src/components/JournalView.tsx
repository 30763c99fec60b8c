import { useState } from 'react';
import { AnchorFields } from './AnchorFields';
import { checkRationale, RATIONALE_RULE, type AnchorReceipt, type CaseDecision, type CaseView } from '../../../shared/api';
import { ColumnHeads } from './ColumnHeads';
import { useStore } from '../store';
import { useShallow } from 'zustand/react/shallow';
import { useJudgement } from '../judgement-store';

/** The key decisions are signed with: the one chosen in the journal header, with its holder. */
function SigningKeyLine() {
  const { keys, keyPath, setFormOpen } = useJudgement(useShallow((s) => ({ keys: s.keys, keyPath: s.keyPath, setFormOpen: s.setFormOpen })));
  const k = keys.find((x) => x.path === keyPath);
  return (
    <p className="small" data-testid="decision-key">
      Signed with {k ? <strong>{`${k.label ?? k.path.split(/[\\/]/).pop()} · ${k.role ?? 'not in the trust store'}`}</strong> : <strong>no key chosen</strong>}{' '}
      <button type="button" className="link" onClick={() => setFormOpen(true)}>
        change in the journal header
      </button>
    </p>
  );
}

/** The signed decision on an open case: the decision, the rationale (the engine's rule), the key. */
function DecisionForm({ c }: { c: CaseView }) {
  const { decide, journalBusy, journal } = useStore(useShallow((s) => ({ decide: s.decide, journalBusy: s.journalBusy, journal: s.journal })));
  const [decision, setDecision] = useState<CaseDecision>('release');
  const [rationale, setRationale] = useState('');
  const [touched, setTouched] = useState(false);
  // The engine's one rule (shared/rationale.ts): the form refuses exactly what decideCase refuses.
  const problem = checkRationale(rationale);
  const short = problem !== null;
  return (
    <form
      className="decision"
      aria-label={`Decide ${c.caseId}`}
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (short || !journal.keyFile) return;
        void decide(c.caseId, decision, rationale).then((ok) => ok && setRationale(''));
      }}
    >
      <fieldset>
        <legend>Decision</legend>
        {(['release', 'uphold', 'escalate'] as const).filter((d) => d !== 'escalate' || c.state === 'open').map((d) => (
          <label key={d}>
            <input type="radio" name={`decision-${c.caseId}`} value={d} checked={decision === d} onChange={() => setDecision(d)} /> {d}
          </label>
        ))}
      </fieldset>
      <label htmlFor="rationale">Rationale (required: {RATIONALE_RULE.summary}; it is signed and journaled)</label>
      <textarea id="rationale" rows={4} value={rationale} onChange={(e) => setRationale(e.target.value)} aria-invalid={touched && short} aria-describedby="rationale-help" data-testid="rationale" />
      <p id="rationale-help" className={touched && short ? 'bad' : 'muted small'}>
        {touched && short ? `${problem}; the rule: ${RATIONALE_RULE.summary}.` : 'It is signed with the officer key and journaled.'}
      </p>
      <SigningKeyLine />
      {touched && !journal.keyFile && <p className="bad">Choose the officer key that signs this decision (journal header, Signing key).</p>}
      <button type="submit" className="primary" disabled={journalBusy} data-testid="sign-decision">
        Sign and record {decision}
      </button>
    </form>
  );
}

/** What the journal answered after a decision was written: the entry, its checkpoint, its checked proof. */
function AnchorReceiptView({ r }: { r: AnchorReceipt }) {
  return (
    <div className="receipt" role="status" data-testid="receipt">
      <h4>Anchor receipt</h4>
      <dl className="meta">
        <dt>Case</dt>
        <dd>
          {r.caseId} is now <strong>{r.state}</strong>
        </dd>
        <dt>Entry seq</dt>
        <dd className="mono">{r.seq}</dd>
        <AnchorFields r={r} />
      </dl>
    </div>
  );
}

function CaseDetail({ c }: { c: CaseView }) {
  const { receipt, journalError } = useStore(useShallow((s) => ({ receipt: s.receipt, journalError: s.journalError })));
  const closed = c.state === 'released' || c.state === 'upheld';
  const myReceipt = receipt && receipt.caseId === c.caseId ? receipt : null;
  return (
    <div className="case-detail" data-testid="case-detail">
      <h3>
        {c.caseId} <span className={`state ${c.state}`}>{c.state}</span>
      </h3>
      <dl className="meta">
        <dt>Claim</dt>
        <dd className="mono">{c.claimRef}</dd>
        <dt>Source</dt>
        <dd>{c.source}</dd>
        <dt>Opened</dt>
        <dd>{c.openedAtUtc}</dd>
      </dl>
      <h4>Evidence</h4>
      {c.evidence ? <pre className="evidence mono small" data-testid="case-evidence" tabIndex={0} aria-label="Case evidence">{JSON.stringify(c.evidence, null, 2)}</pre> : <p className="muted">The case was opened without recorded evidence.</p>}
      <h4>History</h4>
      <ol className="history">
        {c.history.map((h) => (
          <li key={h.seq}>
            <span className="mono small">#{h.seq}</span> <strong>{h.decision}</strong> {h.atUtc} <span className="mono small">{h.author.slice(0, 20)}…</span>: {h.text}
          </li>
        ))}
      </ol>
      {!closed && <DecisionForm c={c} />}
      {journalError && (
        <p role="alert" className="error" data-testid="journal-error">
          {journalError}
        </p>
      )}
      {myReceipt && <AnchorReceiptView r={myReceipt} />}
    </div>
  );
}

/** The quarantine cases, one row each; a row (click or Enter) chooses its case. */
function CaseQueue({ cases, chosen, choose }: { cases: CaseView[]; chosen: string | null; choose: (id: string) => void }) {
  return (
    <table className="grid" data-testid="case-queue">
      <caption className="visually-hidden">Quarantine cases and their states</caption>
      <ColumnHeads names={['Case', 'State', 'Claim', 'Source', 'Updated']} />
      <tbody>
        {cases.map((x) => (
          <tr key={x.caseId} className={`clickable${chosen === x.caseId ? ' chosen' : ''}`} tabIndex={0} onClick={() => choose(x.caseId)} onKeyDown={(e) => e.key === 'Enter' && choose(x.caseId)} data-case={x.caseId}>
            <td className="mono">{x.caseId}</td>
            <td>
              <span className={`state ${x.state}`}>{x.state}</span>
            </td>
            <td className="mono small">{x.claimRef}</td>
            <td>{x.source}</td>
            <td className="small">{x.updatedAtUtc}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Journal and quarantine: the case queue, a case with its evidence, the signed decision form. */
export function JournalView() {
  const { journal, loadJournal, journalStatus: st, journalBusy } = useStore(useShallow((s) => ({ journal: s.journal, loadJournal: s.loadJournal, journalStatus: s.journalStatus, journalBusy: s.journalBusy })));
  const { openDemoJournal, setFormOpen, busy } = useJudgement(useShallow((s) => ({ openDemoJournal: s.openDemoJournal, setFormOpen: s.setFormOpen, busy: s.busy })));
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
        <p className="muted">No journal is open. Open one in the journal header (it is the one journal of this window), or create a training journal.</p>
      )}
      <div className="toolbar">
        <button type="button" className={journal.dir ? '' : 'primary'} onClick={() => setFormOpen(true)} data-testid="change-journal">
          {journal.dir ? 'Change journal…' : 'Open a journal…'}
        </button>
        {journal.dir && (
          <button type="button" onClick={() => void loadJournal()} disabled={journalBusy} data-testid="load-journal">
            Verify again
          </button>
        )}
        <button type="button" onClick={() => void openDemoJournal()} disabled={journalBusy || busy} data-testid="demo-journal">
          Create a training journal
        </button>
      </div>
      {st && (
        <>
          <p className={st.verdict === 'pass' ? 'ok' : 'bad'} data-testid="journal-verification">
            Journal {st.verdict === 'pass' ? 'verified' : st.verdict.toUpperCase()}: {st.entries} entries, checkpoint {st.checkpointSize ?? 'none'}
            {st.rolesChecked ? ', signers checked against the trust store' : ', signers NOT checked (no trust store)'}.
          </p>
          {st.findings.length > 0 && (
            <ul className="journal-findings">
              {st.findings.map((f, i) => (
                <li key={i}>
                  <span className={`sev ${f.severity}`}>{f.severity}</span> <span className="mono">{f.rule}</span> {f.message} {f.pointer && <span className="mono small">at {f.pointer}</span>}
                </li>
              ))}
            </ul>
          )}
          <h3>Case queue ({st.cases.length})</h3>
          <CaseQueue cases={st.cases} chosen={chosen} choose={setChosen} />
          {c && <CaseDetail key={c.caseId} c={c} />}
        </>
      )}
    </section>
  );
}
