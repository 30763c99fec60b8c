// RPR-EVB-019 quotes a signed reject's rationale as written, so the terminal's escaping
// (safeText) shows each control once: a bell as `\x07`, a right-to-left override as `\u202e`.
// It quoted it as JSON, whose `\u0007` the terminal then escaped again (`\\u0007`).
import { describe, expect, it } from 'vitest';
import type { BundledJudgementDetails } from '../../shared/details/bundle.js';
import { rejectFinding } from '../../app/kinds/evidence-bundle/details.js';
import { safeText } from '../../app/core/text.js';

function reject(rationale: string): BundledJudgementDetails {
  return {
    seq: 3,
    member: 'judgements/000000000003.json',
    entryHash: null,
    recordedAtUtc: '2026-12-01T00:00:00Z',
    author: 'ed25519:ab',
    role: 'reviewer',
    label: null,
    subject: 'sha256:00',
    decision: 'reject',
    supersedes: null,
    pointer: '',
    rationale,
    reportDigest: null,
    proof: { leafIndex: 0, treeSize: 1, auditPath: [], verified: true, problems: [] },
  };
}

describe('RPR-EVB-019 quotes the rationale once', () => {
  it('shows each control of the rationale with one escape on the terminal', () => {
    const f = rejectFinding({ judgements: [reject('bad\u0007 \u202eexe.png\nnext "line"')] })!;
    expect(f.rule).toBe('RPR-EVB-019');
    const shown = safeText(f.message);
    expect(shown).toContain('“bad\\x07 \\u202eexe.png\\x0anext "line"”');
    expect(shown).not.toContain('\\\\');
  });

  it('keeps a typed backslash distinguishable from an escape', () => {
    const f = rejectFinding({ judgements: [reject('path C:\\u202e and \u202e')] })!;
    // The typed `\u202e` is shown with its backslash doubled; the real one as one escape.
    expect(safeText(f.message)).toContain('“path C:\\\\u202e and \\u202e”');
  });
});
