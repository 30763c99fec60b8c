/**
 * A TG manifest's RECORDED anchor is decided in a verified case that holds its journal (the
 * manifest runs again with `--journal` set to the journal holding the anchored entry, as
 * `reprise verify MANIFEST --journal DIR` decides it), never in a replayed case (a replay
 * appends to the journal it is given), never when its anchors lie in two journals (one
 * option, one journal), and never over a `--journal` the user gave. `export DIR --journal J`
 * bundles J's judgements and verifies the case as `verify DIR --case` does: a manifest
 * anchored in another journal of the case is not failed against J.
 */
import { copyFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseTrustStore } from '../../app/core/keys.js';
import { driveCase, inlineExecutor } from '../../app/engine/case/index.js';
import { caseRechecks } from '../../app/engine/case/rechecks.js';
import type { CasePart } from '../../app/engine/case/part.js';
import type { CaseFile } from '../../app/engine/case/walk.js';
import { runPath } from '../../app/engine/run.js';
import { writeExamples } from '../../app/examples/index.js';
import { recordJudgement } from '../../app/journal/index.js';
import type { CaseReport } from '../../shared/case.js';
import { cliBuilt, runCli } from '../helpers/cli.js';
import { unzip, json } from '../evidence-bundle/helpers.js';
import { makeKeys, tmp } from '../journal/helpers.js';

let base = '';
let ex = '';
let dir = '';
let trustStore = '';
const verdictOf = (c: CaseReport, path: string) => c.artifacts.find((a) => a.path === path)?.verdict;

beforeAll(async () => {
  base = tmp('reprise-anchor-recheck-');
  ex = join(base, 'ex');
  await writeExamples(ex);
  dir = join(base, 'case');
  mkdirSync(dir);
  copyFileSync(join(ex, 'tg/recorded-anchored/manifest.json'), join(dir, 'manifest.json'));
  cpSync(join(ex, 'tg/journal'), join(dir, 'tg-journal'), { recursive: true });
  // The TG journal's signers and a reviewer of another journal, in one trust store.
  const keys = makeKeys(base);
  const keysOf = (p: string) => (JSON.parse(readFileSync(p, 'utf8')) as { keys: unknown[] }).keys;
  const doc = {
    type: 'reprise.trust-store/v1',
    keys: [...keysOf(join(ex, 'tg/trust-store.json')), ...keysOf(keys.trustPath)],
  };
  trustStore = join(base, 'merged-trust-store.json');
  writeFileSync(trustStore, JSON.stringify(doc));
}, 120_000);

describe('a manifest anchored in a journal of the case', () => {
  it('is decided against that journal in a verified case, and left undecided without it', async () => {
    const c = await driveCase(dir, inlineExecutor, { options: { trustStore } });
    expect(verdictOf(c, 'manifest.json')).toBe('pass');
    expect(verdictOf(c, 'tg-journal')).toBe('pass');
    // Alone, the manifest cannot prove its anchor.
    const alone = await runPath(join(dir, 'manifest.json'), 'verify', { trustStore });
    expect(alone.verdict).toBe('unavailable');
    expect(alone.findings.map((f) => f.rule)).toContain('RPR-TG-023');
    // The same case without the journal: the anchor stays undecided.
    const without = tmp('reprise-anchor-alone-');
    copyFileSync(join(dir, 'manifest.json'), join(without, 'manifest.json'));
    expect(verdictOf(await driveCase(without, inlineExecutor, { options: { trustStore } }), 'manifest.json')).toBe(
      'unavailable',
    );
  }, 120_000);

  it('is checked against the journal the user gave, as the flag says', async () => {
    const c = await driveCase(dir, inlineExecutor, {
      options: { trustStore, journal: join(ex, 'journal/sample') },
    });
    // The anchored entry is not in that journal (RPR-TG-021).
    expect(verdictOf(c, 'manifest.json')).toBe('fail');
  }, 120_000);

  it('is not run again with the journal in a replayed case, and the journal is left as it was', async () => {
    const before = readFileSync(join(dir, 'tg-journal', 'entries.jsonl'));
    const c = await driveCase(dir, inlineExecutor, { options: { trustStore }, mode: 'replay' });
    expect(verdictOf(c, 'manifest.json')).not.toBe('pass');
    expect(readFileSync(join(dir, 'tg-journal', 'entries.jsonl'))).toEqual(before);
  }, 120_000);
});

describe('which artifact an option is set to', () => {
  const file = (rel: string): CaseFile => ({ rel, path: `/c/${rel}` }) as CaseFile;
  const part = (path: string, sha: string, more: Partial<CasePart> = {}): CasePart =>
    ({
      artifact: { path, sha256: sha },
      identities: [],
      references: [],
      events: [],
      judgements: [],
      ...more,
    }) as unknown as CasePart;
  const anchor = (value: string) => ({
    pointer: `/executions/${value}/anchor`,
    relation: 'anchor',
    value,
    expected: true,
    option: 'journal',
    optionTakesHolder: true as const,
    optionInVerifyOnly: true as const,
  });
  const j1 = part('j1', 'sha256:j1', {
    identities: [
      { value: 'e1', pointer: 'entry:1' },
      { value: 'e2', pointer: 'entry:2' },
    ],
  });
  const j2 = part('j2', 'sha256:j2', { identities: [{ value: 'e3', pointer: 'entry:1' }] });
  const files = ['j1', 'j2', 'm'].map(file);

  it('is the one journal holding every anchor; none when they lie in two, or one is held only as a copy', () => {
    const one = part('m', 'sha256:m', { references: [anchor('e1'), anchor('e2')] });
    expect(caseRechecks([one, j1, j2], files, {}).map((r) => [r.file.rel, r.options.journal])).toEqual([
      ['m', '/c/j1'],
    ]);
    const two = part('m', 'sha256:m', { references: [anchor('e1'), anchor('e3')] });
    expect(caseRechecks([two, j1, j2], files, {})).toEqual([]);
    const copy = part('j2', 'sha256:j2', { identities: [{ value: 'e1', pointer: 'entry:1', copy: true }] });
    const onlyCopy = part('m', 'sha256:m', { references: [anchor('e1')] });
    expect(caseRechecks([onlyCopy, copy], files, {})).toEqual([]);
    // Never in a replayed case, never over the user's own --journal.
    expect(caseRechecks([one, j1, j2], files, {}, 'replay')).toEqual([]);
    expect(caseRechecks([one, j1, j2], files, { journal: '/mine' })).toEqual([]);
  });
});

describe('export DIR --journal J', () => {
  it.skipIf(!cliBuilt())(
    'verifies the case as verify DIR --case does: the manifest is decided against its own journal, not J',
    async () => {
      const keys = makeKeys(tmp('reprise-anchor-keys-'));
      const merged = JSON.parse(readFileSync(trustStore, 'utf8')) as { keys: unknown[] };
      merged.keys.push(...(JSON.parse(readFileSync(keys.trustPath, 'utf8')) as { keys: unknown[] }).keys);
      const ts = join(base, 'export-trust-store.json');
      writeFileSync(ts, JSON.stringify(merged));
      const journal = join(base, 'review-journal');
      const report = await runPath(join(ex, 'dumps/intact.dump.json'), 'verify', {});
      const trust = parseTrustStore(Buffer.from(JSON.stringify(merged)), ts);
      await recordJudgement(
        journal,
        { report, pointer: '', decision: 'accept', rationale: 'Seen and accepted as recorded.' },
        keys.reviewer,
        trust,
        {
          fsync: false,
        },
      );
      const out = join(base, 'case.zip');
      const e = await runCli(['export', dir, '--journal', journal, '--out', out, '--trust-store', ts]);
      expect(e.code, e.stderr).toBe(0);
      const c = json(await unzip(readFileSync(out)), 'case.json') as unknown as CaseReport;
      expect(verdictOf(c, 'manifest.json')).toBe('pass');
      const v = await runCli(['verify', dir, '--case', '-', '--trust-store', ts]);
      expect((JSON.parse(v.stdout) as CaseReport).artifacts).toEqual(c.artifacts);
    },
    120_000,
  );
});
