/**
 * Every sample dump of `reprise examples` gives, through the CLI, the verdict and the
 * rule id it was made for; the writer is byte-deterministic; a dump and its ROM twin give
 * the same chain, hashes and verdict; replay reports are byte-identical run to run and
 * with one worker or two.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { buildSamples, sampleRuns, TRUST_STORE_PATH, PROVIDERS_PATH } from '../../app/kinds/replay-dump/examples.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { ROOT, runCli } from '../helpers/cli.js';

const validate = new Ajv2020({ allErrors: true, strict: true }).compile(
  JSON.parse(await readFile(`${ROOT}docs/report.schema.json`, 'utf8')) as object,
);

let dir: string;

async function listFiles(d: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(d, { withFileTypes: true })) {
    const p = join(d, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(p)));
    else out.push(p);
  }
  return out.sort();
}

function withoutRun(r: Report): Omit<Report, 'run'> {
  const { run: _run, ...rest } = r;
  return rest;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reprise-dump-samples-'));
  const r = await runCli(['examples', dir]);
  expect(r.code, r.stderr).toBe(0);
});

describe('sample dumps through the CLI', { timeout: 180_000 }, () => {
  it('writes identical bytes twice (deterministic writer)', async () => {
    const again = await mkdtemp(join(tmpdir(), 'reprise-dump-samples2-'));
    const r = await runCli(['examples', again]);
    expect(r.code, r.stderr).toBe(0);
    const a = (await listFiles(join(dir, 'dumps'))).map((p) => relative(dir, p));
    const b = (await listFiles(join(again, 'dumps'))).map((p) => relative(again, p));
    expect(b).toEqual(a);
    expect(a.length).toBeGreaterThanOrEqual(30);
    for (const p of a) expect((await readFile(join(again, p))).equals(await readFile(join(dir, p))), p).toBe(true);
  });

  it('every sample gives the verdict and rule it was made for (both encodings)', async () => {
    const runs = sampleRuns(await buildSamples());
    expect(runs.length).toBeGreaterThanOrEqual(30);
    const index = JSON.parse(await readFile(join(dir, 'examples.json'), 'utf8')) as {
      files: { path: string; expect?: { verdict: string; rule?: string } }[];
    };
    // One CLI run per distinct command line (--jsonl gives one report per artifact, in order).
    const groups = new Map<string, typeof runs>();
    for (const run of runs) {
      const k = JSON.stringify([run.command, run.args]);
      groups.set(k, [...(groups.get(k) ?? []), run]);
    }
    for (const group of groups.values()) {
      const first = group[0]!;
      const r = await runCli([first.command, ...group.map((g) => g.path), '--jsonl', ...first.args], {
        cwd: dir,
        timeoutMs: 170_000,
      });
      expect(r.stderr).toBe('');
      const reports = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Report);
      expect(reports.length).toBe(group.length);
      group.forEach((run, i) => {
        const report = reports[i]!;
        const listed = index.files.find((f) => f.path === run.path);
        expect(listed?.expect?.verdict, run.path).toBe(run.verdict);
        expect(report.artifact.path, run.path).toBe(run.path);
        expect(report.artifact.kind, run.path).toBe('replay-dump');
        expect(report.verdict, run.path).toBe(run.verdict);
        expect(validate(report), `${run.path}: ${JSON.stringify(validate.errors)}`).toBe(true);
        if (run.rule) {
          const hit = report.findings.find((f) => f.rule === run.rule && f.severity === run.verdict);
          expect(
            hit,
            `${run.path}: ${run.rule} in ${JSON.stringify(report.findings.map((f) => f.rule))}`,
          ).toBeDefined();
        }
      });
    }
    // Exit codes, one artifact at a time: 0 pass, 1 fail, 2 unavailable.
    for (const [path, code] of [
      ['dumps/intact.rom.md', 0],
      ['dumps/fail/key-order.rom.md', 1],
      ['dumps/unavailable/unknown-key.dump.json', 2],
    ] as const) {
      const r = await runCli(['verify', path, '--trust-store', TRUST_STORE_PATH], { cwd: dir });
      expect(r.code, path).toBe(code);
    }
  }, 180_000);

  it('a failing sample names the expected and actual values', async () => {
    const r = await runCli(
      ['verify', 'dumps/fail/outcome-mismatch.dump.json', '--json', '--trust-store', TRUST_STORE_PATH],
      { cwd: dir },
    );
    const f = (JSON.parse(r.stdout) as Report).findings.find((x) => x.rule === 'RDS-F005')!;
    expect(f.pointer).toBe('/executionOutcomeHash');
    expect(f.expected).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(f.actual).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(f.expected).not.toBe(f.actual);
  });

  it('a dump and its ROM twin give the same chain, hashes and verdict (verify and replay)', async () => {
    for (const cmd of ['verify', 'replay']) {
      const j = await runCli(
        [cmd, 'dumps/intact.dump.json', '--json', '--trust-store', TRUST_STORE_PATH, '--providers', PROVIDERS_PATH],
        { cwd: dir },
      );
      const m = await runCli(
        [cmd, 'dumps/intact.rom.md', '--json', '--trust-store', TRUST_STORE_PATH, '--providers', PROVIDERS_PATH],
        { cwd: dir },
      );
      const rj = JSON.parse(j.stdout) as Report;
      const rm = JSON.parse(m.stdout) as Report;
      expect(rj.verdict).toBe('pass');
      expect(rm.verdict).toBe('pass');
      expect(rm.chain).toEqual(rj.chain);
      expect(rm.findings).toEqual(rj.findings);
      expect(rm.chain.map((n) => n.id)).toEqual(
        expect.arrayContaining(['prompt', 'pipeline', 'materials', 'input', 'outcome', 'signature', 'trust']),
      );
      if (cmd === 'replay') expect(rm.comparisons).toEqual(rj.comparisons);
    }
  });

  it('replaying twice gives byte-identical reports (minus run), with --workers 1 and --workers 2', async () => {
    const args = [
      'replay',
      'dumps/intact.dump.json',
      'dumps/intact.rom.md',
      'dumps/whatif/drift.dump.json',
      '--jsonl',
      '--trust-store',
      TRUST_STORE_PATH,
      '--providers',
      PROVIDERS_PATH,
    ];
    const outs: string[] = [];
    for (const w of ['1', '1', '2', '2']) {
      const r = await runCli([...args, '--workers', w], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      const reports = r.stdout
        .trim()
        .split('\n')
        .map((l) => withoutRun(JSON.parse(l) as Report));
      expect(reports.map((x) => x.verdict)).toEqual(['pass', 'pass', 'pass']);
      outs.push(JSON.stringify(reports));
    }
    expect(outs[1]).toBe(outs[0]);
    expect(outs[2]).toBe(outs[0]);
    expect(outs[3]).toBe(outs[0]);
  });

  it('what-if replay is labelled a demonstration and never passes; shape drift moves only low bits', async () => {
    const base = ['replay', 'dumps/whatif/drift.dump.json', '--json', '--trust-store', TRUST_STORE_PATH];
    const shape = JSON.parse(
      (await runCli([...base, '--what-if', 'shape=advisor.cpu_v1/4/fp32'], { cwd: dir })).stdout,
    ) as Report;
    expect(shape.verdict).toBe('fail');
    expect(shape.details?.['whatIf']).toMatchObject({
      demonstration: true,
      substitutions: { shape: 'advisor.cpu_v1/4/fp32' },
    });
    const e = shape.details?.['expression'] as {
      recorded: { text: string; logprobs: number[] };
      replayed: { text: string; logprobs: number[] };
    };
    expect(e.replayed.text).toBe(e.recorded.text);
    expect(e.replayed.logprobs).not.toEqual(e.recorded.logprobs);
    e.replayed.logprobs.forEach((x, i) => expect(Math.abs(x - e.recorded.logprobs[i]!)).toBeLessThan(1e-4));
    const model = JSON.parse((await runCli([...base, '--what-if', 'model=ref-2'], { cwd: dir })).stdout) as Report;
    const em = model.details?.['expression'] as { recorded: { text: string }; replayed: { text: string } };
    expect(em.replayed.text).not.toBe(em.recorded.text);
    // A what-if that happens to change nothing is still not a pass.
    const same = await runCli([...base, '--what-if', 'model=ref-1'], { cwd: dir });
    expect((JSON.parse(same.stdout) as Report).verdict).toBe('unavailable');
    expect(same.code).toBe(2);
  });

  it('bad input is a clear error, never a stack trace', async () => {
    const r1 = await runCli(['replay', 'dumps/intact.dump.json', '--providers', 'dumps/trust-store.json'], {
      cwd: dir,
    });
    expect(r1.code).toBe(3);
    expect(r1.stderr).toMatch(/provider registry .* refused/);
    expect(r1.stderr).not.toMatch(/\n\s+at /);
    const r2 = await runCli(['replay', 'dumps/intact.dump.json', '--what-if', 'shape=nonsense'], { cwd: dir });
    expect(r2.code).toBe(3);
    expect(r2.stderr).not.toMatch(/\n\s+at /);
  });
});
