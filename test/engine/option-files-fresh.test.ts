/**
 * An option file (a trust store, a provider registry) is read as it is when each run asks
 * for it, not as a long-lived process first read it (app/core/closed.ts memoFile): the
 * workbench's engine and its workers live for the whole session, so a key revoked, a store
 * emptied or deleted, a model removed from a registry must change the next verdict. A
 * cached first read kept a revoked signer "Trusted" on every reload.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runPath } from '../../app/engine/run.js';
import { writeExamples } from '../../app/examples/index.js';
import { tmp } from '../journal/helpers.js';

let ex = '';
beforeAll(async () => {
  ex = join(tmp('reprise-option-files-'), 'ex');
  await writeExamples(ex);
}, 60_000);

interface Store {
  keys: { status: string }[];
}

describe('option files read again when they change', () => {
  it('a trust store: a key revoked after the first run fails the next; the store deleted is refused', async () => {
    const dump = join(ex, 'dumps', 'intact.dump.json');
    const store = join(ex, 'store.json');
    const text = readFileSync(join(ex, 'dumps', 'trust-store.json'), 'utf8');
    writeFileSync(store, text);
    const first = await runPath(dump, 'verify', { trustStore: store });
    expect(first.verdict).toBe('pass');
    expect((await runPath(dump, 'verify', { trustStore: store })).verdict).toBe('pass');
    const revoked = JSON.parse(text) as Store;
    for (const k of revoked.keys) k.status = 'revoked';
    writeFileSync(store, JSON.stringify(revoked));
    const second = await runPath(dump, 'verify', { trustStore: store });
    expect(second.verdict).toBe('fail');
    expect(second.authenticity?.status).toBe('revoked-signer');
    rmSync(store);
    await expect(runPath(dump, 'verify', { trustStore: store })).rejects.toThrow(/no such file|cannot read|ENOENT/i);
  });

  it('a provider registry: a model removed after the first replay makes the next unavailable', async () => {
    const dump = join(ex, 'dumps', 'intact.dump.json');
    const providers = join(ex, 'providers.json');
    const text = readFileSync(join(ex, 'dumps', 'providers.json'), 'utf8');
    writeFileSync(providers, text);
    const options = { trustStore: join(ex, 'dumps', 'trust-store.json'), providers };
    expect((await runPath(dump, 'replay', options)).verdict).toBe('pass');
    const reg = JSON.parse(text) as { providers: { models: unknown[] }[] };
    for (const p of reg.providers) p.models = [];
    writeFileSync(providers, JSON.stringify(reg));
    const after = await runPath(dump, 'replay', options);
    expect(after.verdict).toBe('unavailable');
    expect(after.findings.map((f) => f.rule)).toContain('RDS-LOCK-003');
  });
});
