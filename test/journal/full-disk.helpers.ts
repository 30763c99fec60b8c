/**
 * Shared by the full-disk and file-size-limit tests: lay a journal out so that the next
 * append's bytes cross a page (tmpfs allocates whole 4 KiB pages) or a size limit at a
 * chosen point, and snapshot a journal directory to prove a refused write left it unchanged.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { closeSync, ftruncateSync, fstatSync, openSync, readdirSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ZERO_HASH } from '../../app/core/hash.js';
import type { Signer } from '../../app/core/keys.js';
import { JournalWriter, signCheckpoint, signEntry, type AppendInput } from '../../app/journal/index.js';
import { BIN } from './helpers.js';

export const PAGE = 4096;

export const mod = (a: number, m: number): number => ((a % m) + m) % m;

/** Bytes (with the newline) of the entry `input` would be at `seq`: every other field has a fixed length. */
export function entryLen(seq: number, input: AppendInput, signer: Signer): number {
  const e = signEntry(
    {
      seq,
      prev: ZERO_HASH,
      recordedAtUtc: new Date().toISOString(),
      kind: input.kind,
      subject: input.subject,
      body: input.body,
      author: signer.keyId,
    },
    signer,
  );
  return Buffer.byteLength(e.line) + 1;
}

/** Bytes (with the newline) of the checkpoint of a tree of `size` entries. */
export function checkpointLen(size: number, signer: Signer): number {
  return (
    Buffer.byteLength(
      signCheckpoint(
        { treeSize: size, rootHash: ZERO_HASH, timestampUtc: new Date().toISOString(), signer: signer.keyId },
        signer,
      ).line,
    ) + 1
  );
}

/** New pages a file of `size` bytes needs to grow by `add`. */
export const pagesNeeded = (size: number, add: number): number =>
  Math.ceil((size + add) / PAGE) - Math.ceil(size / PAGE);

export interface Next {
  input: AppendInput;
  signer: Signer;
}

export interface Layout {
  /** Where the entries file's page boundary falls inside the next entry (bytes in), or null: the entry fits. */
  entryCut: number | null;
  /** Skip this many layouts whose checkpoint file ends so that the next checkpoint crosses a page; null: do not arrange. */
  cpCrossing: number | null;
}

/**
 * Writes setup entries (fsync off: only the layout matters) so that the append of `next`
 * meets page boundaries as `layout` asks. The last setup entry is `last(pad)`, padded to
 * place the end of the entries file.
 */
export async function layOut(dir: string, layout: Layout, last: (pad: string) => Next, next: Next): Promise<void> {
  const w = await JournalWriter.open(dir, { fsync: false });
  const setup = (i: number): AppendInput => ({
    kind: 'review-rationale',
    subject: { claimRef: `claim:setup-${i}` },
    body: { note: 'setup' },
  });
  let skip = layout.cpCrossing;
  const size = (f: string) => statSync(join(dir, f)).size;
  await w.append(setup(0), next.signer);
  for (;;) {
    if (skip === null) break;
    const cAfterLast = size('checkpoints.jsonl') + checkpointLen(w.size + 1, next.signer);
    const cut = mod(PAGE - cAfterLast, PAGE);
    if (cut > 0 && cut < checkpointLen(w.size + 2, next.signer) && skip-- === 0) break;
    await w.append(setup(w.size), next.signer);
  }
  const e = size('entries.jsonl');
  const base = last('');
  const lastLen = entryLen(w.size, base.input, base.signer);
  const nextLen = entryLen(w.size + 1, next.input, next.signer);
  // The entries file's end, mod a page, after the last setup entry: 1 leaves room for any next entry.
  const endMod = layout.entryCut === null ? 1 : mod(PAGE - layout.entryCut, PAGE);
  if (layout.entryCut !== null && layout.entryCut > nextLen) throw new Error('the cut lies past the entry');
  const pad = mod(endMod - e - lastLen, PAGE);
  const l = last('x'.repeat(pad));
  await w.append(l.input, l.signer);
  await w.close();
}

/** Fills the filesystem holding `dir` until it is full, then frees `pages` whole pages. Returns the filler's path. */
export function fill(dir: string, pages: number): string {
  const path = join(dir, 'filler');
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(PAGE, 0x66);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  }
  const s = fstatSync(fd).size;
  ftruncateSync(fd, Math.max(0, s - (s % PAGE) - pages * PAGE));
  closeSync(fd);
  return path;
}

export interface Snapshot {
  names: string[];
  entries: Buffer;
  checkpoints: Buffer;
}

export function snapshot(dir: string): Snapshot {
  return {
    names: readdirSync(dir).sort(),
    entries: readFileSync(join(dir, 'entries.jsonl')),
    checkpoints: readFileSync(join(dir, 'checkpoints.jsonl')),
  };
}

export const lineCount = (b: Buffer): number => b.toString('utf8').split('\n').length - 1;

/** The built CLI, optionally under `prlimit --fsize=N`. */
export function run(args: string[], fsize?: number): SpawnSyncReturns<string> {
  const cmd =
    fsize === undefined
      ? [process.execPath, BIN, ...args]
      : ['prlimit', `--fsize=${fsize}`, process.execPath, BIN, ...args];
  return spawnSync(cmd[0]!, cmd.slice(1), { encoding: 'utf8', timeout: 60_000 });
}
