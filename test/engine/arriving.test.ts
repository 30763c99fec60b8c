/**
 * A file read while it is still being written (a picked file the web host is writing):
 * the bytes and the text it yields are exactly those of reading the finished file, and
 * the writer's signals end the wait (unlinked: abandoned; longer than announced; stalled).
 */
import { appendFileSync, chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeJsonBytes } from '../../app/core/jcs/decode.js';
import { followArriving } from '../../app/engine/arriving.js';

const dir = mkdtempSync(join(tmpdir(), 'reprise-arriving-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/**
 * Writes `bytes` to a new file in pieces of `piece` bytes, one every `everyMs`, then marks it
 * whole as the web host does (read-only); resolves when done.
 */
function writeSlowly(
  bytes: Buffer,
  piece: number,
  everyMs: number,
  markWhole = true,
): { path: string; done: Promise<void> } {
  const path = join(dir, `up-${n++}`);
  writeFileSync(path, '');
  const done = (async () => {
    for (let i = 0; i < bytes.length; i += piece) {
      await new Promise((r) => setTimeout(r, everyMs));
      appendFileSync(path, bytes.subarray(i, i + piece));
    }
    if (markWhole) chmodSync(path, 0o400);
  })();
  return { path, done };
}

describe('followArriving', () => {
  it("yields the finished file's bytes and text, pieces cutting multi-byte characters, with progress", async () => {
    // 3 MiB of text with 2-, 3- and 4-byte characters; pieces of an odd size cut through them.
    const text = JSON.stringify({ a: 'é€𝄞'.repeat(200_000), b: 'x'.repeat(1_000_000) });
    const bytes = Buffer.from(text, 'utf8');
    const { path, done } = writeSlowly(bytes, 700_001, 40);
    const seen: number[] = [];
    const got = await followArriving(path, bytes.length, { shown: 'big.json', onProgress: (f) => seen.push(f) });
    await done;
    expect(got).not.toBeNull();
    expect(Buffer.compare(got!.bytes, bytes)).toBe(0);
    expect(got!.text).toBe(decodeJsonBytes(bytes));
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe(1);
    expect([...seen].sort((x, y) => x - y)).toEqual(seen);
  });

  it('gives no text for what the reader must refuse or read otherwise: bad UTF-8, a byte-order mark, a ZIP, a small file', async () => {
    const bad = Buffer.concat([Buffer.from('{"a":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const badFile = writeSlowly(bad, 3, 1);
    const r = await followArriving(badFile.path, bad.length, { shown: 'bad.json' });
    expect(r?.text).toBeNull();
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{}')]);
    expect(await followArriving(writeSlowly(bom, 2, 1).path, bom.length, { shown: 'bom.json' })).toBeNull();
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(100)]);
    expect(await followArriving(writeSlowly(zip, 50, 1).path, zip.length, { shown: 'p.zip' })).toBeNull();
    const small = Buffer.from('{"a":1}');
    expect(
      await followArriving(writeSlowly(small, 3, 1).path, small.length, { shown: 's.json', decodeMin: 1024 }),
    ).toBeNull();
  });

  it("ends with the writer's signal: unlinked (abandoned), longer than announced, stalled", async () => {
    const path = join(dir, 'gone');
    writeFileSync(path, '{"a":');
    const gone = followArriving(path, 100, { shown: 'gone.json' });
    setTimeout(() => rmSync(path), 20);
    await expect(gone).rejects.toThrow(/the upload of gone\.json stopped before its last byte \(\d+ of 100 bytes\)/);
    const long = join(dir, 'long');
    writeFileSync(long, '{"a":1}');
    await expect(followArriving(long, 3, { shown: 'long.json' })).rejects.toThrow(/longer than announced \(3 bytes\)/);
    // The announced size reached is not the end: the body may go on (and be refused).
    const unmarked = writeSlowly(Buffer.from('{"a":"b"}'), 9, 1, false);
    await unmarked.done;
    await expect(followArriving(unmarked.path, 9, { shown: 'unmarked.json', stallMs: 100 })).rejects.toThrow(
      /stopped arriving \(9 of 9 bytes\)/,
    );
    const goesOn = writeSlowly(Buffer.from('{"a":"b"}'), 9, 1, false);
    const following = followArriving(goesOn.path, 5, { shown: 'on.json' });
    await expect(following).rejects.toThrow(/longer than announced \(5 bytes\)/);
    const stalled = join(dir, 'stalled');
    writeFileSync(stalled, '{"a":');
    await expect(followArriving(stalled, 100, { shown: 'stalled.json', stallMs: 50 })).rejects.toThrow(
      /stopped arriving \(5 of 100 bytes\)/,
    );
  });
});
