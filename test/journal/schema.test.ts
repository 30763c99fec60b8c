/** Journal reports (every pointer form the journal uses) validate against docs/report.schema.json. */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../app/core/report.js';
import {
  appendEntry,
  checkHeldCheckpoint,
  checkInclusionProof,
  inclusionProof,
  verifyJournal,
} from '../../app/journal/index.js';
import { journalKindResult } from '../../app/journal/result.js';
import { makeKeys, ROOT, tmp } from './helpers.js';

const validate = new Ajv2020({ allErrors: true, strict: true }).compile(
  JSON.parse(readFileSync(join(ROOT, 'docs', 'report.schema.json'), 'utf8')),
);

describe('journal reports and the report schema', () => {
  it('valid, tampered, torn, held-checkpoint and proof reports all validate', async () => {
    const base = tmp();
    const k = makeKeys(base);
    const dir = join(base, 'j');
    for (let i = 0; i < 4; i++)
      await appendEntry(dir, { kind: 'review-rationale', subject: { claimRef: `c${i}` }, body: { i } }, k.reviewer);
    const held = (await verifyJournal(dir, k.trust)).latestCheckpoint;
    const check = async (
      extra: (v: Awaited<ReturnType<typeof verifyJournal>>) => ReturnType<typeof checkHeldCheckpoint> = () => [],
    ) => {
      const v = await verifyJournal(dir, k.trust);
      const res = journalKindResult(v);
      res.findings = [...res.findings, ...extra(v)];
      const r = buildReport({ path: dir, kind: 'journal', sha256: null, ...res }, Date.now());
      expect(validate(r), JSON.stringify(validate.errors)).toBe(true);
      return r;
    };
    expect((await check()).verdict).toBe('pass');
    const p = await inclusionProof(dir, 1);
    const pr = buildReport(
      {
        path: 'proof.json',
        kind: 'journal',
        sha256: null,
        id: p.checkpoint.rootHash,
        chain: [],
        findings: checkInclusionProof({ ...p, leafIndex: 2 }, k.trust).findings,
      },
      Date.now(),
    );
    expect(validate(pr), JSON.stringify(validate.errors)).toBe(true);
    const cps = readFileSync(join(dir, 'checkpoints.jsonl'), 'utf8');
    // Change the first hex digit of the first root to a different digit (never a no-op).
    writeFileSync(
      join(dir, 'checkpoints.jsonl'),
      cps.replace(/"rootHash":"sha256:(.)/, (_m, c: string) => `"rootHash":"sha256:${c === '0' ? '1' : '0'}`),
    );
    const lines = readFileSync(join(dir, 'entries.jsonl'), 'utf8').split('\n');
    writeFileSync(join(dir, 'entries.jsonl'), [lines[0], lines[2], lines[1], ...lines.slice(3)].join('\n'));
    appendFileSync(join(dir, 'entries.jsonl'), '{"torn');
    const r = await check((v) => checkHeldCheckpoint(v, held, k.trust));
    expect(r.verdict).toBe('fail');
    // The reordered entries change the roots the signed notes give too (RPR-JOURNAL-041), and
    // the later entry moved up is dated after the checkpoint that now first covers it (022),
    // and the writer's sealed state.json records another root at its tree size (047).
    expect(new Set(r.findings.map((f) => f.rule))).toEqual(
      new Set([
        'RPR-JOURNAL-005',
        'RPR-JOURNAL-006',
        'RPR-JOURNAL-007',
        'RPR-JOURNAL-012',
        'RPR-JOURNAL-013',
        'RPR-JOURNAL-015',
        'RPR-JOURNAL-017',
        'RPR-JOURNAL-018',
        'RPR-JOURNAL-022',
        'RPR-JOURNAL-041',
        'RPR-JOURNAL-047',
      ]),
    );
  });
});
