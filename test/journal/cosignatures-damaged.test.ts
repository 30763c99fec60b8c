/**
 * A damaged cosignatures.jsonl. `journal verify --witness-policy` reports each line it cannot
 * read as a failing finding naming the line (exit 1, never the exit 3 of a tool that could
 * not run) and still weighs the good lines. A torn last line, which the next cosignature's
 * append would join into one line of two, makes `journal cosign` refuse and write nothing;
 * `journal repair` cuts it (journaled) and the witness cosigns again.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
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

interface Finding {
  rule: string;
  severity: string;
  message: string;
  pointer?: string;
}

async function journalWithWitness() {
  const base = tmp();
  const k = makeKeys(base);
  const dir = join(base, 'j');
  const w = await JournalWriter.open(dir, { trustStore: k.trust, signer: k.reviewer, fsync: false });
  for (let i = 0; i < 3; i++) await w.append(input(i), k.reviewer);
  await w.close();
  const s = generateSigner();
  const pem = join(base, 'w1.pem');
  writeFileSync(pem, s.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  const policy = join(base, 'policy.txt');
  writeFileSync(policy, `witness w1 ${rawPublicKey(s.publicKey).toString('hex')}\nquorum w1\n`);
  const cosign = () => cli(['journal', 'cosign', dir, '--key', pem, '--name', 'w1', '--trust-store', k.trustPath]);
  const verify = () => {
    const r = cli(['journal', 'verify', dir, '--trust-store', k.trustPath, '--witness-policy', policy, '--json']);
    const findings = (JSON.parse(r.stdout) as { findings: Finding[] }).findings.filter(
      (f) => f.rule === 'RPR-JOURNAL-044',
    );
    return { status: r.status, findings, stderr: r.stderr };
  };
  return { base, k, dir, cosign, verify };
}

describe('a damaged cosignatures.jsonl', () => {
  it('is a failing finding per bad line, and the good lines still count', async () => {
    const j = await journalWithWitness();
    expect(j.cosign().status).toBe(0);
    const file = join(j.dir, 'cosignatures.jsonl');
    const good = readFileSync(file, 'utf8');
    writeFileSync(file, 'not json at all\n' + good + '{"witness":"w9"}\n');
    const v = j.verify();
    expect(v.status, v.stderr).toBe(1);
    expect(v.findings.filter((f) => f.severity === 'fail').map((f) => [f.pointer, f.message])).toEqual([
      ['entry:cosignatures.jsonl:line:1', 'cosignatures.jsonl line 1 is not canonical JSON'],
      ['entry:cosignatures.jsonl:line:3', 'cosignatures.jsonl line 3 is not {line, rootHash, treeSize, witness}'],
    ]);
    // The good cosignature (line 2) still meets the quorum on the newest checkpoint.
    expect(v.findings.find((f) => f.severity === 'info')?.message).toMatch(/quorum "w1" met on the newest checkpoint/);
  });

  it('a torn last line: cosign refuses and writes nothing, repair cuts it, cosign goes on', async () => {
    const j = await journalWithWitness();
    expect(j.cosign().status).toBe(0);
    const file = join(j.dir, 'cosignatures.jsonl');
    appendFileSync(file, '{"line":"— w1 AAAA');
    const before = readFileSync(file);
    const v = j.verify();
    expect(v.status).toBe(1);
    expect(v.findings[0]).toMatchObject({
      severity: 'fail',
      pointer: 'entry:cosignatures.jsonl:line:2',
      message: 'cosignatures.jsonl line 2 is not ended by a newline (a torn write)',
    });
    const refused = j.cosign();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`run 'reprise journal repair ${j.dir}'`);
    expect(refused.stderr).toContain('nothing was written');
    expect(readFileSync(file).equals(before)).toBe(true);

    const repaired = cli(['journal', 'repair', j.dir, '--key', j.k.reviewerPem, '--trust-store', j.k.trustPath]);
    expect(repaired.status, repaired.stderr).toBe(0);
    expect(readFileSync(file, 'utf8').endsWith('\n')).toBe(true);
    // The repair entry grew the tree: w1 cosigns the new checkpoint, consistent with the old one.
    const again = j.cosign();
    expect(again.status, again.stderr).toBe(0);
    expect(j.verify()).toMatchObject({ status: 0, findings: [{ severity: 'info' }] });
  });
});
