import type { Report } from '../../../shared/report';
import { whatIfOf } from '../../../shared/details/index';
import { authenticity, decisiveFinding, plainVerdict, VERDICT_LABEL } from '../lib/report-words';
import type { OpenArtifact } from '../store';
import { CopyValue } from './Copy';

/** PASS / FAIL / UNAVAILABLE, the decisive finding in plain words, kind and ids, authenticity. */
export function VerdictBanner({ report, artifact }: { report: Report; artifact: OpenArtifact | null }) {
  const decisive = decisiveFinding(report);
  const auth = authenticity(report);
  const hashAgrees = artifact?.localSha256 ? artifact.localSha256 === report.artifact.sha256 : null;
  const demo = whatIfOf(report);
  return (
    <section className={`verdict-banner ${report.verdict}`} role="status" aria-labelledby="verdict-h" data-testid="verdict">
      <h2 id="verdict-h" tabIndex={-1}>
        <span className="verdict-word">{VERDICT_LABEL[report.verdict]}</span> <span className="kind">{report.artifact.kind}</span>
        {report.artifact.id && <span className="artifact-id"> {report.artifact.id}</span>}
        {demo !== null && <span className="demo-tag"> DEMONSTRATION (what-if)</span>}
      </h2>
      <p className="plain" data-testid="decisive">
        {decisive ? <strong className="mono">{decisive.rule}</strong> : null}
        {decisive ? ' ' : ''}
        {plainVerdict(report)}
        {/* What the content looked like (RPR-KIND-001: a file truncated, behind a BOM...), in the engine's words. */}
        {typeof decisive?.actual === 'string' && <span data-testid="decisive-actual"> Found: {decisive.actual}.</span>}
      </p>
      <p className={`authenticity ${auth.level}`} data-testid="authenticity" data-status={auth.status}>
        <span className="label">Authenticity:</span> {auth.text}
      </p>
      {report.authenticity?.keyId && (
        <p className="small">
          <span className="label">Signing key:</span> <CopyValue value={report.authenticity.keyId} label="the signing key id" testId="key-id" />{' '}
          <span data-testid="key-signer">
            {report.authenticity.role ? (
              <>
                held by a <strong>{report.authenticity.role}</strong>
                {report.authenticity.label ? <>: {report.authenticity.label}</> : ' (no label in the trust store)'}
              </>
            ) : (
              '(role and label unknown: the trust store given does not list this key, or none was given)'
            )}
          </span>
        </p>
      )}
      <dl className="meta">
        <dt>File</dt>
        <dd>
          {report.artifact.path}
          {artifact?.savedReport && <span className="bad"> (a saved report, shown as saved: not re-verified)</span>}
        </dd>
        <dt>SHA-256</dt>
        <dd className="mono">
          {report.artifact.sha256 ? <CopyValue value={report.artifact.sha256} label="the artifact's SHA-256" /> : '—'}
          {hashAgrees === true && <span className="ok"> (matches the hash computed in this window)</span>}
          {hashAgrees === false && <span className="bad"> (differs from the hash computed in this window: {artifact?.localSha256})</span>}
        </dd>
      </dl>
    </section>
  );
}
