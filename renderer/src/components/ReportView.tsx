import type { Finding, Report } from '../../../shared/report';
import type { OpenArtifact } from '../store';

const LABEL = { pass: 'PASS', fail: 'FAIL', unavailable: 'UNAVAILABLE' } as const;

/** The decisive finding: the first fail, else the first unavailable, else none. */
export function decisiveFinding(r: Report): Finding | null {
  return r.findings.find((f) => f.severity === 'fail') ?? r.findings.find((f) => f.severity === 'unavailable') ?? null;
}

function show(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function ReportView({ report, artifact }: { report: Report; artifact: OpenArtifact | null }) {
  const decisive = decisiveFinding(report);
  const hashAgrees = artifact?.localSha256 ? artifact.localSha256 === report.artifact.sha256 : null;
  return (
    <section className="panel report" aria-labelledby="verdict-h">
      <div className={`verdict-banner ${report.verdict}`} role="status" data-testid="verdict">
        <h2 id="verdict-h">
          <span className="verdict-word">{LABEL[report.verdict]}</span> <span className="kind">{report.artifact.kind}</span>
          {report.artifact.id && <span className="artifact-id"> {report.artifact.id}</span>}
        </h2>
        <p data-testid="decisive">{decisive ? `${decisive.rule}: ${decisive.message}` : 'Every check passed.'}</p>
        <dl className="meta">
          <dt>File</dt>
          <dd>{report.artifact.path}</dd>
          <dt>SHA-256</dt>
          <dd className="mono">
            {report.artifact.sha256 ?? '—'}
            {hashAgrees === true && <span className="ok"> (matches the hash computed in this window)</span>}
            {hashAgrees === false && <span className="bad"> (differs from the hash computed in this window: {artifact?.localSha256})</span>}
          </dd>
        </dl>
      </div>

      <h3>Findings ({report.findings.length})</h3>
      {report.findings.length === 0 ? (
        <p>No findings.</p>
      ) : (
        <table className="findings" data-testid="findings">
          <thead>
            <tr>
              <th scope="col">Rule</th>
              <th scope="col">Severity</th>
              <th scope="col">Message</th>
              <th scope="col">Pointer</th>
              <th scope="col">Expected / actual</th>
            </tr>
          </thead>
          <tbody>
            {report.findings.map((f, i) => (
              <tr key={i} className={f.severity}>
                <td className="mono">{f.rule}</td>
                <td>{f.severity}</td>
                <td>{f.message}</td>
                <td className="mono">{f.pointer ?? ''}</td>
                <td className="mono">
                  {f.expected !== undefined && <div>expected {show(f.expected)}</div>}
                  {f.actual !== undefined && <div>actual {show(f.actual)}</div>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      {report.chain.length > 0 && (
        <>
          <h3>Hash chain ({report.chain.length} nodes)</h3>
          <table className="chain" data-testid="chain">
            <thead>
              <tr>
                <th scope="col">Node</th>
                <th scope="col">Status</th>
                <th scope="col">Recorded</th>
                <th scope="col">Recomputed</th>
              </tr>
            </thead>
            <tbody>
              {report.chain.map((n) => (
                <tr key={n.id} className={n.status}>
                  <td>{n.label}</td>
                  <td>{n.status}</td>
                  <td className="mono">{n.recorded ?? '—'}</td>
                  <td className="mono">{n.recomputed ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
