/**
 * Issue 26: nothing is signed onto a journal that does not verify from its last trusted state;
 * journal files are never written through a symlink or a second hard link; the state kept
 * beside the entries (tree.bin, index.bin, state.json) makes an append cheap and is never
 * trusted without a check; `--since` verifies only what came after a held checkpoint.
 */
import { linkSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTrustStore } from '../../app/core/keys.js';
import { journalWriter } from '../../app/kinds/journal/examples.js';
import { JournalWriter, appendEntry, recordJudgement, verifyJournal } from '../../app/journal/index.js';
import { verifyJournalSince } from '../../app/journal/verify.js';
import { parseNote, verifyNote, verifierKey } from '../../app/journal/note.js';
import { rawPublicKey } from '../../app/core/keys.js';
import { cli, makeKeys, tmp, writeJson, type Keys } from './helpers.js';

const body = { rationale: 'the replay matched within its band', decision: 'accept' };
const input = (i: number) => ({ kind: 'review-rationale' as const, subject: { claimRef: `claim:${i}` }, body });

async function journalOf(k: Keys, n: number, dir = join(tmp(), 'j')): Promise<string> {
  const w = await JournalWriter.open(dir, { fsync: false, signer: k.reviewer, trustStore: k.trust });
  for (let i = 0; i < n; i++) await w.append(input(i), i % 2 ? k.officer : k.reviewer);
  await w.close();
  return dir;
}

function examples(): { dir: string; trustPath: string; officer: string } {
  const base = tmp();
  for (const f of journalWriter.build() as Awaited<ReturnType<typeof journalWriter.build>>) {
    const p = join(base, ...f.path.split('/'));
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, f.bytes);
  }
  return {
    dir: join(base, 'journal'),
    trustPath: join(base, 'journal', 'trust-store.json'),
    officer: join(base, 'journal', 'keys', 'quarantine-officer.pem'),
  };
}

const rationale = 'Model owner confirmed recalibration; the replay reproduces the recorded value exactly.';

describe('no signature onto a journal that fails verification', () => {
  it('the tampered example: quarantine release is refused (exit 1) naming the failing rule, and nothing is written', () => {
    const ex = examples();
    const dir = join(ex.dir, 'tampered');
    const before = readFileSync(join(dir, 'entries.jsonl'));
    const names = readdirSync(dir).sort();
    const r = cli([
      'quarantine',
      'release',
      dir,
      'case-5',
      '--rationale',
      rationale,
      '--key',
      ex.officer,
      '--trust-store',
      ex.trustPath,
    ]);
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/does not verify.*RPR-JOURNAL-0(07|15) at /);
    expect(r.stderr).toMatch(/Nothing was written/);
    expect(readFileSync(join(dir, 'entries.jsonl')).equals(before)).toBe(true);
    // journal record (any append) is refused the same way, with or without the trust store
    const bodyFile = writeJson(join(ex.dir, 'body.json'), body);
    for (const extra of [[], ['--trust-store', ex.trustPath]]) {
      const rec = cli([
        'journal',
        'record',
        dir,
        '--kind',
        'review-rationale',
        '--claim',
        'c',
        '--body-file',
        bodyFile,
        '--key',
        ex.officer,
        ...extra,
      ]);
      expect(rec.status, rec.stderr).not.toBe(0);
      expect(rec.stderr).toMatch(/does not verify/);
    }
    expect(readFileSync(join(dir, 'entries.jsonl')).equals(before)).toBe(true);
    // a refused open leaves the directory as it was: no tree, index or notes file made for it
    expect(readdirSync(dir).sort()).toEqual(names);
  });

  it('the intact example (written without notes or a state): the first append verifies it in full and upgrades it; later ones use the state', async () => {
    const ex = examples();
    const dir = join(ex.dir, 'sample');
    const trust = await loadTrustStore(ex.trustPath);
    const r = cli([
      'quarantine',
      'release',
      dir,
      'case-5',
      '--rationale',
      rationale,
      '--key',
      ex.officer,
      '--trust-store',
      ex.trustPath,
    ]);
    expect(r.status, r.stderr).toBe(0);
    for (const f of ['tree.bin', 'index.bin', 'state.json', 'notes.jsonl'])
      expect(readFileSync(join(dir, f)).length, f).toBeGreaterThan(0);
    const v = await verifyJournal(dir, trust);
    expect(v.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    const w = await JournalWriter.open(dir, { trustStore: trust });
    expect(w.verifiedBy).toBe('trusted-state');
    await w.close();
  });

  it('an old entry changed after the state was recorded: the next append verifies in full and is refused', async () => {
    const k = makeKeys(tmp());
    const dir = await journalOf(k, 6);
    const text = readFileSync(join(dir, 'entries.jsonl'), 'utf8');
    writeFileSync(join(dir, 'entries.jsonl'), text.replace('claim:2', 'claim:7'));
    await expect(appendEntry(dir, input(9), k.reviewer, { trustStore: k.trust })).rejects.toThrow(
      /does not verify.*RPR-JOURNAL-0(06|07|15)/,
    );
    expect(readFileSync(join(dir, 'entries.jsonl'), 'utf8')).toBe(text.replace('claim:2', 'claim:7'));
  });
});

describe('journal files: no symlink, no second hard link', () => {
  it('entries.jsonl as a symlink into another journal is refused, and the other journal is untouched', async () => {
    const k = makeKeys(tmp());
    const other = await journalOf(k, 2);
    const mine = await journalOf(k, 2);
    const theirs = readFileSync(join(other, 'entries.jsonl'));
    rmSync(join(mine, 'entries.jsonl'));
    symlinkSync(join(other, 'entries.jsonl'), join(mine, 'entries.jsonl'));
    await expect(appendEntry(mine, input(3), k.reviewer)).rejects.toThrow(/symbolic link/);
    expect(readFileSync(join(other, 'entries.jsonl')).equals(theirs)).toBe(true);
  });

  it('checkpoints.jsonl hard-linked into another journal is refused (CLI: one line, non-zero), and the other journal is untouched', async () => {
    const k = makeKeys(tmp());
    const other = await journalOf(k, 2);
    const mine = await journalOf(k, 2);
    const theirs = readFileSync(join(other, 'checkpoints.jsonl'));
    rmSync(join(mine, 'checkpoints.jsonl'));
    linkSync(join(other, 'checkpoints.jsonl'), join(mine, 'checkpoints.jsonl'));
    const bodyFile = writeJson(join(dirname(mine), 'body.json'), body);
    const r = cli([
      'journal',
      'record',
      mine,
      '--kind',
      'review-rationale',
      '--claim',
      'c',
      '--body-file',
      bodyFile,
      '--key',
      k.reviewerPem,
    ]);
    expect(r.status).not.toBe(0);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/2 hard links/);
    expect(readFileSync(join(other, 'checkpoints.jsonl')).equals(theirs)).toBe(true);
  });
});

describe('the trusted state beside the entries', () => {
  it('is used when it matches, and every way it can be wrong sends the writer through a full verification that rebuilds it', async () => {
    const k = makeKeys(tmp());
    const dir = await journalOf(k, 9);
    const open = async () => {
      const w = await JournalWriter.open(dir, { trustStore: k.trust, fsync: false, signer: k.reviewer });
      const by = w.verifiedBy;
      await w.append(input(0), k.reviewer);
      await w.close();
      return by;
    };
    expect(await open()).toBe('trusted-state');
    const spoil: [string, () => void][] = [
      ['a flipped byte in tree.bin', () => flip(join(dir, 'tree.bin'), 40)],
      [
        'tree.bin cut short',
        () => writeFileSync(join(dir, 'tree.bin'), readFileSync(join(dir, 'tree.bin')).subarray(0, 64)),
      ],
      ['index.bin rewritten', () => flip(join(dir, 'index.bin'), 7)],
      [
        'a frontier hash in state.json',
        () =>
          writeFileSync(
            join(dir, 'state.json'),
            readFileSync(join(dir, 'state.json'), 'utf8').replace(
              /"frontier":\["(.)/,
              (_m, c: string) => `"frontier":["${c === '0' ? '1' : '0'}`,
            ),
          ),
      ],
      [
        'a torn state.json',
        () => writeFileSync(join(dir, 'state.json'), readFileSync(join(dir, 'state.json')).subarray(0, 50)),
      ],
      ['no state.json', () => rmSync(join(dir, 'state.json'))],
      [
        'the trusted checkpoint in state.json',
        () =>
          writeFileSync(
            join(dir, 'state.json'),
            readFileSync(join(dir, 'state.json'), 'utf8').replace(/"treeSize\\":(\d+)/, '"treeSize\\":1'),
          ),
      ],
    ];
    for (const [what, act] of spoil) {
      act();
      expect(await open(), what).toBe('full-verification');
      expect(await open(), `${what}: rebuilt`).toBe('trusted-state');
    }
    const v = await verifyJournal(dir, k.trust);
    expect(v.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(v.entryLines).toBe(9 + 1 + 2 * spoil.length);
  });

  it("a judgement receipt proves the entry from the writer's tree, and the proof carries the checkpoint's signed note", async () => {
    const k = makeKeys(tmp());
    const dir = await journalOf(k, 5);
    const report = {
      schema: 'reprise.report/v1',
      artifact: { sha256: 'sha256:' + 'ab'.repeat(32), id: 'claim:x', path: 'x' },
      verdict: 'pass',
      findings: [{ rule: 'R', severity: 'info', message: 'm' }],
    };
    const r = await recordJudgement(
      dir,
      {
        report: report as never,
        pointer: '/findings/0',
        decision: 'accept',
        rationale: 'the replay matched the recorded output exactly',
      },
      k.reviewer,
      k.trust,
    );
    expect(r.proofVerified, r.proofFindings.join('; ')).toBe(true);
    expect(r.proof.note).toBeDefined();
    const origin = parseNote(r.proof.note!).body.split('\n')[0]!;
    expect(verifyNote(r.proof.note!, [{ name: origin, publicKey: rawPublicKey(k.reviewer.publicKey) }]).ok).toBe(true);
    expect(verifierKey(origin, rawPublicKey(k.reviewer.publicKey))).toContain(origin);
  });
});

describe('journal verify --since a held checkpoint', () => {
  it('verifies only what came after it, finds a change there, and falls back to a full verification when the index cannot be used', async () => {
    const k = makeKeys(tmp());
    const dir = await journalOf(k, 20);
    const held = (await verifyJournal(dir, k.trust)).latestCheckpoint!;
    const w = await JournalWriter.open(dir, { trustStore: k.trust, fsync: false });
    for (let i = 0; i < 13; i++) await w.append(input(i), k.reviewer);
    await w.close();
    const ok = (await verifyJournalSince(dir, held, k.trust))!;
    expect(ok.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(ok.findings.map((f) => f.message).join('\n')).toMatch(/extends the held checkpoint \(tree 20\)/);
    expect(ok.entryLines).toBe(33);
    // a change after the held checkpoint is found, naming its line
    const text = readFileSync(join(dir, 'entries.jsonl'), 'utf8').split('\n');
    text[25] = text[25]!.replace('claim:', 'claim:X');
    writeFileSync(join(dir, 'entries.jsonl'), text.join('\n'));
    const bad = (await verifyJournalSince(dir, held, k.trust))!;
    expect(bad.findings.filter((f) => f.severity === 'fail').map((f) => f.pointer)).toContain('line:26');
    // a held checkpoint of another tree: the index does not give its root, so the CLI verifies in full and reports 018
    const forged = { ...held, rootHash: 'sha256:' + '00'.repeat(32) };
    expect(await verifyJournalSince(dir, forged, null)).toBeNull();
    const heldFile = writeJson(join(dirname(dir), 'held.json'), forged);
    const r = cli(['journal', 'verify', dir, '--since', heldFile, '--trust-store', k.trustPath, '--json']);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).findings.map((f: { rule: string }) => f.rule)).toContain('RPR-JOURNAL-018');
  });
});

function flip(path: string, at: number): void {
  const b = readFileSync(path);
  b[at % b.length]! ^= 1;
  writeFileSync(path, b);
}
