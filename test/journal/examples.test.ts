import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTrustStore } from '../../app/core/keys.js';
import { journalWriter } from '../../app/kinds/journal/examples.js';
import { verifyJournal } from '../../app/journal/index.js';
import { tmp } from './helpers.js';

describe('journal examples', () => {
  it('are byte-deterministic, the sample verifies with a released and an open case, the tampered copy fails at line 2', async () => {
    const a = await journalWriter.build();
    const b = await journalWriter.build();
    expect(a.map((f) => [f.path, Buffer.from(f.bytes).toString('base64')])).toEqual(
      b.map((f) => [f.path, Buffer.from(f.bytes).toString('base64')]),
    );
    const dir = tmp();
    for (const f of a) {
      const p = join(dir, ...f.path.split('/'));
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, f.bytes);
    }
    const trust = await loadTrustStore(join(dir, 'journal', 'trust-store.json'));
    const ok = await verifyJournal(join(dir, 'journal', 'sample'), trust);
    expect(ok.findings.map((f) => f.severity)).toEqual(['info']);
    expect(ok.cases.cases.map((c) => [c.caseId, c.state])).toEqual([
      ['case-2', 'released'],
      ['case-5', 'open'],
    ]);
    const bad = await verifyJournal(join(dir, 'journal', 'tampered'), trust);
    expect(bad.findings.find((f) => f.severity === 'fail')).toMatchObject({
      rule: 'RPR-JOURNAL-007',
      pointer: 'line:2',
    });
  });
});
