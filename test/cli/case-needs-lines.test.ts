/**
 * `reprise verify DIR --case FILE` tells the terminal which options the case ran without would
 * decide its UNAVAILABLE artifacts (check-case.ts needsLines), one line each on stderr, as the
 * Case view lists them; none for an option given, none under --quiet.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeExamples } from '../../app/examples/index.js';
import { runCli } from '../helpers/cli.js';

describe('verify DIR --case: the options that would decide', () => {
  let root: string;
  let dir: string;
  let trust: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'reprise-case-needs-cli-'));
    const examples = join(root, 'examples');
    await writeExamples(examples);
    dir = join(root, 'case');
    mkdirSync(dir);
    cpSync(join(examples, 'dumps/intact.dump.json'), join(dir, 'a.dump.json'));
    cpSync(join(examples, 'dumps/intact.dump.json'), join(dir, 'b.dump.json'));
    trust = join(examples, 'dumps/trust-store.json');
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('names --trust-store for two dumps verified without one, with its rule and how many', async () => {
    const r = await runCli(['verify', dir, '--case', join(root, 'case.json')]);
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('case: '));
    expect(lines).toEqual([
      'case: --trust-store would decide findings (RDS-007) of 2 UNAVAILABLE artifact(s), e.g. a.dump.json: run the case again with --trust-store',
    ]);
  });

  it('says nothing of an option given, nor anything under --quiet', async () => {
    const given = await runCli(['verify', dir, '--case', join(root, 'given.json'), '--trust-store', trust]);
    expect(given.code).toBe(0);
    expect(given.stderr).not.toContain('would decide');
    const quiet = await runCli(['verify', dir, '--case', join(root, 'quiet.json'), '--quiet']);
    expect(quiet.code).toBe(2);
    expect(quiet.stderr).not.toContain('would decide');
  });
});
