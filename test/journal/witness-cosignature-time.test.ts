/**
 * A cosignature's time is when its witness observed the checkpoint (C2SP tlog-cosignature).
 * `journal verify --witness-policy` counts a policy witness's cosignature toward the quorum
 * only when that time can be it: not later than the verification's clock, nor earlier than
 * the tree's first checkpoint, by more than 5 minutes each. A misdated one is named in a
 * warning and left out. The verification's clock is injected: no test reads the wall clock.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../shared/report.js';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { addSignatures, cosign } from '../../app/journal/note.js';
import { verifyJournal } from '../../app/journal/verify.js';
import { witnessFindings } from '../../app/journal/witness.js';
import { parseWitnessPolicy } from '../../app/journal/witness-policy.js';
import { journalLines, journalWithKeys, newWitness, type Journal, type Witness } from './witness-helpers.js';

const MINUTE = 60_000;
/** 2200-01-01T00:00:00Z, in POSIX seconds. */
const YEAR_2200 = 7_258_118_400;

interface Setup extends Journal {
  w1: Witness;
  w2: Witness;
  /** When the journal signed tree 3 (its checkpoint's timestampUtc), ms. */
  signedMs: number;
}

/** A journal of 3 entries and two witnesses, w1 and w2. */
async function setup(): Promise<Setup> {
  const j = await journalWithKeys('reprise-witness-time-', 3);
  const cp = JSON.parse(journalLines(j.dir, 'checkpoints.jsonl')[2]!) as { timestampUtc: string };
  return { ...j, w1: newWitness(j.base, 'w1'), w2: newWitness(j.base, 'w2'), signedMs: Date.parse(cp.timestampUtc) };
}

const latestNote = (dir: string) => JSON.parse(journalLines(dir, 'notes.jsonl')[2]!) as string;

/** Adds to cosignatures.jsonl the cosignature of tree 3 by `w`, dated `seconds`. */
function cosignAt(j: Setup, w: Witness, seconds: number): void {
  const root = (JSON.parse(journalLines(j.dir, 'checkpoints.jsonl')[2]!) as { rootHash: string }).rootHash;
  const line = cosign(latestNote(j.dir), w.name, w.signer, seconds);
  const stored = canonicalizeValue({ line, rootHash: root, treeSize: 3, witness: w.name });
  appendFileSync(join(j.dir, 'cosignatures.jsonl'), stored + '\n');
}

/** The witness findings of `journal verify --witness-policy` with `policy`, its clock at `nowMs`. */
async function weigh(j: Setup, policy: string, nowMs: number): Promise<Finding[]> {
  const v = await verifyJournal(j.dir, j.keys.trust, { keep: false, clock: () => nowMs });
  return witnessFindings(v, parseWitnessPolicy(policy), () => nowMs);
}

const quorumW1 = (j: Setup) => `${j.w1.line}\nquorum w1\n`;
const seconds = (ms: number) => Math.floor(ms / 1000);
const severities = (fs: Finding[]) => fs.map((f) => f.severity);

describe('journal verify --witness-policy: a cosignature dated when its witness cannot have observed the tree', () => {
  for (const [what, at] of [
    ['in the year 2200', () => YEAR_2200],
    ['at 2^53-1 seconds', () => Number.MAX_SAFE_INTEGER],
    ['at 0, before the checkpoint it cosigns', () => 0],
  ] as const)
    it(`${what}: does not count toward the quorum, named in a warning at its line`, async () => {
      const j = await setup();
      cosignAt(j, j.w1, at());
      const fs = await weigh(j, quorumW1(j), j.signedMs + MINUTE);
      expect(severities(fs)).toEqual(['warning', 'fail']);
      expect(fs[0]).toMatchObject({
        pointer: 'entry:cosignatures.jsonl:line:1',
        message: expect.stringMatching(
          new RegExp(
            `^the cosignature by w1 of tree 3 in cosignatures\\.jsonl line 1 is dated ${at()}\\b.*(later than this verification's time|before the tree's first checkpoint).* by more than 5 minutes, so it does not count toward the quorum$`,
          ),
        ),
      });
      expect(fs[1]!.message).toMatch(/no checkpoint of this journal meets the witness policy's quorum .*lacks w1/);
    });

  it('one dated a minute before the checkpoint (a witness clock a little behind) and one 4 minutes ahead of the verifier: both count', async () => {
    const j = await setup();
    cosignAt(j, j.w1, seconds(j.signedMs - MINUTE));
    cosignAt(j, j.w2, seconds(j.signedMs + 2 * MINUTE + 4 * MINUTE));
    const fs = await weigh(
      j,
      `${j.w1.line}\n${j.w2.line}\ngroup both all w1 w2\nquorum both\n`,
      j.signedMs + 2 * MINUTE,
    );
    expect(fs).toEqual([
      expect.objectContaining({
        severity: 'info',
        message: expect.stringMatching(/met on the newest checkpoint \(tree 3\): cosigned by w1, w2/),
      }),
    ]);
  });

  it("the verifier's clock decides the future: the same line counts for a verification in 2200", async () => {
    const j = await setup();
    cosignAt(j, j.w1, YEAR_2200);
    expect(severities(await weigh(j, quorumW1(j), j.signedMs + MINUTE))).toEqual(['warning', 'fail']);
    expect(severities(await weigh(j, quorumW1(j), YEAR_2200 * 1000))).toEqual(['info']);
  });

  it("a misdated line beside the witness's good one: the good one counts, the other is named", async () => {
    const j = await setup();
    cosignAt(j, j.w1, seconds(j.signedMs));
    cosignAt(j, j.w1, YEAR_2200);
    const fs = await weigh(j, quorumW1(j), j.signedMs + MINUTE);
    expect(severities(fs)).toEqual(['warning', 'info']);
    expect(fs[0]!.pointer).toBe('entry:cosignatures.jsonl:line:2');
    expect(fs[1]!.message).toMatch(/met on the newest checkpoint \(tree 3\): cosigned by w1/);
  });

  it("one the journal's own note carries (notes.jsonl) is held to the same times", async () => {
    const j = await setup();
    const notes = journalLines(j.dir, 'notes.jsonl');
    const note = latestNote(j.dir);
    notes[2] = JSON.stringify(addSignatures(note, [cosign(note, j.w1.name, j.w1.signer, YEAR_2200)]));
    writeFileSync(join(j.dir, 'notes.jsonl'), notes.join('\n'));
    cosignAt(j, j.w2, seconds(j.signedMs));
    const fs = await weigh(j, `${j.w1.line}\n${j.w2.line}\ngroup both all w1 w2\nquorum both\n`, j.signedMs + MINUTE);
    expect(severities(fs)).toEqual(['warning', 'fail']);
    expect(fs[0]).toMatchObject({
      pointer: 'entry:notes.jsonl',
      message: expect.stringMatching(
        /^the cosignature by w1 of tree 3 in the journal's note of it \(notes\.jsonl\) is dated 7258118400 \(2200-01-01T00:00:00\.000Z\), later than/,
      ),
    });
    expect(fs[1]!.message).toMatch(/lacks w1/);
  });
  it('one on a tree no checkpoint dates: nothing shows it follows the tree, so it does not count', async () => {
    const j = await setup();
    cosignAt(j, j.w1, seconds(j.signedMs));
    const checkpoints = journalLines(j.dir, 'checkpoints.jsonl');
    writeFileSync(join(j.dir, 'checkpoints.jsonl'), [...checkpoints.slice(0, 2), ''].join('\n'));
    const fs = await weigh(j, quorumW1(j), j.signedMs + MINUTE);
    expect(severities(fs)).toEqual(['warning', 'fail']);
    expect(fs[0]!.message).toMatch(
      /no checkpoint of this journal dates the tree, so nothing shows the witness observed it then/,
    );
  });
});
