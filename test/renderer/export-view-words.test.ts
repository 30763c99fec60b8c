/**
 * The Export view says where the evidence bundle is exported and offers to go there
 * (renderer/src/lib/bundle-where.ts); the Compare view says where a long string's change
 * starts in words (shared/diff-words.ts); the Open and Compare views list only the
 * examples that are artifacts (renderer/src/lib/examples.ts).
 */
import { describe, expect, it } from 'vitest';
import type { ExampleSummary } from '../../shared/api';
import { bundleWhere, EXPORT_BUNDLE_ID, JOURNAL_TOGGLE_ID } from '../../renderer/src/lib/bundle-where';
import { spanStartWords } from '../../shared/diff-words';
import { artifactExamples } from '../../renderer/src/lib/examples';

describe('bundleWhere', () => {
  it('with a journal open: the judgements bar above the tabs, and a button to its export control', () => {
    const w = bundleWhere({ journalOpen: true, namesArtifact: true });
    expect(w.words).toContain('evidence bundle');
    expect(w.words).toContain('judgements bar above the tabs');
    expect(w.go).toEqual({ id: EXPORT_BUNDLE_ID, label: 'Go to "Export evidence bundle"' });
  });

  it('with no journal open: open one first, and a button to the journal header', () => {
    const w = bundleWhere({ journalOpen: false, namesArtifact: true });
    expect(w.words).toContain('open one in the journal header');
    expect(w.go?.id).toBe(JOURNAL_TOGGLE_ID);
  });

  it('a report that names no artifact hash has no bundle, and nowhere to go', () => {
    for (const journalOpen of [true, false]) {
      const w = bundleWhere({ journalOpen, namesArtifact: false });
      expect(w.words).toContain('names no artifact SHA-256');
      expect(w.go).toBeNull();
    }
  });
});

describe('spanStartWords', () => {
  it('a count of unchanged characters, never a bare number', () => {
    expect(spanStartWords(0)).toBe('changed from the start');
    expect(spanStartWords(1)).toBe('changed after the first character');
    expect(spanStartWords(500_000)).toBe('changed after the first 500,000 characters');
  });
});

describe('artifactExamples', () => {
  const ex = (path: string, artifact: boolean): ExampleSummary => ({
    path,
    note: '',
    ...(artifact ? { expect: { verdict: 'pass' as const, command: 'verify' as const } } : {}),
  });
  const examples = [
    ex('dumps/intact.dump.json', true),
    ex('dumps/trust-store.json', false),
    ex('dumps/providers.json', false),
    ex('journal/keys/reviewer.pem', false),
    ex('journal/keys/quarantine-officer.pem', false),
    ex('packages/profiles.json', false),
    ex('packages/kernel-adapter.mjs', false),
    ex('tg/exact-intact/manifest.json', true),
  ];

  it('keeps the artifacts (those the index gives a verdict), in order: no key, trust store, registry or adapter', () => {
    expect(artifactExamples(examples).map((x) => x.path)).toEqual([
      'dumps/intact.dump.json',
      'tg/exact-intact/manifest.json',
    ]);
  });

  it("filters by path in any case, as the Open view's filter does", () => {
    expect(artifactExamples(examples, 'TG/').map((x) => x.path)).toEqual(['tg/exact-intact/manifest.json']);
    expect(artifactExamples(examples, 'pem')).toEqual([]);
  });
});
