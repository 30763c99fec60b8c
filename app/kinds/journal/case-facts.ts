/**
 * What an evidence journal offers a reviewer's case (KindOperations.caseFacts, docs/case.md),
 * read from its two files after its verification (which says what is wrong with any line):
 * a line that does not parse as an entry or a checkpoint offers nothing.
 *
 * The journal is named by its entries file's SHA-256 and each entry by its entry hash (what
 * a TG RECORDED output's anchor names); each entry names its subject's artifact
 * (`subject`) and a quarantine case its claim (`claim`), neither expected in the case (a
 * journal covers more than one case). Every entry and checkpoint is a timeline event; the
 * judgements (review-rationale entries) are listed for the case to keep those on its artifacts.
 */
import { hashBytes } from '../../core/hash.js';
import { isPlainObject as isObj } from '../../core/closed.js';
import { CHECKPOINTS_FILE, entryHash, type Entry } from '../../journal/format.js';
import { readJournalFiles, type RawLine } from '../../journal/read.js';
import type { CaseFacts } from '../operations.js';

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function parsed(l: RawLine): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(l.bytes.toString('utf8'));
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
}

const OPEN = 'quarantine-open';
const LABELS: Record<string, string> = {
  [OPEN]: 'quarantine case opened',
  'quarantine-release': 'quarantine case released',
  'quarantine-uphold': 'quarantine case upheld',
  'quarantine-escalate': 'quarantine case escalated',
  'replay-drift': 'replay drift recorded',
  'recalibration-flag': 'recalibration flag raised',
  'replay-comparison': 'replay comparison recorded',
  'journal-repair': 'journal repaired',
};

export async function journalCaseFacts(dir: string): Promise<CaseFacts> {
  const { entries, checkpoints } = await readJournalFiles(dir);
  const facts: CaseFacts = {
    identities: [],
    references: [],
    events: [],
    judgements: [],
    sha256: hashBytes(entries.data ?? Buffer.alloc(0)),
  };
  for (const l of entries.lines) entryFacts(l, facts);
  const last = checkpoints.lines.length;
  for (const l of checkpoints.lines) {
    const c = parsed(l);
    const at = str(c?.['timestampUtc']);
    if (!c || !at) continue;
    facts.events.push({
      atUtc: at,
      pointer: `entry:${CHECKPOINTS_FILE}:line:${l.line}`,
      label: `checkpoint signed (tree size ${String(c['treeSize'])})`,
      node: l.line === last ? 'checkpoint:latest' : null,
    });
  }
  return facts;
}

function entryFacts(l: RawLine, facts: CaseFacts): void {
  const e = parsed(l);
  if (!e || typeof e['seq'] !== 'number' || !isObj(e['subject']) || !isObj(e['body'])) return;
  const pointer = `line:${l.line}`;
  let hash: string;
  try {
    hash = entryHash(e as unknown as Entry);
  } catch {
    return; // not canonicalizable: its verification says so
  }
  facts.identities.push({ value: hash, pointer });
  const kind = str(e['kind']) ?? 'entry';
  const subject = e['subject'];
  const artifact = str(subject['artifact']);
  if (artifact) facts.references.push({ pointer, relation: 'subject', value: artifact, expected: false });
  const claim = str(subject['claimRef']);
  if (claim && kind === OPEN) facts.references.push({ pointer, relation: 'claim', value: claim, expected: false });
  const at = str(e['recordedAtUtc']);
  const decision = str(e['body']['decision']);
  if (at) {
    const label = kind === 'review-rationale' ? `judgement: ${decision ?? '?'}` : (LABELS[kind] ?? kind);
    const named = claim && kind.startsWith('quarantine-') ? `${label} (${claim})` : label;
    facts.events.push({ atUtc: at, pointer, label: named, node: null });
  }
  if (kind === 'review-rationale' && artifact && at)
    facts.judgements!.push({
      seq: e['seq'],
      entryHash: hash,
      subject: artifact,
      decision: decision ?? '',
      rationale: str(e['body']['rationale']) ?? '',
      author: str(e['author']) ?? '',
      atUtc: at,
      supersedes: str(e['body']['supersedes']),
    });
}
