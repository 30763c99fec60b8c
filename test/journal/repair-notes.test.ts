/**
 * `journal repair` cuts every torn tail a crash can leave, the notes file's too (a note's
 * line is the last thing an append writes: a crash there leaves `"torn…` that the next
 * append would continue into one line of two notes, failing the journal for good), and
 * with `--trust-store` its signer is checked as any writer's: a revoked key journals no
 * repair and the journal is left as it was.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSigner } from '../../app/core/keys.js';
import { appendEntry, verifyJournal } from '../../app/journal/index.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { makeKeys, tmp } from './helpers.js';

const FILES = ['entries.jsonl', 'checkpoints.jsonl', 'notes.jsonl'];

async function tornNotes() {
  const base = tmp('reprise-repair-notes-');
  const revoked = generateSigner();
  const keys = makeKeys(base, [{ signer: revoked, role: 'reviewer', status: 'revoked' }]);
  const revokedPem = join(base, 'revoked.pem');
  writeFileSync(revokedPem, revoked.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  const dir = join(base, 'j');
  const input = { kind: 'replay-drift' as const, subject: { claimRef: 'claim:x' }, body: { x: 1 } };
  for (let i = 0; i < 2; i++) await appendEntry(dir, input, keys.reviewer, { fsync: false, trustStore: keys.trust });
  appendFileSync(join(dir, 'notes.jsonl'), '"torn note');
  const snapshot = () => FILES.map((f) => readFileSync(join(dir, f), 'utf8'));
  return { dir, keys, revokedPem, snapshot };
}

describe.skipIf(!cliBuilt())('journal repair', () => {
  it('cuts a torn notes.jsonl tail and journals it; the journal then verifies and takes an append', async () => {
    const { dir, keys, snapshot } = await tornNotes();
    // Until the repair, nothing is appended after the torn bytes (one line of two notes).
    const before = snapshot();
    const next = { kind: 'replay-drift' as const, subject: { claimRef: 'claim:x' }, body: { x: 3 } };
    await expect(appendEntry(dir, next, keys.reviewer, { fsync: false, trustStore: keys.trust })).rejects.toThrow(
      /notes\.jsonl ends with a torn line \(10 bytes after the last newline\)/,
    );
    expect(snapshot()).toEqual(before);
    const r = await runCli(['journal', 'repair', dir, '--key', keys.reviewerPem, '--trust-store', keys.trustPath]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^truncated notes\.jsonl at byte \d+: 10 torn byte\(s\) sha256:[0-9a-f]{64}\n/);
    expect(readFileSync(join(dir, 'notes.jsonl'), 'utf8').endsWith('\n')).toBe(true);
    const input = { kind: 'replay-drift' as const, subject: { claimRef: 'claim:x' }, body: { x: 2 } };
    await appendEntry(dir, input, keys.reviewer, { fsync: false, trustStore: keys.trust });
    const v = await verifyJournal(dir, keys.trust);
    expect(v.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    expect(v.entryLines).toBe(4);
  });

  it('with --trust-store, refuses a revoked key: exit 3, one line, nothing cut or written', async () => {
    const { dir, keys, revokedPem, snapshot } = await tornNotes();
    const before = snapshot();
    const r = await runCli(['journal', 'repair', dir, '--key', revokedPem, '--trust-store', keys.trustPath]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/not recorded: .* is revoked/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(snapshot()).toEqual(before);
  });
});
