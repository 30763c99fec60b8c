/**
 * A journal's times in a case: a judgement's time is listed as its entry signed it, and an
 * entry whose time is not text is still listed as a judgement and named as a time the
 * timeline lacks (RPR-CASE-004), never dropped in silence.
 */
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { driveCase, inlineExecutor } from '../../app/engine/case/index.js';
import { writeExamples } from '../../app/examples/index.js';
import { tmp } from '../journal/helpers.js';

let ex = '';

beforeAll(async () => {
  ex = join(tmp('reprise-case-journal-times-'), 'ex');
  await writeExamples(ex);
}, 120_000);

/** A case of the anchored manifest and the TG journal, its first entry's time edited by `edit`. */
async function caseWith(edit: (entry: Record<string, unknown>) => void) {
  const dir = join(tmp('reprise-case-journal-times-'), 'case');
  mkdirSync(dir);
  copyFileSync(join(ex, 'tg/recorded-anchored/manifest.json'), join(dir, 'manifest.json'));
  cpSync(join(ex, 'tg/journal'), join(dir, 'journal'), { recursive: true });
  const file = join(dir, 'journal', 'entries.jsonl');
  const lines = readFileSync(file, 'utf8').split('\n');
  const first = JSON.parse(lines[0]!) as Record<string, unknown>;
  edit(first);
  lines[0] = JSON.stringify(first);
  writeFileSync(file, lines.join('\n'));
  return driveCase(dir, inlineExecutor, { options: { trustStore: join(ex, 'tg/trust-store.json') } });
}

describe("a journal's times in a case", () => {
  it("a judgement's time is as its entry signed it; its timeline event's is the timeline's spelling", async () => {
    const c = await caseWith(() => undefined);
    // The listing is what was signed (a case bundle checks it against the entry, RPR-EVB-017).
    expect(c.judgements.find((x) => x.seq === 0)!.atUtc).toBe('2026-11-02T09:30:00.000Z');
    expect(
      c.timeline.some((e) => e.artifact === 'journal' && e.pointer === 'line:1' && e.atUtc === '2026-11-02T09:30:00Z'),
    ).toBe(true);
  }, 60_000);

  it('a time that is not text: the judgement is listed, and the time is one the timeline lacks', async () => {
    const c = await caseWith((e) => (e['recordedAtUtc'] = 1_793_611_800_000));
    expect(c.judgements.map((x) => [x.seq, x.atUtc])).toContainEqual([0, '1793611800000']);
    const lacks = c.findings.find((f) => f.rule === 'RPR-CASE-004' && f.pointer === 'entry:journal');
    expect(lacks?.message).toContain('line:1 "1793611800000": not a string');
    expect(c.timeline.some((e) => e.artifact === 'journal' && e.pointer === 'line:1')).toBe(false);
  }, 60_000);
});
