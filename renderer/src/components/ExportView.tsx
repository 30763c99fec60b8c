import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AttestationExport } from '../../../shared/api';
import type { Report } from '../../../shared/report';
import { reportPage } from '../../../shared/report-html.js';
import { VERDICT_LABEL } from '../lib/report-words';
import { optionsFor, useStore, type OpenArtifact } from '../store';
import { PathField } from './PathField';
import { artifactOf, useJudgement } from '../judgement-store';
import { bundleWhere } from '../lib/bundle-where';
import { focusWhenShown } from '../lib/focus';
import { Signer } from './AnchorFields';
import { CopyValue } from './Copy';
import { Shown } from './Shown';

/** Saves text as a file (a Blob download); the Compare view's export uses it too. */
export function download(name: string, type: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Attestation (in-toto / DSSE) of a TG manifest's replay: the engine's process replays it
 * read-only and signs the statement with the reviewer's key (`reprise attest`); the window
 * only saves the envelope and shows its digest and key id.
 */
function Attestation({ report, base }: { report: Report; base: string }) {
  const { api, artifact, openOptions, attestable } = useStore(
    useShallow((s) => ({
      api: s.api,
      artifact: s.artifact,
      openOptions: s.openOptions,
      attestable: s.info?.offers.attest,
    })),
  );
  const [keyFile, setKeyFile] = useState('');
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<AttestationExport | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The kinds that offer attestation (the engine's declarations, EngineInfo.offers): TG replay manifests.
  const eligible =
    !!attestable?.includes(report.artifact.kind) && report.comparisons !== undefined && !!artifact?.source;
  const fileName = `${base}.attestation.dsse.json`;
  const make = async (): Promise<void> => {
    if (!api || !artifact?.source || !keyFile.trim()) return;
    setBusy(true);
    setError(null);
    setMade(null);
    try {
      const options = optionsFor(artifact.source, openOptions);
      const a = await api.attestReplay({
        source: artifact.source,
        keyFile: keyFile.trim(),
        ...(Object.keys(options).length ? { options } : {}),
      });
      setMade(a);
      download(fileName, 'application/json', a.envelope);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="attest-h" className="attest">
      <h3 id="attest-h">Attestation (in-toto / DSSE)</h3>
      {!eligible ? (
        <p className="muted small">
          Attestations are made for replay reports of TG manifests: open one and replay it (Replay view), then come back
          here. The CLI makes the same: reprise attest MANIFEST --key KEYFILE.
        </p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void make();
          }}
        >
          <p className="small">
            The engine replays the manifest again (read-only: nothing is written to a journal), builds an in-toto
            Statement v1 and signs it in a DSSE envelope with the reviewer&apos;s key. Check it with reprise attest
            --verify FILE --trust-store FILE.
          </p>
          <PathField
            id="reviewer-key"
            label="Reviewer key file (PKCS#8 PEM)"
            value={keyFile}
            kind="file"
            use="key"
            onChange={setKeyFile}
          />
          <button type="submit" className="primary" disabled={busy || !keyFile.trim()} data-testid="export-attestation">
            {busy ? 'Signing…' : 'Sign and save attestation'}
          </button>
        </form>
      )}
      {error && (
        <p className="bad" role="alert" data-testid="attestation-error">
          <Shown text={error} />
        </p>
      )}
      {made && <AttestationReceipt made={made} fileName={fileName} />}
    </section>
  );
}

/** The saved envelope: its digest, and its signer named by the open journal's trust store (when one is open). */
function AttestationReceipt({ made, fileName }: { made: AttestationExport; fileName: string }) {
  const { work, keys } = useJudgement(useShallow((s) => ({ work: s.work, keys: s.keys })));
  const k = keys.find((x) => x.keyId === made.keyId);
  return (
    <dl className="meta" data-testid="attestation-receipt">
      <dt>Saved as</dt>
      <dd>{fileName}</dd>
      <dt>Envelope SHA-256</dt>
      <dd>
        <CopyValue value={made.digest} label="the envelope's SHA-256" testId="attestation-digest" />
      </dd>
      <dt>Signed by</dt>
      <dd>
        <Signer
          keyId={made.keyId}
          role={k?.role ?? null}
          label={k?.label ?? null}
          checked={work !== null}
          copyLabel="the key id that signed the attestation"
          testId="attestation-signer"
          keyTestId="attestation-key"
        />
      </dd>
      <dt>Replay verdict in the statement</dt>
      <dd>{VERDICT_LABEL[made.verdict]}</dd>
    </dl>
  );
}

/** Where the evidence bundle is exported (with the judgements, above the tabs), and a button that moves focus there. */
function BundleWhere({ report }: { report: Report }) {
  const journalOpen = useJudgement((s) => s.work !== null);
  const where = bundleWhere({ journalOpen, namesArtifact: artifactOf(report) !== null });
  const go = where.go;
  return (
    <section aria-labelledby="bundle-where-h" data-testid="bundle-where">
      <h3 id="bundle-where-h">Evidence bundle</h3>
      <p className="small">{where.words}</p>
      {go && (
        <button type="button" onClick={() => focusWhenShown(go.id)} data-testid="bundle-where-go">
          {go.label}
        </button>
      )}
    </section>
  );
}

/**
 * The report's HTML page. A saved report (OpenArtifact.savedReport, the signal the verdict
 * banner reads) is said on it as the banner says it: as stated, not re-verified.
 */
export const reportHtml = (report: Report, artifact: OpenArtifact | null): string =>
  reportPage(report, { stated: artifact?.savedReport === true });

/** Export: the report as JSON and as a self-contained HTML page, TG replay attestations, and where the evidence bundle is. */
export function ExportView({ report }: { report: Report }) {
  const artifact = useStore((s) => s.artifact);
  const base = (report.artifact.path.split('/').pop() ?? 'artifact').replace(/[^A-Za-z0-9._-]/g, '_');
  return (
    <section className="panel" aria-labelledby="export-h">
      <h2 id="export-h">Export</h2>
      <p>
        The report is the engine's own JSON (reprise.report/v1), byte for byte as it arrived; the HTML page embeds it
        with the findings and chain as tables, and loads nothing from anywhere.
      </p>
      <div className="toolbar">
        <button
          type="button"
          className="primary"
          data-testid="export-json"
          onClick={() => download(`${base}.report.json`, 'application/json', JSON.stringify(report, null, 2) + '\n')}
        >
          Save report as JSON
        </button>
        <button
          type="button"
          data-testid="export-html"
          onClick={() => download(`${base}.report.html`, 'text/html', reportHtml(report, artifact))}
        >
          Save report as HTML
        </button>
      </div>
      <BundleWhere report={report} />
      <Attestation report={report} base={base} />
    </section>
  );
}
