/**
 * Example evidence journals (deterministic: keys from fixed seeds, a fixed clock, and
 * Ed25519 signatures are deterministic). Written by `reprise examples DIR` under journal/.
 */
import { createPrivateKey } from 'node:crypto';
import { sha256 } from '../../core/hash.js';
import { signerFromPrivateKey, trustStoreEntry, TRUST_STORE_TYPE, type Signer } from '../../core/keys.js';
import { formatHash } from '../../core/hash.js';
import { ZERO_HASH } from '../../core/hash.js';
import { MerkleTree } from '../../journal/merkle.js';
import { signCheckpoint, signEntry, type EntryKind, type JsonObject, type Subject } from '../../journal/format.js';
import type { ExampleFile, ExampleWriter } from '../types.js';

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

function seededSigner(name: string): Signer {
  const seed = sha256(`reprise example journal key: ${name}`);
  return signerFromPrivateKey(
    createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' }),
  );
}

interface Step {
  kind: EntryKind;
  subject: Subject;
  body: JsonObject | ((hashes: string[]) => JsonObject);
  by: Signer;
}

/** Builds entries.jsonl and checkpoints.jsonl in memory, exactly as the writer would. */
function buildJournal(
  steps: Step[],
  startMs: number,
): { entries: string; checkpoints: string; lines: string[]; hashes: string[] } {
  const tree = new MerkleTree();
  const lines: string[] = [];
  const cps: string[] = [];
  const hashes: string[] = [];
  let prev = ZERO_HASH;
  steps.forEach((s, i) => {
    const ts = new Date(startMs + i * 90_000).toISOString();
    const body = typeof s.body === 'function' ? s.body(hashes) : s.body;
    const { hash, line } = signEntry(
      { seq: i, prev, recordedAtUtc: ts, kind: s.kind, subject: s.subject, body, author: s.by.keyId },
      s.by,
    );
    lines.push(line);
    hashes.push(hash);
    tree.appendLeaf(line);
    prev = hash;
    cps.push(
      signCheckpoint(
        {
          treeSize: tree.size,
          rootHash: formatHash(tree.root().toString('hex')),
          timestampUtc: ts,
          signer: s.by.keyId,
        },
        s.by,
      ).line,
    );
  });
  return { entries: lines.join('\n') + '\n', checkpoints: cps.join('\n') + '\n', lines, hashes };
}

export const journalWriter: ExampleWriter = {
  name: 'journal',
  build(): ExampleFile[] {
    const reviewer = seededSigner('reviewer');
    const officer = seededSigner('quarantine-officer');
    const trust = {
      type: TRUST_STORE_TYPE,
      keys: [
        trustStoreEntry(reviewer, 'reviewer', 'example reviewer'),
        trustStoreEntry(officer, 'quarantine-officer', 'example quarantine officer'),
      ],
    };
    const artifact = formatHash(sha256('example replay dump').toString('hex'));
    const steps: Step[] = [
      {
        kind: 'review-rationale',
        subject: { claimRef: 'claim:loan-2026-0042', artifact },
        body: {
          decision: 'accept',
          rationale: 'Replay matched the recorded score within its band (delta 0.0002 < 0.01).',
        },
        by: reviewer,
      },
      {
        kind: 'replay-drift',
        subject: { claimRef: 'claim:loan-2026-0043', artifact },
        body: {
          output: 'risk.score',
          mode: 'BANDED',
          original: 0.71,
          replayed: 0.74,
          epsilon: 0.01,
          decisionMaterial: true,
        },
        by: reviewer,
      },
      {
        kind: 'quarantine-open',
        subject: { claimRef: 'claim:loan-2026-0043', artifact },
        body: { reason: 'decision-material drift on risk.score', source: 'routing' },
        by: reviewer,
      },
      {
        kind: 'quarantine-escalate',
        subject: { claimRef: 'claim:loan-2026-0043', artifact },
        body: (h) => ({
          case: h[2]!,
          decision: 'escalate',
          rationale: 'The drift crosses the approval threshold; the model owner must confirm the recalibration.',
        }),
        by: reviewer,
      },
      {
        kind: 'quarantine-release',
        subject: { claimRef: 'claim:loan-2026-0043', artifact },
        body: (h) => ({
          case: h[2]!,
          decision: 'release',
          rationale:
            'Model owner confirmed recalibration v2.3; replay under v2.3 reproduces 0.74 exactly, so the decision stands.',
        }),
        by: officer,
      },
      {
        kind: 'quarantine-open',
        subject: { claimRef: 'claim:loan-2026-0051' },
        body: { reason: 'decision exit HUMAN_REVIEW', source: 'routing' },
        by: reviewer,
      },
    ];
    const j = buildJournal(steps, Date.parse('2026-05-04T10:00:00Z'));
    // The tampered copy: one byte of entry line 2 changed ("0.74" → "0.75" in the replayed value).
    const tamperedLines = j.lines.map((l, i) => (i === 1 ? l.replace('"replayed":0.74', '"replayed":0.75') : l));
    const pem = (s: Signer) => s.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const run = 'reprise journal verify examples/journal/sample --trust-store examples/journal/trust-store.json';
    return [
      {
        path: 'journal/sample/entries.jsonl',
        bytes: j.entries,
        note: `an evidence journal: review rationale, drift, a quarantine case escalated then released by an officer, an open case. Verify the directory: '${run}' (pass; 'reprise quarantine list examples/journal/sample --trust-store examples/journal/trust-store.json' shows case-2 released and case-5 open)`,
      },
      {
        path: 'journal/sample/checkpoints.jsonl',
        bytes: j.checkpoints,
        note: "the sample journal's signed checkpoints (RFC 9162 tree heads), one per write",
      },
      {
        path: 'journal/tampered/entries.jsonl',
        bytes: tamperedLines.join('\n') + '\n',
        note: "the sample journal with one byte of entry line 2 changed: 'reprise journal verify examples/journal/tampered --trust-store examples/journal/trust-store.json' fails RPR-JOURNAL-007 at line:2 and RPR-JOURNAL-015 at its checkpoints",
      },
      {
        path: 'journal/tampered/checkpoints.jsonl',
        bytes: j.checkpoints,
        note: 'the original checkpoints of the tampered journal',
      },
      {
        path: 'journal/trust-store.json',
        bytes: JSON.stringify(trust, null, 2) + '\n',
        note: 'trust store for the journal examples (--trust-store): a reviewer and a quarantine officer',
      },
      {
        path: 'journal/keys/reviewer.pem',
        bytes: pem(reviewer),
        note: 'SAMPLE reviewer private key (public seed: never use it for real evidence), for trying reprise journal record / quarantine open',
      },
      {
        path: 'journal/keys/quarantine-officer.pem',
        bytes: pem(officer),
        note: "SAMPLE quarantine-officer private key (public seed), for trying 'reprise quarantine release examples/journal/sample case-5 --key … --trust-store …'",
      },
    ];
  },
};
