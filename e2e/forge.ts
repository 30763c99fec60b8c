/**
 * An entry written around the writer into an e2e journal, as another tool, a script or an
 * older version could write one: signed and chained, with its checkpoint and note, but held to
 * none of the writer's rules (a quarantine case on a claim id the writer now refuses,
 * RPR-QUAR-008, among them). The built engine's modules (dist/) sign it, as the rogue journal of
 * e2e/case-notes.spec.ts is signed; test/journal/forge.helpers.ts is the same for Vitest. The
 * files change outside a writer, so the next writer verifies the journal in full.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Signer } from '../app/core/keys.js';
import type { AppendInput } from '../app/journal/index.js';
import { ROOT } from './fixtures.js';

const dist = (p: string): string => pathToFileURL(join(ROOT, 'dist', p)).href;

/** Appends `input`, signed by `key` (a signer, or the file of its private key), to the journal in `dir` (made when missing). */
export async function forgeEntry(
  dir: string,
  input: AppendInput,
  key: Signer | string,
): Promise<{ seq: number; entryHash: string }> {
  const j = (await import(dist('app/journal/index.js'))) as typeof import('../app/journal/index.js');
  const { merkleRoot } = (await import(dist('app/journal/merkle.js'))) as typeof import('../app/journal/merkle.js');
  const { checkpointBody, signNote } = (await import(
    dist('app/journal/note.js')
  )) as typeof import('../app/journal/note.js');
  const { formatHash, ZERO_HASH } = (await import(dist('app/core/hash.js'))) as typeof import('../app/core/hash.js');
  const { loadSigner } = (await import(dist('app/core/keys.js'))) as typeof import('../app/core/keys.js');
  const { parseCanonical } = (await import(dist('app/core/jcs.js'))) as typeof import('../app/core/jcs.js');
  const { nowUtc } = (await import(dist('app/core/time.js'))) as typeof import('../app/core/time.js');
  const signer = typeof key === 'string' ? await loadSigner(key) : key;
  mkdirSync(dir, { recursive: true });
  const file = (name: string): string => join(dir, name);
  const text = existsSync(file('entries.jsonl')) ? readFileSync(file('entries.jsonl'), 'utf8') : '';
  const lines = text === '' ? [] : text.slice(0, -1).split('\n');
  const hashOf = (line: string): string => j.entryHash(parseCanonical(line).value as Parameters<typeof j.entryHash>[0]);
  const seq = lines.length;
  const at = nowUtc();
  const { hash, line } = j.signEntry(
    {
      seq,
      prev: seq === 0 ? ZERO_HASH : hashOf(lines[seq - 1]!),
      recordedAtUtc: at,
      kind: input.kind,
      subject: input.subject,
      body: input.body,
      author: signer.keyId,
    },
    signer,
  );
  const root = merkleRoot([...lines, line]);
  const cp = j.signCheckpoint(
    { treeSize: seq + 1, rootHash: formatHash(root.toString('hex')), timestampUtc: at, signer: signer.keyId },
    signer,
  );
  const origin = j.journalOrigin(seq === 0 ? hash : hashOf(lines[0]!));
  appendFileSync(file('entries.jsonl'), line + '\n');
  appendFileSync(file('checkpoints.jsonl'), cp.line + '\n');
  appendFileSync(
    file('notes.jsonl'),
    JSON.stringify(signNote(checkpointBody(origin, seq + 1, root), origin, signer)) + '\n',
  );
  return { seq, entryHash: hash };
}
