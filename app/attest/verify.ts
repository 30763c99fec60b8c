/**
 * Verifies an exported attestation, one small check per rule (RPR-ATTEST-NNN), each a
 * finding with expected and actual. The envelope file must be exactly its canonical JSON
 * plus a newline, so that any byte change is detected: a changed signature, payload or
 * key id fails (or, for a key the trust store does not know, is unavailable).
 */
import type { Finding, JsonValue } from '../../shared/report.js';
import { comparisonArtifact, originalOf, rowsVerdict, type ComparisonParts } from './comparison.js';
import { changedNumbers, fail, unavailable } from '../core/findings.js';
import { isPlainObject as isObj } from '../core/closed.js';
import { hashCanonicalText, hashValue, sha256Hex } from '../core/hash.js';
import { decodeJsonBytes, canonicalizeValue, JcsError, parseCanonical } from '../core/jcs.js';
import { verifyBytes, type TrustedKey, type TrustStore } from '../core/keys.js';
import { IN_TOTO_PAYLOAD_TYPE, pae } from './dsse.js';
import { ATTESTED_MANIFEST_TYPE, PREDICATE_TYPE, recordedEntry, STATEMENT_TYPE } from './statement.js';

export interface AttestationCheck {
  findings: Finding[];
  statement: Record<string, unknown> | null;
  /** The key id the envelope names: claimed, not proven, unless `signatureVerified`. */
  keyId: string | null;
  /** The signature verified with that key from the trust store (its role and status are other findings). */
  signatureVerified: boolean;
}

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function verifyAttestation(bytes: Uint8Array, trust: TrustStore | null): AttestationCheck {
  const findings: Finding[] = [];
  let signatureVerified = false;
  const out = (statement: Record<string, unknown> | null = null, keyId: string | null = null): AttestationCheck => ({
    findings,
    statement,
    keyId,
    signatureVerified,
  });
  let env: unknown;
  try {
    const text = decodeJsonBytes(bytes);
    const parsed = parseCanonical(text);
    env = parsed.value;
    findings.push(
      ...changedNumbers(parsed.warnings, { rule: 'RPR-ATTEST-001', subject: 'the envelope is not I-JSON' }),
    );
    if (parsed.warnings.length === 0 && text !== parsed.canonical + '\n')
      findings.push(
        fail(
          'RPR-ATTEST-001',
          'the envelope file is not its canonical JSON followed by one newline (bytes were changed)',
          {
            expected: 'canonical JSON + \\n',
            actual: `${bytes.length} bytes, canonical form ${Buffer.byteLength(parsed.canonical) + 1}`,
          },
        ),
      );
  } catch (e) {
    findings.push(
      fail('RPR-ATTEST-001', `the envelope is not strict JSON: ${e instanceof JcsError ? e.message : String(e)}`),
    );
    return out();
  }
  if (!isObj(env)) return (findings.push(fail('RPR-ATTEST-002', 'the envelope is not a JSON object')), out());
  const keys = Object.keys(env).sort().join(',');
  if (keys !== 'payload,payloadType,signatures')
    findings.push(
      fail('RPR-ATTEST-002', 'a DSSE envelope has exactly payload, payloadType and signatures', {
        expected: 'payload,payloadType,signatures',
        actual: keys,
      }),
    );
  if (env['payloadType'] !== IN_TOTO_PAYLOAD_TYPE)
    findings.push(
      fail('RPR-ATTEST-002', `payloadType must be ${IN_TOTO_PAYLOAD_TYPE}`, {
        pointer: '/payloadType',
        expected: IN_TOTO_PAYLOAD_TYPE,
        actual: String(env['payloadType']),
      }),
    );
  const payloadB64 = env['payload'];
  if (typeof payloadB64 !== 'string' || !B64.test(payloadB64))
    return (findings.push(fail('RPR-ATTEST-002', 'payload must be standard base64', { pointer: '/payload' })), out());
  const body = Buffer.from(payloadB64, 'base64');
  // Decoders ignore the unused low bits of the last character: only the one spelling the
  // bytes have is accepted, or the file could change while its signature still verifies.
  if (body.toString('base64') !== payloadB64)
    findings.push(
      fail('RPR-ATTEST-002', 'payload is not the canonical base64 of its bytes (unused bits are set)', {
        pointer: '/payload',
        expected: 'the unused low bits of the last character zero',
        actual: payloadB64.slice(-4),
      }),
    );
  const sigs = env['signatures'];
  if (
    !Array.isArray(sigs) ||
    sigs.length !== 1 ||
    !isObj(sigs[0]) ||
    Object.keys(sigs[0]).sort().join(',') !== 'keyid,sig' ||
    typeof sigs[0]['keyid'] !== 'string' ||
    typeof sigs[0]['sig'] !== 'string'
  )
    return (
      findings.push(
        fail('RPR-ATTEST-002', 'signatures must hold exactly one {keyid, sig}', { pointer: '/signatures' }),
      ),
      out()
    );
  const keyId = sigs[0]['keyid'] as string;
  const sig = sigs[0]['sig'] as string;
  if (!trust)
    findings.push(unavailable('RPR-ATTEST-004', 'no trust store given (--trust-store): the signer cannot be checked'));
  else {
    const k = trust.get(keyId);
    if (!k)
      findings.push(
        unavailable('RPR-ATTEST-004', `the signing key ${keyId} is not in the trust store`, {
          pointer: '/signatures/0/keyid',
          expected: 'a key of the trust store',
          actual: keyId,
        }),
      );
    else {
      signatureVerified = verifyBytes(k.publicKey, pae(String(env['payloadType']), body), sig);
      if (!signatureVerified)
        findings.push(
          fail('RPR-ATTEST-003', 'the DSSE signature does not verify over PAE(payloadType, payload)', {
            pointer: '/signatures/0/sig',
            expected: `a valid Ed25519 signature by ${keyId}`,
            actual: sig,
          }),
        );
      for (const p of attestationSignerProblems(k, { recorded: true }))
        findings.push(fail('RPR-ATTEST-005', p.message, p));
    }
  }
  let st: unknown;
  try {
    const p = parseCanonical(decodeJsonBytes(body));
    st = p.value;
    // Signed bytes whose numbers the parse changed: the statement checked is not the one signed.
    findings.push(
      ...changedNumbers(
        p.warnings,
        { rule: 'RPR-ATTEST-006', subject: 'the statement is not I-JSON' },
        { at: '/payload' },
      ),
    );
    if (p.warnings.length === 0 && p.canonical !== body.toString('utf8'))
      findings.push(fail('RPR-ATTEST-006', 'the statement is not canonical JSON', { pointer: '/payload' }));
  } catch (e) {
    findings.push(
      fail('RPR-ATTEST-006', `the payload is not a JSON statement: ${e instanceof Error ? e.message : String(e)}`, {
        pointer: '/payload',
      }),
    );
    return out(null, keyId);
  }
  if (!isObj(st))
    return (findings.push(fail('RPR-ATTEST-006', 'the statement is not a JSON object')), out(null, keyId));
  findings.push(...checkStatement(st, keyId));
  return out(st, keyId);
}

/**
 * Why a key cannot sign an attestation (RPR-ATTEST-005): revoked, or not a reviewer's; and,
 * for a new one (`reprise attest`, which refuses before it signs), retired, as the journal's
 * writer refuses a retired key a new entry: retiring takes a key out of service. An
 * attestation already signed (`recorded`, the verifier) still verifies under a key retired
 * since, as a journal entry does; it carries no time that could say when it was signed.
 */
export function attestationSignerProblems(
  k: Pick<TrustedKey, 'keyId' | 'role' | 'status'>,
  { recorded = false }: { recorded?: boolean } = {},
): { message: string; expected: string; actual: string }[] {
  const out: { message: string; expected: string; actual: string }[] = [];
  if (k.status === 'revoked')
    out.push({ message: `the signing key ${k.keyId} is revoked`, expected: 'active or retired', actual: k.status });
  else if (k.status !== 'active' && !recorded)
    out.push({
      message: `the signing key ${k.keyId} is ${k.status}: a key taken out of service signs no new attestation (what it signed before still verifies)`,
      expected: 'active',
      actual: k.status,
    });
  if (k.role !== 'reviewer')
    out.push({
      message: `an attestation must be signed by a reviewer key; ${k.keyId} is a ${k.role} key`,
      expected: 'reviewer',
      actual: k.role,
    });
  return out;
}

/** Reprise's predicate, every member of it (docs/tg-replay.md): nothing added, nothing left out. */
const PREDICATE_MEMBERS = [
  'claimRef',
  'comparison',
  'manifestHash',
  'modeComposition',
  'recordedOutputs',
  'reviewer',
  'tolerancePolicy',
  'tool',
  'verdict',
].join(',');
const HASH = /^sha256:[0-9a-f]{64}$/;
const MODES = ['BANDED', 'EXACT', 'RECORDED'];

type Bad = (pointer: string, message: string, expected?: string, actual?: unknown) => void;

/** A collector of RPR-ATTEST-006 findings, each pointing into the statement. */
function collector(f: Finding[], rule = 'RPR-ATTEST-006'): Bad {
  return (pointer, message, expected, actual) =>
    void f.push(
      fail(rule, message, {
        pointer,
        ...(expected !== undefined ? { expected, actual: actual === undefined ? null : String(actual) } : {}),
      }),
    );
}

const names = (o: Record<string, unknown>): string => Object.keys(o).sort().join(',');

/**
 * The statement's own rules: in-toto v1 shape with Reprise's predicate, every member of it
 * well formed and consistent with the others, signed by the reviewer it names, disclosure of
 * composition and tolerance policy, RECORDED honesty. A trusted signature over a statement
 * that says less, or something Reprise never writes, is not an attestation of a replay.
 */
export function checkStatement(st: Record<string, unknown>, signedBy: string | null = null): Finding[] {
  const f: Finding[] = [];
  const bad = collector(f);
  if (st['_type'] !== STATEMENT_TYPE) bad('/_type', `_type must be ${STATEMENT_TYPE}`, STATEMENT_TYPE, st['_type']);
  if (st['predicateType'] !== PREDICATE_TYPE)
    bad('/predicateType', `predicateType must be ${PREDICATE_TYPE}`, PREDICATE_TYPE, st['predicateType']);
  if (names(st) !== '_type,predicate,predicateType,subject')
    bad(
      '',
      'the statement has exactly _type, subject, predicateType and predicate',
      '_type,predicate,predicateType,subject',
      names(st),
    );
  const p = st['predicate'];
  if (!isObj(p)) return (bad('/predicate', 'the predicate is missing'), f);
  checkSubject(st['subject'], p['claimRef'], bad);
  checkPredicateMembers(p, signedBy, bad);
  checkDisclosure(p, f);
  checkComparison(p, f);
  return f;
}

/** Exactly one subject, the manifest: its claim reference as the name, the SHA-256 of its bytes. */
function checkSubject(subj: unknown, claimRef: unknown, bad: Bad): void {
  const one = Array.isArray(subj) && subj.length === 1 && isObj(subj[0]) ? (subj[0] as Record<string, unknown>) : null;
  const digest = one && isObj(one['digest']) ? one['digest'] : null;
  if (
    !one ||
    names(one) !== 'digest,name' ||
    !digest ||
    names(digest) !== 'sha256' ||
    !/^[0-9a-f]{64}$/.test(String(digest['sha256']))
  )
    return bad('/subject', 'subject must list exactly one {name, digest: {sha256}}: the manifest');
  if (one['name'] !== claimRef)
    bad('/subject/0/name', "the subject's name is not the predicate's claimRef", String(claimRef), one['name']);
}

/** Each member of the predicate as Reprise writes it, the reviewer being the key that signed. */
function checkPredicateMembers(p: Record<string, unknown>, signedBy: string | null, bad: Bad): void {
  if (names(p) !== PREDICATE_MEMBERS)
    bad('/predicate', `the predicate has exactly ${PREDICATE_MEMBERS}`, PREDICATE_MEMBERS, names(p));
  if (typeof p['claimRef'] !== 'string' || p['claimRef'] === '')
    bad('/predicate/claimRef', 'claimRef must be the claim reference (a non-empty string)');
  if (!HASH.test(String(p['manifestHash'])))
    bad('/predicate/manifestHash', 'manifestHash must be sha256:<64 hex>', 'sha256:<64 hex>', p['manifestHash']);
  if (!['pass', 'fail', 'unavailable'].includes(p['verdict'] as string))
    bad(
      '/predicate/verdict',
      "the replay's verdict must be pass, fail or unavailable",
      'pass, fail or unavailable',
      p['verdict'],
    );
  const cmp = p['comparison'];
  if (!isObj(cmp) || names(cmp) !== 'hash,outputs' || !HASH.test(String(cmp['hash'])) || !Array.isArray(cmp['outputs']))
    bad('/predicate/comparison', 'comparison must be {hash: sha256:<64 hex>, outputs: [...]}');
  const tool = p['tool'];
  if (
    !isObj(tool) ||
    names(tool) !== 'name,version' ||
    tool['name'] !== 'reprise' ||
    typeof tool['version'] !== 'string'
  )
    bad('/predicate/tool', 'tool must be {name: "reprise", version}');
  if (signedBy !== null && p['reviewer'] !== signedBy)
    bad(
      '/predicate/reviewer',
      'the predicate names a reviewer other than the key that signed it',
      signedBy,
      p['reviewer'],
    );
}

/** The comparison's rows, when the predicate has them (else RPR-ATTEST-006 said so). */
function rowsOf(p: Record<string, unknown>): unknown[] | null {
  const cmp = p['comparison'];
  return isObj(cmp) && Array.isArray(cmp['outputs']) ? cmp['outputs'] : null;
}

/** How many rows of each mode the comparison lists: one row per execution, as the replay writes them. */
function countModes(rows: unknown[]): Record<string, number> {
  return Object.fromEntries(MODES.map((m) => [m, rows.filter((r) => isObj(r) && r['mode'] === m).length]));
}

/**
 * The mode composition, the tolerance policy when BANDED, RECORDED honesty. What the rows
 * say decides (a composition that hides a BANDED row must not excuse its tolerance policy).
 */
function checkDisclosure(p: Record<string, unknown>, f: Finding[]): void {
  const comp = p['modeComposition'];
  const rows = rowsOf(p);
  const counts = isObj(comp) && names(comp) === MODES.join(',') ? MODES.map((m) => comp[m]) : [];
  if (counts.length === 0 || !counts.every((n) => Number.isSafeInteger(n) && (n as number) >= 0))
    return void collector(f, 'RPR-ATTEST-007')(
      '/predicate/modeComposition',
      'the predicate must disclose the replay mode composition (counts of EXACT, BANDED, RECORDED)',
    );
  const claimed = comp as Record<string, number>;
  const counted = rows ? countModes(rows) : claimed;
  if (rows) checkComposition(claimed, counted, rows.length, f);
  checkTolerancePolicy(p, counted['BANDED']! > 0, f);
  checkRecorded(p['recordedOutputs'], counted['RECORDED']!, f);
}

/** Each count is the number of the comparison's rows of that mode, as the writer counts them. */
function checkComposition(
  claimed: Record<string, number>,
  counted: Record<string, number>,
  outputs: number,
  f: Finding[],
): void {
  const bad = collector(f, 'RPR-ATTEST-007');
  const wrong = MODES.filter((m) => claimed[m] !== counted[m]);
  for (const m of wrong)
    bad(
      `/predicate/modeComposition/${m}`,
      `the mode composition claims ${claimed[m]} ${m} output(s), but the comparison lists ${counted[m]}`,
      String(counted[m]),
      claimed[m],
    );
  // Counts that match per mode but not in all: a row of no replay mode.
  const total = MODES.reduce((a, m) => a + claimed[m]!, 0);
  if (wrong.length === 0 && total !== outputs)
    bad(
      '/predicate/modeComposition',
      'the mode composition does not count the outputs the comparison lists',
      String(outputs),
      total,
    );
}

/** The governed tolerance-policy reference when a BANDED output is present, null when none is. */
function checkTolerancePolicy(p: Record<string, unknown>, banded: boolean, f: Finding[]): void {
  const tp = p['tolerancePolicy'];
  if (banded && !(isObj(tp) && typeof tp['bundleHash'] === 'string' && HASH.test(tp['bundleHash'])))
    f.push(
      fail(
        'RPR-ATTEST-007',
        'a BANDED output is present, so the predicate must disclose the governed tolerance-policy reference',
        {
          pointer: '/predicate/tolerancePolicy',
          expected: '{bundleRef, bundleHash, …}',
          actual: canonicalizeValue((tp ?? null) as never),
        },
      ),
    );
  if (!banded && tp !== null)
    collector(f)(
      '/predicate/tolerancePolicy',
      'no BANDED output: the tolerance policy is null',
      'null',
      canonicalizeValue((tp ?? null) as never),
    );
}

/** One entry per RECORDED output, each saying whether it is replayable; none replayable without its anchor. */
function checkRecorded(rec: unknown, count: number, f: Finding[]): void {
  const bad = collector(f);
  if (!Array.isArray(rec) || !rec.every((r) => isObj(r) && typeof r['replayable'] === 'boolean'))
    return bad('/predicate/recordedOutputs', 'recordedOutputs must be an array of {…, anchor, replayable}');
  if (rec.length !== count)
    bad('/predicate/recordedOutputs', 'recordedOutputs does not list every RECORDED output', String(count), rec.length);
  rec.forEach((r: Record<string, unknown>, i) => {
    if (r['replayable'] === true && !isObj(r['anchor']))
      f.push(
        fail('RPR-ATTEST-008', 'a RECORDED output without a creation-time anchor is presented as replayable', {
          pointer: `/predicate/recordedOutputs/${i}`,
          expected: 'replayable: false',
          actual: 'replayable: true',
        }),
      );
  });
}

const SEVERITY = new Map<unknown, number>([
  ['pass', 0],
  ['unavailable', 1],
  ['fail', 2],
]);
const statusOf = (r: unknown): unknown => (isObj(r) ? r['status'] : undefined);

/**
 * The predicate against its own rows: the verdict never milder than theirs, and
 * comparison.hash H(comparison) when the statement names the bundle (a BANDED output's
 * tolerance policy; without one, `checkManifestTies` takes it from the manifest).
 */
function checkComparison(p: Record<string, unknown>, f: Finding[]): void {
  const rows = rowsOf(p);
  if (!rows) return;
  checkVerdictOfRows(p['verdict'], rows, f);
  const tp = p['tolerancePolicy'];
  if (isObj(tp)) checkComparisonHash(p, rows, { bundleRef: tp['bundleRef'], bundleHash: tp['bundleHash'] }, f);
}

/**
 * The replay's verdict comes from its findings, and every row that failed or was not decided
 * is one (app/kinds/tg/replay.ts): a verdict milder than the worst row, or a PASS over no
 * row (RPR-TG-024), is not what Reprise writes.
 */
function checkVerdictOfRows(verdict: unknown, rows: unknown[], f: Finding[]): void {
  const said = SEVERITY.get(verdict);
  if (said === undefined) return; // not a verdict at all: RPR-ATTEST-006
  const status = rows.map(statusOf);
  const worst = rowsVerdict(status);
  const bad = collector(f, 'RPR-ATTEST-011');
  if (said < SEVERITY.get(worst)!) {
    const i = worst === 'fail' ? status.indexOf('fail') : status.findIndex((s) => s !== 'pass');
    bad(
      '/predicate/verdict',
      `the verdict is ${String(verdict)}, but output ${i} of the comparison has status ${String(status[i])}: a replay's verdict is never milder than its rows'`,
      worst,
      verdict,
    );
  } else if (verdict === 'pass' && rows.length === 0)
    bad(
      '/predicate/verdict',
      'the verdict is pass, but the comparison lists no output: nothing was replayed',
      'unavailable',
      verdict,
    );
}

/**
 * comparison.hash is H(comparison) of the artifact the replay wrote (app/kinds/tg/comparison.ts),
 * rebuilt from the predicate's members and its rows, given the bundle it names.
 */
function checkComparisonHash(
  p: Record<string, unknown>,
  rows: unknown[],
  policyContext: { bundleRef: unknown; bundleHash: unknown },
  f: Finding[],
): void {
  const parts = [p['claimRef'], p['manifestHash'], policyContext.bundleRef, policyContext.bundleHash];
  // A member missing or of the wrong type is already a finding; there is no artifact to rebuild.
  if (!parts.every((x) => typeof x === 'string') || !isObj(p['modeComposition'])) return;
  const want = hashValue(
    comparisonArtifact({
      claimRef: p['claimRef'] as string,
      manifestHash: p['manifestHash'] as string,
      policyContext: policyContext as ComparisonParts['policyContext'],
      modeComposition: p['modeComposition'] as JsonValue,
      outputs: rows as JsonValue[],
    }),
  );
  const got = (p['comparison'] as Record<string, unknown>)['hash'];
  if (got !== want)
    collector(f, 'RPR-ATTEST-011')(
      '/predicate/comparison/hash',
      'comparison.hash is not H(comparison): the comparison artifact rebuilt from the predicate (its rows, claim, manifestHash and bundle) hashes to another value',
      want,
      got,
    );
}

type Obj = Record<string, unknown>;

/** A member the object itself holds (a name from a statement or manifest may be `constructor`). */
const own = (o: unknown, k: unknown): unknown =>
  isObj(o) && typeof k === 'string' && Object.hasOwn(o, k) ? o[k] : undefined;
/** A value as a finding shows it: its canonical JSON, or "(absent)". */
const shown = (v: unknown): string => (v === undefined ? '(absent)' : canonicalizeValue(v as never));
const same = (a: unknown, b: unknown): boolean =>
  a === undefined || b === undefined ? a === b : shown(a) === shown(b);

/** What the manifest given says of itself: H(manifest) (only a strict JSON manifest has one) and its members. */
function manifestFacts(bytes: Uint8Array): { hash: string | null; m: unknown } {
  try {
    const parsed = parseCanonical(decodeJsonBytes(bytes));
    // As the replay names it (app/kinds/tg/replay.ts): the hash of the manifest's canonical JSON.
    return { hash: hashCanonicalText(parsed.canonical), m: parsed.value };
  } catch (e) {
    if (!(e instanceof JcsError)) throw e;
    return { hash: null, m: null };
  }
}

/**
 * The statement against the manifest `--manifest` gave (RPR-ATTEST-009), each as the writer
 * derives it: the subject's digest the SHA-256 of its bytes, manifestHash H(manifest), the
 * claim and the tolerance policy's bundle the manifest's; comparison.hash (RPR-ATTEST-011),
 * which the statement alone cannot decide when no BANDED output named the bundle; and all the
 * replay takes from the manifest without re-running it (`checkExecutionTies`).
 */
export function checkManifestTies(st: Obj, bytes: Uint8Array): Finding[] {
  const f: Finding[] = [];
  const bad = collector(f, 'RPR-ATTEST-009');
  const want = sha256Hex(bytes);
  const subj = (st['subject'] as { digest?: { sha256?: string } }[] | undefined)?.[0]?.digest?.sha256;
  if (subj !== want) bad('/subject/0/digest/sha256', 'the attestation is not about this manifest', want, subj);
  const p = st['predicate'];
  if (!isObj(p)) return f;
  const { hash, m } = manifestFacts(bytes);
  if (p['manifestHash'] !== hash)
    bad(
      '/predicate/manifestHash',
      "the predicate's manifestHash is not H(manifest) of the manifest given (the hash of its canonical JSON)",
      hash ?? 'none: the manifest given is not strict JSON',
      p['manifestHash'],
    );
  if (hash === null) return f; // nothing else to read of it
  if (!isObj(m) || m['type'] !== ATTESTED_MANIFEST_TYPE) return (notAManifest(m, f), f);
  if (p['claimRef'] !== m['claimRef'])
    bad('/predicate/claimRef', "the predicate's claimRef is not the manifest's", shown(m['claimRef']), p['claimRef']);
  checkBundleTie(p, isObj(m['policyContext']) ? m['policyContext'] : null, f);
  checkExecutionTies(p, m, f);
  return f;
}

/** A `--manifest` of another kind (a bundle, a trust store): said as such, its members never compared. */
function notAManifest(m: unknown, f: Finding[]): void {
  const what = !isObj(m) ? 'not a JSON object' : `of type ${shown(m['type'])}`;
  f.push(
    fail('RPR-ATTEST-009', `the manifest given is not a TG replay manifest (${what}): the statement is about none`, {
      expected: ATTESTED_MANIFEST_TYPE,
      actual: isObj(m) ? shown(m['type']) : shown(m),
    }),
  );
}

/** A tolerance policy names the manifest's bundle; without one, the manifest's bundle rebuilds comparison.hash. */
function checkBundleTie(p: Obj, pc: Obj | null, f: Finding[]): void {
  const tp = p['tolerancePolicy'];
  const rows = rowsOf(p);
  if (!pc) return; // a manifest without a policy context was never replayed, let alone attested
  if (tp === null && rows)
    return checkComparisonHash(p, rows, { bundleRef: pc['bundleRef'], bundleHash: pc['bundleHash'] }, f);
  if (!isObj(tp)) return; // not a tolerance policy at all: RPR-ATTEST-007
  for (const k of ['bundleRef', 'bundleHash'].filter((k) => tp[k] !== pc[k]))
    collector(f, 'RPR-ATTEST-009')(
      `/predicate/tolerancePolicy/${k}`,
      `the tolerance policy names another bundle than the manifest's policyContext (${k})`,
      shown(pc[k]),
      shown(tp[k]),
    );
}

/**
 * What the replay takes from the manifest's executions, derived here without re-running it:
 * one row per execution in its order (executionId, output, mode, original, ε), the mode
 * composition counted from the executions, each RECORDED output with its artifact hash and
 * anchor (replayable only with an anchor), and the tolerance policy whenever one is BANDED.
 * Only the replayed values and the statuses need the replay itself.
 */
function checkExecutionTies(p: Obj, m: Obj, f: Finding[]): void {
  const ex = m['executions'];
  if (!Array.isArray(ex) || !ex.every((e) => isObj(e)))
    return void f.push(
      fail('RPR-ATTEST-009', 'the manifest given records no list of executions: no statement of its replay holds', {
        pointer: '/predicate/comparison/outputs',
        expected: 'executions: [{executionId, output, replayMode, …}]',
        actual: shown(ex),
      }),
    );
  const execs = ex as Obj[];
  const tp = p['tolerancePolicy'];
  checkRowsAgainst(rowsOf(p), execs, isObj(tp) && isObj(tp['epsilon']) ? tp['epsilon'] : null, f);
  checkCompositionAgainst(p['modeComposition'], execs, f);
  checkRecordedAgainst(p['recordedOutputs'], execs, f);
  checkPolicyAgainst(p, m, execs, f);
}

/** Row indices by the execution id they name, in order (ids repeat only in a manifest the replay failed). */
function rowsById(rows: unknown[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  rows.forEach((r, j) => {
    const id = own(r, 'executionId');
    if (typeof id === 'string') out.set(id, [...(out.get(id) ?? []), j]);
  });
  return out;
}

/** Every execution has its row, no row is of another, in the manifest's order, each as the manifest records it. */
function checkRowsAgainst(rows: unknown[] | null, ex: Obj[], eps: Obj | null, f: Finding[]): void {
  if (!rows) return; // not a comparison: RPR-ATTEST-006
  const bad = collector(f, 'RPR-ATTEST-009');
  const byId = rowsById(rows);
  const matched = new Set<number>();
  let inOrder = true;
  ex.forEach((e, i) => {
    const j = byId.get(String(e['executionId']))?.shift();
    if (j === undefined)
      return bad(
        '/predicate/comparison/outputs',
        `execution ${shown(e['executionId'])} (/executions/${i} of the manifest) has no row: the comparison leaves it out`,
        shown(e['executionId']),
        '(no row)',
      );
    matched.add(j);
    inOrder &&= j === i;
    checkRow(rows[j], j, e, eps, f);
  });
  rows.forEach((r, j) => {
    if (!matched.has(j))
      bad(
        `/predicate/comparison/outputs/${j}`,
        `row ${j} (${shown(own(r, 'executionId'))}) is of no execution of the manifest: the comparison adds it`,
        '(no row)',
        shown(own(r, 'executionId')),
      );
  });
  if (!inOrder && matched.size === rows.length && rows.length === ex.length)
    bad('/predicate/comparison/outputs', "the rows are not in the order of the manifest's executions");
}

/** One row against its execution: the members the manifest decides, and a RECORDED output's that its anchor decides. */
function checkRow(r: unknown, j: number, e: Obj, eps: Obj | null, f: Finding[]): void {
  const mode = e['replayMode'];
  const want: [string, unknown][] = [
    ['executionId', e['executionId']],
    ['output', e['output']],
    ['mode', mode],
    ['original', originalOf(e)],
  ];
  // ε is the governed one of a BANDED output (the tolerance policy's, tied to the bundle below), else null.
  if (mode !== 'BANDED') want.push(['epsilon', null]);
  else if (eps) want.push(['epsilon', own(eps, e['output']) ?? null]);
  for (const [k, v] of want.filter(([k, v]) => !same(own(r, k), v)))
    collector(f, 'RPR-ATTEST-009')(
      `/predicate/comparison/outputs/${j}/${k}`,
      `row ${j} says ${k} ${shown(own(r, k))}, but the manifest's execution ${shown(e['executionId'])} records ${shown(v)}`,
      shown(v),
      shown(own(r, k)),
    );
  if (mode === 'RECORDED' && !Object.hasOwn(e, 'anchor')) checkUnanchoredRow(r, j, f);
}

/** A RECORDED output the manifest gives no anchor is never replayed: its row failed, with nothing replayed. */
function checkUnanchoredRow(r: unknown, j: number, f: Finding[]): void {
  if (own(r, 'status') === 'fail' && own(r, 'replayed') === null) return;
  f.push(
    fail(
      'RPR-ATTEST-008',
      `row ${j} presents a RECORDED output the manifest gives no creation-time anchor as replayed: it is never replayable`,
      {
        pointer: `/predicate/comparison/outputs/${j}`,
        expected: 'status "fail", replayed null',
        actual: `status ${shown(own(r, 'status'))}, replayed ${shown(own(r, 'replayed'))}`,
      },
    ),
  );
}

/** Each count of the mode composition is the number of the manifest's executions of that mode. */
function checkCompositionAgainst(comp: unknown, ex: Obj[], f: Finding[]): void {
  if (!isObj(comp)) return; // no composition: RPR-ATTEST-007
  for (const m of MODES) {
    const counted = ex.filter((e) => e['replayMode'] === m).length;
    if (own(comp, m) !== counted)
      collector(f, 'RPR-ATTEST-009')(
        `/predicate/modeComposition/${m}`,
        `the mode composition claims ${shown(own(comp, m))} ${m} output(s), but the manifest records ${counted}`,
        String(counted),
        shown(own(comp, m)),
      );
  }
}

const RECORDED_MEMBERS = 'anchor,artifactHash,executionId,output,replayable';

/** One entry per RECORDED execution, in order, as the manifest records it; replayable never without its anchor. */
function checkRecordedAgainst(rec: unknown, ex: Obj[], f: Finding[]): void {
  if (!Array.isArray(rec)) return; // RPR-ATTEST-006
  const want = ex.filter((e) => e['replayMode'] === 'RECORDED');
  if (rec.length !== want.length)
    collector(f, 'RPR-ATTEST-009')(
      '/predicate/recordedOutputs',
      `recordedOutputs lists ${rec.length} output(s), but the manifest records ${want.length} RECORDED output(s)`,
      String(want.length),
      rec.length,
    );
  want.forEach((e, i) => {
    if (i < rec.length) checkRecordedEntry(rec[i], i, e, f);
  });
}

function checkRecordedEntry(r: unknown, i: number, e: Obj, f: Finding[]): void {
  const bad = collector(f, 'RPR-ATTEST-009');
  const at = `/predicate/recordedOutputs/${i}`;
  if (isObj(r) && names(r) !== RECORDED_MEMBERS)
    bad(at, `recordedOutputs ${i} has exactly ${RECORDED_MEMBERS}`, RECORDED_MEMBERS, names(r));
  for (const [k, v] of Object.entries(recordedEntry(e)).filter(([k, v]) => !same(own(r, k), v)))
    bad(
      `${at}/${k}`,
      `recordedOutputs ${i} says ${k} ${shown(own(r, k))}, but the manifest's execution ${shown(e['executionId'])} records ${shown(v)}`,
      shown(v),
      shown(own(r, k)),
    );
  if (own(r, 'replayable') === true && !Object.hasOwn(e, 'anchor'))
    f.push(
      fail(
        'RPR-ATTEST-008',
        'a RECORDED output the manifest gives no creation-time anchor is presented as replayable',
        {
          pointer: `${at}/replayable`,
          expected: 'replayable: false',
          actual: 'replayable: true',
        },
      ),
    );
}

/**
 * The tolerance policy disclosed exactly when the manifest records a BANDED output (the
 * statement's own rows may hide one), and, when the manifest embeds the bundle it names, the
 * bundle's id, version and ε. A bundle given only with `--policy` at attest time is bound by
 * its hash alone: those three are then the signer's word.
 */
function checkPolicyAgainst(p: Obj, m: Obj, ex: Obj[], f: Finding[]): void {
  const tp = p['tolerancePolicy'];
  const banded = ex.filter((e) => e['replayMode'] === 'BANDED').length;
  // The statement's own rules already said so when its rows show a BANDED output (checkTolerancePolicy).
  const rowsSay = (rowsOf(p) ?? []).some((r) => own(r, 'mode') === 'BANDED');
  if (banded > 0 && !isObj(tp) && !rowsSay)
    f.push(
      fail(
        'RPR-ATTEST-007',
        `the manifest records ${banded} BANDED output(s), so the predicate must disclose the governed tolerance-policy reference`,
        { pointer: '/predicate/tolerancePolicy', expected: '{bundleRef, bundleHash, …}', actual: shown(tp) },
      ),
    );
  if (banded === 0 && tp !== null && rowsSay)
    collector(f, 'RPR-ATTEST-009')(
      '/predicate/tolerancePolicy',
      'the manifest records no BANDED output: the tolerance policy is null',
      'null',
      shown(tp),
    );
  if (isObj(tp)) checkEmbeddedBundle(tp, m, f);
}

/** The disclosed bundle's id, version and ε are those of the bundle the manifest embeds under that hash. */
function checkEmbeddedBundle(tp: Obj, m: Obj, f: Finding[]): void {
  const h = tp['bundleHash'];
  const b = own(own(m['artifacts'], h), 'json');
  // Only an intact artifact is the bundle the hash names (the replay fails a broken one, RPR-TG-010).
  if (typeof h !== 'string' || !isObj(b) || hashValue(b as JsonValue) !== h) return;
  for (const k of ['bundleId', 'version', 'epsilon'].filter((k) => !same(own(tp, k), own(b, k))))
    collector(f, 'RPR-ATTEST-009')(
      `/predicate/tolerancePolicy/${k}`,
      `the tolerance policy says ${k} ${shown(own(tp, k))}, but the bundle the manifest embeds under ${h} says ${shown(own(b, k))}`,
      shown(own(b, k)),
      shown(own(tp, k)),
    );
}
