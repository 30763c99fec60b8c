import type { BundledJudgementDetails, EvidenceBundleDetails } from '../../../shared/details/bundle';
import type { Report } from '../../../shared/report';
import { VERDICT_LABEL } from '../lib/report-words';
import { Signer } from './AnchorFields';
import { ColumnHeads } from './ColumnHeads';
import { CopyValue } from './Copy';

/** The bundle's own verdict in words: what its integrity checks decided, never the carried report's. */
const INTEGRITY_WORDS = {
  pass: 'INTACT: every member, the signed checkpoint and every judgement’s proof and signature check.',
  fail: 'DAMAGED: a member, the checkpoint, a proof or a signature does not check (see the findings).',
  unavailable: 'NOT CHECKED: without a trust store the checkpoint and the judgements’ signers cannot be decided.',
} as const;

/**
 * What an evidence bundle carries, as two verdicts kept apart (the bundle's integrity, the
 * carried report's verdict), shown inside the verdict banner: the banner's own colour is
 * the report's verdict, which is never PASS over a failing carried report (RPR-EVB-016).
 */
export function BundleVerdicts({ details }: { details: EvidenceBundleDetails }) {
  const b = details.bundled;
  return (
    <dl className="meta bundle-verdicts" data-testid="bundle-verdicts">
      <dt>This bundle</dt>
      <dd data-testid="bundle-integrity" data-verdict={details.integrity.verdict}>
        <strong className={`tag ${details.integrity.verdict}`}>{VERDICT_LABEL[details.integrity.verdict]}</strong>{' '}
        {INTEGRITY_WORDS[details.integrity.verdict]}
      </dd>
      <dt>The report it carries</dt>
      <dd data-testid="bundled-verdict" data-verdict={b?.verdict ?? 'none'}>
        {b ? (
          <>
            <strong className={`tag ${b.verdict}`}>{VERDICT_LABEL[b.verdict]}</strong> {b.kind}
            {b.id ? ` ${b.id}` : ''}
            {b.decisive ? (
              <>
                : <strong className="mono">{b.decisive.rule}</strong> {b.decisive.message}
              </>
            ) : (
              ': every check of the carried report passed.'
            )}
          </>
        ) : (
          'unreadable: the bundle holds no report that could be read (see the findings).'
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
function itemOf(report: Report | null, pointer: string): string {
  if (pointer === '') return 'the whole report';
  const m = /^\/findings\/(\d+)$/.exec(pointer);
  const f = m && report ? report.findings[Number(m[1])] : undefined;
  return f ? `${pointer} (${f.rule})` : pointer;
}

/** Each judgement the bundle carries: decision, item, rationale, signer, entry and its proof. */
export function BundledJudgements({ details }: { details: EvidenceBundleDetails }) {
  const carried = (details.report ?? null) as Report | null;
  const list = details.judgements;
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
                <td className="mono small">{itemOf(carried, j.pointer)}</td>
                <td className="small" data-testid="bundled-rationale">
                  {j.rationale}
                </td>
                <td className="small">
                  <Signer
                    keyId={j.author}
                    role={j.role}
                    label={j.label}
                    checked={details.integrity.trustStore}
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
