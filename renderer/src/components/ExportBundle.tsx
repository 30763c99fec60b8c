import { useShallow } from 'zustand/react/shallow';
import { useJudgement } from '../judgement-store';
import { Signer } from './AnchorFields';
import { CopyValue } from './Copy';
import { Shown } from './Shown';
import { EXPORT_BUNDLE_ID, JUDGEMENT_ERROR_ID as JUDGEMENT_ERROR } from '../lib/bundle-where';
import { focusWhenShown } from '../lib/focus';

/** Where focus moves after an export: the saved bundle's line (or, when refused, the judgements bar's error). */
const BUNDLE_STATUS = 'bundle-status';

/** Saves bytes the engine made, unchanged (base64 → Blob → a download). */
function save(name: string, dataBase64: string): void {
  const bin = atob(dataBase64);
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/zip' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The evidence bundle of the open report (the same bytes as `reprise export`): the report,
 * every judgement on it with its inclusion proof, the latest signed checkpoint, and for a
 * TG replay its attestation signed with the chosen reviewer key.
 */
export function ExportBundle() {
  const { exportBundle, busy, bundle, attestation, keys } = useJudgement(
    useShallow((s) => ({
      exportBundle: s.exportBundle,
      busy: s.busy,
      bundle: s.bundle,
      attestation: s.bundleAttestation,
      keys: s.keys,
    })),
  );
  // The attestation is signed with the key chosen in the header: the journal's trust store names it there.
  const signer = attestation ? keys.find((k) => k.keyId === attestation.keyId) : undefined;
  const run = async (): Promise<void> => {
    const b = await exportBundle();
    if (b) save(b.name, b.dataBase64);
    // The button is disabled while the engine writes, which drops focus to <body>: it moves to the result.
    focusWhenShown(b ? BUNDLE_STATUS : JUDGEMENT_ERROR);
  };
  return (
    <>
      <button
        type="button"
        id={EXPORT_BUNDLE_ID}
        disabled={busy}
        onClick={() => void run()}
        data-testid="export-bundle"
      >
        Export evidence bundle
      </button>
      {bundle && (
        // Focus moves here after the export (tabIndex -1, so no live region too), as to a signature's receipt.
        <span id={BUNDLE_STATUS} tabIndex={-1} className="small receipt-line" data-testid="bundle-status">
          Saved {bundle.name}: {bundle.judgements} judgement(s), checkpoint size {bundle.checkpoint.size},{' '}
          {attestation ? (
            <span data-testid="bundle-attestation">
              the TG attestation signed by{' '}
              <Signer
                keyId={attestation.keyId}
                role={signer?.role ?? null}
                label={signer?.label ?? null}
                checked
                copyLabel="the key id that signed the attestation"
              />
              ,{' '}
            </span>
          ) : null}
          SHA-256 <CopyValue value={bundle.sha256} label="the bundle's SHA-256" testId="bundle-sha256" />
          {bundle.unproven > 0 && (
            // Said on the line focus moves to, in words: the list below says which, this says what it means.
            <strong className="bad" data-testid="bundle-incomplete">
              {' '}
              — incomplete: {bundle.unproven} judgement(s) no checkpoint covers are left out (listed below), so
              verifying it says UNAVAILABLE; export again once a checkpoint covers them
            </strong>
          )}
        </span>
      )}
      {bundle && bundle.omitted.length > 0 && (
        <ul className="small" data-testid="bundle-omitted" aria-label="journal entries the bundle leaves out">
          {/* The journal keeps them; the bundle does not carry what its verifier would fail (docs/evidence-bundle.md). */}
          {bundle.omitted.map((line) => (
            <li key={line}>
              <Shown text={line} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
