/** The journal through the CLI (`node bin/reprise.js`; run `npx tsc -p tsconfig.cli.json` first). */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync, appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { signEntry, signCheckpoint, verifyJournal, appendEntry, type Entry } from '../../app/journal/index.js';
import { cli, makeKeys, recordArgs, tmp, writeJson, type Keys } from './helpers.js';

interface R {
  verdict: string;
  findings: { rule: string; severity: string; pointer?: string; message: string }[];
}

function verifyCli(dir: string, trustPath: string): { code: number | null; report: R } {
  const r = cli(['journal', 'verify', dir, '--trust-store', trustPath, '--json']);
  return { code: r.status, report: JSON.parse(r.stdout) as R };
}

describe('reprise journal record / verify / proof through the CLI', () => {
  let base: string;
  let k: Keys;
  let dir: string;
  beforeAll(() => {
    base = tmp();
    k = makeKeys(base);
    dir = join(base, 'j');
    const body = writeJson(join(base, 'body.json'), {
      rationale: 'the replay matched within its band',
      decision: 'accept',
    });
    for (let i = 0; i < 5; i++) {
      const r = cli([
        'journal',
        'record',
        dir,
        '--kind',
        'review-rationale',
        '--claim',
        `claim:${i}`,
        '--body-file',
        body,
        '--key',
        i === 3 ? k.officerPem : k.reviewerPem,
        '--json',
      ]);
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.seq).toBe(i);
      expect(out.entryHash).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(out.checkpoint.treeSize).toBe(i + 1);
    }
  });

  it('verify passes with the trust store, is unavailable without, and `reprise verify DIR` agrees', () => {
    const ok = verifyCli(dir, k.trustPath);
    expect(ok.code).toBe(0);
    expect(ok.report.verdict).toBe('pass');
    const no = cli(['journal', 'verify', dir]);
    expect(no.status).toBe(2);
    expect(no.stdout).toContain('RPR-JOURNAL-011');
    const generic = cli(['verify', dir, '--trust-store', k.trustPath, '--json']);
    expect(generic.status).toBe(0);
    expect(JSON.parse(generic.stdout).artifact.kind).toBe('journal');
  });

  const tamper = (name: string, mutate: (lines: string[]) => string[]) => {
    const t = join(base, name);
    mkdirSync(t, { recursive: true });
    copyFileSync(join(dir, 'checkpoints.jsonl'), join(t, 'checkpoints.jsonl'));
    const lines = readFileSync(join(dir, 'entries.jsonl'), 'utf8').split('\n').slice(0, -1);
    writeFileSync(join(t, 'entries.jsonl'), mutate(lines).join('\n') + '\n');
    return t;
  };
  const expectLine = (t: string, line: number, rules: string[]) => {
    const { code, report } = verifyCli(t, k.trustPath);
    expect(code).toBe(1);
    expect(report.verdict).toBe('fail');
    const at = report.findings.filter((f) => f.severity === 'fail' && f.pointer === `line:${line}`).map((f) => f.rule);
    expect(at.length, JSON.stringify(report.findings)).toBeGreaterThan(0);
    expect(at).toEqual(expect.arrayContaining(rules));
  };

  it('one changed byte in any entry exits 1 naming that line', () => {
    for (let i = 0; i < 5; i++) {
      const t = tamper(`byte${i}`, (ls) =>
        ls.map((l, j) => (j === i ? l.replace('the replay matched', 'the replay matcheD') : l)),
      );
      expectLine(t, i + 1, ['RPR-JOURNAL-007']);
    }
  });

  it('a dropped line exits 1 naming the line where the gap is', () => {
    expectLine(
      tamper('drop', (ls) => ls.filter((_, j) => j !== 2)),
      3,
      ['RPR-JOURNAL-005', 'RPR-JOURNAL-006'],
    );
    // dropping the newest entry: only the checkpoints can tell
    const t = tamper('droplast', (ls) => ls.slice(0, -1));
    const { code, report } = verifyCli(t, k.trustPath);
    expect(code).toBe(1);
    expect(report.findings.find((f) => f.rule === 'RPR-JOURNAL-016')?.pointer).toBe('entry:checkpoints.jsonl:line:5');
  });

  it('two swapped lines exit 1 naming the first of them', () => {
    expectLine(
      tamper('swap', (ls) => [ls[0]!, ls[2]!, ls[1]!, ls[3]!, ls[4]!]),
      2,
      ['RPR-JOURNAL-005', 'RPR-JOURNAL-006'],
    );
  });

  it('a replaced signature exits 1 naming the line', () => {
    const t = tamper('sig', (ls) => {
      const e = JSON.parse(ls[1]!) as Entry;
      const other = JSON.parse(ls[0]!) as Entry;
      return ls.map((l, j) => (j === 1 ? l.replace(e.sig, other.sig) : l));
    });
    expectLine(t, 2, ['RPR-JOURNAL-007']);
  });

  it('an appended entry signed by an unknown key exits 1 naming the line (even with its own checkpoint)', async () => {
    const t = tamper('unknown', (ls) => ls);
    const v = await verifyJournal(t, k.trust);
    const last = v.entries[v.entries.length - 1]!;
    const { line } = signEntry(
      {
        seq: 5,
        prev: last.hash,
        recordedAtUtc: new Date().toISOString(),
        kind: 'review-rationale',
        subject: { claimRef: 'claim:forged' },
        body: { rationale: 'forged' },
        author: k.outsider.keyId,
      },
      k.outsider,
    );
    appendFileSync(join(t, 'entries.jsonl'), line + '\n');
    const { MerkleTree } = await import('../../app/journal/merkle.js');
    const tree = new MerkleTree();
    for (const l of readFileSync(join(t, 'entries.jsonl'), 'utf8').split('\n').slice(0, -1)) tree.appendLeaf(l);
    const cp = signCheckpoint(
      {
        treeSize: 6,
        rootHash: 'sha256:' + tree.root().toString('hex'),
        timestampUtc: new Date().toISOString(),
        signer: k.outsider.keyId,
      },
      k.outsider,
    );
    appendFileSync(join(t, 'checkpoints.jsonl'), cp.line + '\n');
    expectLine(t, 6, ['RPR-JOURNAL-008']);
  });

  it('proof and check-proof round-trip; a proof with a changed bit fails', () => {
    const p = cli(['journal', 'proof', dir, '--entry', '2']);
    expect(p.status, p.stderr).toBe(0);
    const proofPath = join(base, 'proof.json');
    writeFileSync(proofPath, p.stdout);
    const ok = cli(['journal', 'check-proof', proofPath, '--trust-store', k.trustPath, '--json']);
    expect(ok.status, ok.stdout).toBe(0);
    const doc = JSON.parse(p.stdout);
    doc.leafIndex = 3;
    writeFileSync(proofPath, JSON.stringify(doc));
    const bad = cli(['journal', 'check-proof', proofPath, '--trust-store', k.trustPath, '--json']);
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.stdout).findings.map((f: { rule: string }) => f.rule)).toContain('RPR-JOURNAL-033');
  });

  it('--checkpoint: a report held elsewhere catches a truncation that leaves the journal internally valid', () => {
    const t = join(base, 'held');
    mkdirSync(t);
    for (const f of ['entries.jsonl', 'checkpoints.jsonl']) copyFileSync(join(dir, f), join(t, f));
    const report = join(base, 'held-report.json');
    writeFileSync(report, cli(['journal', 'verify', t, '--trust-store', k.trustPath, '--json']).stdout);
    const cut = (f: string, n: number) =>
      writeFileSync(join(t, f), readFileSync(join(t, f), 'utf8').split('\n').slice(0, n).join('\n') + '\n');
    cut('entries.jsonl', 3);
    cut('checkpoints.jsonl', 3);
    expect(verifyCli(t, k.trustPath).code).toBe(0);
    const r = cli(['journal', 'verify', t, '--trust-store', k.trustPath, '--checkpoint', report, '--json']);
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).findings.map((f: { rule: string }) => f.rule)).toContain('RPR-JOURNAL-018');
  });

  it('a torn tail is reported (exit 1), refuses records (exit 3), and is truncated only by repair, which is journaled', () => {
    const t = join(base, 'torn');
    mkdirSync(t);
    for (const f of ['entries.jsonl', 'checkpoints.jsonl']) copyFileSync(join(dir, f), join(t, f));
    appendFileSync(join(t, 'entries.jsonl'), '{"author":"ed25519:ab');
    const { code, report } = verifyCli(t, k.trustPath);
    expect(code).toBe(1);
    expect(report.findings.filter((f) => f.severity === 'fail').map((f) => `${f.rule}@${f.pointer}`)).toEqual([
      'RPR-JOURNAL-013@line:6',
    ]);
    const body = writeJson(join(base, 'b2.json'), {});
    const rec = cli([
      'journal',
      'record',
      t,
      '--kind',
      'review-rationale',
      '--claim',
      'c',
      '--body-file',
      body,
      '--key',
      k.reviewerPem,
    ]);
    expect(rec.status).toBe(3);
    expect(rec.stderr).toContain('torn');
    const rep = cli(['journal', 'repair', t, '--key', k.officerPem, '--json']);
    expect(rep.status, rep.stderr).toBe(0);
    const out = JSON.parse(rep.stdout);
    expect(out.repaired).toBe(true);
    expect(out.seq).toBe(5);
    expect(out.truncated[0].length).toBe('{"author":"ed25519:ab'.length);
    expect(verifyCli(t, k.trustPath).code).toBe(0);
    const again = cli(['journal', 'repair', t, '--key', k.officerPem]);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('nothing to repair');
  });

  it('bad usage and bad input exit 3 with one line, never a stack trace', () => {
    for (const args of [
      ['journal'],
      ['journal', 'frob'],
      ['journal', 'verify'],
      ['journal', 'verify', join(base, 'nope')],
      ['journal', 'record', dir, '--kind', 'nonsense', '--claim', 'c', '--body-file', 'x', '--key', k.reviewerPem],
      [
        'journal',
        'record',
        dir,
        '--kind',
        'quarantine-release',
        '--claim',
        'c',
        '--body-file',
        'x',
        '--key',
        k.reviewerPem,
      ],
      [
        'journal',
        'record',
        dir,
        '--kind',
        'review-rationale',
        '--claim',
        'c',
        '--body-file',
        join(base, 'missing.json'),
        '--key',
        k.reviewerPem,
      ],
      ['journal', 'proof', dir, '--entry', '99'],
      ['journal', 'proof', dir, '--entry', '-1'],
    ]) {
      const r = cli(args);
      expect(r.status, args.join(' ')).toBe(3);
      expect(r.stderr).toMatch(/^reprise: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

describe('two writers, stale locks', () => {
  it('a second writer gets the lock error (exit 3) and the journal stays valid', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    const body = writeJson(join(base, 'body.json'), { note: 'x' });
    // Writer A: a child process holding the lock while it appends slowly.
    const holder = join(base, 'holder.mjs');
    writeFileSync(
      holder,
      `import { JournalWriter } from ${JSON.stringify(join(__dirname, '..', '..', 'dist', 'app', 'journal', 'index.js'))};
       import { loadSigner } from ${JSON.stringify(join(__dirname, '..', '..', 'dist', 'app', 'core', 'keys.js'))};
       const s = await loadSigner(${JSON.stringify(k.reviewerPem)});
       const w = await JournalWriter.open(${JSON.stringify(dir)});
       for (let i = 0; i < 3; i++) await w.append({ kind: 'review-rationale', subject: { claimRef: 'a' + i }, body: { i } }, s);
       process.stdout.write('locked\\n');
       await new Promise((r) => process.stdin.once('data', r));
       await w.append({ kind: 'review-rationale', subject: { claimRef: 'a-last' }, body: {} }, s);
       await w.close();
       process.stdout.write('done\\n');`,
    );
    const child = spawn(process.execPath, [holder], { stdio: ['pipe', 'pipe', 'inherit'] });
    await new Promise<void>((res) => child.stdout.once('data', () => res()));
    const b = cli([
      'journal',
      'record',
      dir,
      '--kind',
      'review-rationale',
      '--claim',
      'b',
      '--body-file',
      body,
      '--key',
      k.officerPem,
    ]);
    expect(b.status).toBe(3);
    expect(b.stderr).toMatch(/^reprise: journal .* is locked by another writer \(pid \d+/);
    child.stdin.end('go\n');
    await new Promise<void>((res) => child.on('exit', () => res()));
    const after = cli([
      'journal',
      'record',
      dir,
      '--kind',
      'review-rationale',
      '--claim',
      'b',
      '--body-file',
      body,
      '--key',
      k.officerPem,
    ]);
    expect(after.status, after.stderr).toBe(0);
    const v = cli(['journal', 'verify', dir, '--trust-store', k.trustPath, '--json']);
    expect(v.status).toBe(0);
    expect(JSON.parse(v.stdout).details.entries).toBe(5);
  });

  it('races of two CLI writers never corrupt the journal', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    const body = writeJson(join(base, 'body.json'), { note: 'x' });
    const run = (key: string) =>
      new Promise<number | null>((res) => {
        const c = spawn(
          process.execPath,
          [
            join(__dirname, '..', '..', 'bin', 'reprise.js'),
            'journal',
            'record',
            dir,
            '--kind',
            'review-rationale',
            '--claim',
            'c',
            '--body-file',
            body,
            '--key',
            key,
          ],
          { stdio: 'ignore' },
        );
        c.on('exit', (code) => res(code));
      });
    let ok = 0;
    let locked = 0;
    for (let round = 0; round < 6; round++) {
      const codes = await Promise.all([run(k.reviewerPem), run(k.officerPem)]);
      for (const c of codes) {
        if (c === 0) ok++;
        else if (c === 3) locked++;
        else expect.fail(`unexpected exit ${c}`);
      }
    }
    expect(ok + locked).toBe(12);
    const v = cli(['journal', 'verify', dir, '--trust-store', k.trustPath, '--json']);
    expect(v.status, v.stdout).toBe(0);
    expect(JSON.parse(v.stdout).details.entries).toBe(ok);
    expect(existsSync(join(dir, 'journal.lock'))).toBe(false);
  });

  it('a stale lock is reported as stale, never broken silently; unlock removes it only when its holder is gone', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    await appendEntry(dir, { kind: 'review-rationale', subject: { claimRef: 'c' }, body: {} }, k.reviewer);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const { hostname } = await import('node:os');
    writeFileSync(
      join(dir, 'journal.lock'),
      JSON.stringify({ pid: Number(dead.stdout), host: hostname(), sinceUtc: '2026-01-01T00:00:00Z' }),
    );
    const body = writeJson(join(base, 'body.json'), {});
    const r = cli(recordArgs(dir, body, k.reviewerPem));
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('stale lock');
    expect(existsSync(join(dir, 'journal.lock'))).toBe(true);
    // A live holder (this test process) is never unlocked.
    writeFileSync(
      join(dir, 'journal.lock'),
      JSON.stringify({ pid: process.pid, host: hostname(), sinceUtc: '2026-01-01T00:00:00Z' }),
    );
    const refuse = cli(['journal', 'unlock', dir]);
    expect(refuse.status).toBe(3);
    expect(refuse.stderr).toContain('still running');
    writeFileSync(
      join(dir, 'journal.lock'),
      JSON.stringify({ pid: Number(dead.stdout), host: hostname(), sinceUtc: '2026-01-01T00:00:00Z' }),
    );
    const un = cli(['journal', 'unlock', dir]);
    expect(un.status, un.stderr).toBe(0);
    const again = cli(recordArgs(dir, body, k.reviewerPem));
    expect(again.status, again.stderr).toBe(0);
  });

  it('a lock whose holder cannot be read is not stale: a writer refuses it, unlock removes it only with --force', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    await appendEntry(dir, { kind: 'review-rationale', subject: { claimRef: 'c' }, body: {} }, k.reviewer);
    const lock = join(dir, 'journal.lock');
    const body = writeJson(join(base, 'body.json'), {});
    const record = () => cli(recordArgs(dir, body, k.reviewerPem));
    for (const [text, why] of [
      ['', 'it is empty'],
      ['{"pid":', 'it is not JSON'],
      ['{"host":"elsewhere"}', 'it names no process id'],
    ] as const) {
      writeFileSync(lock, text);
      const r = record();
      expect(r.status).toBe(3);
      expect(r.stderr).toContain(`holder cannot be read (${lock}: ${why})`);
      expect(r.stderr).toContain(`'reprise journal unlock ${dir} --force'`);
      const refused = cli(['journal', 'unlock', dir]);
      expect(refused.status).toBe(3);
      expect(refused.stderr).toContain(`its holder cannot be read (${why})`);
      expect(existsSync(lock)).toBe(true);
      const forced = cli(['journal', 'unlock', dir, '--force']);
      expect(forced.status, forced.stderr).toBe(0);
      expect(forced.stdout).toContain(`removed a lock whose holder could not be read (${why})`);
      expect(existsSync(lock)).toBe(false);
    }
    // --force never breaks a lock a running process of this host holds (this test's own pid).
    const { hostname } = await import('node:os');
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), sinceUtc: '2026-01-01T00:00:00Z' }));
    const live = cli(['journal', 'unlock', dir, '--force']);
    expect(live.status).toBe(3);
    expect(live.stderr).toContain('still running');
    expect(existsSync(lock)).toBe(true);
    // Another host's lock: refused without --force, removed with it.
    writeFileSync(lock, JSON.stringify({ pid: 1, host: 'another-host', sinceUtc: '2026-01-01T00:00:00Z' }));
    expect(cli(['journal', 'unlock', dir]).stderr).toContain('another host (cannot tell whether it runs)');
    expect(cli(['journal', 'unlock', dir, '--force']).status).toBe(0);
    expect(record().status).toBe(0);
  });
});
