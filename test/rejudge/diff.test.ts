/**
 * `reprise rejudge diff` after a revocation: the examples re-judged under the dumps' trust
 * store, then under a copy that revokes the active dump key. Exactly the artifacts signed by
 * that key that did not already fail change (to fail), each for the revocation rule, as
 * `reprise verify` of the same artifacts under the old store predicts.
 */
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../journal/helpers.js';
import { archive, ok, revokedCopy } from './helpers.js';

const ACTIVE_DUMP_KEY = 'ed25519:6544b3ded4d4238a926ecc12237863c60ae7a714cfd0b3b49b425d37d5fe447e';

interface Change {
  path: string;
  verdict: { old: string; new: string };
  added: { rule: string; severity: string }[];
}

describe('reprise rejudge diff', () => {
  it('a revoked key changes exactly the verdicts it should, and says which rule', () => {
    const a = archive('reprise-rejudge-diff-');
    const revoked = revokedCopy(a.trust, ACTIVE_DUMP_KEY, join(a.dir, 'revoked-trust-store.json'));
    const [before, after] = [join(a.dir, 'before.jsonl'), join(a.dir, 'after.jsonl')];
    ok(['rejudge', a.examples, '--out', before, '--trust-store', a.trust]);
    ok(['rejudge', a.examples, '--out', after, '--trust-store', revoked, '--workers', '2']);
    const d = cli(['rejudge', 'diff', before, after, '--json']);
    expect(d.status, d.stderr).toBe(1);
    const diff = JSON.parse(d.stdout) as {
      changed: Change[];
      options: { name: string }[];
      added: string[];
      removed: string[];
    };
    // What should change: every artifact the key signed whose verdict was not already fail.
    const reports = ok(['verify', a.examples, '--jsonl', '--trust-store', a.trust], 1)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { artifact: { path: string }; verdict: string; authenticity?: { keyId?: string } });
    const expected = reports
      .filter((r) => r.authenticity?.keyId === ACTIVE_DUMP_KEY && r.verdict !== 'fail')
      .map((r) => relative(a.examples, r.artifact.path));
    expect(expected.length).toBeGreaterThan(4);
    expect(diff.changed.map((c) => c.path).sort()).toEqual(expected.sort());
    for (const c of diff.changed) {
      expect(c.verdict.new).toBe('fail');
      expect(c.added).toContainEqual({ rule: 'RDS-007', severity: 'fail' });
    }
    expect(diff.options.map((o) => o.name)).toEqual(['trustStore']);
    expect([diff.added, diff.removed]).toEqual([[], []]);
    // The text names each change and its rule; a judgement against itself changes nothing.
    const text = cli(['rejudge', 'diff', before, after]).stdout;
    expect(text).toMatch(/pass -> fail {2}dumps\/intact\.dump\.json: now RDS-007 \(fail\)/);
    const same = cli(['rejudge', 'diff', before, before]);
    expect(same.status).toBe(0);
    expect(same.stdout).toMatch(/^0 verdict\(s\) changed/m);
  });
});
