/**
 * Sentences that count: `verify --since` a held checkpoint that is the newest says nothing was
 * added (never "entries 4 to 3"), one entry is one entry, one newer entry not witnessed is
 * "the 1 newer entry", and a proof's checkpoint with its entry takes the verb of one subject.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalizeValue } from '../../app/core/jcs.js';
import type { Checkpoint } from '../../app/journal/format.js';
import { cosign } from '../../app/journal/note.js';
import { verifyJournal, verifyJournalSince } from '../../app/journal/verify.js';
import { witnessFindings } from '../../app/journal/witness.js';
import { parseWitnessPolicy } from '../../app/journal/witness-policy.js';
import { cliIn } from '../cli/in-process.js';
import { journalLines, journalWithKeys, newWitness } from './witness-helpers.js';

const checkpointOf = (dir: string, size: number) =>
  JSON.parse(journalLines(dir, 'checkpoints.jsonl')[size - 1]!) as Checkpoint;

/** The message of `verify --since` the checkpoint of tree `size` that says what it read. */
async function sinceSays(dir: string, size: number, trust: Parameters<typeof verifyJournalSince>[2]): Promise<string> {
  const v = await verifyJournalSince(dir, checkpointOf(dir, size), trust, { keep: false });
  const said = v?.findings.find((f) => f.message.startsWith('verified since the held checkpoint'));
  expect(said, JSON.stringify(v?.findings)).toBeDefined();
  return said!.message;
}

describe('journal verify --since: what was read after the held checkpoint', () => {
  it('the held checkpoint is the newest: no entry was added after it', async () => {
    const j = await journalWithKeys('reprise-since-newest-', 3);
    const said = await sinceSays(j.dir, 3, j.keys.trust);
    expect(said).toMatch(
      /^verified since the held checkpoint \(tree 3, sha256:[0-9a-f]{64}\): no entry was added after it\. /,
    );
    expect(said).not.toMatch(/entries 4 to 3/);
  });

  it('one entry after it: "entry 3", not "entries 3 to 3"', async () => {
    const j = await journalWithKeys('reprise-since-one-', 3);
    expect(await sinceSays(j.dir, 2, j.keys.trust)).toMatch(/\): entry 3 and the checkpoints after it\. /);
    expect(await sinceSays(j.dir, 1, j.keys.trust)).toMatch(/\): entries 2 to 3 and the checkpoints after it\. /);
  });
});

describe('journal verify --witness-policy: a quorum met one entry short of the newest checkpoint', () => {
  it('says "the 1 newer entry is not witnessed yet"', async () => {
    const j = await journalWithKeys('reprise-witness-one-newer-', 3);
    const w1 = newWitness(j.base);
    const cp = checkpointOf(j.dir, 3);
    const note = JSON.parse(journalLines(j.dir, 'notes.jsonl')[2]!) as string;
    const signed = Math.ceil(Date.parse(cp.timestampUtc) / 1000);
    const line = cosign(note, w1.name, w1.signer, signed);
    const stored = canonicalizeValue({ line, rootHash: cp.rootHash, treeSize: 3, witness: w1.name });
    appendFileSync(join(j.dir, 'cosignatures.jsonl'), stored + '\n');
    await j.append(1);
    const now = Date.parse(checkpointOf(j.dir, 4).timestampUtc) + 60_000;
    const v = await verifyJournal(j.dir, j.keys.trust, { keep: false, clock: () => now });
    const [f] = await witnessFindings(v, parseWitnessPolicy(`${w1.line}\nquorum w1\n`), () => now);
    expect(f).toMatchObject({
      severity: 'warning',
      message: expect.stringMatching(
        /not on the newest checkpoint \(tree 4\): the 1 newer entry is not witnessed yet$/,
      ),
    });
  });
});

describe('journal check-proof: the authenticity of an inclusion proof', () => {
  it('says its checkpoint together with its entry verifies (one subject, one verb)', async () => {
    const j = await journalWithKeys('reprise-proof-verb-', 3);
    const out = join(j.base, 'p2.json');
    expect((await cliIn(j.base, 'journal', 'proof', j.dir, '--entry', '2', '--out', out)).code).toBe(0);
    const r = await cliIn(j.base, 'journal', 'check-proof', out, '--trust-store', j.keys.trustPath, '--json');
    expect(r.code, r.err).toBe(0);
    const { statement } = (JSON.parse(r.out) as { authenticity: { statement: string } }).authenticity;
    expect(statement).toMatch(
      /^Trusted signer: the proof's checkpoint \(tree 3\) together with entry 2 verifies under /,
    );
    expect(statement).not.toMatch(/and entry 2 verifies/);
  });
});
