/**
 * A held file that holds no checkpoint (`{"details":{}}`, `{"details":null}`, another kind's
 * report) given to `journal verify --checkpoint` or `--since` is refused (RPR-JOURNAL-014,
 * exit 1), as `details.latestCheckpoint: null` is: it is never read as "no held checkpoint",
 * which would run a plain verification and pass a journal cut short.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { journalLines, journalWithKeys, verifyCli, verifyJson, writeHeld, type Journal } from './witness-helpers.js';

/** A journal of three entries cut back to two (with their checkpoints and notes, the writer's derived files gone): it verifies alone. */
async function truncated(): Promise<Journal> {
  const j = await journalWithKeys('reprise-since-held-', 3);
  for (const f of ['entries.jsonl', 'checkpoints.jsonl', 'notes.jsonl']) {
    const kept = journalLines(j.dir, f).slice(0, 2);
    writeFileSync(join(j.dir, f), kept.join('\n') + '\n');
  }
  for (const f of ['state.json', 'tree.bin', 'index.bin']) rmSync(join(j.dir, f));
  return j;
}

const HELD = {
  'details without latestCheckpoint': { details: {} },
  'details null': { details: null },
  "another kind's report": {
    schema: 'reprise.report/v1',
    artifact: { path: 'run.dump.json', kind: 'replay-dump', id: null, sha256: null },
    verdict: 'pass',
    findings: [],
    details: { events: 3 },
  },
};

describe('a held file that holds no checkpoint', () => {
  it('the truncated journal verifies on its own (nothing else says it lost an entry)', async () => {
    const j = await truncated();
    expect((await verifyCli(j)).code).toBe(0);
  });

  for (const flag of ['--checkpoint', '--since'])
    for (const [what, doc] of Object.entries(HELD))
      it(`${flag} with ${what}: refused (RPR-JOURNAL-014, exit 1), never a plain verify`, async () => {
        const j = await truncated();
        const r = await verifyJson(j, flag, writeHeld(j.base, JSON.stringify(doc)));
        expect(r.code, r.err).toBe(1);
        const refused = r.findings.filter((f) => f.rule === 'RPR-JOURNAL-014');
        expect(refused).toEqual([
          expect.objectContaining({
            severity: 'fail',
            message: expect.stringMatching(/^the held file holds no checkpoint/),
          }),
        ]);
      });

  it('details.latestCheckpoint null is refused the same way', async () => {
    const j = await truncated();
    const r = await verifyCli(j, '--since', writeHeld(j.base, JSON.stringify({ details: { latestCheckpoint: null } })));
    expect(r.code).toBe(1);
    expect(r.out).toContain('RPR-JOURNAL-014  the held file holds no checkpoint');
  });
});
