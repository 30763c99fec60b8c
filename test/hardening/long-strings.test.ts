/**
 * One very long string, through the built CLI measured (peak RSS, CPU): an EVAL whose
 * trace_id is 96 MiB, and a document that is one 64 MiB string, canonicalized and hashed.
 * Bounds: under 512 MiB and 10 s of CPU. What keeps them: only a kind that uses a large
 * document's stripped canonical bytes has it stripped on another thread (the stripping
 * holds a second copy: KindHandler.stripsCanonical), and a long text is hashed and written
 * in pieces, never encoded whole (app/core/string-pieces.ts).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cliBuilt } from '../helpers/cli.js';
import { canMeasureRss, runMeasured, writeFilled } from '../helpers/measured-cli.js';

const MiB = 1024 * 1024;
const RSS_BOUND_MIB = 512;
const CPU_BOUND_MS = 10_000;

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'reprise-long-strings-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!cliBuilt() || !canMeasureRss())('one very long string (built CLI, measured)', () => {
  it(`an EVAL with a 96 MiB trace_id: its verdict, under ${RSS_BOUND_MIB} MiB and ${CPU_BOUND_MS / 1000} s of CPU`, async () => {
    const examples = join(dir, 'examples');
    expect(spawnSync(process.execPath, [BIN, 'examples', examples]).status).toBe(0);
    const text = readFileSync(join(examples, 'acgp/seed-eval-corrected.json'), 'utf8');
    const at = text.indexOf('"trace-12345"');
    expect(at).toBeGreaterThan(0);
    const path = writeFilled(
      join(dir, 'long-trace.json'),
      text.slice(0, at) + '"',
      't',
      '"' + text.slice(at + 13),
      96 * MiB,
    );
    const r = await runMeasured(dir, ['verify', path, '--json'], 120_000);
    console.log(
      `long-strings: EVAL: exit ${r.code}, ${r.cpuMs.toFixed(0)} ms CPU, peak RSS ${r.rssMiB.toFixed(0)} MiB`,
    );
    expect(r.code, r.stderr.slice(0, 2000)).toBe(0);
    const report = JSON.parse(r.stdout) as { verdict: string; artifact: { kind: string; id: string } };
    expect(report.verdict).toBe('pass');
    expect(report.artifact.kind).toBe('acgp-eval');
    expect(report.artifact.id.length).toBeLessThan(2048);
    expect(r.cpuMs).toBeLessThan(CPU_BOUND_MS);
    expect(r.rssMiB).toBeLessThan(RSS_BOUND_MIB);
    rmSync(path);
  }, 180_000);

  it(`a document that is one 64 MiB string: canonicalized and hashed, under ${RSS_BOUND_MIB} MiB`, async () => {
    const path = writeFilled(join(dir, 'one-string.json'), '"', 'ab\\n', '"', 64 * MiB);
    // Its canonical bytes are its own bytes: the string needs no other escape.
    const expected = 'sha256:' + createHash('sha256').update(readFileSync(path)).digest('hex');
    for (const args of [
      ['canonicalize', '--hash', path],
      ['canonicalize', path],
    ]) {
      const r = await runMeasured(dir, args, 120_000);
      console.log(
        `long-strings: ${args.slice(0, -1).join(' ')}: exit ${r.code}, ${r.cpuMs.toFixed(0)} ms CPU, peak RSS ${r.rssMiB.toFixed(0)} MiB`,
      );
      expect(r.code, r.stderr.slice(0, 2000)).toBe(0);
      if (args[1] === '--hash') expect(r.stdout.trim()).toBe(expected);
      else expect('sha256:' + createHash('sha256').update(r.stdout).digest('hex')).toBe(expected);
      expect(r.cpuMs).toBeLessThan(CPU_BOUND_MS);
      expect(r.rssMiB).toBeLessThan(RSS_BOUND_MIB);
    }
    writeFileSync(path, '');
  }, 180_000);
});
