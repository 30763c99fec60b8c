/**
 * Reads every entry of an accepted archive, splitting large archives over worker threads.
 * Inflate is the bottleneck of verifying a package (SHA-256 and CRC-32 are 3-10x faster),
 * so for archives declaring at least PARALLEL_MIN bytes, the entries whose bytes are not
 * needed in memory go to workers in batches of about BATCH_BYTES of compressed data, at
 * most two batches in flight per worker. An archive on disk (a file source) is read by
 * the workers themselves, by position through the same descriptor (no copy, no transfer:
 * memory stays flat however large the archive); an archive in memory is sent batch by
 * batch (copied and transferred, so the extra memory is bounded too). Workers return only
 * each entry's findings and SHA-256; the calling thread meanwhile reads the entries it
 * must keep. Results are identical whichever thread read an entry.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { readEntry, type EntryContent } from './inflate.js';
import type { ZipEntry } from './reader.js';
import { toSource, type ZipSource } from './source.js';
import { workerScript } from '../threads/locate.js';

/** Archives declaring fewer uncompressed bytes than this are read on the calling thread. */
export const PARALLEL_MIN = 32 * 1024 * 1024;
/** Compressed bytes per batch sent to a worker. */
export const BATCH_BYTES = 4 * 1024 * 1024;
const IN_FLIGHT = 2;
/** A parent started with `--input-type` or `-e` flags must not pass them to a file worker. */
const WORKER_EXEC_ARGV = process.execArgv.filter((a) => !a.startsWith('--input-type'));

export interface ReadOptions {
  /** Worker threads to use for large archives (default: min(2, cores)); 0 reads inline. */
  workers?: number | undefined;
}

/**
 * One batch: entries whose offsets are relative to `data` (an archive in memory), or
 * absolute offsets in the file open as `fd` in this process (an archive on disk).
 */
export type WorkerBatch = { id: number; entries: ZipEntry[] } & ({ data: ArrayBuffer } | { fd: number; size: number });
export interface WorkerReply {
  id: number;
  results: EntryContent[];
  error?: string;
}

export async function readEntries(
  input: Uint8Array | ZipSource,
  entries: readonly ZipEntry[],
  keep: (e: ZipEntry) => boolean,
  opts: ReadOptions = {},
): Promise<EntryContent[]> {
  const archive = toSource(input);
  const out: EntryContent[] = new Array(entries.length);
  const total = entries.reduce((s, e) => s + e.uncompressedSize, 0);
  const wanted = opts.workers ?? Math.min(2, availableParallelism());
  const offload = entries.map((e, i) => ({ e, i })).filter(({ e }) => !keep(e) && !e.isDirectory);
  if (wanted <= 0 || total < PARALLEL_MIN || offload.length < 2) {
    for (let i = 0; i < entries.length; i++) out[i] = await readEntry(archive, entries[i]!, keep(entries[i]!));
    return out;
  }
  try {
    return await readInWorkers(archive, entries, keep, offload, wanted, out);
  } catch {
    // A worker that cannot start or dies (no built worker file, out of threads) is not the
    // archive's fault: read everything on this thread instead.
    for (let i = 0; i < entries.length; i++) out[i] = await readEntry(archive, entries[i]!, keep(entries[i]!));
    return out;
  }
}

async function readInWorkers(
  archive: ZipSource,
  entries: readonly ZipEntry[],
  keep: (e: ZipEntry) => boolean,
  offload: { e: ZipEntry; i: number }[],
  wanted: number,
  out: EntryContent[],
): Promise<EntryContent[]> {
  // Batches of consecutive entries (in archive order, so each batch is one contiguous copy).
  offload.sort((a, b) => a.e.dataOffset - b.e.dataOffset);
  const batches: { i: number; e: ZipEntry }[][] = [];
  let cur: { i: number; e: ZipEntry }[] = [];
  let size = 0;
  for (const x of offload) {
    cur.push(x);
    size += x.e.dataEnd - x.e.dataOffset;
    if (size >= BATCH_BYTES) {
      batches.push(cur);
      cur = [];
      size = 0;
    }
  }
  if (cur.length) batches.push(cur);

  const pool = Array.from(
    { length: Math.min(wanted, batches.length) },
    () => new Worker(workerScript('inflate-worker.js', import.meta.url), { execArgv: WORKER_EXEC_ARGV }),
  );
  try {
    let next = 0;
    const send = (w: Worker, k: number) => {
      const b = batches[k]!;
      if (archive.fd !== null) {
        const msg: WorkerBatch = { id: k, fd: archive.fd, size: archive.size, entries: b.map(({ e }) => e) };
        w.postMessage(msg);
        return;
      }
      const start = b[0]!.e.dataOffset;
      const end = b[b.length - 1]!.e.dataEnd;
      const data = new Uint8Array(end - start);
      data.set(archive.read(start, end));
      const msg: WorkerBatch = {
        id: k,
        data: data.buffer,
        entries: b.map(({ e }) => ({ ...e, dataOffset: e.dataOffset - start, dataEnd: e.dataEnd - start })),
      };
      w.postMessage(msg, [data.buffer]);
    };
    const done = pool.map(
      (w) =>
        new Promise<void>((resolve, reject) => {
          let inFlight = 0;
          const pump = () => {
            while (inFlight < IN_FLIGHT && next < batches.length) {
              const k = next++;
              inFlight++;
              send(w, k);
            }
            if (inFlight === 0) resolve();
          };
          w.on('message', (r: WorkerReply) => {
            if (r.error) return reject(new Error(r.error));
            inFlight--;
            batches[r.id]!.forEach(({ i }, j) => (out[i] = { ...r.results[j]!, bytes: null }));
            pump();
          });
          w.on('error', reject);
          w.on('exit', () => {
            if (inFlight > 0) reject(new Error('an inflate worker exited with work in flight'));
          });
          pump();
        }),
    );
    const offloaded = new Set(offload.map(({ i }) => i));
    for (let i = 0; i < entries.length; i++)
      if (!offloaded.has(i)) out[i] = await readEntry(archive, entries[i]!, keep(entries[i]!));
    await Promise.all(done);
    return out;
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}
