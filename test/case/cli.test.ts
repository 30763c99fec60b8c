/**
 * `reprise verify DIR --case FILE|-` through the built CLI: the case report is the same
 * bytes inline and with 1, 2 or 4 workers, the per-artifact output and exit code are those
 * of `verify DIR` without --case, and the report holds the schema docs/case.schema.json says.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { caseFixture, type CaseFixture } from './fixture.js';

let fx: CaseFixture;
beforeAll(async () => {
  fx = await caseFixture();
}, 120_000);

const trust = () => ['--trust-store', fx.keys.trustPath];

describe('reprise verify DIR --case', () => {
  it('writes the same case report whatever the worker count', async () => {
    const outs: string[] = [];
    for (const w of ['0', '1', '2', '4']) {
      const r = await runCli(['verify', fx.dir, '--case', '-', '--workers', w, ...trust()]);
      expect(r.code, r.stderr).toBe(1); // the seed EVAL fails
      expect(r.stderr).toBe('');
      outs.push(r.stdout);
    }
    expect(new Set(outs).size).toBe(1);
    const report = JSON.parse(outs[0]!) as { schema: string; artifacts: unknown[] };
    expect(report.schema).toBe('reprise.case/v1');
    expect(report.artifacts).toHaveLength(10);
  }, 240_000);

  it('keeps the per-artifact output and exit code of verify DIR, and writes the report to FILE', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'reprise-case-out-')), 'case.json');
    const plain = await runCli(['verify', fx.dir, '--workers', '2', ...trust()]);
    const withCase = await runCli(['verify', fx.dir, '--workers', '2', '--case', out, ...trust()]);
    expect(withCase.code).toBe(plain.code);
    expect(withCase.stdout).toBe(plain.stdout);
    const inline = await runCli(['verify', fx.dir, '--case', '-', ...trust()]);
    expect(readFileSync(out, 'utf8')).toBe(inline.stdout);
  }, 240_000);

  it('replays what can be replayed and verifies the rest: a policy bundle is verified with a note, not failed', async () => {
    type Out = { artifacts: { path: string; kind: string; verdict: string; counts: { fail: number; info: number } }[] };
    const verified = JSON.parse((await runCli(['verify', fx.dir, '--case', '-', ...trust()])).stdout) as Out;
    const replayed = JSON.parse(
      (await runCli(['replay', fx.dir, '--case', '-', '--workers', '2', ...trust()])).stdout,
    ) as Out;
    const policy = (o: Out) => o.artifacts.find((a) => a.path === 'tg/policy.json')!;
    // The case report says how it ran.
    expect((verified as Out & { mode: string }).mode).toBe('verify');
    expect((replayed as Out & { mode: string }).mode).toBe('replay');
    expect(policy(verified).kind).toBe('tg-policy-bundle');
    expect(policy(replayed).verdict).toBe(policy(verified).verdict);
    expect(policy(replayed).counts.fail).toBe(policy(verified).counts.fail);
    expect(policy(replayed).counts.info).toBe(policy(verified).counts.info + 1);
    // Its per-artifact output says why, under its own rule.
    const text = await runCli([
      'replay',
      fx.dir,
      '--case',
      join(mkdtempSync(join(tmpdir(), 'reprise-case-r-')), 'c.json'),
      ...trust(),
    ]);
    expect(text.stdout).toMatch(
      /RPR-REPLAY-002 +artifacts of kind tg-policy-bundle have nothing to re-execute: verified only/,
    );
    expect(text.stdout).not.toContain('RPR-REPLAY-001');
    // Asked of that one artifact, a replay still fails: there is nothing to re-execute in it.
    const one = await runCli(['replay', join(fx.dir, 'tg/policy.json'), '--json']);
    expect(one.code).toBe(1);
    expect((JSON.parse(one.stdout) as { findings: { rule: string }[] }).findings.map((f) => f.rule)).toContain(
      'RPR-REPLAY-001',
    );
  }, 240_000);

  it('refuses what it cannot do in one line, exit 3', async () => {
    const cases: [string[], RegExp][] = [
      [['verify', fx.dir, fx.dir, '--case', '-'], /--case takes one case folder/],
      [['verify', join(fx.dir, 'dump.json'), '--case', '-'], /a case is a folder/],
      [['verify', fx.dir, '--case', join(fx.dir, 'case.json')], /inside the case folder/],
      [['verify', fx.dir, '--case', '-', '--json'], /excludes --json/],
    ];
    for (const [args, message] of cases) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(3);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  }, 120_000);

  it('refuses a folder that holds no file (nor its subfolders): nothing checked is no pass', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'reprise-case-empty-'));
    mkdirSync(join(empty, 'a', 'b'), { recursive: true });
    const out = join(mkdtempSync(join(tmpdir(), 'reprise-case-out-')), 'case.json');
    for (const args of [
      ['verify', empty],
      ['verify', empty, '--workers', '2', '--jsonl'],
      ['verify', empty, '--case', '-'],
      ['verify', empty, '--case', out],
      ['replay', empty, '--case', '-', '--workers', '2'],
    ]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(3);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr.trim()).toBe(`reprise: ${empty} holds no file: there is nothing in it to check`);
    }
    expect(existsSync(out)).toBe(false);
    // A file beside it is still checked, and the empty folder named with it still refused.
    const r = await runCli(['verify', join(fx.dir, 'dump.json'), empty]);
    expect(r.code).toBe(3);
  }, 120_000);

  it('says why a file whose name is not UTF-8 cannot be opened, and checks the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reprise-case-latin1-'));
    const dump = readFileSync(join(fx.dir, 'dump.json'));
    writeFileSync(join(dir, 'dump.json'), dump);
    // "café.json" as Latin-1 wrote it: 0xE9 is no UTF-8, and Node reads it as U+FFFD.
    writeFileSync(Buffer.concat([Buffer.from(dir + '/caf'), Buffer.from([0xe9]), Buffer.from('.json')]), dump);
    const shown = `${dir}/caf\uFFFD.json`;
    const note = '(its name holds U+FFFD, which is how a name that is not UTF-8 reads';
    const why = `no such file or directory: ${shown} ${note}`;
    for (const w of ['0', '2']) {
      const r = await runCli(['verify', dir, '--case', '-', '--workers', w, ...trust()]);
      expect(r.code, w).toBe(3);
      expect(r.stderr, w).toContain(`reprise: ${why}`);
      const report = JSON.parse(r.stdout) as {
        artifacts: { path: string }[];
        findings: { rule: string; message: string }[];
      };
      expect(report.artifacts.map((a) => a.path)).toEqual(['dump.json']);
      const f = report.findings.find((x) => x.rule === 'RPR-CASE-002');
      // The case names it by its path in the case, whatever the folder's spelling.
      expect(f?.message).toContain(
        `caf\uFFFD.json could not be verified: no such file or directory: caf\uFFFD.json ${note}`,
      );
    }
  }, 120_000);
});
