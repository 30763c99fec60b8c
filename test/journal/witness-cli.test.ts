/**
 * Issue 26, part 3 through the CLI: a witness cosigns the journal's latest checkpoint only
 * when it extends the one that witness cosigned before; `journal verify --witness-policy`
 * reports the quorum; `journal proof --from` exports an RFC 9162 consistency proof carrying
 * the checkpoint's signed note, which `check-proof` verifies and refuses once altered.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSigner, rawPublicKey } from '../../app/core/keys.js';
import { JournalWriter } from '../../app/journal/index.js';
import { cli, makeKeys, tmp } from './helpers.js';

const input = (i: number) => ({
  kind: 'review-rationale' as const,
  subject: { claimRef: `claim:${i}` },
  body: { rationale: 'the replay matched', decision: 'accept' },
});

describe('witnesses and consistency proofs through the CLI', () => {
  it('cosign, quorum k of n, a refused cosignature after a rewrite, and a consistency proof', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    const append = async (n: number) => {
      const w = await JournalWriter.open(dir, { trustStore: k.trust, signer: k.reviewer, fsync: false });
      for (let i = 0; i < n; i++) await w.append(input(i), k.reviewer);
      await w.close();
    };
    await append(5);
    const witnesses = ['w1', 'w2', 'w3'].map((name) => {
      const s = generateSigner();
      const pem = join(base, `${name}.pem`);
      writeFileSync(pem, s.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
      return { name, pem, hex: rawPublicKey(s.publicKey).toString('hex') };
    });
    const policy = (q: string) => {
      const p = join(base, `policy-${q}.txt`);
      writeFileSync(
        p,
        witnesses.map((w) => `witness ${w.name} ${w.hex}`).join('\n') + `\ngroup two 2 w1 w2 w3\nquorum ${q}\n`,
      );
      return p;
    };
    const verify = (q: string) => {
      const r = cli(['journal', 'verify', dir, '--trust-store', k.trustPath, '--witness-policy', policy(q), '--json']);
      return {
        status: r.status,
        quorum: JSON.parse(r.stdout).findings.filter((f: { rule: string }) => f.rule === 'RPR-JOURNAL-044') as {
          severity: string;
          message: string;
        }[],
      };
    };
    const cosign = (w: (typeof witnesses)[number]) =>
      cli(['journal', 'cosign', dir, '--key', w.pem, '--name', w.name, '--trust-store', k.trustPath]);

    expect(verify('two')).toMatchObject({ status: 1, quorum: [{ severity: 'fail' }] });
    const c1 = cosign(witnesses[0]!);
    expect(c1.status, c1.stderr).toBe(0);
    expect(c1.stdout).toMatch(/^w1 cosigned tree 5/);
    expect(c1.stdout).toContain('— w1 ');
    expect(verify('w1')).toMatchObject({ status: 0, quorum: [{ severity: 'info' }] });
    expect(verify('two').quorum[0]!.message).toMatch(/lacks w2, w3|lacks/);
    expect(cosign(witnesses[1]!).status).toBe(0);
    expect(verify('two')).toMatchObject({ status: 0, quorum: [{ severity: 'info' }] });
    const copyAt5 = join(base, 'copy-at-5');
    cpSync(dir, copyAt5, { recursive: true });
    // Newer entries: the quorum holds on tree 5 only, which the report says.
    await append(3);
    const later = verify('two');
    expect(later.status).toBe(0);
    expect(later.quorum[0]).toMatchObject({ severity: 'warning' });
    expect(later.quorum[0]!.message).toMatch(/tree 5.*3 newer entries/);
    // w1 cosigns again: consistent with tree 5.
    const again = cosign(witnesses[0]!);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/consistent with tree 5/);

    // A consistency proof from tree 5 to the latest checkpoint, with its note; altered, it fails.
    const p = cli(['journal', 'proof', dir, '--from', '5']);
    expect(p.status, p.stderr).toBe(0);
    const doc = JSON.parse(p.stdout);
    expect(doc).toMatchObject({ type: 'reprise.journal-consistency/v1', fromSize: 5, treeSize: 8 });
    expect(typeof doc.note).toBe('string');
    const proofPath = join(base, 'cons.json');
    writeFileSync(proofPath, p.stdout);
    expect(cli(['journal', 'check-proof', proofPath, '--trust-store', k.trustPath]).status).toBe(0);
    writeFileSync(proofPath, JSON.stringify({ ...doc, fromRoot: 'sha256:' + '11'.repeat(32) }));
    const bad = cli(['journal', 'check-proof', proofPath, '--trust-store', k.trustPath, '--json']);
    expect(bad.status).toBe(1);
    expect(JSON.parse(bad.stdout).findings.map((f: { rule: string }) => f.rule)).toContain('RPR-JOURNAL-036');
    writeFileSync(proofPath, JSON.stringify({ ...doc, note: doc.note.replace('\n8\n', '\n7\n') }));
    expect(
      JSON.parse(
        cli(['journal', 'check-proof', proofPath, '--trust-store', k.trustPath, '--json']).stdout,
      ).findings.map((f: { rule: string }) => f.rule),
    ).toContain('RPR-JOURNAL-035');

    // A fork: a copy of the journal taken at tree 5 (with its cosignatures file) grows other
    // entries to tree 8. Its own records say nothing against it; w1's memory (its state file,
    // beside its key) holds tree 8 of the original, so w1 refuses it.
    const fork = join(base, 'fork');
    cpSync(copyAt5, fork, { recursive: true });
    const wf = await JournalWriter.open(fork, { trustStore: k.trust, signer: k.officer, fsync: false });
    for (let i = 0; i < 3; i++) await wf.append(input(100 + i), k.officer);
    await wf.close();
    const forked = cli([
      'journal',
      'cosign',
      fork,
      '--key',
      witnesses[0]!.pem,
      '--name',
      'w1',
      '--trust-store',
      k.trustPath,
    ]);
    expect(forked.status, forked.stdout).toBe(1);
    expect(forked.stderr).toMatch(/rewritten or forked/);
    // w3 never cosigned the original: it may cosign the fork (a witness judges only what it saw).
    expect(
      cli(['journal', 'cosign', fork, '--key', witnesses[2]!.pem, '--name', 'w3', '--trust-store', k.trustPath]).status,
    ).toBe(0);

    // A rewritten journal (a fork of what w1 cosigned): the next cosignature is refused, exit 1.
    const lines = readFileSync(join(dir, 'entries.jsonl'), 'utf8');
    writeFileSync(join(dir, 'entries.jsonl'), lines.replace('claim:1"', 'claim:9"'));
    const refused = cosign(witnesses[0]!);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/does not verify|refused/);
  });
});
