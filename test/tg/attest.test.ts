/* eslint-disable @typescript-eslint/no-explicit-any -- the tests edit parsed JSON fixtures freely */
/** Attestations round-trip: sign, verify, and fail verification after any byte changes. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyAttestation } from '../../app/attest/verify.js';
import { loadTrustStore } from '../../app/core/keys.js';
import { verdictOf } from '../../shared/report.js';
import { journalCopy, runCli, writeExamples } from './helpers.js';

let ex = '';
let j: { dir: string; trust: string; key: string };
let work = '';
beforeAll(async () => {
  ex = await writeExamples();
  j = await journalCopy(ex);
  work = mkdtempSync(join(tmpdir(), 'reprise-tg-att-'));
});

describe('reprise attest', () => {
  it('signs a BANDED replay, discloses composition and tolerance policy, verifies, and binds the manifest', async () => {
    const manifest = join(ex, 'tg', 'banded-within-epsilon', 'manifest.json');
    const out = join(work, 'banded.att.json');
    // The governed bundle: the embedded one's ε decides no BANDED pass (RPR-TG-043).
    const policy = ['--policy', join(ex, 'tg', 'bundle.json')];
    const a = await runCli(['attest', manifest, '--key', j.key, '--out', out, ...policy]);
    expect(a.code).toBe(0);
    const env = JSON.parse(readFileSync(out, 'utf8')) as {
      payloadType: string;
      payload: string;
      signatures: { keyid: string }[];
    };
    expect(env.payloadType).toBe('application/vnd.in-toto+json');
    const st = JSON.parse(Buffer.from(env.payload, 'base64').toString('utf8')) as Record<string, any>;
    expect(st['_type']).toBe('https://in-toto.io/Statement/v1');
    expect(st['predicate'].modeComposition).toEqual({ BANDED: 2, EXACT: 4, RECORDED: 0 });
    expect(st['predicate'].tolerancePolicy.bundleHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(st['predicate'].tolerancePolicy.epsilon['comp.TG.OUTPUT.CONFIDENCE-SCORE.v1_0']).toBe(0.03);
    const v = await runCli(['attest', '--verify', out, '--trust-store', j.trust, '--manifest', manifest, '--json']);
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout).verdict).toBe('pass');
    const other = await runCli([
      'attest',
      '--verify',
      out,
      '--trust-store',
      j.trust,
      '--manifest',
      join(ex, 'tg', 'exact-intact', 'manifest.json'),
    ]);
    expect(other.code).toBe(1);
    expect(other.stdout).toContain('RPR-ATTEST-009');
    // Same replay, same key: the same bytes.
    const again = join(work, 'banded2.att.json');
    await runCli(['attest', manifest, '--key', j.key, '--out', again, ...policy]);
    expect(readFileSync(again)).toEqual(readFileSync(out));
  });

  it('an all-EXACT attestation carries no tolerance policy; a RECORDED output without an anchor is not presented as replayable', async () => {
    const out = join(work, 'rec.att.json');
    const a = await runCli([
      'attest',
      join(ex, 'tg', 'recorded-unanchored', 'manifest.json'),
      '--key',
      j.key,
      '--out',
      out,
    ]);
    expect(a.code).toBe(1); // the replay verdict is fail, and the attestation says so
    const st = JSON.parse(
      Buffer.from((JSON.parse(readFileSync(out, 'utf8')) as { payload: string }).payload, 'base64').toString('utf8'),
    ) as Record<string, any>;
    expect(st['predicate'].tolerancePolicy).toBeNull();
    expect(st['predicate'].verdict).toBe('fail');
    expect(st['predicate'].recordedOutputs).toEqual([expect.objectContaining({ replayable: false, anchor: null })]);
    // Authentic, and about that manifest, but the replay it states failed: never a PASS (RPR-ATTEST-010).
    const v = await runCli([
      'attest',
      '--verify',
      out,
      '--trust-store',
      j.trust,
      '--manifest',
      join(ex, 'tg', 'recorded-unanchored', 'manifest.json'),
    ]);
    expect(v.code).toBe(1);
    expect(v.stdout).toContain('RPR-ATTEST-010');
  });

  it('a RECORDED output whose anchor verified is presented as replayable, with its anchor', async () => {
    const out = join(work, 'anchored.att.json');
    const a = await runCli([
      'attest',
      join(ex, 'tg', 'recorded-anchored', 'manifest.json'),
      '--key',
      j.key,
      '--out',
      out,
      '--journal',
      join(ex, 'tg', 'journal'),
      '--trust-store',
      join(ex, 'tg', 'trust-store.json'),
    ]);
    expect(a.code).toBe(0);
    const st = JSON.parse(
      Buffer.from((JSON.parse(readFileSync(out, 'utf8')) as { payload: string }).payload, 'base64').toString('utf8'),
    ) as Record<string, any>;
    expect(st['predicate'].modeComposition).toEqual({ BANDED: 0, EXACT: 5, RECORDED: 1 });
    expect(st['predicate'].recordedOutputs).toEqual([
      expect.objectContaining({ replayable: true, anchor: { entryHash: expect.stringMatching(/^sha256:/), seq: 0 } }),
    ]);
    const manifest = join(ex, 'tg', 'recorded-anchored', 'manifest.json');
    expect((await runCli(['attest', '--verify', out, '--trust-store', j.trust, '--manifest', manifest])).code).toBe(0);
  });

  it('fails verification after any single-byte change of the envelope', async () => {
    const out = join(work, 'mut.att.json');
    expect(
      (
        await runCli([
          'attest',
          join(ex, 'tg', 'banded-within-epsilon', 'manifest.json'),
          '--key',
          j.key,
          '--out',
          out,
          '--policy',
          join(ex, 'tg', 'bundle.json'),
        ])
      ).code,
    ).toBe(0);
    const bytes = readFileSync(out);
    const trust = await loadTrustStore(j.trust);
    expect(verdictOf(verifyAttestation(bytes, trust).findings)).toBe('pass');
    let checked = 0;
    for (let i = 0; i < bytes.length; i++) {
      // Every byte changes once (bit 0); bit 5 too on every 8th byte (case flips in base64 and hex).
      for (const flip of i % 8 === 0 ? [0x01, 0x20] : [0x01]) {
        const b = Buffer.from(bytes);
        b[i] = b[i]! ^ flip;
        const verdict = verdictOf(verifyAttestation(b, trust).findings);
        if (verdict === 'pass') throw new Error(`byte ${i} ^ ${flip} still verifies`);
        checked++;
      }
    }
    expect(checked).toBe(bytes.length + Math.ceil(bytes.length / 8));
    // Through the CLI too: one changed byte in the payload is a signature failure (exit 1).
    const b = Buffer.from(bytes);
    const at = b.indexOf('"payload":"') + 20;
    b[at] = b[at] === 0x41 ? 0x42 : 0x41;
    writeFileSync(join(work, 'bad.att.json'), b);
    const v = await runCli(['attest', '--verify', join(work, 'bad.att.json'), '--trust-store', j.trust]);
    expect(v.code).toBe(1);
    expect(v.stdout).toContain('RPR-ATTEST-003');
  }, 180_000);

  it('an unknown signer is unavailable; usage errors exit 3 without a stack trace', async () => {
    const out = join(work, 'u.att.json');
    await runCli(['attest', join(ex, 'tg', 'exact-intact', 'manifest.json'), '--key', j.key, '--out', out]);
    const v = await runCli(['attest', '--verify', out, '--trust-store', join(ex, 'tg', 'trust-store.json')]);
    expect(v.code).toBe(2);
    const u = await runCli(['attest', join(ex, 'tg', 'bundle.json'), '--key', j.key]);
    expect(u.code).toBe(3);
    expect(u.stderr).not.toMatch(/\bat \S+:\d+:\d+/);
    const k = await runCli(['attest', join(ex, 'tg', 'exact-intact', 'manifest.json')]);
    expect(k.code).toBe(3);
  });
});
