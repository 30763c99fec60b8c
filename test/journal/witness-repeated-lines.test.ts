/**
 * A witness counts once per tree. `journal cosign` does not add a second line for a
 * checkpoint the same witness (same key, same name) already cosigned: it says so and exits 0.
 * And `journal verify --witness-policy` weighs each policy witness's key once per tree, so
 * lines beyond a note's 100 signatures (a witness that cosigned one tree again and again, or
 * many keys outside the policy) never make a met quorum fail, and a hostile number of lines
 * is weighed in bounded time, said in one finding.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { generateSigner, type Signer } from '../../app/core/keys.js';
import { cosign } from '../../app/journal/index.js';
import { cosignCli, journalWithKeys, newWitness, verifyQuorum, writePolicy } from './witness-helpers.js';

async function witnessed() {
  const j = await journalWithKeys('reprise-witness-repeat-', 3);
  const w1 = newWitness(j.base);
  const policy = writePolicy(j.base, `${w1.line}\nquorum w1\n`);
  return {
    base: j.base,
    dir: j.dir,
    w1: w1.signer,
    cosignCli: (...more: string[]) => cosignCli(j, w1, ...more),
    verify: () => verifyQuorum(j, policy),
  };
}

const cosignatures = (dir: string) => join(dir, 'cosignatures.jsonl');
const latestNote = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'notes.jsonl'), 'utf8').trimEnd().split('\n').pop()!) as string;

/** When the journal signed tree 3 (its last checkpoint), in POSIX seconds: a cosignature is dated after it. */
const treeTime = (dir: string) =>
  Math.ceil(
    Date.parse(
      (
        JSON.parse(readFileSync(join(dir, 'checkpoints.jsonl'), 'utf8').trimEnd().split('\n').pop()!) as {
          timestampUtc: string;
        }
      ).timestampUtc,
    ) / 1000,
  );

/** A cosignatures.jsonl line of tree 3 by `signer` under `name`, dated `time`. */
function storedLine(dir: string, name: string, signer: Signer, time: number): string {
  const first = JSON.parse(readFileSync(cosignatures(dir), 'utf8').split('\n')[0]!) as { rootHash: string };
  const line = cosign(latestNote(dir), name, signer, time);
  return canonicalizeValue({ line, rootHash: first.rootHash, treeSize: 3, witness: name }) + '\n';
}

describe('journal cosign, twice on one checkpoint', () => {
  it('adds no second line: it says the witness already cosigned it, exit 0', async () => {
    const j = await witnessed();
    const first = await j.cosignCli();
    expect(first.code, first.err).toBe(0);
    const before = readFileSync(cosignatures(j.dir), 'utf8');
    const again = await j.cosignCli('--json');
    expect(again.code, again.err).toBe(0);
    expect(JSON.parse(again.out)).toMatchObject({ witness: 'w1', treeSize: 3, alreadyCosigned: true });
    expect(readFileSync(cosignatures(j.dir), 'utf8')).toBe(before);
    const text = await j.cosignCli();
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^w1 already cosigned tree 3 \(sha256:[0-9a-f]{64}\): no line was added/);
    expect(text.out).toContain('— w1 ');
    expect(readFileSync(cosignatures(j.dir), 'utf8').split('\n')).toHaveLength(2);
  });
});

describe('journal verify --witness-policy, with more than 100 lines for one tree', () => {
  it('one witness cosigning the same tree 150 times: met, counted once, said in one info', async () => {
    const j = await witnessed();
    expect((await j.cosignCli()).code).toBe(0);
    for (let i = 0; i < 150; i++)
      appendFileSync(cosignatures(j.dir), storedLine(j.dir, 'w1', j.w1, treeTime(j.dir) + i));
    const v = await j.verify();
    expect(v.code, JSON.stringify(v.findings)).toBe(0);
    expect(v.findings.map((f) => f.severity)).toEqual(['info', 'info']);
    expect(v.findings[0]!.message).toMatch(/150 more line\(s\) for tree 3 by w1, which already cosigned it/);
    expect(v.findings[1]!.message).toMatch(/quorum "w1" met on the newest checkpoint \(tree 3\): cosigned by w1/);
  });

  it('120 witnesses outside the policy beside the policy witness: not weighed, the quorum met', async () => {
    const j = await witnessed();
    expect((await j.cosignCli()).code).toBe(0);
    for (let i = 0; i < 120; i++)
      appendFileSync(cosignatures(j.dir), storedLine(j.dir, `other${i}`, generateSigner(), 1_700_000_000));
    const v = await j.verify();
    expect(v.code, JSON.stringify(v.findings)).toBe(0);
    expect(v.findings).toEqual([
      expect.objectContaining({ severity: 'info', message: expect.stringMatching(/met on the newest/) }),
    ]);
  });

  it('one line copied 20,000 times is verified once, in bounded time', async () => {
    const j = await witnessed();
    expect((await j.cosignCli()).code).toBe(0);
    const one = readFileSync(cosignatures(j.dir), 'utf8');
    writeFileSync(cosignatures(j.dir), one.repeat(20_000));
    const cpu = process.cpuUsage();
    const v = await j.verify();
    // Each distinct line is verified once and nothing grows with the square of the lines: about
    // two seconds of CPU (in this process, where the verification runs), where it took 100.
    const used = process.cpuUsage(cpu);
    expect(used.user + used.system).toBeLessThan(20_000_000);
    expect(v.code).toBe(0);
    expect(v.findings[0]!.message).toMatch(/19999 more line\(s\) for tree 3 by w1/);
  });

  it('a bad line among many still refuses the tree, named by its line', async () => {
    const j = await witnessed();
    expect((await j.cosignCli()).code).toBe(0);
    for (let i = 0; i < 120; i++)
      appendFileSync(cosignatures(j.dir), storedLine(j.dir, 'w1', j.w1, treeTime(j.dir) + i));
    // Line 122: w1's line with its last signature byte changed.
    const good = storedLine(j.dir, 'w1', j.w1, 1_600_000_000);
    const doc = JSON.parse(good) as { line: string };
    const raw = Buffer.from(doc.line.slice(doc.line.indexOf(' ', 2) + 1, -1), 'base64');
    raw[raw.length - 1]! ^= 1;
    const bad = { ...doc, line: `${doc.line.slice(0, doc.line.indexOf(' ', 2) + 1)}${raw.toString('base64')}\n` };
    appendFileSync(cosignatures(j.dir), canonicalizeValue(bad) + '\n');
    const v = await j.verify();
    expect(v.code).toBe(1);
    const failed = v.findings.filter((f) => f.severity === 'fail');
    expect(failed.map((f) => f.message)).toEqual([
      expect.stringMatching(/^cosignatures\.jsonl line 122 does not cosign tree 3: witness w1: .*does not verify/),
      expect.stringMatching(
        /no checkpoint of this journal meets the witness policy's quorum \(the newest cosigned one, tree 3, lacks a quorum of cosignatures that all verify/,
      ),
    ]);
  });
});
