/**
 * Verifies an exported attestation, one small check per rule (RPR-ATTEST-NNN), each a
 * finding with expected and actual. The envelope file must be exactly its canonical JSON
 * plus a newline, so that any byte change is detected: a changed signature, payload or
 * key id fails (or, for a key the trust store does not know, is unavailable).
 */
import type { Finding } from '../../shared/report.js';
import { changedNumbers, fail, unavailable } from '../core/findings.js';
import { isPlainObject as isObj } from '../core/closed.js';
import { decodeJsonBytes, canonicalizeValue, JcsError, parseCanonical } from '../core/jcs.js';
import { verifyBytes, type TrustStore } from '../core/keys.js';
import { IN_TOTO_PAYLOAD_TYPE, pae } from './dsse.js';
import { PREDICATE_TYPE, STATEMENT_TYPE } from './statement.js';

export interface AttestationCheck {
  findings: Finding[];
  statement: Record<string, unknown> | null;
  keyId: string | null;
}

const B64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function verifyAttestation(bytes: Uint8Array, trust: TrustStore | null): AttestationCheck {
  const findings: Finding[] = [];
  const out = (statement: Record<string, unknown> | null = null, keyId: string | null = null): AttestationCheck => ({
    findings,
    statement,
    keyId,
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
      if (!verifyBytes(k.publicKey, pae(String(env['payloadType']), body), sig))
        findings.push(
          fail('RPR-ATTEST-003', 'the DSSE signature does not verify over PAE(payloadType, payload)', {
            pointer: '/signatures/0/sig',
            expected: `a valid Ed25519 signature by ${keyId}`,
            actual: sig,
          }),
        );
      if (k.status === 'revoked')
        findings.push(
          fail('RPR-ATTEST-005', `the signing key ${keyId} is revoked`, {
            expected: 'active or retired',
            actual: k.status,
          }),
        );
      if (k.role !== 'reviewer')
        findings.push(
          fail('RPR-ATTEST-005', `an attestation must be signed by a reviewer key; ${keyId} is a ${k.role} key`, {
            expected: 'reviewer',
            actual: k.role,
          }),
        );
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
  findings.push(...checkStatement(st));
  return out(st, keyId);
}

/** The statement's own rules: in-toto v1 shape, disclosure of composition and tolerance policy, RECORDED honesty. */
export function checkStatement(st: Record<string, unknown>): Finding[] {
  const f: Finding[] = [];
  if (st['_type'] !== STATEMENT_TYPE)
    f.push(
      fail('RPR-ATTEST-006', `_type must be ${STATEMENT_TYPE}`, {
        expected: STATEMENT_TYPE,
        actual: String(st['_type']),
      }),
    );
  if (st['predicateType'] !== PREDICATE_TYPE)
    f.push(
      fail('RPR-ATTEST-006', `predicateType must be ${PREDICATE_TYPE}`, {
        expected: PREDICATE_TYPE,
        actual: String(st['predicateType']),
      }),
    );
  const subj = st['subject'];
  if (
    !Array.isArray(subj) ||
    subj.length === 0 ||
    !subj.every(
      (s) =>
        isObj(s) &&
        typeof s['name'] === 'string' &&
        isObj(s['digest']) &&
        /^[0-9a-f]{64}$/.test(String(s['digest']['sha256'])),
    )
  )
    f.push(fail('RPR-ATTEST-006', 'subject must list {name, digest: {sha256}}', { pointer: '/subject' }));
  const p = st['predicate'];
  if (!isObj(p)) return (f.push(fail('RPR-ATTEST-006', 'the predicate is missing')), f);
  const comp = p['modeComposition'];
  if (!isObj(comp) || !['EXACT', 'BANDED', 'RECORDED'].every((m) => Number.isSafeInteger(comp[m])))
    f.push(
      fail(
        'RPR-ATTEST-007',
        'the predicate must disclose the replay mode composition (counts of EXACT, BANDED, RECORDED)',
        { pointer: '/predicate/modeComposition' },
      ),
    );
  else if (
    (comp['BANDED'] as number) > 0 &&
    !(isObj(p['tolerancePolicy']) && typeof p['tolerancePolicy']['bundleHash'] === 'string')
  )
    f.push(
      fail(
        'RPR-ATTEST-007',
        'a BANDED output is present, so the predicate must disclose the governed tolerance-policy reference',
        {
          pointer: '/predicate/tolerancePolicy',
          expected: '{bundleRef, bundleHash, …}',
          actual: canonicalizeValue(p['tolerancePolicy'] ?? null),
        },
      ),
    );
  const rec = p['recordedOutputs'];
  if (!Array.isArray(rec))
    f.push(fail('RPR-ATTEST-006', 'recordedOutputs must be an array', { pointer: '/predicate/recordedOutputs' }));
  else
    rec.forEach((r, i) => {
      if (isObj(r) && r['replayable'] === true && !isObj(r['anchor']))
        f.push(
          fail('RPR-ATTEST-008', 'a RECORDED output without a creation-time anchor is presented as replayable', {
            pointer: `/predicate/recordedOutputs/${i}`,
            expected: 'replayable: false',
            actual: 'replayable: true',
          }),
        );
    });
  return f;
}
