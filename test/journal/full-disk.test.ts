/**
 * A refused journal write leaves nothing behind; an acknowledged one leaves everything.
 * On a real full filesystem (a small tmpfs, mounted when running as root) and under a
 * file-size limit (`prlimit --fsize`), the next append is made to fail at every point:
 * creating the lock, before the entry's first byte, inside it, at its newline, inside the
 * checkpoint with the entry complete. Each time the CLI must say "not recorded" in one line,
 * the journal must be byte-identical and verify, no lock or temporary file may remain, and
 * after space is freed the next write must succeed without a repair. Needs dist/.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPrlimit, isRoot, mountTmpfs } from '../helpers/full-disk.js';
import { appendEntry, findCase, verifyJournal, type AppendInput } from '../../app/journal/index.js';
import {
  checkpointLen,
  entryLen,
  fill,
  layOut,
  lineCount,
  pagesNeeded,
  run,
  snapshot,
  type Layout,
  type Next,
} from './full-disk.helpers.js';
import { makeKeys, tmp, type Keys } from './helpers.js';

const RATIONALE = 'The replay matched the anchored output within its band; release the claim.';

/** The refusal every failed write must give: non-zero, one line, "not recorded". */
function expectNotRecorded(r: { status: number | null; stderr: string; stdout: string }, what: string): void {
  expect(r.status, `${what}: ${r.stderr}`).not.toBe(0);
  expect(r.stderr.trim().split('\n'), `${what}: ${r.stderr}`).toHaveLength(1);
  expect(r.stderr, what).toMatch(/not recorded/i);
  expect(r.stderr, what).not.toMatch(/internal error|\n\s+at /);
  expect(r.stdout, what).toBe('');
}

function expectVerifies(dir: string, k: Keys, what: string): void {
  const v = run(['journal', 'verify', dir, '--trust-store', k.trustPath, '--quiet']);
  expect(v.status, `${what}: ${v.stdout}${v.stderr}`).toBe(0);
}

const recordArgs = (dir: string, k: Keys, body: string) => [
  'journal',
  'record',
  dir,
  '--kind',
  'review-rationale',
  '--claim',
  'claim:next',
  '--body-file',
  body,
  '--key',
  k.reviewerPem,
];

describe.skipIf(!isRoot)('a write on a full filesystem (tmpfs; skipped unless root, which mounting needs)', () => {
  let base: string;
  let mnt: string;
  let mounted = false;
  let k: Keys;
  let bodyPath: string;
  const body = { rationale: 'The drift is within the band and not decision-material.', decision: 'accept' };
  beforeAll(() => {
    base = tmp('reprise-fulldisk-');
    k = makeKeys(base);
    bodyPath = join(base, 'body.json');
    writeFileSync(bodyPath, JSON.stringify(body));
    mnt = join(base, 'mnt');
    mkdirSync(mnt);
    mounted = mountTmpfs(mnt, '256k');
  });
  afterAll(() => {
    if (mounted) execFileSync('umount', [mnt]);
    rmSync(base, { recursive: true, force: true });
  });
  const clear = () => {
    for (const n of readdirSync(mnt)) rmSync(join(mnt, n), { recursive: true, force: true });
  };

  const next = (): Next => ({
    input: { kind: 'review-rationale', subject: { claimRef: 'claim:next' }, body },
    signer: k.reviewer,
  });
  const setupLast = (pad: string): Next => ({
    input: { kind: 'review-rationale', subject: { claimRef: 'claim:last' }, body: { note: 'last', pad } },
    signer: k.reviewer,
  });

  // freePages counts the lock's page: 0 = the lock itself cannot be written; 1 = nothing left for the append.
  const family: { name: string; layout: Layout; freePages: number }[] = [
    { name: 'no room for the lock', layout: { entryCut: null, cpCrossing: null }, freePages: 0 },
    { name: 'the entry starts a page', layout: { entryCut: 0, cpCrossing: null }, freePages: 1 },
    { name: 'the entry is cut after 1 byte', layout: { entryCut: 1, cpCrossing: null }, freePages: 1 },
    { name: 'the entry is cut in its middle', layout: { entryCut: 200, cpCrossing: null }, freePages: 1 },
    { name: 'the entry is cut before its newline', layout: { entryCut: -1, cpCrossing: null }, freePages: 1 },
    { name: 'the checkpoint is cut (1st layout)', layout: { entryCut: null, cpCrossing: 0 }, freePages: 1 },
    { name: 'the checkpoint is cut (2nd layout)', layout: { entryCut: null, cpCrossing: 1 }, freePages: 1 },
    {
      name: 'the entry takes the last page, the checkpoint is cut',
      layout: { entryCut: 100, cpCrossing: 0 },
      freePages: 2,
    },
    {
      name: 'the entry takes the last page, the checkpoint is cut (2nd layout)',
      layout: { entryCut: -1, cpCrossing: 2 },
      freePages: 2,
    },
    {
      name: 'the entry takes the last page and the checkpoint fits',
      layout: { entryCut: 100, cpCrossing: null },
      freePages: 2,
    },
  ];

  for (const v of family) {
    it(`${v.name}: refused as not recorded and nothing left behind, or recorded whole`, async () => {
      expect(mounted, 'mount -t tmpfs failed although running as root').toBe(true);
      clear();
      const dir = join(mnt, 'j');
      const n = next();
      const nextLen = entryLen(0, n.input, n.signer);
      const layout = { ...v.layout, entryCut: v.layout.entryCut === -1 ? nextLen - 1 : v.layout.entryCut };
      await layOut(dir, layout, setupLast, n);
      const filler = fill(mnt, v.freePages);
      const before = snapshot(dir);
      const needed =
        v.freePages === 0
          ? Infinity
          : pagesNeeded(before.entries.length, nextLen) +
            pagesNeeded(before.checkpoints.length, checkpointLen(lineCount(before.entries) + 1, k.reviewer));
      const r = run(recordArgs(dir, k, bodyPath));
      if (needed <= v.freePages - 1) {
        expect(r.status, r.stderr).toBe(0);
        expect(lineCount(snapshot(dir).entries)).toBe(lineCount(before.entries) + 1);
      } else {
        expect(snapshot(dir), `${v.name}: the journal is byte-identical, with no lock or temporary file`).toEqual(
          before,
        );
        expectNotRecorded(r, v.name);
        expect(r.stderr).toContain('ENOSPC');
        if (v.freePages > 0) expect(r.stderr, 'the lock fit: the append itself was refused').not.toMatch(/cannot lock/);
      }
      expectVerifies(dir, k, v.name);
      // Space freed: the next write succeeds without a repair.
      rmSync(filler);
      const again = run(recordArgs(dir, k, bodyPath));
      expect(again.status, again.stderr).toBe(0);
      expectVerifies(dir, k, `${v.name}, after freeing space`);
    }, 60_000);
  }

  it('the first entry of a new journal that does not fit: the directory is left as it was', () => {
    expect(mounted).toBe(true);
    clear();
    const filler = fill(mnt, 1);
    const r = run(recordArgs(join(mnt, 'new', 'j'), k, bodyPath));
    expectNotRecorded(r, 'first entry');
    expect(readdirSync(mnt)).toEqual(['filler']);
    rmSync(filler);
  }, 60_000);

  it('a release refused on a full disk does not take effect after `journal repair`', async () => {
    expect(mounted).toBe(true);
    clear();
    const dir = join(mnt, 'q');
    const claim = { claimRef: 'claim:quarantined', artifact: 'sha256:' + 'ab'.repeat(32) };
    // The opening entry's hash is not known before it is written: lay out with a stand-in
    // release of the same length (the body holds a hash of fixed length).
    const release = (openHash: string): Next => ({
      input: {
        kind: 'quarantine-release',
        subject: claim,
        body: { case: openHash, decision: 'release', rationale: RATIONALE },
      },
      signer: k.officer,
    });
    const open = (pad: string): Next => ({
      input: {
        kind: 'quarantine-open',
        subject: claim,
        body: { reason: 'routing HUMAN_REVIEW ' + pad, source: 'manual' },
      },
      signer: k.reviewer,
    });
    await layOut(dir, { entryCut: 300, cpCrossing: 0 }, open, release('sha256:' + '0'.repeat(64)));
    const v0 = await verifyJournal(dir, k.trust);
    const c = v0.cases.cases[0]!;
    const filler = fill(mnt, 2);
    const before = snapshot(dir);
    const r = run([
      'quarantine',
      'release',
      dir,
      c.caseId,
      '--rationale',
      RATIONALE,
      '--key',
      k.officerPem,
      '--trust-store',
      k.trustPath,
    ]);
    expect(r.status).not.toBe(0);
    expect(snapshot(dir)).toEqual(before);
    expectNotRecorded(r, 'release');
    rmSync(filler);
    const rep = run(['journal', 'repair', dir, '--key', k.officerPem]);
    expect(rep.status, rep.stderr).toBe(0);
    const after = await verifyJournal(dir, k.trust);
    expect(findCase(after.cases.cases, c.caseId)!.state, 'an officer told "not recorded" must be right').toBe('open');
    expect(after.findings.filter((f) => f.severity === 'fail')).toEqual([]);
  }, 60_000);

  it('a repair refused on a full disk keeps the torn bytes it would have removed', async () => {
    expect(mounted).toBe(true);
    clear();
    const dir = join(mnt, 'r');
    const torn = Buffer.from('{"author":"ed25519:torn');
    const last = (pad: string): Next => ({
      input: { kind: 'review-rationale', subject: { claimRef: 'claim:last' }, body: { pad } },
      signer: k.reviewer,
    });
    // The repair entry (about 700 bytes: it records the torn bytes) is cut in its middle.
    const stand = {
      kind: 'journal-repair',
      subject: { claimRef: 'journal:repair' },
      body: {
        action: 'truncate-torn-tail',
        truncated: [
          {
            file: 'entries.jsonl',
            offset: 10_000,
            length: torn.length,
            sha256: 'sha256:' + '0'.repeat(64),
            bytesBase64: torn.toString('base64'),
          },
        ],
      },
    } as AppendInput;
    await layOut(dir, { entryCut: 300, cpCrossing: null }, last, { input: stand, signer: k.officer });
    writeFileSync(join(dir, 'entries.jsonl'), torn, { flag: 'a' });
    const filler = fill(mnt, 1);
    const before = snapshot(dir);
    const r = run(['journal', 'repair', dir, '--key', k.officerPem]);
    expect(r.status).not.toBe(0);
    expect(snapshot(dir), 'the torn bytes are still there, nothing else changed').toEqual(before);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/not repaired|not recorded/i);
    rmSync(filler);
    const ok = run(['journal', 'repair', dir, '--key', k.officerPem]);
    expect(ok.status, ok.stderr).toBe(0);
    expectVerifies(dir, k, 'after the repair');
  }, 60_000);
});

describe('a write under a file-size limit (prlimit --fsize)', () => {
  it.skipIf(!hasPrlimit)(
    "every limit around the files' sizes: recorded whole, or refused as not recorded with the journal unchanged",
    async () => {
      const base = tmp('reprise-fsize-');
      const k = makeKeys(base);
      const bodyPath = join(base, 'body.json');
      const body = { rationale: 'The drift is within the band and not decision-material.', decision: 'accept' };
      writeFileSync(bodyPath, JSON.stringify(body));
      const seed = join(base, 'seed');
      for (let i = 0; i < 3; i++)
        await appendEntry(
          seed,
          { kind: 'review-rationale', subject: { claimRef: `claim:${i}` }, body: { i } },
          k.reviewer,
        );
      const E = statSync(join(seed, 'entries.jsonl')).size;
      const C = statSync(join(seed, 'checkpoints.jsonl')).size;
      const e = entryLen(3, { kind: 'review-rationale', subject: { claimRef: 'claim:next' }, body }, k.reviewer);
      const c = checkpointLen(4, k.reviewer);
      const limits = [
        0,
        1,
        30,
        C - 1,
        C,
        C + 1,
        C + c - 1,
        E - 1,
        E,
        E + 1,
        E + Math.floor(e / 2),
        E + e - 1,
        E + e,
        E + e + 1,
        E + e + 500,
      ];
      let refused = 0;
      for (const [i, n] of limits.entries()) {
        const dir = join(base, `j${i}`);
        mkdirSync(dir);
        for (const f of ['entries.jsonl', 'checkpoints.jsonl']) copyFileSync(join(seed, f), join(dir, f));
        const before = snapshot(dir);
        const r = run(recordArgs(dir, k, bodyPath), n);
        if (n >= E + e && n >= C + c) {
          expect(r.status, `limit ${n}: ${r.stderr}`).toBe(0);
          expect(lineCount(snapshot(dir).entries)).toBe(4);
        } else {
          refused++;
          expect(snapshot(dir), `limit ${n}: byte-identical, no lock or temporary file`).toEqual(before);
          expectNotRecorded(r, `limit ${n}`);
          expect(r.stderr).toContain('EFBIG');
        }
        expectVerifies(dir, k, `limit ${n}`);
        const again = run(recordArgs(dir, k, bodyPath));
        expect(again.status, again.stderr).toBe(0);
        const after = await verifyJournal(dir, k.trust);
        expect(
          after.findings.filter((f) => f.severity !== 'info'),
          `limit ${n}, then without the limit`,
        ).toEqual([]);
      }
      expect(refused).toBe(limits.length - 3);
      rmSync(base, { recursive: true, force: true });
    },
    120_000,
  );
});
