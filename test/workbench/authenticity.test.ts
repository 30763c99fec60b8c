/**
 * `report.authenticity`: every kind with a notion of origin states it, in the engine,
 * from what it established (signature, trust store, journal anchors); the workbench's
 * banner only shows it. Runs the built-in examples with and without their options.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { runBytes, runPath } from '../../app/engine/run.js';
import { writeExamples } from '../../app/examples/index.js';
import { dumpAuthenticity } from '../../app/kinds/replay-dump/authenticity.js';

let dir = '';
const at = (p: string) => join(dir, p);
const KEY = /^ed25519:[0-9a-f]{64}$/;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reprise-auth-'));
  await writeExamples(dir);
});

async function dump(name: string, trust = true): Promise<Report> {
  return runPath(at(`dumps/${name}`), 'verify', trust ? { trustStore: at('dumps/trust-store.json') } : {});
}

describe('replay dumps (derived in app/core/authenticity.ts from the signature and trust chain nodes)', () => {
  it('intact with its trust store: trusted signer, with the key id', async () => {
    const r = await dump('intact.dump.json');
    expect(r.authenticity?.status).toBe('trusted-signer');
    expect(r.authenticity?.keyId).toMatch(KEY);
    expect(r.authenticity?.statement).toMatch(/^Trusted signer: the dump verifies under ed25519:/);
  });
  it('the signer is named: the role and label the trust store gives its key, in a fixed member order', async () => {
    const r = await dump('intact.dump.json');
    expect(r.authenticity).toMatchObject({ role: 'reviewer', label: expect.stringMatching(/^sample dump signer/) });
    expect(Object.keys(r.authenticity!)).toEqual(['status', 'keyId', 'role', 'label', 'statement']);
    // A revoked key the store knows is named too (who it was matters most then).
    expect((await dump('fail/revoked-key.dump.json')).authenticity).toMatchObject({
      role: 'reviewer',
      label: 'sample revoked key',
    });
  });
  it('intact without a trust store: unknown signer, saying no trust store was given, and no role guessed', async () => {
    const r = await dump('intact.dump.json', false);
    expect(r.authenticity?.role).toBeUndefined();
    expect(r.authenticity?.label).toBeUndefined();
    expect(r.authenticity?.status).toBe('unknown-signer');
    expect(r.authenticity?.statement).toMatch(/no trust store was given/);
  });
  it('a key not in the trust store: unknown signer', async () => {
    const r = await dump('unavailable/unknown-key.dump.json');
    expect(r.authenticity?.status).toBe('unknown-signer');
    expect(r.authenticity?.role).toBeUndefined();
    expect(r.authenticity?.statement).toMatch(/not in the trust store/);
  });
  it('a revoked key: revoked signer', async () => {
    const r = await dump('fail/revoked-key.dump.json');
    expect(r.authenticity?.status).toBe('revoked-signer');
  });
  it('a signature that does not verify: bad signature', async () => {
    const r = await dump('fail/bad-signature.dump.json');
    expect(r.authenticity).toMatchObject({ status: 'bad-signature' });
    expect(r.authenticity?.statement).toMatch(/does not verify/);
  });
  it('a signature whose keyId is malformed or missing: not checked, and not "unsigned"', () => {
    const node = [
      { id: 'signature', label: 's', recorded: null, recomputed: null, status: 'missing' as const, parents: [] },
    ];
    const malformed = dumpAuthenticity(node, [
      { rule: 'RPR-DUMP-004', severity: 'fail', message: 'm', pointer: '/keyId' },
    ]);
    expect(malformed.status).toBe('consistency-only');
    expect(malformed.statement).toMatch(/carries a signature, but its signing key id is missing or malformed/);
    const both = dumpAuthenticity(node, [
      { rule: 'RDS-001', severity: 'fail', message: 'm', pointer: '/keyId' },
      { rule: 'RDS-001', severity: 'fail', message: 'm', pointer: '/signature' },
    ]);
    expect(both.status).toBe('unsigned');
  });
  it('no keyId and no signature: unsigned', () => {
    const a = dumpAuthenticity(
      [{ id: 'signature', label: 's', recorded: null, recomputed: null, status: 'missing', parents: [] }],
      [],
    );
    expect(a).toEqual({
      status: 'unsigned',
      statement: 'Unsigned: the dump carries no signature; consistency only, origin not established.',
    });
  });
  it('a dump too broken to reach its signature: consistency only', () => {
    expect(dumpAuthenticity([], []).status).toBe('consistency-only');
  });
});

describe('journals (the journal kind, from its verification)', () => {
  it('the sample journal with its trust store: trusted signer of the latest checkpoint', async () => {
    const r = await runPath(at('journal/sample'), 'verify', { trustStore: at('journal/trust-store.json') });
    expect(r.artifact.kind).toBe('journal');
    expect(r.authenticity?.status).toBe('trusted-signer');
    const cp = r.details?.['latestCheckpoint'] as { signer: string };
    expect(r.authenticity?.keyId).toBe(cp.signer);
  });
  it('without a trust store: unknown signer', async () => {
    const r = await runPath(at('journal/sample'), 'verify', {});
    expect(r.authenticity?.status).toBe('unknown-signer');
  });
  it('a journal signed by a key missing from the trust store: unknown signer', async () => {
    const other = await mkdtemp(join(tmpdir(), 'reprise-auth-ts-'));
    await writeFile(join(other, 'ts.json'), await readFile(at('dumps/trust-store.json')));
    const r = await runPath(at('journal/sample'), 'verify', { trustStore: join(other, 'ts.json') });
    expect(r.verdict).toBe('fail');
    expect(r.authenticity?.status).toBe('unknown-signer');
    expect(r.authenticity?.statement).toMatch(/not in the trust store/);
  });
});

describe('unsigned kinds state consistency only, with their reason', () => {
  it('a TG manifest: no signature; anchored RECORDED artifacts are counted', async () => {
    const plain = await runPath(at('tg/exact-intact/manifest.json'), 'replay', {});
    expect(plain.authenticity?.status).toBe('consistency-only');
    expect(plain.authenticity?.statement).toMatch(/TG replay manifest carries no signature/);
    const anchored = await runPath(at('tg/recorded-anchored/manifest.json'), 'replay', {
      journal: at('tg/journal'),
      trustStore: at('tg/trust-store.json'),
    });
    expect(anchored.verdict).toBe('pass');
    expect(anchored.authenticity?.statement).toMatch(
      /1 of 1 RECORDED artifact\(s\) are anchored in a journal whose signed checkpoints verified/,
    );
    const unproven = await runPath(at('tg/recorded-anchored/manifest.json'), 'replay', {});
    expect(unproven.authenticity?.statement).toMatch(/0 of 1 RECORDED .* \(the others are not proven\)/);
  });
  it('a TG policy bundle, a Nemosyne package, ACGP traces', async () => {
    expect((await runPath(at('tg/bundle.json'), 'verify', {})).authenticity?.statement).toMatch(
      /policy bundle carries no signature/,
    );
    const pkg = await runPath(at('packages/intact/v2-no-digest.nemosyne'), 'verify', {});
    expect(pkg.authenticity).toEqual({
      status: 'consistency-only',
      statement: expect.stringMatching(/establish consistency, not origin/),
    });
    const trace = await runPath(at('acgp/trace-private-provider.json'), 'replay', {});
    expect(trace.authenticity?.status).toBe('consistency-only');
    expect(trace.authenticity?.statement).toMatch(
      /traces carry no signature.*recomputes the trust debt.*attestation digests are checked for form only/,
    );
    const single = await runPath(at('acgp/seed-eval.json'), 'verify', {});
    expect(single.authenticity?.statement).toMatch(
      /^Consistency only, origin not established: ACGP evaluations carry no signature/,
    );
  });
  it('unknown content has no authenticity', async () => {
    const r = await runBytes('x.json', Buffer.from('{"a":1}'), 'verify', {});
    expect(r.authenticity).toBeUndefined();
  });
});
