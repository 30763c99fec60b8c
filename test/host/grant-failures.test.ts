/**
 * A grant names several paths (the recent files' folders at start-up, `reprise serve`'s
 * roots): each lands on its own, so one that cannot be granted (a folder since removed) is
 * left out and every other still is; and a folder named as a picked file grants nothing,
 * least of all its parent.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrantedGate } from '../../main/host/granted-gate.js';

const hints = { root: 'add a root', key: 'pick the key', adapter: 'name the adapter' };
let base = '';
const at = (...p: string[]) => join(base, ...p);

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'reprise-grant-'));
  for (const d of ['kept', 'also', 'files', 'parent/child']) await mkdir(at(d), { recursive: true });
  for (const f of ['kept/a.json', 'also/b.json', 'files/c.json', 'files/k.pem', 'parent/secret.json'])
    await writeFile(at(f), '{}');
});
afterAll(() => rm(base, { recursive: true, force: true }));

const refused = { message: expect.stringMatching(/^refused: /) };

describe('a grant lands path by path', () => {
  it('a vanished folder among the roots is left out; the roots after it are granted', async () => {
    const gate = new GrantedGate(hints);
    await expect(gate.grant({ roots: [at('kept'), at('gone'), at('also')] })).rejects.toThrow(/gone/);
    expect(await gate.confine(at('kept', 'a.json'), 'the file')).toBe(at('kept', 'a.json'));
    expect(await gate.confine(at('also', 'b.json'), 'the file')).toBe(at('also', 'b.json'));
    await expect(gate.confine(at('gone', 'x.json'), 'the file')).rejects.toMatchObject(refused);
  });

  it('a failed root does not stop the files, keys and adapters of the same grant', async () => {
    const gate = new GrantedGate(hints);
    await expect(
      gate.grant({
        roots: [at('gone')],
        files: [at('gone.json'), at('files', 'c.json')],
        keys: [at('files', 'k.pem')],
      }),
    ).rejects.toThrow(/gone/);
    expect(await gate.confine(at('files', 'c.json'), 'the file')).toBe(at('files', 'c.json'));
    expect(await gate.keyFile(at('files', 'k.pem'), 'key')).toBe(at('files', 'k.pem'));
  });

  it('the grants after a failed one still land, and are waited for', async () => {
    const gate = new GrantedGate(hints);
    const first = gate.grant({ roots: [at('gone')] });
    await gate.grant({ roots: [at('kept')] });
    await expect(first).rejects.toThrow();
    expect(await gate.confine(at('kept', 'a.json'), 'the file')).toBe(at('kept', 'a.json'));
  });

  it('a folder named as a picked file is refused: its parent is not granted', async () => {
    const gate = new GrantedGate(hints);
    await expect(gate.grant({ files: [at('parent', 'child')] })).rejects.toThrow(/is not a file/);
    await expect(gate.confine(at('parent', 'secret.json'), 'the file')).rejects.toMatchObject(refused);
    await expect(gate.grant({ files: [`${at('parent', 'child')}/`] })).rejects.toThrow(/is not a file/);
    await expect(gate.confine(at('parent', 'secret.json'), 'the file')).rejects.toMatchObject(refused);
    expect(await gate.readable()).toEqual([]);
  });
});
