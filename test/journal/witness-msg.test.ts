/**
 * What `journal verify --witness-policy` and `journal cosign` say about cosignatures.jsonl: a
 * policy witness's line that does not verify the tree it names is a finding at its line (not
 * silently dropped), and a symbolic link is said as the other journal files say it.
 */
import { readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { generateSigner, rawPublicKey } from '../../app/core/keys.js';
import { JournalWriter } from '../../app/journal/index.js';
import { cliIn } from '../cli/in-process.js';
import { makeKeys, tmp, type Keys } from './helpers.js';

interface Finding {
  rule: string;
  severity: string;
  message: string;
  pointer?: string;
}

async function append(dir: string, k: Keys, n: number): Promise<void> {
  const w = await JournalWriter.open(dir, { trustStore: k.trust, signer: k.reviewer, fsync: false });
  for (let i = 0; i < n; i++)
    await w.append({ kind: 'replay-drift', subject: { claimRef: `claim:${i}` }, body: { x: i } }, k.reviewer);
  await w.close();
}

/** A journal of 3 entries, a witness w1 and a policy needing it. */
async function witnessed() {
  const base = tmp('reprise-witness-msg-');
  const k = makeKeys(base);
  const dir = join(base, 'j');
  await append(dir, k, 3);
  const s = generateSigner();
  const pem = join(base, 'w1.pem');
  writeFileSync(pem, s.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  const policy = join(base, 'policy.txt');
  writeFileSync(policy, `witness w1 ${rawPublicKey(s.publicKey).toString('hex')}\nquorum w1\n`);
  const cosign = () =>
    cliIn(base, 'journal', 'cosign', dir, '--key', pem, '--name', 'w1', '--trust-store', k.trustPath);
  const verifyArgs = ['journal', 'verify', dir, '--trust-store', k.trustPath, '--witness-policy', policy, '--json'];
  // RPR-JOURNAL-044 only: the witness findings; stdout is empty when the run crashed.
  const verify = async () => {
    const r = await cliIn(base, ...verifyArgs);
    const all = (JSON.parse(r.out) as { findings: Finding[] }).findings;
    return { code: r.code, findings: all.filter((f) => f.rule === 'RPR-JOURNAL-044'), err: r.err };
  };
  return { base, k, dir, cosign, verify };
}

describe("a policy witness's cosignature that does not verify the tree its line names", () => {
  it('is a failing finding at its line, saying why', async () => {
    const j = await witnessed();
    expect((await j.cosign()).code).toBe(0);
    await append(j.dir, j.k, 2);
    expect((await j.cosign()).code).toBe(0);
    const file = join(j.dir, 'cosignatures.jsonl');
    type Line = { line: string; rootHash: string; treeSize: number; witness: string };
    const [first, second] = readFileSync(file, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Line);
    // The second line (tree 5) moved onto the first's checkpoint (tree 3): its signature is of tree 5.
    const moved: Line = { ...second!, treeSize: 3, rootHash: first!.rootHash };
    writeFileSync(file, canonicalizeValue(first!) + '\n' + canonicalizeValue(moved) + '\n');
    const v = await j.verify();
    expect(v.code, v.err).toBe(1);
    const atLine = v.findings.filter((f) => f.pointer === 'entry:cosignatures.jsonl:line:2');
    expect(atLine).toHaveLength(1);
    expect(atLine[0]!.severity).toBe('fail');
    expect(atLine[0]!.message).toMatch(
      /^cosignatures\.jsonl line 2 does not cosign tree 3: witness w1: .*does not verify the checkpoint$/,
    );
  });

  it('a line that is no signature line is a finding at its line, not a crash', async () => {
    const j = await witnessed();
    expect((await j.cosign()).code).toBe(0);
    const file = join(j.dir, 'cosignatures.jsonl');
    const line = JSON.parse(readFileSync(file, 'utf8')) as { rootHash: string };
    writeFileSync(
      file,
      JSON.stringify({ line: 'no signature line', rootHash: line.rootHash, treeSize: 3, witness: 'w1' }) + '\n',
    );
    const v = await j.verify();
    expect(v.code, v.err).toBe(1);
    expect(v.findings.find((f) => f.pointer === 'entry:cosignatures.jsonl:line:1')?.message).toMatch(
      /^cosignatures\.jsonl line 1 does not cosign tree 3: the line is not a note signature line/,
    );
  });
});

describe('cosignatures.jsonl as a symbolic link', () => {
  it('journal cosign says it as the other journal files do', async () => {
    const j = await witnessed();
    expect((await j.cosign()).code).toBe(0);
    const file = join(j.dir, 'cosignatures.jsonl');
    renameSync(file, join(j.base, 'elsewhere.jsonl'));
    symlinkSync(join(j.base, 'elsewhere.jsonl'), file);
    const r = await j.cosign();
    expect(r.code).not.toBe(0);
    expect(r.err).toContain('a symbolic link: a journal file is opened only as a regular file');
    expect(r.err).not.toContain('ELOOP');
    const v = await j.verify();
    expect(v.findings[0]?.message).toContain('a symbolic link');
  });
});
