/**
 * The undo of a failed append, in-process with injected faults (runs without root): a write
 * that fails after its bytes reached the file is cut back and reported "not recorded", the
 * same writer then appends the same seq as if nothing happened; when the undo fails too,
 * the error says the state is unknown, never "not recorded", and the writer refuses more.
 */
import { open } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { JournalError, JournalWriter, appendEntry, verifyJournal, type AppendInput } from '../../app/journal/index.js';
import { makeKeys, tmp } from './helpers.js';

async function fileHandlePrototype(
  path: string,
): Promise<{ sync: () => Promise<void>; truncate: (n?: number) => Promise<void> }> {
  const fh = await open(path, 'r');
  const proto = Object.getPrototypeOf(fh) as { sync: () => Promise<void>; truncate: (n?: number) => Promise<void> };
  await fh.close();
  return proto;
}

const eio = () => Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
const input = (i: number): AppendInput => ({
  kind: 'review-rationale',
  subject: { claimRef: `claim:${i}` },
  body: { i },
});

describe('undoing a failed append', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a checkpoint fsync that fails: both files cut back, "not recorded" is true, and the writer carries on at the same seq', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    await appendEntry(dir, input(0), k.reviewer);
    const before = [readFileSync(join(dir, 'entries.jsonl')), readFileSync(join(dir, 'checkpoints.jsonl'))];
    const proto = await fileHandlePrototype(join(dir, 'entries.jsonl'));
    const w = await JournalWriter.open(dir);
    const realSync = proto.sync;
    let syncs = 0;
    // The second fsync of the append (the checkpoint's) fails: the entry is complete on disk by then.
    vi.spyOn(proto, 'sync').mockImplementation(function (this: unknown) {
      return ++syncs === 2 ? Promise.reject(eio()) : realSync.call(this);
    });
    const err = await w.append(input(1), k.reviewer).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(JournalError);
    expect((err as JournalError).code).toBe('IO');
    expect((err as JournalError).message).toMatch(/^not recorded: .*EIO.*unchanged/);
    expect([readFileSync(join(dir, 'entries.jsonl')), readFileSync(join(dir, 'checkpoints.jsonl'))]).toEqual(before);
    vi.restoreAllMocks();
    const r = await w.append(input(2), k.reviewer);
    expect(r.seq).toBe(1);
    await w.close();
    const v = await verifyJournal(dir, k.trust);
    expect(v.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(v.entries.map((e) => e.entry.subject.claimRef)).toEqual(['claim:0', 'claim:2']);
  });

  it('when the undo fails too: "unknown, run journal verify", never "not recorded", and no further append', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    await appendEntry(dir, input(0), k.reviewer);
    const proto = await fileHandlePrototype(join(dir, 'entries.jsonl'));
    const w = await JournalWriter.open(dir);
    vi.spyOn(proto, 'sync').mockRejectedValue(eio());
    vi.spyOn(proto, 'truncate').mockRejectedValue(eio());
    const err = (await w.append(input(1), k.reviewer).catch((e: unknown) => e)) as JournalError;
    expect(err.code).toBe('UNKNOWN');
    expect(err.message).not.toMatch(/not recorded/i);
    expect(err.message).toMatch(/unknown; run 'reprise journal verify/);
    vi.restoreAllMocks();
    await expect(w.append(input(2), k.reviewer)).rejects.toMatchObject({ code: 'UNKNOWN' });
    await w.close();
  });
});
