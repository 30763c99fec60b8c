/** A quarantine case as the officer's queue receives it (shared/api.ts CaseView), claim ids that look alike, and a case's artifact. */
import type { CaseEventView, CaseView } from '../../shared/api.js';
import type { CaseArtifact } from '../../shared/case.js';

export const PLAIN_CLAIM = 'claim:loan-1';
/** The plain claim with one invisible default-ignorable character in it: a variation selector, two Hangul fillers. */
export const LOOKALIKE_CLAIMS = ['\ufe0f', '\u115f', '\u3164'].map((c) => `claim:loan${c}-1`);

export const caseView = (caseId: string, claimRef: string, history: CaseEventView[] = []): CaseView => ({
  caseId,
  state: 'open',
  claimRef,
  artifact: null,
  source: 'manual',
  openedAtUtc: '2026-12-05T10:00:00Z',
  updatedAtUtc: '2026-12-05T10:00:00Z',
  evidence: null,
  history,
  openHash: `sha256:${'a'.repeat(64)}`,
  decisions: [{ decision: 'release', to: 'released', roles: ['quarantine-officer'] }],
});

/** Default-ignorable characters that are no format character (\p{Cf}): variation selectors, Hangul fillers. */
export const IGNORABLE_NOT_CF = ['\ufe0f', '\ufe00', '\u{e0100}', '\u115f', '\u1160', '\u3164', '\uffa0'];

export const sha = (c: string) => `sha256:${c.repeat(64)}`;

/** A passing replay dump of a case, its SHA-256 `c` repeated. */
export const caseArtifact = (path: string, c = 'a'): CaseArtifact =>
  ({
    path,
    kind: 'replay-dump',
    sha256: sha(c),
    verdict: 'pass',
    counts: { fail: 0, unavailable: 0, warning: 0, info: 0 },
  }) as unknown as CaseArtifact;
