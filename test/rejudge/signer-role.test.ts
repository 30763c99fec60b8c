/**
 * A re-judgement record is a reviewer's audit: signed by a quarantine officer's or a
 * trainer's key, it verifies as no record (RPR-REJUDGE-003 fail, origin "Untrusted signer"),
 * where it was "Trusted signer", exit 0 (found by a red team). In process: no build needed.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliIn, examplesIn } from '../cli/in-process.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';

let ex = '';
let keys: Keys;
let shard = '';

beforeAll(async () => {
  ex = await examplesIn('reprise-rejudge-role-');
  keys = makeKeys(tmp('reprise-rejudge-role-keys-'));
  shard = join(tmp('reprise-rejudge-role-out-'), 'all.jsonl');
  const r = await cliIn(
    ex,
    'rejudge',
    join(ex, 'dumps'),
    '--out',
    shard,
    '--trust-store',
    join(ex, 'dumps', 'trust-store.json'),
  );
  expect(r.code, r.err).toBeLessThanOrEqual(2);
}, 120_000);

async function record(pem: string): Promise<{
  code: number;
  report: {
    findings: { rule: string; severity: string; message: string }[];
    authenticity: { status: string; statement: string };
  };
}> {
  const out = join(tmp('reprise-rejudge-role-rec-'), 'record.json');
  const m = await cliIn(ex, 'rejudge', 'merge', shard, '--key', pem, '--out', out);
  expect(m.code, m.err).toBe(0);
  const v = await cliIn(ex, 'verify', out, '--trust-store', keys.trustPath, '--json');
  return { code: v.code, report: JSON.parse(v.out) };
}

describe('who may sign a re-judgement record', () => {
  it("a quarantine officer's key: RPR-REJUDGE-003 fail, untrusted signer", async () => {
    const { code, report } = await record(keys.officerPem);
    expect(code).toBe(1);
    const f = report.findings.find((x) => x.rule === 'RPR-REJUDGE-003')!;
    expect([f.severity, f.message]).toEqual([
      'fail',
      `${keys.officer.keyId} (test officer) is a quarantine-officer key: a re-judgement record is a reviewer's to sign`,
    ]);
    expect(report.authenticity.status).toBe('untrusted-signer');
  });

  it("a reviewer's key: trusted", async () => {
    const { code, report } = await record(keys.reviewerPem);
    expect(code).toBe(0);
    expect(report.authenticity.status).toBe('trusted-signer');
  });
});
