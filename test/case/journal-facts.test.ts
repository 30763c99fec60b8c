/**
 * What a journal offers a case is read as its verification reads it, in bounded chunks
 * (app/kinds/journal/case-facts.ts over app/journal/read.ts streamLines): a journal larger
 * than one chunk gives every entry's facts, lines cut by a chunk's end included, the
 * entries file's SHA-256 over all its bytes (a torn tail too), and the newest checkpoint its
 * node only when it is the file's last line.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { hashBytes } from '../../app/core/hash.js';
import { writeExamples } from '../../app/examples/index.js';
import { journalCaseFacts } from '../../app/kinds/journal/case-facts.js';
import { tmp } from '../journal/helpers.js';

let sample = '';
let base = '';

beforeAll(async () => {
  base = tmp('reprise-journal-facts-');
  await writeExamples(join(base, 'examples'));
  sample = join(base, 'examples', 'journal', 'sample');
}, 60_000);

/** A journal folder holding these two files' texts. */
function journal(name: string, entries: string, checkpoints: string): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'entries.jsonl'), entries);
  writeFileSync(join(dir, 'checkpoints.jsonl'), checkpoints);
  return dir;
}

describe("a journal's case facts", () => {
  it('are those of every entry of a journal larger than one read chunk (8 MiB)', async () => {
    const lines = readFileSync(join(sample, 'entries.jsonl'), 'utf8').split('\n').filter(Boolean);
    // Each entry's hash, then the journal's id (its latest checkpoint's root), by pointer.
    const entriesOf = (f: Awaited<ReturnType<typeof journalCaseFacts>>) =>
      f.identities.filter((i) => i.pointer!.startsWith('line:'));
    const one = await journalCaseFacts(sample);
    expect(entriesOf(one).length).toBe(lines.length);
    expect(one.identities.at(-1)!.pointer).toMatch(/^entry:checkpoints\.jsonl:line:\d+$/);
    // The sample's entries again and again, with a torn tail: far past one chunk, so lines
    // are cut by chunk ends (a line whose facts were lost there would be missing below).
    const copies = Math.ceil((9 * 1024 * 1024) / (lines.join('\n').length + 1));
    const text = `${Array.from({ length: copies }, () => lines.join('\n')).join('\n')}\n{"torn`;
    const cps = readFileSync(join(sample, 'checkpoints.jsonl'), 'utf8');
    const big = journal('big', text, cps);
    const facts = await journalCaseFacts(big);
    expect(facts.sha256).toBe(hashBytes(Buffer.from(text)));
    expect(entriesOf(facts).length).toBe(copies * lines.length);
    expect(
      entriesOf(facts)
        .map((i) => i.pointer)
        .at(-1),
    ).toBe(`line:${copies * lines.length}`);
    for (let c = 0; c < copies; c += Math.floor(copies / 7))
      expect(
        entriesOf(facts)
          .slice(c * lines.length, (c + 1) * lines.length)
          .map((i) => i.value),
      ).toEqual(entriesOf(one).map((i) => i.value));
  });

  it('give the newest checkpoint its node only when it is the last line', async () => {
    const entries = readFileSync(join(sample, 'entries.jsonl'), 'utf8');
    const cps = readFileSync(join(sample, 'checkpoints.jsonl'), 'utf8').split('\n').filter(Boolean);
    const nodes = async (dir: string) =>
      (await journalCaseFacts(dir)).events.filter((e) => e.pointer.startsWith('entry:')).map((e) => e.node);
    const two = journal('two', entries, `${cps[0]}\n${cps[0]}\n`);
    expect(await nodes(two)).toEqual([null, 'checkpoint:latest']);
    const broken = journal('broken', entries, `${cps[0]}\nnot json\n`);
    expect(await nodes(broken)).toEqual([null]);
    expect((await journalCaseFacts(journal('none', entries, ''))).events.some((e) => e.node !== null)).toBe(false);
  });
});
