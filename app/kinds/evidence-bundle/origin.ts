/**
 * A bundle's origin statement (docs/evidence-bundle.md, "Why the checks are what they are"):
 * who signed what it proves, which judgements bind, and what no signature covers. Every
 * judgement is known here by the member it was read from, as its findings name it: a member
 * whose name is not its entry's seq is that member's failure, never another's.
 */
import type { Authenticity, Finding } from '../../../shared/report.js';
import { authenticity } from '../../core/authenticity.js';
import type { TrustStore } from '../../core/keys.js';
import type { Checkpoint } from '../../journal/format.js';
import { JUDGEMENT_MEMBER_RE, ptr } from './format.js';
import { R } from './rule-ids.js';
import type { Judged, State } from './verify.js';

/** Why a signer's signature is not accepted: its key absent from the trust store, revoked, or the signature itself. */
export type Refusal = 'absent' | 'revoked' | 'signature';

/** The member a finding's pointer names (`entry:NAME#/…`), or null when it names none. */
function memberOf(f: Finding): string | null {
  const at = f.pointer?.split('#')[0];
  return at?.startsWith(ptr('')) ? at.slice(ptr('').length) : null;
}

/**
 * The first `fail` finding on each judgement member the bundle holds, in the order they were
 * found. A judgement member with one is no reviewer's signed word on anything: it binds nothing.
 */
export function failedJudgements(st: State): Map<string, Finding> {
  const by = new Map<string, Finding>();
  for (const f of st.findings) {
    const m = f.severity === 'fail' ? memberOf(f) : null;
    if (m !== null && JUDGEMENT_MEMBER_RE.test(m) && st.members.has(m) && !by.has(m)) by.set(m, f);
  }
  return by;
}

/**
 * The judgements that may bind a report: those no `fail` finding names, looked up by the
 * member each was read from. A judgement whose proof, signature, signer's role (RPR-EVB-008:
 * a quarantine officer's key signed it) or form fails binds nothing, whatever digest its body
 * names.
 */
export function bindingEntries(st: State, judged: readonly Judged[]): Judged[] {
  const failed = failedJudgements(st);
  return judged.filter((j) => !failed.has(j.member));
}

/**
 * Who names none of `digests`, in words, said where no judgement that binds names one: when a
 * judgement in `judged` does, it failed its checks, and the words count only those that pass
 * them (never "no judgement names it" beside one that does); else `none`.
 */
export function noJudgement(
  judged: readonly Judged[],
  digests: readonly string[],
  none = 'no judgement in the bundle',
): string {
  const named = judged.some((j) => digests.includes(String(j.entry.body['reportDigest'])));
  return named ? 'no judgement in the bundle that passes its checks' : none;
}

/**
 * The bundle's judgements as an origin counts them: `all` (the caller's words) when none
 * fails, else how many of its judgement members verify, so a failing one is never counted
 * among those that do.
 */
export function judgementsSaid(st: State, all: string): string {
  const failed = failedJudgements(st).size;
  if (failed === 0) return all;
  const total = [...st.members.keys()].filter((n) => JUDGEMENT_MEMBER_RE.test(n)).length;
  return `${total - failed} of its ${total} judgement(s)`;
}

/** A finding's message without the member name it starts with (the clause names the member). */
const said = (f: Finding, member: string): string =>
  f.message.startsWith(`${member}: `) ? f.message.slice(member.length + 2) : f.message;

/** The failing judgement members, in words: the first with its finding, and how many more. */
function failedWords(failed: Map<string, Finding>): string | null {
  const first = [...failed][0];
  if (!first) return null;
  const [m, f] = first;
  const more = failed.size > 1 ? `, as do ${failed.size - 1} other judgement member(s)` : '';
  return `${m} fails its checks (${f.rule}: ${said(f, m)}), so it binds nothing${more}`;
}

/**
 * The first failure outside the signed parts (not a judgement's, nor the carried verdict's:
 * report.html, a member the bundle should not hold, the manifest's word), in words.
 */
function unsignedWords(st: State, failed: Map<string, Finding>): string | null {
  const f = st.findings.find((x) => {
    if (x.severity !== 'fail' || x.rule === R.carried) return false;
    const m = memberOf(x);
    return m === null || !failed.has(m);
  });
  if (!f) return null;
  const m = memberOf(f);
  const at = m === null ? '' : ` at ${m}`;
  return `what no signature covers fails (${f.rule}${at}: ${m === null ? f.message : said(f, m)}): the signatures vouch only for the signed parts`;
}

/**
 * What the bundle leaves out and cannot decide (RPR-EVB-020, unavailable), in words: the
 * signatures vouch for what it carries, never for what it does not.
 */
function incompleteWords(st: State): string | null {
  const left = st.findings.filter((x) => x.rule === R.leftOut && x.severity === 'unavailable');
  const first = left[0];
  if (!first) return null;
  const more = left.length > 1 ? `, and ${left.length - 1} more thing(s) left out` : '';
  return `${first.message} (RPR-EVB-020${more}): the signatures vouch only for what the bundle carries`;
}

/** A statement ending in a period, with `buts` said after it. */
function qualified(a: Authenticity, buts: readonly string[]): Authenticity {
  return buts.length === 0 ? a : { ...a, statement: `${a.statement.replace(/\.$/, '')}; but ${buts.join('; and ')}.` };
}

const REFUSED: Record<Exclude<Refusal, 'signature'>, string> = {
  absent: 'a key that is not in the trust store',
  revoked: 'a key the trust store revokes',
};

/** "Signature not accepted", saying why as the finding does: a key the store lacks or revokes signs nothing it accepts. */
function notAccepted(what: string, keyId: string, why: Refusal): Authenticity {
  if (why === 'signature') return authenticity.badSignature(what, keyId);
  return {
    status: 'bad-signature',
    keyId,
    statement: `Signature not accepted: ${what} is signed by ${keyId}, ${REFUSED[why]}, so its origin is not established.`,
  };
}

/** Why `keyId`'s signature is refused under `trust`. */
export function refusalOf(trust: TrustStore, keyId: string): Refusal {
  const k = trust.get(keyId);
  return !k ? 'absent' : k.status === 'revoked' ? 'revoked' : 'signature';
}

/**
 * Who signed what the bundle proves: its checkpoint's signer, under the trust store, unless
 * a signature failed, a judgement's signer is no reviewer, or the attestation does not
 * verify. `signed` says what that signature covers when it verifies (a case bundle says
 * which of its reports a judgement binds, and that its case report is unsigned); a failing
 * judgement member, or a failure no signature covers, qualifies it.
 */
export function checkpointAuthenticity(
  st: State,
  cp: Checkpoint | null,
  judged: readonly Judged[],
  signed?: string,
  unbound?: string,
): Authenticity {
  if (!cp) return authenticity.consistencyOnly('the bundle holds no readable checkpoint.');
  if (!st.trust) return authenticity.noTrustStore("the bundle's checkpoint", cp.signer);
  const refused = signatureRefused(st, cp, judged) ?? roleRefused(st, judged) ?? st.attestationRefused;
  if (refused) return refused;
  const failed = failedJudgements(st);
  const buts = [failedWords(failed), unsignedWords(st, failed), incompleteWords(st)].filter(
    (x): x is string => x !== null,
  );
  // `unbound`: why no judgement binds what the bundle says. A trusted checkpoint then signs
  // none of it (anyone holding one could wrap a bundle around it): consistency only.
  if (unbound !== undefined)
    return authenticity.consistencyOnly(
      `the bundle's checkpoint verifies under ${cp.signer}, a key in the trust store, but ${[unbound, ...buts].join('; and ')}`,
    );
  const what = signed ?? `the bundle's checkpoint and ${judgementsSaid(st, 'every judgement')}`;
  return qualified(authenticity.trusted(what, cp.signer, (st.retired?.size ?? 0) > 0), buts);
}

/**
 * The signature the bundle refuses, and why: the checkpoint's signer when its key or
 * signature fails (RPR-EVB-005), else the author of the first judgement whose signature fails
 * (RPR-EVB-007), whose key need not be the checkpoint's.
 */
function signatureRefused(st: State, cp: Checkpoint, judged: readonly Judged[]): Authenticity | null {
  if (st.checkpointRefused) return notAccepted("the bundle's checkpoint", cp.signer, st.checkpointRefused);
  const f = st.findings.find((x) => x.severity === 'fail' && x.rule === R.signature);
  if (!f) return null;
  const j = judged.find((x) => ptr(x.member) === f.pointer);
  return j
    ? notAccepted(`the bundle's judgement ${j.member}`, j.entry.author, refusalOf(st.trust!, j.entry.author))
    : authenticity.badSignature("the bundle's checkpoint or a judgement", cp.signer);
}

/**
 * A judgement signed by a key whose role is not reviewer's (RPR-EVB-008) is no judgement: it
 * binds nothing, and the origin is never "Trusted signer" while the bundle carries one (its
 * signature verifies, so "every judgement verifies" would read as a reviewer's word).
 */
function roleRefused(st: State, judged: readonly Judged[]): Authenticity | null {
  const refused = st.findings.filter((f) => f.severity === 'fail' && f.rule === R.role);
  const first = refused[0];
  const j = first && judged.find((x) => ptr(x.member) === first.pointer);
  if (!first || !j) return null;
  return authenticity.untrusted(
    `the bundle's judgement ${j.member}`,
    j.entry.author,
    `that key is a ${String(first.actual)} key in the trust store, and only a reviewer's signature makes a judgement: it binds nothing (RPR-EVB-008, on ${refused.length} judgement(s) of the bundle)`,
  );
}
