/**
 * A TG finding that quotes a claim id quotes it as every finding does (RPR-QUAR-008,
 * app/journal/claim-ids.ts `claimIdInFinding`): escaped, so an id with whitespace at an end or
 * not in NFC never reads as the claim it draws as (the printer escapes only controls). The
 * routing to human review (RPR-TG-042), a claim inputs artifact of another claim (recompute),
 * and `reprise drift`'s refusal of a journal's replay-comparison entry (RPR-TG-052, 053).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildScenario, WEAK_DATA } from '../../app/kinds/tg/examples.js';
import type { Report } from '../../shared/report.js';
import { cliIn } from '../cli/in-process.js';
import { forgeEntry } from '../journal/forge.helpers.js';
import { tmp } from '../journal/helpers.js';
import { driftBench, driftJson, replayedJournal, type DriftBench } from './drift-helpers.js';

const work = tmp('reprise-tg-claim-quoted-');

/** The exit-human-review example (routed to human review) on `claimRef`, written to a file. */
async function routed(name: string, claimRef: string, mutate?: (m: Record<string, unknown>) => void): Promise<string> {
  const path = join(work, `${name}.json`);
  const m = await buildScenario({ claimRef, targetTrustScore: 0.55, data: WEAK_DATA, ...(mutate ? { mutate } : {}) });
  writeFileSync(path, JSON.stringify(m, null, 2));
  return path;
}

async function replay(path: string): Promise<{ report: Report; text: string }> {
  const j = await cliIn(work, 'replay', path, '--json');
  const t = await cliIn(work, 'replay', path);
  return { report: JSON.parse(j.out) as Report, text: t.out };
}

describe('RPR-TG-042 quotes the routed claim escaped', () => {
  it.each([
    ['claim:2026-11-0105', 'claim "claim:2026-11-0105" routed to human review'],
    ['claim:2026-11-0105 ', String.raw`claim "claim:2026-11-0105\x20" routed to human review`],
    ['claim:cafe\u0301', String.raw`claim "claim:cafe\u0301" routed to human review`],
  ])('%j', async (claim, said) => {
    const { report, text } = await replay(await routed(`routed-${claim.length}-${claim.at(-1)!.charCodeAt(0)}`, claim));
    const f = report.findings.find((x) => x.rule === 'RPR-TG-042')!;
    expect(f.message.startsWith(said)).toBe(true);
    // The routing event keeps the claim as the manifest wrote it.
    expect(report.events!.some((e) => (e as { claimRef?: string }).claimRef === claim)).toBe(true);
    // The text output doubles a backslash of a message holding escapes, as for every such message.
    expect(text).toContain(said.replace(/\\/g, '\\\\'));
  });
});

describe('a claim inputs artifact of another claim names both escaped', () => {
  it("the manifest's claim with a trailing space against its inputs' claim", async () => {
    const path = await routed('other-claim', 'claim:2026-11-0105', (m) => void (m['claimRef'] = 'claim:2026-11-0105 '));
    const { report } = await replay(path);
    const said = report.findings.map((f) => f.message).find((m) => m.includes('reads are of'));
    expect(said).toContain(
      String.raw`reads are of "claim:2026-11-0105", not of the manifest's claim "claim:2026-11-0105\x20"`,
    );
  });
});

describe("`reprise drift` names a journal's replay-comparison entry by its claim escaped", () => {
  let b: DriftBench;
  beforeAll(async () => {
    b = await driftBench('reprise-tg-claim-quoted-drift-');
  });
  const body = (window: number) => ({
    driftRate: { window, maxRate: 0.1 },
    manifestHash: `sha256:${'ab'.repeat(32)}`,
    banded: [{ executionId: 'x3', model: 'reprise.reference@ref-1', drift: false }],
  });

  it('RPR-TG-052 (out of bounds) and RPR-TG-053 (a signer whose role does not govern drift)', async () => {
    const j = await replayedJournal(b, ['banded-within-epsilon']);
    // Written around the writer, which signs no new entry naming such a claim id (RPR-QUAR-008).
    const bad = forgeEntry(
      j,
      { kind: 'replay-comparison', subject: { claimRef: 'claim:hand ' }, body: body(0) },
      b.keys.reviewer,
    );
    const trainer = forgeEntry(
      j,
      { kind: 'replay-comparison', subject: { claimRef: 'claim:caf\u0065\u0301' }, body: body(50) },
      b.trainer,
    );
    const r = await driftJson(b, j, '--trust-store', b.keys.trustPath);
    const messages = (r.doc?.findings ?? []).map((f) => [f.rule, f.message] as const);
    const of = (rule: string) => messages.find(([x]) => x === rule)?.[1];
    expect(of('RPR-TG-052')).toContain(
      String.raw`journal entry ${bad.seq} (replay-comparison of "claim:hand\x20") is not counted`,
    );
    expect(of('RPR-TG-053')).toContain(
      String.raw`journal entry ${trainer.seq} (replay-comparison of "claim:cafe\u0301") is not counted`,
    );
  });
});
