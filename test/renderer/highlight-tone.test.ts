/**
 * The artifact's text marks a problem as one and any other place as a place
 * (renderer/src/lib/highlight.ts): the field a case's timeline event opens on a PASS artifact
 * is not underlined red and wavy, and the panel says what is shown instead of asking to
 * select a node.
 */
import { describe, expect, it } from 'vitest';
import type { ChainNode } from '../../shared/report';
import { HIGHLIGHT, highlightTone, placeHeading } from '../../renderer/src/lib/highlight';

const node = (status: ChainNode['status']): ChainNode => ({
  id: 'n',
  label: 'n',
  recorded: null,
  recomputed: null,
  status,
  parents: [],
});

describe('highlightTone', () => {
  it('a finding that fails (or is unavailable, or warns) is a problem; one that informs is a place', () => {
    expect(highlightTone({ severity: 'fail' }, null)).toBe('problem');
    expect(highlightTone({ severity: 'unavailable' }, node('match'))).toBe('problem');
    expect(highlightTone({ severity: 'warning' }, null)).toBe('problem');
    expect(highlightTone({ severity: 'info' }, null)).toBe('place');
  });

  it('a node is a problem only when its hashes do not match; a pointer alone (a timeline event) is a place', () => {
    expect(highlightTone(undefined, node('mismatch'))).toBe('problem');
    expect(highlightTone(undefined, node('missing'))).toBe('problem');
    expect(highlightTone(undefined, node('match'))).toBe('place');
    expect(highlightTone(undefined, null)).toBe('place');
  });

  it('each tone has its own classes: only a problem is marked as a finding is', () => {
    expect(HIGHLIGHT.problem.inlineClassName).toBe('finding-region-inline');
    expect(HIGHLIGHT.place.className).not.toMatch(/finding/);
    expect(HIGHLIGHT.place.inlineClassName).not.toMatch(/finding/);
  });
});

describe('placeHeading', () => {
  it("says what a timeline event's pointer shows, and asks for a choice only when nothing is chosen", () => {
    expect(placeHeading({ node: false, finding: false, pointer: '/createdAtUtc' })).toBe(
      "The case event's place in the artifact (highlighted below):",
    );
    expect(placeHeading({ node: false, finding: false, pointer: null })).toBe(
      'Select a node (or open a finding) to see it in the artifact.',
    );
  });

  it('says nothing when a node or a finding says what is shown', () => {
    expect(placeHeading({ node: true, finding: false, pointer: '/a' })).toBeNull();
    expect(placeHeading({ node: false, finding: true, pointer: '/a' })).toBeNull();
  });
});
