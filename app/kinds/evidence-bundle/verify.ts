/**
 * Verifying an evidence bundle offline (docs/evidence-bundle.md; rules in
 * docs/rules/evidence-bundle.md). The archive is read only through the strict reader
 * (app/zip). Then: the manifest and every member's digest; the report and its digest; the
 * checkpoint's signature; every judgement's inclusion proof against that checkpoint, its
 * signature, its signer's role, its artifact and the report digest it names; the
 * attestation, when there is one; and the HTML page against the page this bundle makes.
 *
 * The manifest is not signed: what binds the report to a person is the judgements' signed
 * `reportDigest`, and what dates them is the signed checkpoint. A bundle without
 * judgements binds nothing and says so.
 */
import {
  verdictOf,
  type Authenticity,
  type ChainNode,
  type Finding,
  type JsonValue,
  type Report,
} from '../../../shared/report.js';
import { HASH, Problems, reportShapeProblems } from '../../../shared/report-shape.js';
import { earlierPages } from '../../../shared/report-html.js';
import { authenticity } from '../../core/authenticity.js';
import { isPlainObject as isObj, jsonType } from '../../core/closed.js';
import { findingsOn } from '../../core/findings.js';
import { EVIDENCE_BUNDLE_RULES, R } from './rule-ids.js';
import { hashBytes } from '../../core/hash.js';
import { canonicalizeValue, decodeJsonBytes, JcsError, parseCanonical } from '../../core/jcs.js';
import { verifyBytes, type TrustStore } from '../../core/keys.js';
import type { KindResult } from '../../core/report.js';
import { checkCheckpointShape, unsignedDigest, type Checkpoint, type Entry } from '../../journal/format.js';
import {
  JUDGEMENT_ROLES,
  judgementBodyProblem,
  judgementPointerProblem,
  judgementSignerProblem,
  reportDigest,
} from '../../journal/judgement.js';
import { checkInclusionProof, type InclusionProof } from '../../journal/proofs.js';
import { readEntries } from '../../zip/parallel.js';
import { readStructure } from '../../zip/reader.js';
import type { ZipSource } from '../../zip/source.js';
import { BUNDLE_TYPE, JUDGEMENT_MEMBER_RE, MEMBER, ptr, type BundleManifest, type ManifestMember } from './format.js';
import { bundleHtml } from './html.js';
import { checkBundleAttestation } from './attestation.js';
import { bundleDetails, rejectFinding } from './details.js';
import { bundleLimits } from './limits.js';
import { leftOutEntryFindings, shapeLeftOut } from './left-out.js';
import { bindingEntries, checkpointAuthenticity, noJudgement, refusalOf, type Refusal } from './origin.js';
import { carriedVerdictOf, type CarriedVerdict } from '../../../shared/details/carried.js';
import type { BundledReport } from './write.js';

// Findings of the ids the kind declares only (rule-ids.ts).
const { changedNumbers, fail, info, unavailable, warning } = findingsOn(EVIDENCE_BUNDLE_RULES);

export { R, ptr };

export interface State {
  findings: Finding[];
  chain: ChainNode[];
  members: Map<string, Buffer>;
  trust: TrustStore | null;
  /** Signers the trust store lists as retired (checkpoint, judgements): the origin says so (retiredSigned). */
  retired?: Set<string>;
  /** The origin an attestation that does not verify leaves (attestation.ts): never "Trusted signer" over it. */
  attestationRefused?: Authenticity;
  /** Why the checkpoint's signature is not accepted (checkCheckpoint), for the origin to say. */
  checkpointRefused?: Refusal;
}

/**
 * A judgement entry and the member it was read from. Findings name the member, so all that is
 * looked up about a judgement (whether it binds, whether its proof is shown verified) is
 * looked up by it: a member's name need not be its entry's seq (that is its own failure, 006).
 */
export interface Judged {
  member: string;
  entry: Entry;
}

/**
 * A signature by a key the trust store lists as retired: a warning, as the journal's
 * RPR-JOURNAL-010. Retiring takes a key out of service and it still vouches for what it
 * signed before, but a bundle cannot date a signature, so what it signed after (a writer
 * run without the trust store does not refuse it) reads the same: said, never silent.
 */
function retiredSigned(
  st: State,
  rule: keyof typeof EVIDENCE_BUNDLE_RULES,
  what: string,
  keyId: string,
  pointer: string,
): void {
  if (st.trust?.get(keyId)?.status !== 'retired') return;
  (st.retired ??= new Set()).add(keyId);
  st.findings.push(
    warning(
      rule,
      `${what} is signed by a retired key (${keyId}): a retired key vouches for what it signed before it was retired, and a bundle cannot tell when this was signed (the journal warns alike, RPR-JOURNAL-010)`,
      { pointer },
    ),
  );
}

/**
 * A member's strict JSON value, or null with a finding under `rule`. Every member of a bundle
 * is an object: one that is JSON `null` (or any other value) is a finding here, since null is
 * also what tells the callers a finding was made, and a member reading as null must never be
 * taken for one already failed (a bundle whose manifest, report, checkpoint or case was `null`
 * read as PASS).
 */
export function memberJson(st: State, name: string, rule: keyof typeof EVIDENCE_BUNDLE_RULES): unknown {
  const v = memberValue(st, name, rule);
  if (v === undefined) return null;
  if (isObj(v)) return v;
  st.findings.push(
    fail(rule, `${name} is not a JSON object`, { pointer: ptr(name), expected: 'an object', actual: jsonType(v) }),
  );
  return null;
}

/** The JSON type of a parsed value, as a finding names it. */

/** A member's strict JSON value, or undefined with a finding under `rule`. */
function memberValue(st: State, name: string, rule: keyof typeof EVIDENCE_BUNDLE_RULES): unknown {
  const b = st.members.get(name);
  if (!b) return void st.findings.push(fail(rule, `the bundle has no ${name}`, { pointer: ptr(name) }));
  try {
    const text = decodeJsonBytes(b);
    const p = parseCanonical(text);
    // A number the parse changed: digests cover the rounded value, not the member's text.
    st.findings.push(...changedNumbers(p.warnings, { rule, subject: `${name} is not I-JSON` }, `${ptr(name)}#`));
    if (p.warnings.length === 0 && text !== p.canonical + '\n')
      st.findings.push(fail(rule, `${name} is not its canonical JSON followed by one newline`, { pointer: ptr(name) }));
    return p.value;
  } catch (e) {
    st.findings.push(
      fail(rule, `${name} is not strict JSON: ${e instanceof JcsError ? e.message : String(e)}`, {
        pointer: ptr(name),
      }),
    );
    return undefined;
  }
}

/** The manifest member: the first one, strict canonical JSON (its value, or null with a finding). */
export function manifestJson(st: State, names: readonly string[]): unknown {
  if (names[0] !== MEMBER.manifest)
    st.findings.push(
      fail(R.manifest, `the first member must be ${MEMBER.manifest}`, {
        pointer: ptr(names[0] ?? ''),
        expected: MEMBER.manifest,
        actual: names[0] ?? null,
      }),
    );
  return memberJson(st, MEMBER.manifest, R.manifest);
}

type Obj = Record<string, unknown>;

/** What a manifest type adds to the members every manifest has (type, checkpoint, members), and their shape. */
export interface ManifestShape {
  type: string;
  members: readonly string[];
  /** Members it may hold besides (`leftOut`, written only when the bundle leaves something out). */
  optional?: readonly string[];
  shape(p: Problems, m: Obj): void;
  /** Its members, in a finding's words. */
  words: string;
}

const CHECKPOINT = ['treeSize', 'rootHash'];
const LISTED = ['name', 'sha256', 'size'];

/** The members every manifest has: its type, the checkpoint it names, and the list of members with their digests. */
function commonShape(p: Problems, m: Obj, type: string): void {
  p.oneOf(m['type'], '/type', [type]);
  const cp = m['checkpoint'];
  if (p.members(cp, '/checkpoint', CHECKPOINT, CHECKPOINT)) {
    p.count(cp['treeSize'], '/checkpoint/treeSize');
    p.string(cp['rootHash'], '/checkpoint/rootHash', { pattern: HASH });
  }
  p.array(m['members'], '/members', (x, at) => {
    if (!p.members(x, at, LISTED, LISTED)) return;
    p.string(x['name'], `${at}/name`, { nonEmpty: true });
    p.string(x['sha256'], `${at}/sha256`, { pattern: HASH });
    p.count(x['size'], `${at}/size`);
  });
}

/**
 * A bundle's manifest when it is closed and of the shape `of` says (every member it names,
 * no other: the manifest is unsigned, so nothing in it goes unread), then every member
 * against it: listed, present, same digest and size, in name order. Null, with a finding
 * per problem, when it is not that manifest.
 */
export function shapedManifest<M extends { members: readonly ManifestMember[] }>(
  st: State,
  names: readonly string[],
  of: ManifestShape,
): M | null {
  const m = manifestJson(st, names);
  if (m === null) return null;
  const p = new Problems();
  const keys = ['type', 'checkpoint', 'members', ...of.members];
  if (p.members(m, '', keys, [...keys, ...(of.optional ?? [])])) {
    commonShape(p, m, of.type);
    of.shape(p, m);
  }
  for (const x of p.list)
    st.findings.push(
      fail(
        R.manifest,
        `${MEMBER.manifest} is not a ${of.type} manifest (${of.words}): ${x.pointer || '/'} ${x.message}`,
        {
          pointer: ptr(MEMBER.manifest),
        },
      ),
    );
  if (p.list.length > 0) return null;
  const manifest = m as unknown as M;
  checkMembers(st, manifest.members, names);
  return manifest;
}

const ARTIFACT = ['sha256', 'kind', 'id'];

/** The single-artifact bundle's manifest, its members checked against it. */
function checkManifest(st: State, names: readonly string[]): BundleManifest | null {
  return shapedManifest<BundleManifest>(st, names, {
    type: BUNDLE_TYPE,
    members: ['artifact', 'reportDigest'],
    optional: ['leftOut'],
    shape: (p, m) => {
      if (Object.hasOwn(m, 'leftOut')) shapeLeftOut(p, m['leftOut'], false);
      const a = m['artifact'];
      if (p.members(a, '/artifact', ARTIFACT, ARTIFACT)) {
        p.string(a['sha256'], '/artifact/sha256', { pattern: HASH });
        p.string(a['kind'], '/artifact/kind', { nonEmpty: true });
        p.string(a['id'], '/artifact/id', { nullable: true });
      }
      p.string(m['reportDigest'], '/reportDigest', { pattern: HASH });
    },
    words:
      'type, artifact.sha256, reportDigest, checkpoint, members[{name, sha256, size}], leftOut when something is left out',
  });
}

/** Every member against the manifest's list: listed once, present, same digest and size; nothing unlisted. */
export function checkMembers(st: State, members: readonly ManifestMember[], names: readonly string[]): void {
  const listed = new Set<string>();
  for (const x of members) {
    if (listed.has(x.name) || x.name === MEMBER.manifest)
      st.findings.push(
        fail(R.members, `the manifest lists ${x.name} twice (or lists itself)`, { pointer: ptr(MEMBER.manifest) }),
      );
    listed.add(x.name);
    const b = st.members.get(x.name);
    if (!b) {
      st.findings.push(
        fail(R.members, `the manifest lists ${x.name}, which the bundle does not hold`, { pointer: ptr(x.name) }),
      );
      continue;
    }
    const got = hashBytes(b);
    st.chain.push({
      id: ptr(x.name),
      label: `${x.name} (${b.length} bytes)`,
      recorded: x.sha256,
      recomputed: got,
      status: got === x.sha256 && b.length === x.size ? 'match' : 'mismatch',
      parents: [ptr(MEMBER.manifest)],
      pointer: ptr(x.name),
    });
    if (got !== x.sha256 || b.length !== x.size)
      st.findings.push(
        fail(R.digest, `${x.name}: its SHA-256 or size differs from the manifest's`, {
          pointer: ptr(x.name),
          expected: x.sha256,
          actual: got,
        }),
      );
  }
  for (const n of names)
    if (n !== MEMBER.manifest && !listed.has(n))
      st.findings.push(fail(R.members, `${n} is in the bundle but not in its manifest`, { pointer: ptr(n) }));
  checkOrder(st, names.slice(1), 'the members after the manifest');
  checkOrder(
    st,
    members.map((x) => x.name),
    "the manifest's list of members",
  );
}

/**
 * Members in code-unit order of their names, as the writer puts them: the same inputs give
 * the same bytes only so, and a bundle in another order was not written by it.
 */
function checkOrder(st: State, names: readonly string[], what: string): void {
  const i = names.findIndex((n, k) => k > 0 && !(names[k - 1]! < n));
  if (i > 0)
    st.findings.push(
      fail(R.members, `${what} are not in code-unit order of their names (${names[i - 1]} before ${names[i]})`, {
        pointer: ptr(MEMBER.manifest),
      }),
    );
}

/**
 * Whether a report is about the artifact it is bundled for: its SHA-256, kind and id. A
 * report of another artifact, swapped in with every digest recomputed, fails here (004).
 */
export function checkReportArtifact(
  st: State,
  member: string,
  got: Report['artifact'],
  want: { sha256: string | null; kind: string; id: string | null },
  what: string,
): void {
  for (const k of ['sha256', 'kind', 'id'] as const)
    if (got[k] !== want[k])
      st.findings.push(
        fail(R.report, `${member} is about another artifact than ${what}: its ${k} differs`, {
          pointer: `${ptr(member)}#/artifact/${k}`,
          expected: want[k],
          actual: got[k],
        }),
      );
}

/**
 * A report member: a `reprise.report/v1` report without `run` (report.schema.json, whole:
 * its findings are read and its page is drawn from it), or null with a finding (004).
 */
export function bundledReport(st: State, member: string): BundledReport | null {
  const r = memberJson(st, member, R.report);
  if (r === null) return null;
  const shape = reportShapeProblems(r, { runOptional: true });
  if (shape.length === 0 && !(isObj(r) && 'run' in r)) return r as BundledReport;
  const why = shape[0] ? `${shape[0].pointer || '/'} ${shape[0].message}` : 'it holds run';
  st.findings.push(
    fail(R.report, `${member} is not a reprise.report/v1 report without run: ${why}`, { pointer: ptr(member) }),
  );
  return null;
}

/** The report member: a report on the manifest's artifact, whose digest the manifest names. */
function checkReport(st: State, manifest: BundleManifest): { report: BundledReport; digest: string } | null {
  const report = bundledReport(st, MEMBER.report);
  if (report === null) return null;
  checkReportArtifact(st, MEMBER.report, report.artifact, manifest.artifact, 'the manifest names');
  // The verdict shown for the bundled report is the one its findings make, never a word edited beside them.
  if (report.verdict !== verdictOf(report.findings))
    st.findings.push(
      fail(R.report, "the report's verdict is not the one its findings make", {
        pointer: `${ptr(MEMBER.report)}#/verdict`,
        expected: verdictOf(report.findings),
        actual: String(report.verdict),
      }),
    );
  const digest = reportDigest(report);
  if (digest !== manifest.reportDigest)
    st.findings.push(
      fail(R.report, "the report's digest differs from the one the manifest names", {
        pointer: ptr(MEMBER.report),
        expected: manifest.reportDigest,
        actual: digest,
      }),
    );
  return { report, digest };
}

/** The checkpoint: shape, and its signature by an active key of the trust store. */
export function checkCheckpoint(
  st: State,
  manifest: { checkpoint: { treeSize: number; rootHash: string } },
): Checkpoint | null {
  const cp = memberJson(st, MEMBER.checkpoint, R.checkpoint);
  if (cp === null) return null;
  const shape = checkCheckpointShape(cp, ptr(MEMBER.checkpoint));
  if (shape.length > 0) return (st.findings.push(...shape.map((f) => ({ ...f, rule: R.checkpoint }))), null);
  const c = cp as Checkpoint;
  if (c.treeSize !== manifest.checkpoint.treeSize || c.rootHash !== manifest.checkpoint.rootHash)
    st.findings.push(
      fail(R.checkpoint, 'the checkpoint differs from the one the manifest names', {
        pointer: ptr(MEMBER.checkpoint),
        expected: manifest.checkpoint.rootHash,
        actual: c.rootHash,
      }),
    );
  if (st.trust) checkCheckpointSigner(st, st.trust, c);
  st.chain.push({
    id: 'checkpoint',
    label: `signed checkpoint (tree of ${c.treeSize} entries)`,
    recorded: c.rootHash,
    recomputed: null,
    status: st.findings.some((f) => f.rule === R.checkpoint && f.severity === 'fail') ? 'mismatch' : 'match',
    parents: [ptr(MEMBER.checkpoint)],
  });
  return c;
}

const CHECKPOINT_REFUSED: Record<Refusal, (c: Checkpoint) => { message: string; expected?: string; actual?: string }> =
  {
    absent: (c) => ({
      message: `the checkpoint is signed by ${c.signer}, which is not in the trust store`,
      actual: c.signer,
    }),
    revoked: (c) => ({
      message: `the checkpoint is signed by a revoked key (${c.signer})`,
      expected: 'active',
      actual: 'revoked',
    }),
    signature: () => ({ message: "the checkpoint's signature does not verify" }),
  };

/** The checkpoint's signer: an active (or retired) key of the trust store whose signature verifies; why not, kept for the origin. */
function checkCheckpointSigner(st: State, trust: TrustStore, c: Checkpoint): void {
  const k = trust.get(c.signer);
  const refused = refusalOf(trust, c.signer);
  if (refused === 'signature' && verifyBytes(k!.publicKey, unsignedDigest(c), c.sig))
    return retiredSigned(st, R.checkpoint, 'the checkpoint', c.signer, ptr(MEMBER.checkpoint));
  st.checkpointRefused = refused;
  const { message, ...values } = CHECKPOINT_REFUSED[refused](c);
  st.findings.push(fail(R.checkpoint, message, { pointer: ptr(MEMBER.checkpoint), ...values }));
}

/** Journal-proof findings in the bundle's terms: the path (006) and the entry's signature (007); the checkpoint is checked once above. */
function proofFindings(
  doc: unknown,
  trust: TrustStore | null,
  name: string,
): { findings: Finding[]; entry: Entry | null } {
  const c = checkInclusionProof(doc, trust);
  const out: Finding[] = [];
  for (const f of c.findings) {
    if (f.severity === 'info' || f.rule === 'RPR-JOURNAL-011' || f.pointer === '/checkpoint/sig') continue;
    const rule = ['RPR-JOURNAL-007', 'RPR-JOURNAL-008', 'RPR-JOURNAL-009'].includes(f.rule) ? R.signature : R.proof;
    out.push({ ...f, rule, message: `${name}: ${f.message} (${f.rule})`, pointer: ptr(name) });
  }
  return { findings: out, entry: c.entry };
}

/** What a bundle's judgements may be about: its artifact (or the case's), and the report each is checked against. */
export interface JudgedArtifacts {
  holds(artifact: string | undefined): boolean;
  /** How a finding names what is held: "another artifact", "an artifact the case does not hold". */
  other: string;
  expected: string;
  /** The report a judgement about `artifact` is checked against: of several holders, the one whose digest it `names`. */
  reportOf(artifact: string | undefined, names: unknown): { report: BundledReport; digest: string } | null;
}

/** One judgement: its proof against the checkpoint, signature, role, artifact, report digest, body and pointer. */
export function checkJudgement(st: State, name: string, cp: Checkpoint | null, about: JudgedArtifacts): Judged | null {
  const doc = memberJson(st, name, R.proof);
  if (doc === null) return null;
  if (cp && isObj(doc) && canonicalizeValue(doc['checkpoint'] ?? null) !== canonicalizeValue(cp))
    st.findings.push(
      fail(R.proof, `${name}: the proof is not against the bundle's checkpoint`, {
        pointer: ptr(name),
        expected: cp.rootHash,
      }),
    );
  const seq = Number(JUDGEMENT_MEMBER_RE.exec(name)![1]);
  if (isObj(doc) && doc['leafIndex'] !== seq)
    st.findings.push(
      fail(R.proof, `${name}: the proof's leafIndex is ${jsonSaid(doc['leafIndex'])}, not ${seq}`, {
        pointer: ptr(name),
        expected: seq,
        actual: (doc['leafIndex'] as JsonValue | undefined) ?? null,
      }),
    );
  const { findings, entry } = proofFindings(doc, st.trust, name);
  st.findings.push(...findings);
  if (!entry) return null;
  const at = { pointer: ptr(name) };
  if (entry.kind !== 'review-rationale')
    st.findings.push(
      fail(R.judgement, `${name}: entry ${entry.seq} is a ${entry.kind} entry, not a judgement (review-rationale)`, at),
    );
  if (!about.holds(entry.subject.artifact))
    st.findings.push(
      fail(R.artifact, `${name}: the judgement is about ${about.other}`, {
        ...at,
        expected: about.expected,
        actual: entry.subject.artifact ?? null,
      }),
    );
  const named = entry.body['reportDigest'];
  const rep = about.reportOf(entry.subject.artifact, named);
  const body = judgementBodyProblem(entry.body);
  if (body) st.findings.push(fail(R.judgement, `${name}: ${body}`, at));
  // Recorded: a reviewer key retired since still vouches for what it signed (a revoked one's signature fails above).
  const role =
    st.trust && st.trust.get(entry.author) ? judgementSignerProblem(entry.author, st.trust, 'recorded') : null;
  if (role) st.findings.push(fail(R.role, `${name}: ${role}`, { ...at, ...signerFault(st.trust!, entry.author) }));
  else retiredSigned(st, R.role, `${name}: the judgement`, entry.author, at.pointer);
  if (rep && named !== undefined && named !== rep.digest)
    st.findings.push(
      fail(R.reportDigest, `${name}: the judgement names another report than the bundle holds`, {
        ...at,
        expected: String(named),
        actual: rep.digest,
      }),
    );
  if (rep && named === rep.digest) {
    const p = judgementPointerProblem(rep.report, entry.body['pointer'] ?? '');
    if (p) st.findings.push(fail(R.judgement, `${name}: ${p}`, at));
  }
  return { member: name, entry };
}

/** A JSON value as a message shows it: a number as is, else as JSON with its type, so "6" never reads as 6. */
function jsonSaid(v: unknown): string {
  if (v === undefined) return 'absent';
  return typeof v === 'number' ? String(v) : `${JSON.stringify(v)} (a ${jsonType(v)})`;
}

/**
 * Expected and actual of an RPR-EVB-008 finding, in the terms of its message
 * (judgementSignerProblem): a revoked key's status, else the key's role.
 */
function signerFault(trust: TrustStore, keyId: string): { expected: string; actual: string } {
  const k = trust.get(keyId)!;
  return k.status === 'revoked'
    ? { expected: 'active', actual: k.status }
    : { expected: JUDGEMENT_ROLES.join(' or '), actual: k.role };
}

/**
 * The attestation of a TG replay: a valid reviewer-signed envelope about this artifact
 * (attestation.ts), its every finding kept, and the origin it refuses kept for
 * checkpointAuthenticity. A retired reviewer's signature is said, as a judgement's is.
 */
function checkAttestation(st: State, manifest: BundleManifest): void {
  const b = st.members.get(MEMBER.attestation);
  if (!b) return;
  const a = checkBundleAttestation(b, st.trust, manifest.artifact.sha256);
  st.findings.push(...a.findings);
  if (a.refused) st.attestationRefused = a.refused;
  else if (a.signer) retiredSigned(st, R.attestation, 'the attestation', a.signer, ptr(MEMBER.attestation));
}

/**
 * A bundle's page against the one its parts make (`page` gets the judgements' proofs in
 * member order; null when the parts it needs did not verify, whose checks say why). A page
 * that is missing or says anything else fails: a page is more easily edited than read
 * critically. A proof that is not JSON (its own check says so) leaves the page unjudged.
 */
export function checkPage(
  st: State,
  member: string,
  what: string,
  page: (proofs: InclusionProof[]) => string | readonly string[] | null,
): void {
  const html = st.members.get(member);
  if (!html) return void st.findings.push(fail(R.html, `the bundle has no ${member}`, { pointer: ptr(member) }));
  let proofs: InclusionProof[];
  try {
    proofs = [...st.members.keys()]
      .filter((n) => JUDGEMENT_MEMBER_RE.test(n))
      .sort()
      .map((n) => JSON.parse(st.members.get(n)!.toString('utf8')) as InclusionProof);
  } catch {
    return;
  }
  let want: ReturnType<typeof page>;
  try {
    want = page(proofs);
  } catch {
    // A judgement member that is no proof (its own check fails it, 006) leaves no page to draw.
    return void st.findings.push(
      fail(R.html, `${member} cannot be checked: a judgement it shows is not an inclusion proof`, {
        pointer: ptr(member),
      }),
    );
  }
  // The page as this version writes it, or as the versions before did (each form the caller
  // gives, and earlierPages of each).
  const same = (text: string): boolean => html.equals(Buffer.from(text, 'utf8'));
  const forms = want === null ? [] : typeof want === 'string' ? [want] : want;
  if (want !== null && !forms.flatMap((f) => [f, ...earlierPages(f)]).some(same))
    st.findings.push(
      fail(R.html, `${member} is not the page of ${what} (edited, or written by another version)`, {
        pointer: ptr(member),
      }),
    );
}

/** Every judgement member, then the page rebuilt from the verified parts. */
function checkJudgementsAndPage(
  st: State,
  names: readonly string[],
  manifest: BundleManifest,
  cp: Checkpoint | null,
  rep: { report: BundledReport; digest: string } | null,
): Judged[] {
  const judgementNames = names.filter((n) => JUDGEMENT_MEMBER_RE.test(n));
  const known = new Set<string>([
    MEMBER.manifest,
    MEMBER.report,
    MEMBER.html,
    MEMBER.checkpoint,
    MEMBER.attestation,
    ...judgementNames,
  ]);
  for (const n of names)
    if (!known.has(n))
      st.findings.push(fail(R.members, `${n} is no member an evidence bundle holds`, { pointer: ptr(n) }));
  const entries = judgementNames
    .map((n) =>
      checkJudgement(st, n, cp, {
        holds: (a) => a === manifest.artifact.sha256,
        other: 'another artifact',
        expected: manifest.artifact.sha256,
        reportOf: () => rep,
      }),
    )
    .filter((e): e is Judged => e !== null);
  checkPage(st, MEMBER.html, "this bundle's report and judgements", (proofs) =>
    rep && cp ? bundleHtml(rep.report, proofs, cp, rep.digest) : null,
  );
  if (rep) checkBound(st, MEMBER.report, rep.digest, { binding: bindingEntries(st, entries), all: entries }, '');
  return entries;
}

/**
 * Whether a judgement of the bundle that binds (`binding`, origin.ts) names the digest of the
 * report in `member`: the only thing that binds a bundled report to a person (the manifest is
 * unsigned, and anyone can write a consistent one). A warning (015) when none does; false
 * then. `all` are every judgement read, to say so when one that failed names it.
 */
export function checkBound(
  st: State,
  member: string,
  digest: string,
  { binding, all }: { binding: readonly Judged[]; all: readonly Judged[] },
  what: string,
): boolean {
  if (binding.some((j) => j.entry.body['reportDigest'] === digest)) return true;
  st.findings.push(
    warning(
      R.unbound,
      `${what}${noJudgement(all, [digest])} names this report's digest: nothing signed binds the report to a reviewer`,
      { pointer: ptr(member) },
    ),
  );
  return false;
}

/** The archive read by the strict reader into its members (a refused archive is its result already). */
export async function readBundle(
  archive: Buffer | ZipSource,
  trust: TrustStore | null,
  limits?: Record<string, number>,
): Promise<{ st: State; names: string[] } | KindResult> {
  const st: State = { findings: [], chain: [], members: new Map(), trust };
  // A bundle's own member limit (limits.ts): a case bundle holds a report per artifact.
  const zs = readStructure(archive, bundleLimits(limits));
  st.findings.push(...zs.findings);
  if (!zs.ok)
    return {
      id: null,
      findings: st.findings,
      chain: [],
      authenticity: authenticity.consistencyOnly('the archive was refused by the strict ZIP reader.'),
    };
  const contents = await readEntries(archive, zs.entries, () => true);
  zs.entries.forEach((e, i) => {
    const c = contents[i]!;
    st.findings.push(...c.findings);
    if (c.bytes && !e.isDirectory) st.members.set(e.name, c.bytes);
    // The writer writes files only; an entry it never writes is no part of what was exported.
    if (e.isDirectory)
      st.findings.push(
        fail(R.members, `${e.name} is a directory entry, which no bundle holds`, { pointer: ptr(e.name) }),
      );
  });
  if (!trust)
    st.findings.push(
      unavailable(
        R.trust,
        'no trust store given (--trust-store): the checkpoint, the judgements and their signers cannot be checked',
      ),
    );
  return { st, names: zs.entries.filter((e) => !e.isDirectory).map((e) => e.name) };
}

/** The checks of a bundle of one artifact, on its members. */
export function verifySingle(st: State, names: readonly string[]): KindResult {
  const manifest = checkManifest(st, names);
  if (!manifest) return { id: null, findings: st.findings, chain: st.chain };
  st.findings.push(...leftOutEntryFindings(manifest.leftOut));
  const rep = checkReport(st, manifest);
  const cp = checkCheckpoint(st, manifest);
  const entries = checkJudgementsAndPage(st, names, manifest, cp, rep);
  checkAttestation(st, manifest);
  return resultOf(st, manifest, rep, cp, entries);
}

/** Verifies the bundle of one artifact in `archive` (bytes or a file read by position); case-verify.ts reads either kind. */
export async function verifyBundle(
  archive: Buffer | ZipSource,
  trust: TrustStore | null,
  limits?: Record<string, number>,
): Promise<KindResult> {
  const read = await readBundle(archive, trust, limits);
  return 'st' in read ? verifySingle(read.st, read.names) : read;
}

function resultOf(
  st: State,
  manifest: BundleManifest,
  rep: { report: BundledReport; digest: string } | null,
  cp: Checkpoint | null,
  entries: Judged[],
): KindResult {
  if (!st.findings.some((f) => f.severity === 'fail' || f.severity === 'unavailable'))
    st.findings.push(
      info(
        'RPR-EVB-000',
        `${entries.length} judgement(s) on ${manifest.artifact.sha256} proven under the signed checkpoint of ${cp?.treeSize ?? 0} entries; every member's digest matches`,
      ),
    );
  const unbound = st.findings.some((f) => f.rule === R.unbound)
    ? `${noJudgement(entries, [manifest.reportDigest])} names the report's digest, so nothing signed binds the report to a reviewer`
    : undefined;
  const auth = checkpointAuthenticity(st, cp, entries, undefined, unbound);
  const integrity = [...st.findings];
  carriedVerdict(st, rep);
  const details = bundleDetails({ manifest, rep, cp, entries, members: st.members, trust: st.trust, integrity });
  const reject = rejectFinding(details);
  if (reject) st.findings.push(reject);
  return {
    id: manifest.artifact.sha256,
    findings: st.findings,
    chain: st.chain,
    details: details as unknown as KindResult['details'],
    authenticity: auth,
  };
}

/**
 * A carried verdict (the bundled report's, or the bundled case's: `what`) that is not PASS
 * is a finding of the bundle's own report (RPR-EVB-016, of the same severity), at `pointer`:
 * the bundle's verdict is then never PASS over a failing artifact or case, whatever its
 * integrity (details.integrity keeps that apart).
 */
export function carriedFinding(
  st: State,
  carried: Pick<CarriedVerdict, 'verdict' | 'decisive'>,
  what: string,
  pointer: string,
): void {
  if (carried.verdict === 'pass') return;
  const make = carried.verdict === 'fail' ? fail : unavailable;
  const why = carried.decisive ? `: ${carried.decisive.rule} ${carried.decisive.message}` : '';
  st.findings.push(
    make(R.carried, `the bundled ${what}'s verdict is ${carried.verdict.toUpperCase()}${why}`, { pointer }),
  );
}

function carriedVerdict(st: State, rep: { report: BundledReport; digest: string } | null): void {
  if (!rep) return;
  const b = carriedVerdictOf(rep.report);
  carriedFinding(
    st,
    b,
    'report',
    b.decisive ? `${ptr(MEMBER.report)}#/findings/${b.decisive.index}` : ptr(MEMBER.report),
  );
}
