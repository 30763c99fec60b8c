/**
 * What `reprise quarantine` says of a journal it cannot fully vouch for (docs/journal.md, "CLI
 * exit codes"): `list` prints the journal's warnings beside the states, naming the case each
 * concerns (a release never acknowledged is listed released, and must not read as settled), and
 * a decision refused because the journal's tail is torn is a refusal (exit 1) that names
 * `reprise journal repair`, as one refused because the journal does not verify is.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCase, releaseCase, verifyJournal } from '../../app/journal/index.js';
import { cliIn } from '../cli/in-process.js';
import { makeKeys, tmp, type Keys, GOOD_RATIONALE, releaseArgs } from './helpers.js';

const opts = { fsync: false };
const GOOD = GOOD_RATIONALE;

async function opened(k: Keys): Promise<string> {
  const dir = join(tmp('reprise-quar-cli-'), 'J');
  await openCase(dir, { claimRef: 'claim:A', reason: 'drift seen on the replayed score' }, k.reviewer, {
    ...opts,
    trustStore: k.trust,
  });
  return dir;
}

/** Cuts the last line off `file` in `dir`, as a crash between an entry's fsync and its checkpoint's leaves it. */
function cutLastLine(dir: string, file: string): void {
  const lines = readFileSync(join(dir, file), 'utf8').split('\n').slice(0, -1);
  writeFileSync(
    join(dir, file),
    lines
      .slice(0, -1)
      .map((l) => l + '\n')
      .join(''),
  );
}

describe('quarantine list and a release never acknowledged', () => {
  it('prints the warning (RPR-JOURNAL-020) naming the released case, in text and JSON', async () => {
    const k = makeKeys(tmp());
    const dir = await opened(k);
    await releaseCase(dir, 'case-0', GOOD, k.officer, k.trust, opts);
    cutLastLine(dir, 'checkpoints.jsonl');
    cutLastLine(dir, 'notes.jsonl');
    const v = await verifyJournal(dir, k.trust);
    expect(v.findings.filter((f) => f.severity !== 'info').map((f) => `${f.severity} ${f.rule}`)).toEqual([
      'warning RPR-JOURNAL-020',
    ]);
    const text = await cliIn(tmp(), 'quarantine', 'list', dir, '--trust-store', k.trustPath);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^case-0\s+released/);
    expect(text.err).toContain('RPR-JOURNAL-020');
    expect(text.err).toContain('never acknowledged');
    expect(text.err).toContain('concerns case-0');
    const json = await cliIn(tmp(), 'quarantine', 'list', dir, '--trust-store', k.trustPath, '--json');
    const findings = (JSON.parse(json.out) as { findings: { rule: string; caseId?: string }[] }).findings;
    expect(findings.map((f) => [f.rule, f.caseId])).toEqual([['RPR-JOURNAL-020', 'case-0']]);
  });
});

describe('a decision on a journal with a torn tail', () => {
  it('is refused with exit 1, naming journal repair, and writes nothing', async () => {
    const k = makeKeys(tmp());
    const dir = await opened(k);
    appendFileSync(join(dir, 'entries.jsonl'), '{"seq":1,"prev":');
    const before = readFileSync(join(dir, 'entries.jsonl'));
    const r = await cliIn(tmp(), ...releaseArgs(dir, k.officerPem, k.trustPath));
    expect(r.code).toBe(1);
    expect(r.err).toContain('release refused');
    expect(r.err).toContain('reprise journal repair');
    expect(readFileSync(join(dir, 'entries.jsonl')).equals(before)).toBe(true);
  });
});
