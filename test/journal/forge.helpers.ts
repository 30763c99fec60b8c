/**
 * An entry written around the writer, as another tool, a script or an older version could
 * write one: signed and chained, with its checkpoint and note, but held to none of the
 * writer's rules (the quarantine workflow's among them, which `JournalWriter.append` now
 * applies). For tests of what `journal verify`, the case fold and the readers make of such
 * an entry. The files change outside a writer, so the next writer verifies in full.
 */
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatHash, ZERO_HASH } from '../../app/core/hash.js';
import { canonicalizeValue, parseCanonical } from '../../app/core/jcs.js';
import { signBytes, type Signer } from '../../app/core/keys.js';
import { nowUtc } from '../../app/core/time.js';
import {
  entryHash,
  journalOrigin,
  signCheckpoint,
  signEntry,
  type AppendInput,
  type Entry,
} from '../../app/journal/index.js';
import { merkleRoot } from '../../app/journal/merkle.js';
import { checkpointBody, signNote } from '../../app/journal/note.js';
import { sealedBytes } from '../../app/journal/sealed-state.js';

/** Appends `input` signed by `signer` to the journal in `dir` (which must exist, without a torn tail): its entry, checkpoint and note lines. */
export function forgeEntry(
  dir: string,
  input: AppendInput,
  signer: Signer,
  at: string = nowUtc(),
): { seq: number; entryHash: string } {
  const file = (name: string) => join(dir, name);
  const text = existsSync(file('entries.jsonl')) ? readFileSync(file('entries.jsonl'), 'utf8') : '';
  const lines = text === '' ? [] : text.slice(0, -1).split('\n');
  const parsed = (line: string) => parseCanonical(line).value as Entry;
  const seq = lines.length;
  const prev = seq === 0 ? ZERO_HASH : entryHash(parsed(lines[seq - 1]!));
  const { hash, line } = signEntry(
    { seq, prev, recordedAtUtc: at, kind: input.kind, subject: input.subject, body: input.body, author: signer.keyId },
    signer,
  );
  const root = merkleRoot([...lines, line]);
  const cp = signCheckpoint(
    { treeSize: seq + 1, rootHash: formatHash(root.toString('hex')), timestampUtc: at, signer: signer.keyId },
    signer,
  );
  const origin = journalOrigin(seq === 0 ? hash : entryHash(parsed(lines[0]!)));
  const note = signNote(checkpointBody(origin, seq + 1, root), origin, signer);
  appendFileSync(file('entries.jsonl'), line + '\n');
  appendFileSync(file('checkpoints.jsonl'), cp.line + '\n');
  appendFileSync(file('notes.jsonl'), JSON.stringify(note) + '\n');
  return { seq, entryHash: hash };
}

/**
 * Seals the journal's state.json again, by `signer`, as verified under `under` (a
 * `verificationContext`), as the holder of the key that signed the newest checkpoint could:
 * what a writer that checked less of what it appended, or checked it under another store,
 * would have left (the seal stops anyone else: docs/journal.md, "The trusted state").
 */
export function resealState(dir: string, signer: Signer, under: string): void {
  const p = join(dir, 'state.json');
  const rest = JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
  delete rest['seal'];
  rest['verifiedUnder'] = under;
  const seal = { signer: signer.keyId, sig: signBytes(signer, sealedBytes(rest)) };
  writeFileSync(p, canonicalizeValue({ ...rest, seal }));
}
