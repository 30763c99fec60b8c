/**
 * JournalPort over the evidence journal (app/journal): verifyJournal for the whole
 * journal (chain, signatures, checkpoints), MerkleTree + verifyInclusion for the RFC 9162
 * inclusion proof of one entry against the latest signed checkpoint, appendEntry for
 * durable signed appends (retried while another writer holds the lock), and the pure
 * case fold for open cases.
 */
import type { Finding } from '../../../shared/report.js';
import { fail, unavailable, type RuleId } from './findings.js';
import { loadSigner, type Signer, type TrustStore } from '../../core/keys.js';
import { JournalError } from '../../journal/errors.js';
import type { Checkpoint, EntryKind, JsonObject } from '../../journal/format.js';
import { openCase } from '../../journal/quarantine.js';
import { leafHash, verifyInclusion } from '../../journal/merkle.js';
import { verifyJournal, type JournalVerification } from '../../journal/verify.js';
import { appendEntry } from '../../journal/writer.js';
import type { AnchoredEntry, JournalPort } from './journal-port.js';
import { decisionOfKind, TRANSITIONS } from '../../journal/cases.js';
import { judgementSignerProblem } from '../../journal/judgement-rules.js';
import { signerProblem } from '../../journal/signers.js';
import { hashValue } from '../../core/hash.js';
import { DRIFT_EVENT_TYPE } from './constants.js';

/**
 * What may anchor a RECORDED output (spec/journal.md: reviewer decisions, quarantine
 * rationales, decision-material drift), and who may have signed it: a judgement by a reviewer
 * key, a quarantine decision by a key of that decision's roles, never revoked. Any other
 * entry (a recalibration flag, a trainer's "review rationale" written without a trust store)
 * records no human judgement, and must not stand for one.
 */
function anchorProblem(
  entry: { kind: string; author: string; subject: { artifact?: string }; body: JsonObject },
  trust: TrustStore,
): string | null {
  if (entry.kind === 'review-rationale') return judgementSignerProblem(entry.author, trust, 'recorded');
  if (entry.kind === 'replay-drift') return driftAnchorProblem(entry, trust);
  const decision = decisionOfKind(entry.kind);
  if (decision === undefined)
    return `a ${entry.kind} entry records no reviewer decision, quarantine rationale or drift event`;
  return signerProblem(entry.author, trust, {
    what: `a quarantine ${decision}`,
    roles: TRANSITIONS[decision].roles,
    recorded: true,
  });
}

/**
 * A `replay-drift` entry stands for one thing: the decision-material drift event it holds,
 * as a replay anchors it (replay.ts: the body is the event, the subject its hash). It is no
 * human judgement, so it anchors nothing else: a body of any other shape, a drift that was
 * not decision-material, or a subject other than its own body (a review rationale's hash,
 * which the RECORDED output's hash would then match) is refused. Its signer must be a
 * trusted key, never revoked (any role runs a replay).
 */
function driftAnchorProblem(
  entry: { author: string; subject: { artifact?: string }; body: JsonObject },
  trust: TrustStore,
): string | null {
  const b = entry.body;
  if (b['type'] !== DRIFT_EVENT_TYPE)
    return `a replay-drift entry anchors only the drift event it holds, and its body is no ${DRIFT_EVENT_TYPE} event`;
  if (b['decisionMaterial'] !== true)
    return 'the drift event it holds was not decision-material, and only decision-material drift is recorded';
  if (entry.subject.artifact !== hashValue(b))
    return 'a replay-drift entry anchors only the drift event it holds, and its subject is another artifact than that event';
  return signerProblem(entry.author, trust);
}

const LOCK_RETRIES = 200;
const LOCK_WAIT_MS = 25;
/** Spreads retries of racing threads apart (ms). */
const LOCK_JITTER = 7;

/** Runs a journal write, waiting while another writer (another worker, the desktop app) holds the lock. */
async function withLockRetry<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (e) {
      // LOCKED: another writer holds the lock. IO with EEXIST: two worker threads of one
      // process raced for the lock's temporary file (same pid, same millisecond): also contention.
      const contended =
        e instanceof JournalError && (e.code === 'LOCKED' || (e.code === 'IO' && /EEXIST/.test(e.message)));
      if (contended && attempt < LOCK_RETRIES) {
        await new Promise((r) => setTimeout(r, LOCK_WAIT_MS + (attempt % LOCK_JITTER)));
        continue;
      }
      throw e;
    }
  }
}

/** An entry of a verified journal, with who signed it (telemetry asks the signer's role). */
export interface SignedEntry extends AnchoredEntry {
  author: string;
}

/**
 * The journal as it was judged: its size (entry lines) and the root recomputed over them, and
 * its latest signed checkpoint whole (what `journal verify --checkpoint` holds a journal to),
 * so a later reader can tell whether entries were cut off since.
 */
export interface JudgedTree {
  treeSize: number;
  root: string;
  checkpoint: Checkpoint | null;
}

/** The entries, with the store they verified under and the tree judged; or the findings of why none is read. */
export type VerifiedEntries =
  { ok: true; entries: SignedEntry[]; trust: TrustStore; tree: JudgedTree } | { ok: false; findings: Finding[] };

const judgedTree = (v: JournalVerification): JudgedTree => ({
  treeSize: v.entryLines,
  root: v.root,
  checkpoint: v.latestCheckpoint ? { ...v.latestCheckpoint } : null,
});

const signed = (p: JournalVerification['entries'][number]): SignedEntry => ({
  seq: p.entry.seq,
  entryHash: p.hash,
  recordedAtUtc: p.entry.recordedAtUtc,
  kind: p.entry.kind,
  claimRef: p.entry.subject.claimRef,
  artifact: p.entry.subject.artifact ?? null,
  body: p.entry.body,
  author: p.entry.author,
});

/**
 * A journal's verification, or the one finding that says why nothing in it can be trusted:
 * it cannot be read, or a check of it fails (an edited entry, a key not in the store). Drift
 * counting and anchors word this alike, each with its own rule and consequence.
 */
async function verifiedOrRefused(
  dir: string,
  load: () => Promise<JournalVerification>,
  rule: RuleId,
  consequence: string,
  at?: { pointer: string },
): Promise<{ ok: true; v: JournalVerification } | { ok: false; findings: Finding[] }> {
  let v: JournalVerification;
  try {
    v = await load();
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return { ok: false, findings: [fail(rule, `the journal ${dir} cannot be read: ${why}`, at)] };
  }
  const broken = v.findings.find((f) => f.severity === 'fail');
  if (broken)
    return {
      ok: false,
      findings: [
        fail(rule, `the journal ${dir} does not verify (${broken.rule}: ${broken.message}); ${consequence}`, at),
      ],
    };
  return { ok: true, v };
}

/**
 * Every entry of a journal that verifies under a trust store, or why none can be read
 * (fail-closed, as verifyAnchor): a journal that cannot be read or fails verification (an
 * edited entry, a key not in the store) is RPR-TG-050, and without a trust store its
 * signatures cannot be checked at all (RPR-TG-051): an edited entry would read as valid.
 */
export async function verifiedEntries(dir: string, trust: TrustStore | null): Promise<VerifiedEntries> {
  if (!trust)
    return {
      ok: false,
      findings: [
        unavailable(
          'RPR-TG-051',
          `the journal ${dir} cannot be counted: its signatures cannot be checked without --trust-store`,
        ),
      ],
    };
  const read = await verifiedOrRefused(
    dir,
    () => verifyJournal(dir, trust),
    'RPR-TG-050',
    'none of its entries is counted',
  );
  if (!read.ok) return read;
  return { ok: true, entries: read.v.entries.map(signed), trust, tree: judgedTree(read.v) };
}

export function openJournalPort(dir: string, keyPath: string | undefined, trustStore: TrustStore | null): JournalPort {
  let verified: Promise<JournalVerification> | null = null;
  let signer: Promise<Signer> | null = null;
  const verification = () => (verified ??= verifyJournal(dir, trustStore));
  const toAnchored = (p: JournalVerification['entries'][number]): AnchoredEntry => {
    const { author: _author, ...anchored } = signed(p);
    return anchored;
  };
  return {
    async verifyAnchor(seq, entryHash, pointer) {
      const read = await verifiedOrRefused(dir, verification, 'RPR-TG-021', 'no anchor in it can be trusted', {
        pointer,
      });
      if (!read.ok) return read;
      const v = read.v;
      if (!trustStore)
        return {
          ok: false,
          findings: [
            unavailable('RPR-TG-023', "the anchor's journal signatures cannot be checked without --trust-store", {
              pointer,
            }),
          ],
        };
      const p = v.entries.find((x) => x.entry.seq === seq);
      if (!p)
        return {
          ok: false,
          findings: [
            fail('RPR-TG-021', `the journal has no entry ${seq}`, {
              pointer: `${pointer}/seq`,
              expected: `an entry with seq ${seq}`,
              actual: `${v.entries.length} entries`,
            }),
          ],
        };
      if (p.hash !== entryHash)
        return {
          ok: false,
          findings: [
            fail('RPR-TG-021', `journal entry ${seq} is not the anchored entry`, {
              pointer: `${pointer}/entryHash`,
              expected: entryHash,
              actual: p.hash,
            }),
          ],
        };
      const cp = v.latestCheckpoint;
      const index = p.line - 1;
      if (!cp || cp.treeSize <= index)
        return {
          ok: false,
          findings: [
            fail('RPR-TG-021', `journal entry ${seq} is covered by no signed checkpoint`, {
              pointer,
              expected: `a checkpoint with treeSize > ${index}`,
              actual: cp ? cp.treeSize : null,
            }),
          ],
        };
      const proof = v.tree.inclusionProof(index, cp.treeSize);
      const root = Buffer.from(cp.rootHash.slice('sha256:'.length), 'hex');
      if (!verifyInclusion(leafHash(p.text), index, cp.treeSize, proof, root))
        return {
          ok: false,
          findings: [
            fail(
              'RPR-TG-021',
              `the inclusion proof of journal entry ${seq} does not verify against the latest signed checkpoint`,
              { pointer, expected: cp.rootHash, actual: `leaf ${leafHash(p.text).toString('hex')}` },
            ),
          ],
        };
      const who = anchorProblem(p.entry, trustStore);
      if (who)
        return {
          ok: false,
          findings: [fail('RPR-TG-021', `journal entry ${seq} cannot anchor a RECORDED output: ${who}`, { pointer })],
        };
      return { ok: true, entry: toAnchored(p) };
    },
    async append(kind, subject, body) {
      if (!keyPath) throw new JournalError('anchoring needs --key KEYFILE', 'USAGE');
      const s = await (signer ??= loadSigner(keyPath));
      const r = await withLockRetry(() =>
        appendEntry(dir, { kind: kind as EntryKind, subject, body }, s, { trustStore }),
      );
      verified = null;
      return { seq: r.seq, entryHash: r.entryHash };
    },
    async openCase(claimRef, artifact, reason, details) {
      if (!keyPath) throw new JournalError('opening a case needs --key KEYFILE', 'USAGE');
      const s = await (signer ??= loadSigner(keyPath));
      const r = await withLockRetry(() =>
        openCase(dir, { claimRef, artifact, reason, source: 'routing', details: details as JsonObject }, s, {
          trustStore,
        }),
      );
      verified = null;
      return { seq: r.seq, entryHash: r.entryHash, caseId: r.caseId };
    },
    async openCases() {
      const v = await verification();
      return new Set(
        v.cases.cases.filter((c) => c.state === 'open' || c.state === 'escalated').map((c) => c.subject.claimRef),
      );
    },
    async entries() {
      // Telemetry counts these: a journal that does not verify, or cannot be checked, yields none.
      const v = await verifiedEntries(dir, trustStore);
      if (!v.ok) throw new JournalError(v.findings.map((f) => f.message).join('; '), 'UNVERIFIED');
      return v.entries;
    },
    async close() {
      verified = null;
    },
  };
}
