/**
 * `journal record` obeys the rules the journal's verifier and `journal note` obey
 * (docs/journal.md, "Writing" and "Notes"): with a trust store, a key the store does not list
 * or has revoked signs nothing onto the journal (its entry and checkpoint would fail
 * RPR-JOURNAL-008/009 and every later write would be refused); a judgement (a review
 * rationale on an artifact) is signed by an active reviewer key; and a `supersedes` names an
 * earlier note on the same artifact that nothing supersedes yet. Each refusal exits 3, writes
 * nothing, and leaves the journal verifying and writable.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSigner } from '../../app/core/keys.js';
import { appendEntry, verifyJournal } from '../../app/journal/index.js';
import { recordNote } from '../../app/journal/notes.js';
import { MAX_LINE_BYTES } from '../../app/journal/read.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { makeKeys, tmp, writeJson } from './helpers.js';

const A = `sha256:${'a'.repeat(64)}`;
const B = `sha256:${'b'.repeat(64)}`;
const TEXT = 'The dump and the manifest name the same claim reference 2026-11-0104.';
const opts = { fsync: false };
const FILES = ['entries.jsonl', 'checkpoints.jsonl', 'notes.jsonl'];

/** A journal with a note on A, a note on B and a reject judgement on A, by the reviewer. */
async function setUp() {
  const base = tmp('reprise-record-rules-');
  const revoked = generateSigner();
  const retired = generateSigner();
  const keys = makeKeys(base, [
    { signer: revoked, role: 'reviewer', status: 'revoked' },
    { signer: retired, role: 'trainer', status: 'retired' },
  ]);
  const revokedPem = join(base, 'revoked.pem');
  writeFileSync(revokedPem, revoked.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  const dir = join(base, 'journal');
  const noteA = await recordNote(dir, { artifact: A, text: TEXT }, keys.reviewer, keys.trust, opts);
  const noteB = await recordNote(dir, { artifact: B, text: TEXT }, keys.reviewer, keys.trust, opts);
  const reject = await appendEntry(
    dir,
    {
      kind: 'review-rationale',
      subject: { claimRef: 'claim:a', artifact: A },
      body: { decision: 'reject', rationale: 'The content is of no kind the engine knows about.' },
    },
    keys.reviewer,
    { ...opts, trustStore: keys.trust },
  );
  const snapshot = () => FILES.map((f) => readFileSync(join(dir, f), 'utf8'));
  return { base, dir, keys, revoked, retired, revokedPem, noteA, noteB, reject, snapshot };
}

async function expectVerifies(dir: string, trust: Parameters<typeof verifyJournal>[1]): Promise<void> {
  const v = await verifyJournal(dir, trust);
  expect(v.findings.filter((f) => f.severity === 'fail')).toEqual([]);
}

describe('the writer refuses a signer the trust store does not list, has revoked or has retired', () => {
  it('appendEntry with a trust store: unknown, revoked and retired keys write nothing; the journal still verifies', async () => {
    const { dir, keys, revoked, retired, snapshot } = await setUp();
    const before = snapshot();
    const input = { kind: 'replay-drift' as const, subject: { claimRef: 'claim:x' }, body: { drift: 1 } };
    for (const [signer, why] of [
      [keys.outsider, /not recorded: .* is not in the trust store.*RPR-JOURNAL-008.*Nothing was written/],
      [revoked, /not recorded: .*\(extra\) is revoked.*RPR-JOURNAL-009.*Nothing was written/],
      [retired, /not recorded: .*\(extra\) is retired in the trust store, .*signs no new entry.*Nothing was written/],
    ] as const) {
      await expect(appendEntry(dir, input, signer, { ...opts, trustStore: keys.trust })).rejects.toMatchObject({
        code: 'REFUSED',
        message: expect.stringMatching(why),
      });
      expect(snapshot()).toEqual(before);
    }
    await expectVerifies(dir, keys.trust);
    // Still writable by a key the store trusts.
    await appendEntry(dir, input, keys.officer, { ...opts, trustStore: keys.trust });
    await expectVerifies(dir, keys.trust);
  });

  it('a refused signer leaves the directory as it was: no derived file made, no file stamped', async () => {
    const { dir, keys, revoked } = await setUp();
    // A journal as a copy leaves it: its two files alone (the derived ones are rebuilt by a writer).
    for (const f of ['notes.jsonl', 'tree.bin', 'index.bin', 'state.json']) rmSync(join(dir, f), { force: true });
    const look = () => readdirSync(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs, statSync(join(dir, f)).size]);
    const before = look();
    const input = { kind: 'replay-drift' as const, subject: { claimRef: 'claim:x' }, body: { drift: 1 } };
    await expect(appendEntry(dir, input, revoked, { ...opts, trustStore: keys.trust })).rejects.toMatchObject({
      code: 'REFUSED',
    });
    expect(look()).toEqual(before);
  });

  it('an entry whose line a reader would not hold whole (over MAX_LINE_BYTES) is refused, nothing written', async () => {
    const { dir, keys, snapshot } = await setUp();
    const before = snapshot();
    const body = { text: 'x'.repeat(MAX_LINE_BYTES) };
    const input = { kind: 'replay-drift' as const, subject: { claimRef: 'claim:x' }, body };
    await expect(appendEntry(dir, input, keys.reviewer, { ...opts, trustStore: keys.trust })).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(/^not recorded: the entry would be a line of \d+ bytes, over the \d+ /),
    });
    expect(snapshot()).toEqual(before);
    await expectVerifies(dir, keys.trust);
  });

  it('without a trust store the writer cannot know the signer, as documented: the append is made', async () => {
    const { dir, keys } = await setUp();
    const input = { kind: 'replay-drift' as const, subject: { claimRef: 'claim:x' }, body: { drift: 1 } };
    const r = await appendEntry(dir, input, keys.outsider, opts);
    expect(r.seq).toBe(3);
  });
});

/** `journal record DIR --kind KIND --claim claim:a [--artifact HASH] --body-file … --key KEY [--trust-store …]`. */
function record(
  dir: string,
  a: { body: string; key: string; trustPath: string | null; kind?: string; artifact?: string | null },
) {
  const artifact = a.artifact === undefined ? A : a.artifact;
  return runCli(
    ['journal', 'record', dir, '--kind', a.kind ?? 'review-rationale', '--claim', 'claim:a']
      .concat(artifact ? ['--artifact', artifact] : [], ['--body-file', a.body, '--key', a.key])
      .concat(a.trustPath ? ['--trust-store', a.trustPath] : []),
  );
}

describe.skipIf(!cliBuilt())('journal record', () => {
  it('refuses a revoked, unknown or non-reviewer key, exit 3, nothing written; the journal stays usable', async () => {
    const { base, dir, keys, revokedPem, snapshot } = await setUp();
    const before = snapshot();
    const body = writeJson(join(base, 'accept.json'), { decision: 'accept', rationale: TEXT });
    const trustPath = keys.trustPath;
    const cases: [string, string, string | null, RegExp][] = [
      [revokedPem, 'review-rationale', A, /judgement refused: .* is revoked; a judgement needs an active key/],
      [keys.outsiderPem, 'review-rationale', A, /judgement refused: .* is not in the trust store/],
      [
        keys.officerPem,
        'review-rationale',
        A,
        /judgement refused: a judgement must be signed by a reviewer key; .* is a quarantine-officer key/,
      ],
      [revokedPem, 'replay-drift', null, /not recorded: .* is revoked.*RPR-JOURNAL-009/],
      [keys.outsiderPem, 'review-rationale', null, /not recorded: .* is not in the trust store.*RPR-JOURNAL-008/],
    ];
    for (const [key, kind, artifact, why] of cases) {
      const r = await record(dir, { body, key, trustPath, kind, artifact });
      expect(r.stderr).toMatch(why);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.code).toBe(3);
      expect(snapshot()).toEqual(before);
    }
    const v = await runCli(['journal', 'verify', dir, '--trust-store', trustPath, '--quiet']);
    expect(v.code).toBe(0);
    // The journal still takes a note and a judgement by the reviewer.
    writeFileSync(join(base, 'n.txt'), TEXT);
    const noteArgs = ['--artifact', A, '--body-file', join(base, 'n.txt'), '--key', keys.reviewerPem];
    const n = await runCli(['journal', 'note', dir, ...noteArgs, '--trust-store', trustPath]);
    expect(n.stderr).toBe('');
    expect(n.code).toBe(0);
    const ok = await record(dir, { body, key: keys.reviewerPem, trustPath });
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    await expectVerifies(dir, keys.trust);
  });

  it('applies the supersede rules of journal note: only an earlier, not yet superseded note on the same artifact', async () => {
    const { base, dir, keys, noteA, noteB, reject, snapshot } = await setUp();
    const edit = (supersedes: string) =>
      record(dir, {
        body: writeJson(join(base, 'edit.json'), { decision: 'note', rationale: `${TEXT} Edited.`, supersedes }),
        key: keys.reviewerPem,
        trustPath: keys.trustPath,
      });
    const before = snapshot();
    for (const supersedes of [
      reject.entryHash, // a judgement: never edited, only followed
      noteB.entryHash, // another artifact's note
      `sha256:${'c'.repeat(64)}`, // no entry at all
    ]) {
      const r = await edit(supersedes);
      expect(r.stderr).toMatch(/judgement refused: entry .* is no note on this artifact in the journal/);
      expect(r.code).toBe(3);
      expect(snapshot()).toEqual(before);
    }
    // An edit of A's note is taken, and then that note, already edited, is not edited again.
    const ok = await edit(noteA.entryHash);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    const after = snapshot();
    const again = await edit(noteA.entryHash);
    expect(again.stderr).toMatch(
      /judgement refused: the note .* was already edited by sha256:[0-9a-f]{64}: edit its latest version/,
    );
    expect(again.code).toBe(3);
    expect(snapshot()).toEqual(after);
    const list = await runCli(['journal', 'notes', dir, '--artifact', A, '--trust-store', keys.trustPath, '--json']);
    const notes = (JSON.parse(list.stdout) as { notes: { supersedes: string | null }[] }).notes;
    expect(notes.map((n) => n.supersedes)).toEqual([null, noteA.entryHash]);
    await expectVerifies(dir, keys.trust);
  });

  it('without --trust-store the supersede rules still apply (they need no key)', async () => {
    const { base, dir, keys, reject, snapshot } = await setUp();
    const before = snapshot();
    const body = writeJson(join(base, 'edit.json'), {
      decision: 'note',
      rationale: TEXT,
      supersedes: reject.entryHash,
    });
    const r = await record(dir, { body, key: keys.reviewerPem, trustPath: null });
    expect(r.stderr).toMatch(/judgement refused: entry .* is no note on this artifact/);
    expect(r.code).toBe(3);
    expect(snapshot()).toEqual(before);
  });

  // spec/cli.md's `journal record` takes no trust store; a judgement so recorded is written,
  // and its signer is told that nobody checked who may sign one.
  it('without --trust-store records a judgement and says its signer was not checked', async () => {
    const { base, dir, keys } = await setUp();
    const body = writeJson(join(base, 'accept.json'), { decision: 'accept', rationale: TEXT });
    const r = await record(dir, { body, key: keys.officerPem, trustPath: null });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.trim()).toBe(
      `reprise: note: no --trust-store was given, so whether ${keys.officer.keyId} may sign a judgement was not checked; a reader counts this judgement only if their trust store lists that key as an active reviewer's`,
    );
    const drift = writeJson(join(base, 'drift.json'), { delta: 0.1 });
    const d = await record(dir, {
      body: drift,
      key: keys.reviewerPem,
      trustPath: null,
      kind: 'replay-drift',
      artifact: null,
    });
    expect(d.code, d.stderr).toBe(0);
    expect(d.stderr).toBe('');
  });
});
