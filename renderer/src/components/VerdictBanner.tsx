import { Fragment } from 'react';
import type { UnreadOption } from '../../../shared/api';
import type { Report } from '../../../shared/report';
import { whatIfOf } from '../../../shared/details/index';
import { authenticity, copyable, decisiveFinding, plainVerdict, VERDICT_LABEL } from '../lib/report-words';
import type { LocalHash, OpenArtifact } from '../store';
import { CopyValue } from './Copy';
import { Shown } from './Shown';
import { carriedOf } from '../../../shared/details/carried';
import { AS_STATED, SAVED_CLAIMS, SAVED_LEAD, VERDICT_STATED } from '../../../shared/stated-words';
import {
  CarriedContents,
  CarriedVerdicts,
  rejectInForce,
  RejectCaveat,
  RejectLine,
  type InForce,
} from './BundleContents';

const REJECTION = 'verdict-rejection';

/** PASS / FAIL / UNAVAILABLE, the decisive finding in plain words, kind and ids, authenticity, options not read. */
export function VerdictBanner({
  report,
  artifact,
  unread = [],
}: {
  report: Report;
  artifact: OpenArtifact | null;
  unread?: UnreadOption[];
}) {
  // A saved report carries no signature: everything in it is its own claim, shown as one.
  const saved = artifact?.savedReport === true;
  // A bundle or an exported report: its own verdict and the carried report's, each said (never one colour for both).
  const carried = carriedOf(report);
  // A bundle carrying a signed reject: a PASS beside it is not shown in the colour of a plain pass.
  const rejected = rejectInForce(report);
  // A stated verdict takes no verdict's colour: a green PASS reads as one checked here.
  const tone = saved ? 'stated' : rejected && report.verdict === 'pass' ? 'rejected' : report.verdict;
  return (
    <>
      <section
        className={`verdict-banner ${tone}`}
        role="status"
        aria-labelledby="verdict-h"
        {...(rejected ? { 'aria-describedby': REJECTION } : {})}
        data-verdict={report.verdict}
        {...(saved ? { 'data-stated': 'true' } : {})}
        data-testid="verdict"
      >
        <BannerHeading report={report} rejected={rejected} saved={saved} />
        {saved && <SavedNote />}
        {rejected && <RejectLine r={rejected} id={REJECTION} stated={saved} />}
        <Decisive report={report} saved={saved} />
        <UnreadNote kind={report.artifact.kind} unread={unread} />
        {carried && <CarriedVerdicts details={carried} stated={saved} />}
        <Authenticity report={report} saved={saved} />
        <SigningKey report={report} saved={saved} />
        <dl className="meta">
          <dt>File</dt>
          <dd>
            {/* The file's name is the artifact's, or a link's: a bidi control in it must not reverse it. */}
            <Shown text={report.artifact.path} />
          </dd>
          <dt>SHA-256</dt>
          <dd className="mono">
            {report.artifact.sha256 ? <CopyValue value={report.artifact.sha256} label="the artifact's SHA-256" /> : '—'}
            <WindowHash local={artifact?.localHash} engine={report.artifact.sha256} />
          </dd>
        </dl>
      </section>
      {carried && <CarriedContents report={report} stated={saved} />}
    </>
  );
}

/**
 * The heading that names the banner: verdict, what a reviewer's reject in force says beside
 * it, kind and id. A saved report's verdict is said as stated in the heading itself, so no
 * reader (nor a screen reader, which reads the heading as the banner's name) takes it as checked.
 */
function BannerHeading({ report, rejected, saved }: { report: Report; rejected: InForce | null; saved: boolean }) {
  return (
    <h2 id="verdict-h" tabIndex={-1}>
      <span className="verdict-word">{VERDICT_LABEL[report.verdict]}</span>
      {saved && <span data-testid="verdict-stated">{` ${VERDICT_STATED}`}</span>}
      {rejected && <RejectCaveat r={rejected} stated={saved} />} <span className="kind">{report.artifact.kind}</span>
      {report.artifact.id && (
        <span className="artifact-id">
          {' '}
          <Shown text={report.artifact.id} />
        </span>
      )}
      {whatIfOf(report) !== null && <span className="demo-tag"> DEMONSTRATION (what-if)</span>}
    </h2>
  );
}

/** What a saved report is, said once under its heading: its claims, what was checked, and how to have it checked. */
function SavedNote() {
  return (
    <p className="cap-note" role="note" data-testid="saved-note">
      <strong>{SAVED_LEAD}</strong> {SAVED_CLAIMS} Only its form was checked, and that its verdict is the one its
      findings make. To see it checked, open it with Open: the engine checks it as an exported report, fully when given
      the artifact it is about.
    </p>
  );
}

/** A saved report's verdict in words that say it is the report's own claim (never "every check passed"). */
function statedVerdict(report: Report): string {
  if (report.verdict === 'pass')
    return 'The saved report lists no failing or unavailable finding; nothing here re-ran its checks.';
  const plain = plainVerdict(report);
  return `The saved report states that ${plain.charAt(0).toLowerCase()}${plain.slice(1)}`;
}

/** The decisive finding in plain words, and what the content looked like, in the engine's words. */
function Decisive({ report, saved }: { report: Report; saved: boolean }) {
  const decisive = decisiveFinding(report);
  return (
    <p className="plain" data-testid="decisive">
      {decisive ? <strong className="mono">{decisive.rule}</strong> : null}
      {decisive ? ' ' : ''}
      {/* A finding's message and pointer may quote the artifact: shown escaped. */}
      <Shown text={saved ? statedVerdict(report) : plainVerdict(report)} />
      {/* What the content looked like (RPR-KIND-001: a file truncated, behind a BOM...), in the engine's words. */}
      {typeof decisive?.actual === 'string' && (
        <span data-testid="decisive-actual">
          {' '}
          Found:{' '}
          {copyable(decisive.actual) ? (
            <CopyValue value={decisive.actual} label="the value found" />
          ) : (
            <>
              <Shown text={decisive.actual} />.
            </>
          )}
        </span>
      )}
    </p>
  );
}

/**
 * The options the window sent that this artifact's kind does not read (the host says which,
 * from the kinds' declarations). The CLI refuses such a flag typed for one file; the window
 * sends its fields with every file, so it says so here instead: a verdict beside a providers
 * registry or a profile registry set in the Open view would otherwise read as a check made with it.
 */
export function UnreadNote({ kind, unread }: { kind: string; unread: UnreadOption[] }) {
  if (unread.length === 0) return null;
  return (
    <p className="cap-note" role="note" data-testid="unread-options">
      <strong>Not read for this artifact (kind {kind}):</strong>{' '}
      {unread.map((o, i) => (
        <Fragment key={o.name}>
          {i > 0 && '; '}
          the option <span className="mono">{o.name}</span> ({o.help})
        </Fragment>
      ))}
      . This verdict was made without {unread.length === 1 ? 'it' : 'them'}.
    </p>
  );
}

/** Who made the artifact, as the engine stated it; for a saved report, as that report states it. */
function Authenticity({ report, saved }: { report: Report; saved: boolean }) {
  const auth = authenticity(report);
  return (
    <p
      className={`authenticity ${saved ? 'stated' : auth.level}`}
      data-testid="authenticity"
      data-status={auth.status}
      {...(saved ? { 'data-stated': 'true' } : {})}
    >
      <span className="label">Authenticity{saved && ` (${AS_STATED})`}:</span> {auth.text}
    </p>
  );
}

/** The key that signed the artifact, and who holds it as the trust store says. */
function SigningKey({ report, saved }: { report: Report; saved: boolean }) {
  const a = report.authenticity;
  if (!a?.keyId) return null;
  return (
    <p className="small">
      <span className="label">Signing key{saved && ` (${AS_STATED})`}:</span>{' '}
      <CopyValue value={a.keyId} label="the signing key id" testId="key-id" />{' '}
      <span data-testid="key-signer">
        {a.role ? (
          <>
            held by a <strong>{a.role}</strong>
            {a.label ? <>: {a.label}</> : ' (no label in the trust store)'}
          </>
        ) : (
          '(role and label unknown: the trust store given does not list this key, or none was given)'
        )}
      </span>
    </p>
  );
}

/** A picked file's hash as this window computed it, held against the engine's. */
function WindowHash({ local, engine }: { local: LocalHash | undefined; engine: string | null }) {
  if (!local) return null;
  if (local.state === 'computing')
    return (
      <span className="small" data-testid="window-hash">
        {' '}
        (this window is computing its own hash of the file to compare…)
      </span>
    );
  if (local.state === 'failed')
    return (
      <span className="bad" data-testid="window-hash">
        {' '}
        (<Shown text={local.message} />: the engine's hash is not confirmed here)
      </span>
    );
  if (local.sha256 === engine)
    return (
      <span className="ok" data-testid="window-hash">
        {' '}
        (matches the hash computed in this window)
      </span>
    );
  return (
    <span className="bad" data-testid="window-hash">
      {' '}
      (differs from the hash computed in this window:{' '}
      <CopyValue value={local.sha256} label="the hash computed in this window" />)
    </span>
  );
}
