/**
 * A note signed in the case view is listed under the artifact it was signed on, never under
 * another artifact's notes (renderer/src/lib/note-rows.ts rowsOf, the notes signed this
 * session): a note on X must not read as the latest version of a note on Y, with Edit.
 */
import { describe, expect, it } from 'vitest';
import type { NoteReceipt } from '../../shared/api';
import { rowsOf } from '../../renderer/src/lib/note-rows';

const sha = (c: string) => `sha256:${c.repeat(64)}`;
const X = sha('a');
const Y = sha('b');

function signedOn(artifact: string): { receipt: NoteReceipt; text: string } {
  const receipt: NoteReceipt = {
    seq: 3,
    entryHash: sha('e'),
    atUtc: '2026-12-05T10:00:00Z',
    artifact,
    supersedes: null,
    keyId: `ed25519:${'1'.repeat(64)}`,
    role: 'reviewer',
    label: 'test reviewer',
    checkpoint: { size: 4, root: sha('c'), keyId: `ed25519:${'1'.repeat(64)}` },
    proofVerified: true,
    proofFindings: [],
  };
  return { receipt, text: 'the dump matches the manifest it was replayed from' };
}

const at = (artifact: string) => ({ artifact, checked: true, verdicts: new Map() });

describe('notes signed in this session', () => {
  it('are listed under the artifact they were signed on only', () => {
    const signed = [signedOn(X)];
    expect(rowsOf([], null, signed, at(Y))).toEqual([]);
    const onX = rowsOf([], null, signed, at(X));
    expect(onX.map((r) => [r.entryHash, r.text, r.problem, r.unproven])).toEqual([
      [sha('e'), 'the dump matches the manifest it was replayed from', null, null],
    ]);
  });
});
