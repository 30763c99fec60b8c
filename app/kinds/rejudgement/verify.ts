/**
 * Verifying a re-judgement record (docs/rejudge.md; rules in docs/rules/rejudge.md): its
 * shape, its counts, its Ed25519 signature under the trust store, and, when shard files are
 * given, that those shards make exactly this record (same list, run, counts and Merkle root).
 */
import type { Authenticity, ChainNode, Finding } from '../../../shared/report.js';
import { authenticity } from '../../core/authenticity.js';
import { fail, info, unavailable } from '../../rejudge/findings.js';
import { verifyBytes, type TrustStore } from '../../core/keys.js';
import type { KindResult } from '../../core/report.js';
import { canonicalizeValue } from '../../core/jcs.js';
import { assembleShards, type Assembly } from '../../rejudge/assemble.js';
import { R, RECORD_VERDICTS, rejudgementProblem, signedBytes, type RejudgementRecord } from '../../rejudge/format.js';

const WHAT = 'the re-judgement record';

/** The signature under the trust store: the origin statement and its findings. */
function checkSignature(
  r: RejudgementRecord,
  trust: TrustStore | null,
): { authenticity: Authenticity; findings: Finding[] } {
  if (!trust)
    return {
      authenticity: authenticity.noTrustStore(WHAT, r.signer),
      findings: [
        unavailable(R.trust, `no trust store given: who signed ${WHAT} (${r.signer}) cannot be decided`, {
          pointer: '/signer',
        }),
      ],
    };
  const k = trust.get(r.signer);
  if (!k)
    return {
      authenticity: authenticity.unknown(WHAT, r.signer),
      findings: [unavailable(R.trust, `${r.signer} is not in the trust store`, { pointer: '/signer' })],
    };
  if (!verifyBytes(k.publicKey, signedBytes(r), r.sig))
    return {
      authenticity: authenticity.badSignature(WHAT, r.signer),
      findings: [
        fail(
          R.signature,
          `the signature does not verify under ${r.signer}: the record was changed after it was signed, or signed by another key`,
          { pointer: '/sig' },
        ),
      ],
    };
  if (k.status === 'revoked')
    return {
      authenticity: authenticity.revoked(WHAT, r.signer),
      findings: [
        fail(R.trust, `${r.signer} (${k.label || k.role}) is revoked in the trust store`, { pointer: '/signer' }),
      ],
    };
  // Re-judging an archive is a reviewer's audit, as a judgement is (JUDGEMENT_ROLES): an
  // officer's or a trainer's key that verifies signs no re-judgement (docs/rejudge.md).
  if (k.role !== 'reviewer')
    return {
      authenticity: authenticity.untrusted(
        WHAT,
        r.signer,
        `that key is a ${k.role} key in the trust store, and only a reviewer's signature makes a re-judgement record`,
      ),
      findings: [
        fail(
          R.trust,
          `${r.signer} (${k.label || k.role}) is a ${k.role} key: a re-judgement record is a reviewer's to sign`,
          {
            pointer: '/signer',
            expected: 'reviewer',
            actual: k.role,
          },
        ),
      ],
    };
  return { authenticity: authenticity.trusted(WHAT, r.signer, k.status === 'retired'), findings: [] };
}

/** The record's own arithmetic: the verdicts add up to the records, which are the list's items. */
function checkCounts(r: RejudgementRecord): Finding[] {
  const sum = RECORD_VERDICTS.reduce((a, v) => a + r.verdicts[v], 0);
  const out: Finding[] = [];
  if (sum !== r.records.count)
    out.push(
      fail(R.counts, `the verdicts add up to ${sum}, not the ${r.records.count} records`, {
        pointer: '/verdicts',
        expected: r.records.count,
        actual: sum,
      }),
    );
  if (r.records.count !== r.list.items)
    out.push(
      fail(R.counts, `${r.records.count} records for a list of ${r.list.items} artifacts`, {
        pointer: '/records/count',
        expected: r.list.items,
        actual: r.records.count,
      }),
    );
  return out;
}

/** The record against what its shard files make. */
function checkAgainst(r: RejudgementRecord, a: Assembly, files: number): { findings: Finding[]; chain: ChainNode[] } {
  const findings: Finding[] = [...a.problems];
  const differ = (pointer: string, what: string, expected: unknown, actual: unknown) => {
    if (canonicalizeValue(expected) !== canonicalizeValue(actual))
      findings.push(
        fail(R.record, `the shards' ${what} differ from the record's`, {
          pointer,
          expected: expected as never,
          actual: actual as never,
        }),
      );
  };
  if (a.run) {
    differ('/engine', 'engine name and version', a.run.engine, r.engine);
    differ('/mode', 'mode', a.run.mode, r.mode);
    differ('/options', 'option digests', a.run.options, r.options);
  }
  if (a.list) differ('/list', 'list size and digest', { items: a.list.items, digest: a.list.digest }, r.list);
  differ('/verdicts', 'verdict counts', a.verdicts, r.verdicts);
  differ('/records', 'record count and Merkle root', { count: a.records, root: a.root }, r.records);
  const status = a.root === r.records.root ? 'match' : 'mismatch';
  if (findings.length === 0)
    findings.push(
      info(
        R.summary,
        `${files} shard file(s) hold the ${a.records} records of this record: same list, run, verdict counts and Merkle root`,
      ),
    );
  return {
    findings,
    chain: [
      {
        id: 'root',
        label: 'Merkle root of the records',
        recorded: r.records.root,
        recomputed: a.root,
        status,
        parents: [],
      },
    ],
  };
}

export async function verifyRejudgement(
  value: Record<string, unknown> | null,
  strict: boolean,
  trust: TrustStore | null,
  shards: readonly string[],
): Promise<KindResult> {
  const problem = strict ? rejudgementProblem(value) : 'the record is not strict JSON';
  if (problem) return { id: null, findings: [fail(R.structure, problem)], chain: [] };
  const r = value as unknown as RejudgementRecord;
  const sig = checkSignature(r, trust);
  const findings = [...checkCounts(r), ...sig.findings];
  const details = { records: r.records.count, root: r.records.root, verdicts: r.verdicts, shardFiles: shards.length };
  if (shards.length === 0) {
    findings.push(
      info(
        R.summary,
        'signature and counts checked; the records behind the Merkle root were not (give the shard files with --shards)',
      ),
    );
    return { id: r.records.root, findings, chain: [], details, authenticity: sig.authenticity };
  }
  const against = checkAgainst(r, await assembleShards(shards), shards.length);
  return {
    id: r.records.root,
    findings: [...findings, ...against.findings],
    chain: against.chain,
    details,
    authenticity: sig.authenticity,
  };
}
