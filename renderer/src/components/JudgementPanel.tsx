import { useEffect, useRef, useState } from 'react';
import { AnchorFields, Signer } from './AnchorFields';
import { focusWhenShown } from '../lib/focus';
import { useShallow } from 'zustand/react/shallow';
import { checkRationale, type JudgementDecision, type JudgementView } from '../../../shared/api';
import type { Report } from '../../../shared/report';
import { artifactOf, useJudgement } from '../judgement-store';
import { useStore } from '../store';
import { ConfirmSign, type ToSign } from './ConfirmSign';
import { ExportBundle } from './ExportBundle';
import { ColumnHeads } from './ColumnHeads';
import { judgementRefusal } from '../lib/sign-gate';
import { SignBlocked } from './SignBlocked';
import { JUDGEMENT_ERROR_ID as JUDGEMENT_ERROR } from '../lib/bundle-where';
import { keyStanding, statusRefusal } from '../lib/officer';
import { RATIONALE_SHOWN, Shown } from './Shown';
import { KeyProblems, readKeyToConfirm } from './KeyProblems';

/** Why no judgement can be signed: below the panel's toolbar, named by every "Record judgement" button. */
const JUDGE_BLOCKED = 'judge-sign-blocked';
/** The same, beside the form's "Review and sign…". */
const REVIEW_BLOCKED = 'judge-review-blocked';
/** Why the chosen key may not sign (revoked or retired), beside the form's "Review and sign…". */
const KEY_REFUSED = 'judge-key-refused';

/** Why nothing can be signed onto the window's journal (it fails verification), or null. */
/** Why nothing can be signed here: a journal that fails, or a saved report (sign-gate.ts). */
const useRefusal = (): string | null => {
  const saved = useStore((s) => s.artifact?.savedReport === true);
  return useJudgement((s) => judgementRefusal(s.status, saved));
};

/** "Record judgement" beside an item of the open report (shown once a journal is open). */
export function JudgeButton({ pointer, label }: { pointer: string; label: string }) {
  const { work, startJudging } = useJudgement(useShallow((s) => ({ work: s.work, startJudging: s.startJudging })));
  const refused = useRefusal();
  if (!work) return null;
  return (
    <button
      type="button"
      className="judge small"
      disabled={refused !== null}
      {...(refused ? { 'aria-describedby': JUDGE_BLOCKED } : {})}
      onClick={(e) => {
        e.stopPropagation();
        startJudging({ pointer, label });
      }}
      onKeyDown={(e) => e.stopPropagation()}
      aria-label={`Record judgement on ${label}`}
      data-testid={`judge-${pointer === '' ? 'report' : pointer.slice(1).replace(/\//g, '-')}`}
    >
      Record judgement
    </button>
  );
}

/** What a pointer into the report names, in the report's words. */
export function itemLabel(report: Report, pointer: string): string {
  const [, part, n] = pointer.split('/');
  const i = Number(n);
  if (part === 'findings') return `finding ${report.findings[i]?.rule ?? n}`;
  if (part === 'comparisons') return `comparison ${report.comparisons?.[i]?.output ?? n}`;
  if (part === 'events') {
    const e = report.events?.[i] as { type?: unknown; output?: unknown } | undefined;
    return `event ${String(e?.output ?? e?.type ?? n)}`;
  }
  return 'the whole report';
}

/** The latest judgement on an item of this very report (the state the form continues from). */
function latestOn(judgements: JudgementView[], pointer: string, digest: string | null): JudgementView | null {
  const mine = judgements.filter(
    (j) => j.pointer === pointer && j.reportDigest === digest && j.problem === null && j.decision !== 'note',
  );
  return mine.length ? mine[mine.length - 1]! : null;
}

/** The decisions the item's state allows: any but the one already in force ("note" always). */
function allowedDecisions(all: readonly JudgementDecision[], latest: JudgementView | null): JudgementDecision[] {
  return all.filter((d) => d === 'note' || d !== latest?.decision);
}

function DecisionField({
  decisions,
  decision,
  setDecision,
  touched,
}: {
  decisions: JudgementDecision[];
  decision: JudgementDecision | null;
  setDecision: (d: JudgementDecision) => void;
  touched: boolean;
}) {
  return (
    <fieldset {...(touched && !decision ? { 'aria-describedby': 'decision-err' } : {})}>
      <legend>Decision</legend>
      {decisions.map((d) => (
        <label key={d}>
          <input
            type="radio"
            name="judgement-decision"
            value={d}
            checked={decision === d}
            onChange={() => setDecision(d)}
            data-testid={`decision-${d}`}
          />{' '}
          {d}
        </label>
      ))}
      {touched && !decision && (
        <p id="decision-err" className="field-error">
          Choose a decision.
        </p>
      )}
    </fieldset>
  );
}

/** The rationale and the engine's rule for it; problem is shown once the form was submitted. */
function RationaleField({
  summary,
  rationale,
  setRationale,
  problem,
  touched,
}: {
  summary: string | undefined;
  rationale: string;
  setRationale: (r: string) => void;
  problem: string | null;
  touched: boolean;
}) {
  return (
    <>
      <label htmlFor="judgement-rationale">Rationale (signed and journaled)</label>
      <p id="judgement-rule" className="muted small" data-testid="judgement-rule">
        The rule: {summary ?? 'loading the engine’s rule…'}
      </p>
      <textarea
        id="judgement-rationale"
        rows={4}
        value={rationale}
        onChange={(e) => setRationale(e.target.value)}
        aria-invalid={touched && problem !== null}
        aria-describedby={problem ? 'judgement-rule judgement-rationale-err' : 'judgement-rule'}
        data-testid="judgement-rationale"
      />
      {problem && (
        <p id="judgement-rationale-err" className="field-error" data-testid="judgement-rationale-err">
          {problem}
        </p>
      )}
    </>
  );
}

function SignerLine({ signer }: { signer: ToSign['key'] | null }) {
  return (
    <p className="small">
      Signing key:{' '}
      {signer ? (
        <span data-testid="judge-key">
          {signer.label ?? signer.path} · {keyStanding(signer)}
        </span>
      ) : (
        <strong>none chosen: choose one under “Journal” in the header.</strong>
      )}
    </p>
  );
}

function JudgementForm({ report }: { report: Report }) {
  const s = useJudgement(
    useShallow((x) => ({
      judging: x.judging!,
      rules: x.rules,
      keys: x.keys,
      keyPath: x.keyPath,
      work: x.work!,
      list: x.list,
      busy: x.busy,
      record: x.record,
      refreshKeys: x.refreshKeys,
      startJudging: x.startJudging,
    })),
  );
  const [decision, setDecision] = useState<JudgementDecision | null>(null);
  const [rationale, setRationale] = useState('');
  const [touched, setTouched] = useState(false);
  const [confirm, setConfirm] = useState<ToSign | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const { pointer, label } = s.judging;
  useEffect(() => heading.current?.focus(), [pointer]);
  const latest = latestOn(s.list?.judgements ?? [], pointer, s.list?.reportDigest ?? null);
  const decisions = allowedDecisions(s.rules?.decisions ?? [], latest);
  const problem = checkRationale(rationale);
  const key = s.keys.find((k) => k.path === s.keyPath) ?? null;
  const artifact = artifactOf(report)!;
  const refused = useRefusal();
  // A revoked or retired key signs nothing: said before the click (the engine refuses it too).
  const badKey = statusRefusal(key ?? undefined);
  const [keyTrouble, setKeyTrouble] = useState<string | null>(null);
  return (
    <section className="judgement-form panel" aria-labelledby="judge-h" data-testid="judgement-form">
      <h3 id="judge-h" tabIndex={-1} ref={heading}>
        Record judgement on {label}
      </h3>
      {latest && (
        <p className="small" data-testid="judge-latest">
          In force: <strong>{latest.decision}</strong> (entry #{latest.seq}). You may now record: {decisions.join(', ')}
          .
        </p>
      )}
      <form
        aria-label={`Judgement on ${label}`}
        onSubmit={(e) => {
          e.preventDefault();
          setTouched(true);
          if (!decision || problem || !key?.keyId || refused || badKey) return;
          setKeyTrouble(null);
          // The key file read again now: the confirmation shows the key it holds at this moment,
          // and the engine signs only if it still holds that key.
          readKeyToConfirm(
            s.refreshKeys,
            s.keyPath,
            statusRefusal,
            (fresh) =>
              setConfirm({
                artifact,
                reportDigest: s.list?.reportDigest ?? null,
                pointer,
                label,
                decision,
                rationale,
                key: fresh,
                journal: s.work.dir,
              }),
            setKeyTrouble,
          );
        }}
      >
        <DecisionField decisions={decisions} decision={decision} setDecision={setDecision} touched={touched} />
        <RationaleField
          summary={s.rules?.summary}
          rationale={rationale}
          setRationale={setRationale}
          problem={touched ? problem : null}
          touched={touched}
        />
        <SignerLine signer={key} />
        <KeyProblems trouble={keyTrouble} refusal={badKey} refusalId={KEY_REFUSED} testId="judge-key" />
        <div className="toolbar">
          <button
            type="submit"
            className="primary"
            disabled={s.busy || !key?.keyId || refused !== null || badKey !== null}
            {...(refused ? { 'aria-describedby': REVIEW_BLOCKED } : badKey ? { 'aria-describedby': KEY_REFUSED } : {})}
            data-testid="judge-review"
          >
            Review and sign…
          </button>
          <button type="button" onClick={() => s.startJudging(null)}>
            Close
          </button>
        </div>
        {refused && <SignBlocked id={REVIEW_BLOCKED} reason={refused} />}
      </form>
      {confirm && (
        <ConfirmSign
          what={confirm}
          refused={refused}
          onCancel={() => setConfirm(null)}
          onSign={() => {
            const c = confirm;
            setConfirm(null);
            void s.record(c.pointer, c.decision, c.rationale, c.key.keyId ?? '').then((ok) => {
              if (ok) {
                setDecision(null);
                setRationale('');
                setTouched(false);
              }
              // The closed dialog left focus at <body>: move it to what the signing produced.
              focusWhenShown(ok ? JUDGEMENT_RECEIPT : JUDGEMENT_ERROR);
            });
          }}
        />
      )}
    </section>
  );
}

/** Ids focus moves to after signing: the receipt, or the error when the engine refused. */
const JUDGEMENT_RECEIPT = 'judgement-receipt';

/** The signed entry, its anchor and its signer; focus moves here after signing (so no live region too). */
function Receipt() {
  const receipt = useJudgement((s) => s.receipt);
  if (!receipt) return null;
  return (
    <section
      id={JUDGEMENT_RECEIPT}
      className="receipt"
      tabIndex={-1}
      aria-labelledby="judgement-receipt-h"
      data-testid="judgement-receipt"
    >
      <h3 id="judgement-receipt-h">Signed and anchored</h3>
      <dl className="meta">
        <dt>Entry</dt>
        <dd className="mono">#{receipt.seq}</dd>
        <AnchorFields r={receipt} />
        <dt>Signed by</dt>
        <dd data-testid="judgement-receipt-signer">
          <Signer
            keyId={receipt.keyId}
            role={receipt.role}
            label={receipt.label}
            checked
            copyLabel="the key id that signed the judgement"
            keyTestId="judgement-receipt-key"
          />
        </dd>
      </dl>
    </section>
  );
}

function JudgementsList() {
  const { list, hasTrust } = useJudgement(useShallow((s) => ({ list: s.list, hasTrust: !!s.work?.trustStore })));
  if (!list) return null;
  return (
    <>
      <h3>Judgements on this artifact ({list.judgements.length})</h3>
      {list.judgements.length === 0 ? (
        <p className="muted">None recorded in this journal yet.</p>
      ) : (
        <table className="grid" data-testid="judgements">
          <caption className="visually-hidden">Judgements recorded on this artifact</caption>
          <ColumnHeads names={['Entry', 'Item', 'Decision', 'Rationale', 'Signer', 'Proof']} />
          <tbody>
            {list.judgements.map((j) => (
              <tr key={j.seq}>
                <td className="mono small">#{j.seq}</td>
                <td className="mono small">
                  {j.pointer === '' ? 'whole report' : j.pointer}
                  {j.reportDigest !== null && j.reportDigest !== list.reportDigest && (
                    <div className="muted">on another report of this artifact</div>
                  )}
                </td>
                <td>{j.decision}</td>
                <td className="small rationale-text">
                  <Shown text={j.rationale} {...RATIONALE_SHOWN} />
                </td>
                <td className="small">
                  <Signer
                    keyId={j.author}
                    role={j.role}
                    label={j.label}
                    checked={hasTrust}
                    copyLabel={`the key id that signed entry #${j.seq}`}
                  />
                </td>
                <td className="small" data-testid="judgement-proof">
                  {j.problem
                    ? `problem: ${j.problem}`
                    : j.proofVerified
                      ? 'verified'
                      : `${j.proofBuilt ? 'not verified' : 'no proof could be built'}: ${j.proofFindings.join('; ')}`}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

/** The reviewer's act on the open report: judge it (or an item), see what was judged, export it. */
export function JudgementPanel() {
  const report = useStore((s) => s.report);
  const { work, judging, error } = useJudgement(
    useShallow((s) => ({ work: s.work, judging: s.judging, error: s.error })),
  );
  const refused = useRefusal();
  if (!work || !report) return null;
  // The "Record judgement" buttons of every view name this reason: it is there whenever they are.
  const blocked = refused && <SignBlocked id={JUDGE_BLOCKED} reason={refused} />;
  if (!artifactOf(report))
    return (
      <>
        <p className="muted small">
          This report names no artifact SHA-256: judgements are recorded on an artifact file.
        </p>
        {blocked}
      </>
    );
  return (
    <section className="judgements panel" aria-labelledby="judgements-h" data-testid="judgement-panel">
      <h2 id="judgements-h" className="visually-hidden">
        Judgements
      </h2>
      <div className="toolbar">
        <JudgeButton pointer="" label="the whole report" />
        <ExportBundle />
      </div>
      {blocked}
      {error && (
        <p id={JUDGEMENT_ERROR} role="alert" className="error" tabIndex={-1} data-testid="judgement-error">
          <Shown text={error} />
        </p>
      )}
      {judging && <JudgementForm key={judging.pointer} report={report} />}
      <Receipt />
      <JudgementsList />
    </section>
  );
}
