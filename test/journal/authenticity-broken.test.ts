/**
 * A journal that fails its checks (entries replaced by other bytes) was said to be signed
 * throughout: "Trusted signers: every entry and checkpoint of the journal … verifies under a
 * key in the trust store" above its RPR-JOURNAL-002 failures (found by a red team). Its
 * origin now vouches for the latest checkpoint only; an intact journal's is unchanged.
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { cliIn, examplesIn } from '../cli/in-process.js';
import { tmp } from './helpers.js';

let ex = '';
let out = '';
beforeAll(async () => {
  ex = await examplesIn('reprise-auth-broken-');
  out = tmp('reprise-auth-broken-out-');
}, 120_000);

const verify = async (dir: string): Promise<Report> => {
  const r = await cliIn(
    out,
    'journal',
    'verify',
    dir,
    '--trust-store',
    join(ex, 'journal', 'trust-store.json'),
    '--json',
  );
  return JSON.parse(r.out) as Report;
};

describe("a failing journal's origin", () => {
  it('entries that do not parse: only the latest checkpoint is said to verify', async () => {
    const dir = join(out, 'garbage');
    cpSync(join(ex, 'journal', 'sample'), dir, { recursive: true });
    writeFileSync(join(dir, 'entries.jsonl'), 'garbage\n');
    const r = await verify(dir);
    expect(r.verdict).toBe('fail');
    expect(r.authenticity?.statement).not.toContain('every entry');
    expect(r.authenticity?.statement).toContain(
      'the latest checkpoint of the journal (the journal fails other checks, so this vouches for none of its entries)',
    );
  });

  it('an intact journal still says every entry and checkpoint verifies', async () => {
    const r = await verify(join(ex, 'journal', 'sample'));
    expect(r.verdict).toBe('pass');
    expect(r.authenticity?.statement).toContain('every entry and checkpoint of the journal');
  });
});
