/**
 * A quarantine decision stands when its key is retired later (docs/journal.md: retiring takes
 * a key out of service, what it signed before still verifies), and falls when its key is
 * revoked: the case's state read under the store of the day must not reopen a released case
 * because its officer has since rotated keys. A new decision needs an active key either way.
 */
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateSigner, parseTrustStore, trustStoreEntry } from '../../app/core/keys.js';
import { openCase, releaseCase, verifyJournal } from '../../app/journal/index.js';
import { makeKeys, tmp } from './helpers.js';

const GOOD = 'Replayed with the recalibrated band; drift is not decision-material.';

describe('a quarantine decision whose key changes status afterwards', () => {
  it('stands when the key is retired, falls when it is revoked; a retired key decides nothing new', async () => {
    const base = tmp('reprise-quar-retired-');
    const officer = generateSigner();
    const k = makeKeys(base, [{ signer: officer, role: 'quarantine-officer', status: 'active' }]);
    const dir = join(base, 'j');
    const opts = { fsync: false };
    await openCase(dir, { claimRef: 'claim:a', reason: 'decision exit HUMAN_REVIEW' }, k.reviewer, {
      ...opts,
      trustStore: k.trust,
    });
    await releaseCase(dir, 'case-0', GOOD, officer, k.trust, opts);
    await openCase(dir, { claimRef: 'claim:b', reason: 'decision exit HUMAN_REVIEW' }, k.reviewer, {
      ...opts,
      trustStore: k.trust,
    });
    const storeWith = (status: 'retired' | 'revoked') =>
      parseTrustStore(
        Buffer.from(
          JSON.stringify({
            type: 'reprise.trust-store/v1',
            keys: [
              trustStoreEntry(k.reviewer, 'reviewer', 'test reviewer'),
              trustStoreEntry(officer, 'quarantine-officer', 'rotated officer', status),
            ],
          }),
        ),
        join(base, `${status}.json`),
      );
    const retired = await verifyJournal(dir, storeWith('retired'));
    expect(retired.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    expect(retired.findings.filter((f) => f.rule === 'RPR-JOURNAL-010').map((f) => f.pointer)).toContain('line:2');
    expect(retired.cases.cases.map((c) => c.state)).toEqual(['released', 'open']);
    const revoked = await verifyJournal(dir, storeWith('revoked'));
    expect(revoked.findings.filter((f) => f.rule === 'RPR-QUAR-006').map((f) => f.pointer)).toEqual(['line:2']);
    expect(revoked.cases.cases.map((c) => c.state)).toEqual(['open', 'open']);
    // The retired key signs no new decision.
    await expect(releaseCase(dir, 'case-2', GOOD, officer, storeWith('retired'), opts)).rejects.toMatchObject({
      code: 'REFUSED',
    });
    expect((await verifyJournal(dir, k.trust)).entryLines).toBe(3);
  });

  it('a decision refused for its signer (a reviewer releasing) leaves the directory as it was: no file made or stamped', async () => {
    const base = tmp('reprise-quar-refused-');
    const k = makeKeys(base);
    const dir = join(base, 'j');
    await openCase(dir, { claimRef: 'claim:a', reason: 'decision exit HUMAN_REVIEW' }, k.reviewer, {
      fsync: false,
      trustStore: k.trust,
    });
    // As a copy leaves a journal: its two files alone, which a writer's open would rebuild around.
    for (const f of ['notes.jsonl', 'tree.bin', 'index.bin', 'state.json']) rmSync(join(dir, f), { force: true });
    const look = () => readdirSync(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs, statSync(join(dir, f)).size]);
    const before = look();
    await expect(releaseCase(dir, 'case-0', GOOD, k.reviewer, k.trust, { fsync: false })).rejects.toThrow(
      /release refused \(RPR-QUAR-003\): release of case-0 requires a quarantine-officer key/,
    );
    expect(look()).toEqual(before);
  });
});
