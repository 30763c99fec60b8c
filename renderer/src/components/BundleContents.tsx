import {
  bundleDetailsOf,
  caseBundleDetailsOf,
  type BundledJudgementDetails,
  type CaseBundleDetails,
} from '../../../shared/details/bundle';
import type { CarriedDetails } from '../../../shared/details/carried';
import type { Report } from '../../../shared/report';
import { VERDICT_LABEL } from '../lib/report-words';
import { Signer } from './AnchorFields';
import { ColumnHeads } from './ColumnHeads';
import { CopyValue } from './Copy';

/**
 * A document that carries a report (an evidence bundle, an exported report): its own
 * verdict and the carried report's, kept apart, shown inside the verdict banner. The
 * banner's own colour is the report's verdict, which is never PASS over a failing carried
 * report (RPR-EVB-016, RPR-RPT-006). The words of the first line are the kind's own
 * (details.integrity.statement).
 */
export function CarriedVerdicts({ details }: { details: CarriedDetails }) {
  const i = details.integrity;
  const c = details.carried;
  return (
    <dl className="meta carried-verdicts" data-testid="carried-verdicts">
      <dt>The file itself</dt>
      <dd data-testid="file-integrity" data-verdict={i.verdict}>
        <strong className={`tag ${i.verdict}`}>{VERDICT_LABEL[i.verdict]}</strong> {i.statement}
      </dd>
      <dt>The report it carries</dt>
      <dd data-testid="carried-verdict" data-verdict={c?.verdict ?? 'none'}>
        {c ? (
          <>
            <strong className={`tag ${c.verdict}`}>{VERDICT_LABEL[c.verdict]}</strong> {c.kind}
            {c.id ? ` ${c.id}` : ''}
            {c.decisive ? (
              <>
                : <strong className="mono">{c.decisive.rule}</strong> {c.decisive.message}
              </>
            ) : (
              ': every check of the carried report passed.'
            )}
          </>
        ) : (
          'unreadable: the file holds no report that could be read (see the findings).'
        )}
      </dd>
    </dl>
  );
}

function ProofCell({ j }: { j: BundledJudgementDetails }) {
  const p = j.proof;
  const where = `leaf ${p.leafIndex ?? '?'} of ${p.treeSize ?? '?'}, audit path of ${p.auditPath.length} hash(es)`;
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
}: {
  list: readonly BundledJudgementDetails[];
  trustStore: boolean;
  itemOf: (j: BundledJudgementDetails) => string;
}) {
  return (
    <section className="panel bundled-judgements" aria-labelledby="bundled-judgements-h">
      <h2 id="bundled-judgements-h">Judgements carried by this bundle ({list.length})</h2>
      {list.length === 0 ? (
        <p className="muted">The bundle carries no judgement: nothing signed binds its report to a reviewer.</p>
      ) : (
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
                <td>
                  <strong>{j.decision}</strong>
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
                <td className="small" data-testid="bundled-proof" data-verified={String(j.proof.verified)}>
                  <ProofCell j={j} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** A case bundle: the report of each artifact it carries, with its verdict. */
export function CaseBundleReports({ details }: { details: CaseBundleDetails }) {
  return (
    <section className="panel case-bundle-reports" aria-labelledby="case-bundle-reports-h">
      <h2 id="case-bundle-reports-h">Reports carried by this case bundle ({details.caseBundle.reports.length})</h2>
      <table className="grid" data-testid="case-bundle-reports">
        <caption className="visually-hidden">Each artifact of the case and the verdict of its bundled report</caption>
        <ColumnHeads names={['Artifact', 'Kind', 'Verdict', 'SHA-256']} />
        <tbody>
          {details.caseBundle.reports.map((r) => (
            <tr key={r.member}>
              <td className="mono small">{r.path}</td>
              <td>{r.kind}</td>
              <td>
                <strong className={`tag ${r.verdict}`}>{VERDICT_LABEL[r.verdict]}</strong>
              </td>
              <td className="small">
                {r.sha256 ? <CopyValue value={r.sha256} label={`the SHA-256 of ${r.path}`} /> : '—'}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Below the verdict banner: what a bundle carries (its judgements), or a case bundle (its reports and judgements). */
export function CarriedContents({ report }: { report: Report }) {
  const bundle = bundleDetailsOf(report);
  if (bundle) {
    const carried = (bundle.report ?? null) as Report | null;
    return (
      <BundledJudgements
        list={bundle.judgements}
        trustStore={bundle.integrity.trustStore}
        itemOf={(j) => itemIn(carried, j.pointer)}
      />
    );
  }
  const c = caseBundleDetailsOf(report);
  if (!c) return null;
  const pathOf = new Map(c.caseBundle.reports.map((r) => [r.sha256, r.path]));
  return (
    <>
      <CaseBundleReports details={c} />
      <BundledJudgements
        list={c.judgements}
        trustStore={c.integrity.trustStore}
        itemOf={(j) =>
          `${pathOf.get(j.subject ?? '') ?? j.subject ?? '?'}: ${j.pointer === '' ? 'the whole report' : j.pointer}`
        }
      />
    </>
  );
}
