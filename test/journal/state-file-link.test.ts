/**
 * state.json is a journal file like the others: a writer never writes through a link put at
 * its name (it would overwrite the file the link points to, outside the journal). A journal
 * whose state.json is a link is refused when the writer opens, one line naming it, nothing
 * written; and writeState replaces whatever is at the name rather than following it.
 */
import { cpSync, lstatSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STATE_FILE, writeState, type TrustedState } from '../../app/journal/frontier.js';
import { cliIn, examplesIn } from '../cli/in-process.js';

const NOTE = 'a reviewer note with enough real words here\n';

/** A copy of the sample journal in `base/sl/j` whose state.json links to `base/sl/thesis.txt`. */
async function linkedState(): Promise<{ base: string; j: string; thesis: string }> {
  const base = await examplesIn('reprise-state-link-');
  const j = join(base, 'sl', 'j');
  cpSync(join(base, 'journal', 'sample'), j, { recursive: true });
  const thesis = join(base, 'sl', 'thesis.txt');
  writeFileSync(thesis, 'precious\n');
  symlinkSync('../thesis.txt', join(j, STATE_FILE));
  writeFileSync(join(base, 'note.txt'), NOTE);
  return { base, j, thesis };
}

const keyArgs = (base: string, key: string) => [
  '--key',
  join(base, 'journal', 'keys', key),
  '--trust-store',
  join(base, 'journal', 'trust-store.json'),
];

describe('a symbolic link at state.json', () => {
  it('journal note refuses it in one line, and the file it points to is untouched', async () => {
    const { base, j, thesis } = await linkedState();
    const before = readFileSync(join(j, 'entries.jsonl'));
    const r = await cliIn(
      base,
      'journal',
      'note',
      j,
      '--artifact',
      `sha256:${'a'.repeat(64)}`,
      '--body-file',
      join(base, 'note.txt'),
      ...keyArgs(base, 'reviewer.pem'),
    );
    expect(r.code).not.toBe(0);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/state\.json: a symbolic link/);
    expect(readFileSync(thesis, 'utf8')).toBe('precious\n');
    expect(lstatSync(join(j, STATE_FILE)).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(j, 'entries.jsonl'))).toEqual(before);
    expect(readdirSync(j).sort()).toEqual(['checkpoints.jsonl', 'entries.jsonl', STATE_FILE]);
  });

  it('quarantine open refuses it the same way', async () => {
    const { base, j, thesis } = await linkedState();
    const r = await cliIn(
      base,
      'quarantine',
      'open',
      j,
      '--claim',
      'claim:x',
      '--reason',
      'drift beyond the band',
      ...keyArgs(base, 'quarantine-officer.pem'),
    );
    expect(r.code).not.toBe(0);
    expect(r.err).toMatch(/state\.json: a symbolic link/);
    expect(readFileSync(thesis, 'utf8')).toBe('precious\n');
  });

  it('writeState replaces a link at the name instead of writing through it', async () => {
    const { j, thesis } = await linkedState();
    await writeState(j, { type: 'reprise.journal-state/v1', treeSize: 0 } as unknown as TrustedState);
    expect(readFileSync(thesis, 'utf8')).toBe('precious\n');
    expect(lstatSync(join(j, STATE_FILE)).isFile()).toBe(true);
    expect(readFileSync(join(j, STATE_FILE), 'utf8')).toMatch(/"treeSize":0/);
  });
});
