/**
 * `reprise rejudge diff` tells an artifact whose content or rules changed under the same
 * verdict from one that did not change: it counted both as unchanged, so a file swapped for
 * another under its name, still failing but for another rule, went unseen (found by a red
 * team). Each such artifact is listed in the text and in `sameVerdict` of --json, and the
 * diff exits 1 as for a verdict change.
 */
import { appendFileSync, copyFileSync, cpSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliIn, examplesIn } from '../cli/in-process.js';
import { revokedCopy } from './helpers.js';

const ACTIVE_DUMP_KEY = 'ed25519:6544b3ded4d4238a926ecc12237863c60ae7a714cfd0b3b49b425d37d5fe447e';

interface Change {
  path: string;
  sha256: { old: string; new: string };
  verdict: { old: string; new: string };
  added: { rule: string; severity: string }[];
  removed: { rule: string; severity: string }[];
}

interface Diff {
  changed: Change[];
  sameVerdict: Change[];
  unchanged: number;
}

/** The example dumps as an archive (without their trust store), judged under it into `out`; `items` its artifacts. */
async function judged(dir: string, out: string) {
  const [arch, trust] = [join(dir, 'arch'), join(dir, 'dumps', 'trust-store.json')];
  cpSync(join(dir, 'dumps'), arch, { recursive: true, filter: (p) => basename(p) !== 'trust-store.json' });
  const r = await cliIn(dir, 'rejudge', arch, '--out', join(dir, out), '--trust-store', trust);
  expect(r.code, r.err).toBe(0);
  const items = readdirSync(arch, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
  return { arch, trust, items };
}

async function diff(dir: string, old: string, now: string): Promise<{ code: number; text: string; json: Diff }> {
  const [o, n] = [join(dir, old), join(dir, now)];
  const text = await cliIn(dir, 'rejudge', 'diff', o, n);
  const json = await cliIn(dir, 'rejudge', 'diff', o, n, '--json');
  expect(json.code, json.err).toBe(text.code);
  return { code: text.code, text: text.out, json: JSON.parse(json.out) as Diff };
}

describe('rejudge diff: content and rules under the same verdict', () => {
  it('a swapped file and an edited one are listed, not counted unchanged, and exit 1', async () => {
    const dir = await examplesIn('reprise-rejudge-diff-content-');
    const { arch, trust, items } = await judged(dir, 'old.jsonl');
    // Still fail: one for another dump's rule (key order), one for the same rules as before.
    copyFileSync(join(arch, 'fail', 'key-order.dump.json'), join(arch, 'fail', 'bad-signature.dump.json'));
    appendFileSync(join(arch, 'fail', 'altered-artifact.dump.json'), ' ');
    const r = await cliIn(dir, 'rejudge', arch, '--out', join(dir, 'new.jsonl'), '--trust-store', trust);
    expect(r.code, r.err).toBe(0);

    const d = await diff(dir, 'old.jsonl', 'new.jsonl');
    expect(d.code).toBe(1);
    expect(d.json.changed).toEqual([]);
    expect(d.json.sameVerdict.map((c) => c.path)).toEqual([
      'fail/altered-artifact.dump.json',
      'fail/bad-signature.dump.json',
    ]);
    const [edited, swapped] = d.json.sameVerdict as [Change, Change];
    expect(edited.verdict).toEqual({ old: 'fail', new: 'fail' });
    expect(edited.sha256.old).not.toBe(edited.sha256.new);
    expect([edited.added, edited.removed]).toEqual([[], []]);
    expect(swapped.sha256.old).not.toBe(swapped.sha256.new);
    expect(swapped.added).toEqual([{ rule: 'RDS-004', severity: 'fail' }]);
    expect(swapped.removed.length).toBeGreaterThan(0);
    expect(d.text).toMatch(/^fail -> fail {2}fail\/altered-artifact\.dump\.json: content changed \(sha256:/m);
    expect(d.text).toMatch(/^fail -> fail {2}fail\/bad-signature\.dump\.json: now RDS-004 \(fail\); no longer /m);
    expect(d.text).toContain(
      `\n0 verdict(s) changed, 2 changed under the same verdict (content or rules), ${items - 2} unchanged, `,
    );
    expect(d.json.unchanged).toBe(items - 2);
  });

  it('a rule gained under the same verdict (a revoked key on a failing dump) is listed', async () => {
    const dir = await examplesIn('reprise-rejudge-diff-rules-');
    const { arch, trust, items } = await judged(dir, 'old.jsonl');
    const revoked = revokedCopy(trust, ACTIVE_DUMP_KEY, join(dir, 'revoked.json'));
    const r = await cliIn(dir, 'rejudge', arch, '--out', join(dir, 'new.jsonl'), '--trust-store', revoked);
    expect(r.code, r.err).toBe(0);

    const d = await diff(dir, 'old.jsonl', 'new.jsonl');
    expect(d.code).toBe(1);
    const keyOrder = d.json.sameVerdict.find((c) => c.path === 'fail/key-order.dump.json');
    expect(keyOrder).toMatchObject({
      verdict: { old: 'fail', new: 'fail' },
      added: [{ rule: 'RDS-007', severity: 'fail' }],
      removed: [],
    });
    expect(keyOrder!.sha256.old).toBe(keyOrder!.sha256.new);
    expect(d.text).toMatch(/^fail -> fail {2}fail\/key-order\.dump\.json: now RDS-007 \(fail\)$/m);
    // Every artifact in both is counted once: verdict changed, changed under it, or unchanged.
    expect(d.json.changed.length + d.json.sameVerdict.length + d.json.unchanged).toBe(items);
  });

  it('a judgement against itself lists nothing and exits 0', async () => {
    const dir = await examplesIn('reprise-rejudge-diff-same-');
    const { items } = await judged(dir, 'old.jsonl');
    const d = await diff(dir, 'old.jsonl', 'old.jsonl');
    expect(d.code).toBe(0);
    expect([d.json.changed, d.json.sameVerdict, d.json.unchanged]).toEqual([[], [], items]);
  });
});
