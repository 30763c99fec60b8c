/** A journal's origin statement, from its own rules (RPR-JOURNAL-007 to -011). */
import { isPlainObject } from '../core/closed.js';
import type { Authenticity, Finding, JsonValue } from '../../shared/report.js';
import { authenticity } from '../core/authenticity.js';
import type { KindResult } from '../core/report.js';
import type { SignerKeyList } from './verify.js';
import type { ProofCheck } from './proofs.js';

/** What a statement of `signers`' scope covers: the whole journal, or what came after a held checkpoint. */
function scopeOf(signers: SignerKeyList): string {
  const { from } = signers;
  return from > 0
    ? `every entry and checkpoint of the journal after the held checkpoint (tree ${from}; the ${from} entries before it rest on that checkpoint and were not checked again)`
    : 'every entry and checkpoint of the journal';
}

/** The rules of a signer that is not accepted, worst first: a bad signature, a revoked key, an unknown key. */
const SIGNER_RULES = ['RPR-JOURNAL-007', 'RPR-JOURNAL-009', 'RPR-JOURNAL-008'] as const;
/** The rules about who signed (those, and a retired signer): the statement itself says these. */
const SIGNATURE_RULES = new Set<string>([...SIGNER_RULES, 'RPR-JOURNAL-010']);

/** The key a failing finding of `rule` names (its `actual`), else `fallback`: the key at fault need not be the newest checkpoint's signer. */
function keyAtFault(findings: readonly Finding[], rule: string, fallback: string): string {
  const a = findings.find((f) => f.rule === rule && f.severity !== 'info')?.actual;
  return typeof a === 'string' && a.startsWith('ed25519:') ? a : fallback;
}

/**
 * A journal's authenticity: its entries and checkpoints are signed; the statement names
 * the latest checkpoint's signer (its `keyId`), and every other key that signed an entry
 * or a checkpoint, since a reviewer's and an officer's entries share one journal: naming
 * one key as the signer of all would say what was not checked. A key whose signature is
 * bad, unknown or revoked is the one its finding names. `trustGiven` false: nothing could
 * be decided.
 */
export function journalAuthenticity(
  findings: readonly Finding[],
  signer: string | null,
  trustGiven: boolean,
  signers: SignerKeyList = { keys: [], more: false, from: 0 },
): Authenticity {
  const what = 'the journal';
  const has = (rule: string) => findings.some((f) => f.rule === rule && f.severity !== 'info');
  if (!signer)
    return has('RPR-JOURNAL-007')
      ? authenticity.badSignature(what, keyAtFault(findings, 'RPR-JOURNAL-007', '') || null)
      : authenticity.unsigned(`the journal (no checkpoint)`);
  const several = signers.more || signers.keys.some((k) => k !== signer);
  if (!trustGiven)
    return several
      ? authenticity.noTrustStoreSeveral('the journal', keysSaid(signers), signer, 'its latest checkpoint')
      : authenticity.noTrustStore(what, signer);
  if (has('RPR-JOURNAL-007')) return authenticity.badSignature(what, keyAtFault(findings, 'RPR-JOURNAL-007', signer));
  if (has('RPR-JOURNAL-009')) return authenticity.revoked(what, keyAtFault(findings, 'RPR-JOURNAL-009', signer));
  if (has('RPR-JOURNAL-008')) return authenticity.unknown(what, keyAtFault(findings, 'RPR-JOURNAL-008', signer));
  const retired = has('RPR-JOURNAL-010');
  // A journal failing any other check (an entry that does not parse, a root that is not its
  // entries') has entries no signature vouches for: only its latest checkpoint is said to verify.
  if (findings.some((f) => f.severity === 'fail' && !SIGNATURE_RULES.has(f.rule)))
    return authenticity.trusted(
      'the latest checkpoint of the journal (the journal fails other checks, so this vouches for none of its entries)',
      signer,
      retired,
    );
  return several
    ? authenticity.trustedSeveral(
        `${scopeOf(signers)} (${keysSaid(signers)})`,
        signer,
        'the latest checkpoint',
        retired,
      )
    : authenticity.trusted(scopeOf(signers), signer, retired);
}

/** The keys named, in the statement's words: "3 keys (a, b, c)", "and more" when the list was cut. */
function keysSaid(s: SignerKeyList): string {
  const n = s.more ? `more than ${s.keys.length}` : String(s.keys.length);
  return `${n} keys (${s.keys.join(', ')}${s.more ? ', and more' : ''})`;
}

const obj = (v: JsonValue | undefined): { [k: string]: JsonValue } | null =>
  isPlainObject(v) ? (v as { [k: string]: JsonValue }) : null;

/**
 * The authenticity of a journal report built from its KindResult alone (`reprise journal
 * verify`, `check-proof`): the signer of details.latestCheckpoint; no trust store when the
 * result says so (RPR-JOURNAL-011 unavailable).
 */
export function journalResultAuthenticity(r: KindResult): Authenticity {
  const cp = obj(r.details?.['latestCheckpoint']);
  const s = cp && typeof cp['signer'] === 'string' ? cp['signer'] : null;
  const keys = r.details?.['signers'];
  return journalAuthenticity(
    r.findings,
    s,
    !r.findings.some((f) => f.rule === 'RPR-JOURNAL-011' && f.severity === 'unavailable'),
    {
      keys: Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [],
      more: r.details?.['signersMore'] === true,
      from: typeof r.details?.['signersFrom'] === 'number' ? r.details['signersFrom'] : 0,
    },
  );
}

/**
 * What a proof's check established about who signed it: the checkpoint's signer, and the
 * entry's author for an inclusion proof; a signature that failed is named by the part it is
 * on (the finding's pointer) and that part's key. No journal was read, so it says nothing of
 * the journal's other entries.
 */
export function proofAuthenticity(c: ProofCheck): Authenticity {
  const cp = c.checkpoint;
  if (!cp) return authenticity.consistencyOnly('the proof could not be read, so no signature in it was checked.');
  // One subject, whatever the proof holds: the statements say "verifies" and "is signed" of it.
  const what = `the proof's checkpoint (tree ${cp.treeSize})${c.entry ? ` together with entry ${c.entry.seq}` : ''}`;
  const bad = (rule: string) => c.findings.find((f) => f.rule === rule && f.severity === 'fail');
  for (const rule of SIGNER_RULES) {
    const f = bad(rule);
    if (!f) continue;
    const [part, key] =
      f.pointer === '/entry' && c.entry ? ['the entry', c.entry.author] : ['the checkpoint', cp.signer];
    const say = { 'RPR-JOURNAL-007': authenticity.badSignature, 'RPR-JOURNAL-009': authenticity.revoked };
    return (say[rule as keyof typeof say] ?? authenticity.unknown)(`${what}: ${part}`, key);
  }
  const author = c.entry && c.entry.author !== cp.signer ? c.entry.author : null;
  if (c.findings.some((f) => f.rule === 'RPR-JOURNAL-011' && f.severity === 'unavailable'))
    return author
      ? authenticity.noTrustStoreSeveral(what, `2 keys (${cp.signer}, ${author})`, cp.signer, 'the checkpoint')
      : authenticity.noTrustStore(what, cp.signer);
  return author
    ? authenticity.trustedSeveral(what, cp.signer, 'the checkpoint')
    : authenticity.trusted(what, cp.signer);
}
