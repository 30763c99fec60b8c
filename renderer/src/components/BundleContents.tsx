import {
  bundleDetailsOf,
  caseBundleDetailsOf,
  rejectInForceOf,
  type BundledJudgementDetails,
  type CaseBundleDetails,
} from '../../../shared/details/bundle';
import type { CarriedDetails, IntegrityDetails } from '../../../shared/details/carried';
import type { Report } from '../../../shared/report';
import { AS_STATED } from '../../../shared/stated-words';
import { VERDICT_LABEL } from '../lib/report-words';
import { Signer } from './AnchorFields';
import { ColumnHeads } from './ColumnHeads';
import { CopyValue } from './Copy';
import { Shown } from './Shown';
import type { ReactNode } from 'react';

/**
 * `stated`: what is shown comes from a saved report's own details, not from a check made
 * here. A report carries no signature, so each verdict, proof and decision in it is its
 * claim: said as one, and never in a verdict's colour (a green PASS reads as checked).
 */
type Stated = { stated?: boolean };

/** A verdict's tag: in its verdict's colour when the engine made it here, neutral when a saved report states it. */
const verdictTag = (v: IntegrityDetails['verdict'], stated: boolean) => `tag ${stated ? 'neutral' : v}`;

/**
 * A document that carries a report (an evidence bundle, an exported report): its own
 * verdict and the carried report's, kept apart, shown inside the verdict banner. The
 * banner's own colour is the report's verdict, which is never PASS over a failing carried
 * report (RPR-EVB-016, RPR-RPT-006). The words of the first line are the kind's own
 * (details.integrity.statement).
 */
export function CarriedVerdicts({ details, stated = false }: { details: CarriedDetails } & Stated) {
  const i = details.integrity;
  const mark = stated ? ` (${AS_STATED})` : '';
  return (
    <dl className="meta carried-verdicts" data-testid="carried-verdicts">
      <dt>The file itself{mark}</dt>
      <dd data-testid="file-integrity" data-verdict={i.verdict}>
        <strong className={verdictTag(i.verdict, stated)}>{VERDICT_LABEL[i.verdict]}</strong>{' '}
        <Shown text={i.statement} />
      </dd>
      <dt>The report it carries{mark}</dt>
      <CarriedVerdict details={details} stated={stated} />
    </dl>
  );
}

/**
 * How far the carried report's own verdict can be taken: as stated when the file that
 * carries it passed its own checks; never when they failed (an edited report.json, or a
 * report of another artifact, states whatever its editor wrote: its PASS is not shown as
 * one); not proven when they could not be made (no trust store).
 */
type CarriedTrust = 'trusted' | 'untrusted' | 'unproven';
const TRUST: Record<IntegrityDetails['verdict'], CarriedTrust> = {
  pass: 'trusted',
  fail: 'untrusted',
  unavailable: 'unproven',
};

function CarriedVerdict({ details, stated = false }: { details: CarriedDetails } & Stated) {
  const { integrity: i, carried: c } = details;
  if (!c)
    return (
      <dd data-testid="carried-verdict" data-verdict="none">
        unreadable: the file holds no report that could be read (see the findings).
      </dd>
    );
  const trust = TRUST[i.verdict];
  const what = <Shown text={`${c.kind}${c.id ? ` ${c.id}` : ''}`} />;
  return (
    <dd data-testid="carried-verdict" data-verdict={c.verdict} data-trust={trust}>
      {trust === 'untrusted' ? (
        <>
          <strong className="tag fail">NOT TRUSTED</strong> {what}: the verdict it states cannot be trusted, because the
          file that carries it failed its own checks (<Shown text={i.statement} />
          ).
        </>
      ) : trust === 'unproven' && c.verdict === 'pass' ? (
        <>
          <strong className="tag unavailable">NOT PROVEN</strong> {what}: its own checks passed, but the file that
          carries it could not be checked (<Shown text={i.statement} />
          ).
        </>
      ) : (
        <StatedVerdict c={c} what={what} stated={stated} />
      )}
    </dd>
  );
}

/** The carried report's verdict as it states it, with its decisive finding. */
function StatedVerdict({
  c,
  what,
  stated = false,
}: { c: NonNullable<CarriedDetails['carried']>; what: ReactNode } & Stated) {
  return (
    <>
      <strong className={verdictTag(c.verdict, stated)}>{VERDICT_LABEL[c.verdict]}</strong> {what}
      {c.decisive ? (
        <>
          : <strong className="mono">{c.decisive.rule}</strong> <Shown text={c.decisive.message} />
        </>
      ) : stated ? (
        ': it names no failing or unavailable finding.'
      ) : (
        ': every check of the carried report passed.'
      )}
    </>
  );
}

/** A carried judgement, and whether a trust store was there to name its signer. */
export interface InForce {
  j: BundledJudgementDetails;
  trustStore: boolean;
  /** In a case bundle, the artifact of the case the judgement is on (null: a bundle of one artifact, whose artifact it is). */
  on: CaseArtifactOf | null;
}

/**
 * The artifact of a case bundle a judgement's subject is: its path, or, for a part of one,
 * none of the case's paths; or the case itself (its digest: a judgement that signs case.json).
 */
interface CaseArtifactOf {
  path: string | null;
  sha256: string | null;
  whole?: boolean;
}

/** Where each subject of a case bundle's judgements lies: the case itself, or the path of the artifact whose bytes it is. */
function caseArtifactOf(d: CaseBundleDetails | null, subject: string | null): CaseArtifactOf | null {
  if (!d) return null;
  if (subject !== null && subject === d.caseBundle.digest) return { path: null, sha256: subject, whole: true };
  return { path: d.caseBundle.reports.find((r) => r.sha256 === subject)?.path ?? null, sha256: subject };
}

/** The signed reject in force (shared/details/bundle.ts rejectInForceOf), with who signed it and what it is on. */
export function rejectInForce(report: Report): InForce | null {
  const c = bundleDetailsOf(report) ? null : caseBundleDetailsOf(report);
  const d = bundleDetailsOf(report) ?? c;
  if (!d) return null;
  const reject = rejectInForceOf(d.judgements);
  return reject ? { j: reject, trustStore: d.integrity.trustStore, on: caseArtifactOf(c, reject.subject) } : null;
}

/** Who signed, in words fit for a heading (no copy button): role and label, else the key id. */
function signerWords({ j, trustStore }: InForce): string {
  if (j.role) return `${j.role}${j.label ? `: ${j.label}` : ''}`;
  return `${trustStore ? 'a key not in the trust store' : 'an unnamed key (no trust store given)'}, ${j.author}`;
}

/** Beside the verdict word, inside the heading that names the banner: the decision in force and who signed it. */
export function RejectCaveat({ r, stated = false }: { r: InForce } & Stated) {
  return (
    <span className="verdict-caveat" data-testid="verdict-caveat">
      {' '}
      · signed reject by {signerWords(r)}
      {stated && ', as stated'}
    </span>
  );
}

/** Below the heading: which judgement, on what, the key that signed it and its proof. */
export function RejectLine({ r, id, stated = false }: { r: InForce; id: string } & Stated) {
  const { j } = r;
  return (
    <p className="verdict-rejection" id={id} data-testid="verdict-rejection">
      <strong>A reviewer rejected this{stated && `, ${AS_STATED}`}.</strong> The judgement in force is a signed{' '}
      <strong>reject</strong> (entry #{j.seq}, on{' '}
      {r.on?.whole && j.pointer === '' ? (
        <ArtifactOf on={r.on} />
      ) : (
        <>
          {j.pointer === '' ? 'the whole report' : j.pointer}
          {r.on && (
            <>
              {' '}
              of <ArtifactOf on={r.on} />
            </>
          )}
        </>
      )}
      ) by{' '}
      <Signer
        keyId={j.author}
        role={j.role}
        label={j.label}
        checked={r.trustStore}
        copyLabel={`the key id that signed entry #${j.seq}`}
      />
      ; {stated && 'the saved report states '}
      {j.proof.verified ? 'its inclusion proof verified' : 'its inclusion proof is not verified'}. The verdict is the
      engine&apos;s checks alone.
    </p>
  );
}

/** A case artifact a judgement is on: its path (escaped) and SHA-256, or the value it names when it is a part of one. */
function ArtifactOf({ on }: { on: CaseArtifactOf }) {
  if (on.whole)
    return (
      <span data-testid="judged-artifact">
        the case as a whole (case.json), <CopyValue value={on.sha256!} label="the case's digest" />
      </span>
    );
  return (
    <span data-testid="judged-artifact">
      {on.path === null ? 'a part of an artifact of the case, ' : <Shown text={on.path} />}{' '}
      {on.sha256 ? <CopyValue value={on.sha256} label={`the SHA-256 of ${on.path ?? 'the judged part'}`} /> : '—'}
    </span>
  );
}

/** A note's edit, marked both ways: the edit names the entry it replaces, the replaced note its edit. */
function EditMark({ j, list }: { j: BundledJudgementDetails; list: readonly BundledJudgementDetails[] }) {
  const replaced = j.supersedes === null ? undefined : list.find((x) => x.entryHash === j.supersedes);
  const by = j.entryHash === null ? undefined : list.find((x) => x.supersedes === j.entryHash);
  return (
    <>
      {j.supersedes !== null && (
        <div className="small" data-testid="judgement-edit-of">
          edit of {replaced ? `entry #${replaced.seq}` : 'a note this bundle does not carry'}
        </div>
      )}
      {by && (
        <div className="small" data-testid="judgement-superseded">
          superseded by its edit, entry #{by.seq}
        </div>
      )}
    </>
  );
}

function ProofCell({ j, stated = false }: { j: BundledJudgementDetails } & Stated) {
  const p = j.proof;
  const where = `leaf ${p.leafIndex ?? '?'} of ${p.treeSize ?? '?'}, audit path of ${p.auditPath.length} hash(es)`;
  // No tick for a proof a saved report only claims: a tick reads as a proof checked here.
  if (stated)
    return (
      <>
        {p.verified
          ? 'inclusion verified under the bundle’s signed checkpoint'
          : `not verified${p.problems.length > 0 ? `: ${p.problems.join('; ')}` : ''}`}{' '}
        ({where}), <strong>{AS_STATED}</strong>
      </>
    );
  if (p.verified) return <>✓ inclusion verified under the bundle’s signed checkpoint ({where})</>;
  if (p.problems.length === 0) return <>not verified: no trust store was given ({where})</>;
  return <span className="bad">not verified: {p.problems.join('; ')}</span>;
}

/** What a pointer into the carried report names, in that report's words. */
export function itemIn(report: Report | null, pointer: string): string {
  if (pointer === '') return 'the whole report';
  const m = /^\/findings\/(\d+)$/.exec(pointer);
  const f = m && report ? report.findings[Number(m[1])] : undefined;
  return f ? `${pointer} (${f.rule})` : pointer;
}

/** Each judgement the bundle carries: decision, item, rationale, signer, entry and its proof. */
export function BundledJudgements({
  list,
  trustStore,
  itemOf,
  stated = false,
}: {
  list: readonly BundledJudgementDetails[];
  trustStore: boolean;
  itemOf: (j: BundledJudgementDetails) => ReactNode;
} & Stated) {
  return (
    <section className="panel bundled-judgements" aria-labelledby="bundled-judgements-h">
      <h2 id="bundled-judgements-h">
        Judgements carried by this bundle ({list.length})
        {stated && ', as the saved report states them, not checked here'}
      </h2>
      {stated && list.length > 0 && (
        <p className="cap-note" role="note" data-testid="judgements-stated">
          A saved report carries no signature: each decision, signer and proof below is what it states, none checked
          here.
        </p>
      )}
      {list.length === 0 ? (
        <p className="muted">The bundle carries no judgement: nothing signed binds its report to a reviewer.</p>
      ) : (
        // A table is read in two dimensions: in a narrow window it scrolls sideways in its box, never the page.
        <div className="table-scroll">
          <table className="grid" data-testid="bundled-judgements">
            <caption className="visually-hidden">Judgements carried by the evidence bundle, with their proofs</caption>
            <ColumnHeads names={['Entry', 'Decision', 'Item', 'Rationale', 'Signer', 'Proof']} />
            <tbody>
              {list.map((j) => (
                <tr key={j.seq} data-testid={`bundled-judgement-${j.seq}`}>
                  <td className="mono small">
                    #{j.seq} <span className="muted">{j.recordedAtUtc}</span>
                    {j.entryHash && (
                      <div>
                        <CopyValue value={j.entryHash} label={`the hash of entry #${j.seq}`} />
                      </div>
                    )}
                  </td>
                  <td data-testid="bundled-decision">
                    <strong>{j.decision}</strong>
                    {stated && ' (as stated, not checked here)'}
                    <EditMark j={j} list={list} />
                  </td>
                  <td className="mono small">{itemOf(j)}</td>
                  <td className="small" data-testid="bundled-rationale">
                    {j.rationale}
                  </td>
                  <td className="small">
                    <Signer
                      keyId={j.author}
                      role={j.role}
                      label={j.label}
                      checked={trustStore}
                      copyLabel={`the key id that signed entry #${j.seq}`}
                    />
                  </td>
                  <td
                    className="small"
                    data-testid="bundled-proof"
                    data-verified={String(j.proof.verified)}
                    {...(stated ? { 'data-stated': 'true' } : {})}
                  >
                    <ProofCell j={j} stated={stated} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** A case bundle: the report of each artifact it carries, with its verdict. */
export function CaseBundleReports({ details, stated = false }: { details: CaseBundleDetails } & Stated) {
  return (
    <section className="panel case-bundle-reports" aria-labelledby="case-bundle-reports-h">
      <h2 id="case-bundle-reports-h">Reports carried by this case bundle ({details.caseBundle.reports.length})</h2>
      <div className="table-scroll">
        <table className="grid" data-testid="case-bundle-reports">
          <caption className="visually-hidden">Each artifact of the case and the verdict of its bundled report</caption>
          <ColumnHeads names={['Artifact', 'Kind', stated ? 'Verdict (as stated)' : 'Verdict', 'SHA-256']} />
          <tbody>
            {details.caseBundle.reports.map((r) => (
              <tr key={r.member}>
                <td className="mono small">{r.path}</td>
                <td>{r.kind}</td>
                <td>
                  <strong className={verdictTag(r.verdict, stated)}>{VERDICT_LABEL[r.verdict]}</strong>
                </td>
                <td className="small">
                  {r.sha256 ? <CopyValue value={r.sha256} label={`the SHA-256 of ${r.path}`} /> : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Below the verdict banner: what a bundle carries (its judgements), or a case bundle (its reports and judgements). */
export function CarriedContents({ report, stated = false }: { report: Report } & Stated) {
  const bundle = bundleDetailsOf(report);
  if (bundle) {
    const carried = (bundle.report ?? null) as Report | null;
    return (
      <BundledJudgements
        list={bundle.judgements}
        trustStore={bundle.integrity.trustStore}
        itemOf={(j) => itemIn(carried, j.pointer)}
        stated={stated}
      />
    );
  }
  const c = caseBundleDetailsOf(report);
  if (!c) return null;
  return (
    <>
      <CaseBundleReports details={c} stated={stated} />
      <BundledJudgements
        list={c.judgements}
        trustStore={c.integrity.trustStore}
        stated={stated}
        itemOf={(j) => (
          <>
            <ArtifactOf on={caseArtifactOf(c, j.subject)!} />:{' '}
            {j.pointer !== '' ? j.pointer : j.subject === c.caseBundle.digest ? 'the whole case' : 'the whole report'}
          </>
        )}
      />
    </>
  );
}
