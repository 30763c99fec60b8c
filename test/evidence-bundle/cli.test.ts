import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashBytes } from '../../app/core/hash.js';
import { runBytes } from '../../app/engine/run.js';
import { recordJudgement } from '../../app/journal/index.js';
import { cli, makeKeys, tmp, writeJson } from '../journal/helpers.js';
import { ARTIFACT } from './helpers.js';

describe('reprise export / reprise verify BUNDLE', () => {
  it('exports every judgement (CLI-recorded and API-recorded), verifies offline, and fails when tampered', async () => {
    const dir = tmp('reprise-evb-cli-');
    const k = makeKeys(dir);
    const art = join(dir, 'artifact.json');
    writeFileSync(art, ARTIFACT);
    const journal = join(dir, 'journal');
    const sha = hashBytes(ARTIFACT);
    // A judgement by `journal record` (on the artifact as a whole)...
    const bad = writeJson(join(dir, 'bad.json'), { decision: 'maybe', rationale: 'The file was read and it is fine.' });
    const refused = cli([
      'journal',
      'record',
      journal,
      '--kind',
      'review-rationale',
      '--claim',
      'c',
      '--artifact',
      sha,
      '--body-file',
      bad,
      '--key',
      k.reviewerPem,
    ]);
    expect(refused.status).toBe(3);
    expect(refused.stderr).toMatch(/not one of accept, reject, needs-review, note/);
    const body = writeJson(join(dir, 'body.json'), {
      decision: 'accept',
      rationale: 'The file was read and it is what it says.',
    });
    expect(
      cli([
        'journal',
        'record',
        journal,
        '--kind',
        'review-rationale',
        '--claim',
        'c',
        '--artifact',
        sha,
        '--body-file',
        body,
        '--key',
        k.reviewerPem,
      ]).status,
    ).toBe(0);
    // ...and one as the workbench records it (on the report the CLI makes of the same bytes).
    const report = await runBytes('elsewhere.json', ARTIFACT, 'verify', {});
    await recordJudgement(
      journal,
      { report, pointer: '/findings/0', decision: 'note', rationale: 'Expected: this file is of no known kind.' },
      k.reviewer,
      k.trust,
    );
    const out = join(dir, 'bundle.zip');
    const e = cli(['export', art, '--journal', journal, '--trust-store', k.trustPath, '--out', out, '--json']);
    expect(e.stderr).toBe('');
    expect(e.status).toBe(0);
    expect((JSON.parse(e.stdout) as { judgements: unknown[] }).judgements).toHaveLength(2);
    const first = readFileSync(out);
    expect(cli(['export', art, '--journal', journal, '--trust-store', k.trustPath, '--out', out]).status).toBe(0);
    expect(readFileSync(out).equals(first)).toBe(true);

    // The artifact is of no known kind: its report FAILs, so the intact bundle carrying it does (RPR-EVB-016).
    type Out = { artifact: { kind: string }; verdict: string; details: { integrity: { verdict: string } } };
    const v = cli(['verify', out, '--trust-store', k.trustPath, '--json']);
    expect(v.status).toBe(1);
    const r = JSON.parse(v.stdout) as Out;
    expect([r.artifact.kind, r.verdict, r.details.integrity.verdict]).toEqual(['evidence-bundle', 'fail', 'pass']);
    const bare = cli(['verify', out, '--json']);
    expect(bare.status).toBe(1);
    expect((JSON.parse(bare.stdout) as Out).details.integrity.verdict).toBe('unavailable');

    // One byte of a member changed (deflated data): the strict reader or a digest catches it.
    const t = Buffer.from(first);
    t[200] = t[200]! ^ 0xff;
    writeFileSync(join(dir, 'tampered.zip'), t);
    expect(cli(['verify', join(dir, 'tampered.zip'), '--trust-store', k.trustPath]).status).toBe(1);
  });

  it('refuses bad usage with one line and exit 3', () => {
    const dir = tmp('reprise-evb-cli-');
    const art = join(dir, 'artifact.json');
    writeFileSync(art, ARTIFACT);
    for (const [args, why] of [
      [['export', art, '--out', join(dir, 'b.zip')], /--journal DIR .* is required/],
      [['export', art, '--journal', join(dir, 'j')], /--out FILE is required/],
      [['export', art, '--journal', join(dir, 'missing'), '--out', join(dir, 'b.zip')], /holds no journal entries/],
      [['export', art, '--journal', join(dir, 'j'), '--out', art], /never overwrites its input/],
    ] as const) {
      const r = cli([...args]);
      expect(r.status).toBe(3);
      expect(r.stderr.trim().split('\n')[0]).toMatch(why);
      expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
    }
  });
});
