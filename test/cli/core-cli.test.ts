import { mkdir, mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, SHARED } from '../helpers/cli.js';

interface Case {
  id: string;
  input: string;
  outputHex?: string;
  error?: string;
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reprise-cli-'));
});

describe('reprise canonicalize (every JCS vector through the CLI)', () => {
  it('reproduces every case byte for byte and refuses every refused one with exit 1 and the reason', async () => {
    const { cases } = JSON.parse(await readFile(join(SHARED, 'vectors/jcs/cases.json'), 'utf8')) as { cases: Case[] };
    let n = 0;
    for (const c of cases) {
      const f = join(dir, `case-${n++}.json`);
      await writeFile(f, c.input, 'utf8');
      const r = await runCli(['canonicalize', f]);
      if (c.error) {
        expect(r.code, c.id).toBe(1);
        expect(r.stderr, c.id).toContain(c.error);
        expect(r.stdout).toBe('');
      } else {
        expect(r.code, c.id).toBe(0);
        expect(Buffer.from(r.stdout, 'utf8').toString('hex'), c.id).toBe(c.outputHex);
      }
    }
    expect(n).toBe(cases.length);
  });
  it('--hash prints H of the canonical bytes', async () => {
    const f = join(dir, 'h.json');
    await writeFile(f, '{ "b": 2, "a": 1 }');
    const r = await runCli(['canonicalize', f, '--hash']);
    expect(r.code).toBe(0);
    // sha256 of {"a":1,"b":2}
    expect(r.stdout.trim()).toBe('sha256:43258cff783fe7036d8a43033f830adfc60ec037382473548ac742b888292777');
  });
  it('refuses a BOM, and a missing file exits 3 with one line', async () => {
    const f = join(dir, 'bom.json');
    await writeFile(f, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{}')]));
    const r = await runCli(['canonicalize', f]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ERR_BOM');
    const m = await runCli(['canonicalize', join(dir, 'missing.json')]);
    expect(m.code).toBe(3);
    expect(m.stderr.trim().split('\n')).toHaveLength(1);
    expect(m.stderr).not.toMatch(/\n\s+at /);
  });
  it('refuses more distinct member names than its limit before parsing (exit 1); --limit raises it, an unknown limit is bad usage', async () => {
    const f = join(dir, 'wide.json');
    await writeFile(f, '{' + Array.from({ length: 250_001 }, (_, i) => `"k${i}":0`).join(',') + '}');
    const r = await runCli(['canonicalize', f, '--hash']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('ERR_LIMIT: more than 250000 distinct member names (limit json-member-names)');
    const raised = await runCli(['canonicalize', f, '--hash', '--limit', 'json-member-names=250001']);
    expect(raised.code).toBe(0);
    expect(raised.stdout).toMatch(/^sha256:[0-9a-f]{64}\n$/);
    const unknown = await runCli(['canonicalize', f, '--limit', 'acgp-findings=1']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain('--limit acgp-findings is no limit Reprise knows (json-member-names, json-items)');
  });
});

describe('reprise verify on unknown content', () => {
  it('exits 1 with RPR-KIND-001 in its JSON report, whatever the file is called', async () => {
    const f = join(dir, 'looks-like.dump.json');
    await writeFile(f, '{"type":"not.a.dump"}');
    const r = await runCli(['verify', f, '--json']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report.schema).toBe('reprise.report/v1');
    expect(report.artifact.kind).toBe('unknown');
    expect(report.verdict).toBe('fail');
    expect(report.findings.map((x: { rule: string }) => x.rule)).toEqual(['RPR-KIND-001']);
  });
  it('exits 3 on a missing path, with one clear line and no stack trace', async () => {
    const r = await runCli(['verify', join(dir, 'nope', 'missing.json')]);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/^reprise: no such file or directory: .*missing\.json\n$/);
  });
  it('walks a directory recursively and reports each file in order with --jsonl, also with workers', async () => {
    const d = join(dir, 'batch');
    await mkdir(join(d, 'sub', 'deeper'), { recursive: true });
    const names = ['b.bin', 'a.txt', 'sub/c.json', 'sub/deeper/d.json', 'Z.json'];
    for (const n of names) await writeFile(join(d, n), `{"n": ${JSON.stringify(n)}}`);
    const expected = ['Z.json', 'a.txt', 'b.bin', 'sub/c.json', 'sub/deeper/d.json'].map((n) => join(d, n));
    for (const workers of ['0', '1', '2']) {
      const r = await runCli(['verify', d, '--jsonl', '--workers', workers]);
      expect(r.code).toBe(1);
      const lines = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.map((l) => l.artifact.path)).toEqual(expected);
      expect(lines.every((l) => l.findings[0].rule === 'RPR-KIND-001')).toBe(true);
    }
  });
  it('gives the worst exit code of a batch: an unreadable path (3) beats a fail (1)', async () => {
    const f = join(dir, 'x.json');
    await writeFile(f, '[]');
    const r = await runCli(['verify', f, join(dir, 'absent.json')]);
    expect(r.code).toBe(3);
  });
  it('is deterministic apart from run, with one worker or several', async () => {
    const f = join(dir, 'det.json');
    await writeFile(f, '{"x":1}');
    const strip = (s: string) =>
      s
        .trim()
        .split('\n')
        .map((l) => {
          const o = JSON.parse(l);
          delete o.run;
          return JSON.stringify(o);
        });
    const a = await runCli(['verify', f, f, f, '--jsonl', '--workers', '1']);
    const b = await runCli(['verify', f, f, f, '--jsonl', '--workers', '2']);
    expect(strip(a.stdout)).toEqual(strip(b.stdout));
  });
});

describe('usage', () => {
  it('--version and --help exit 0; an unknown command or flag exits 3', async () => {
    expect((await runCli(['--version'])).stdout).toMatch(/^reprise \d+\.\d+\.\d+/);
    const h = await runCli(['--help']);
    expect(h.code).toBe(0);
    for (const c of ['verify', 'replay', 'canonicalize', 'keys', 'examples', 'serve']) expect(h.stdout).toContain(c);
    expect((await runCli(['frobnicate'])).code).toBe(3);
    const bad = await runCli(['verify', '--no-such-flag', 'x']);
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('usage:');
    expect((await runCli(['verify'])).code).toBe(3);
    expect((await runCli(['verify', 'x', '--workers', 'lots'])).code).toBe(3);
  });

  // A flag only some kinds read is still checked: never silently ignored.
  it('an unreadable file flag or an unknown --limit name exits 3 at once, whatever the artifact', async () => {
    const f = join(dir, 'plain.json');
    await writeFile(f, '{"hello":"world"}');
    for (const flag of ['--trust-store', '--policy', '--providers', '--profiles', '--key', '--kernel-adapter']) {
      const r = await runCli(['replay', f, flag, join(dir, 'no-such-file')]);
      expect(r.code, flag).toBe(3);
      expect(r.stderr).toMatch(new RegExp(`^reprise: cannot read ${flag} .*no-such-file: ENOENT\n$`));
    }
    expect((await runCli(['verify', f, '--policy', dir])).stderr).toMatch(/a directory, not a regular file/);
    const lim = await runCli(['verify', f, '--limit', 'maxEntrys=5']);
    expect(lim.code).toBe(3);
    expect(lim.stderr).toMatch(/--limit maxEntrys is no limit Reprise knows \(maxArchiveBytes, .*acgp-findings/);
    expect((await runCli(['verify', f, '--limit', 'maxEntries=5'])).code).toBe(1); // RPR-KIND-001, not a usage error
  });
});

describe('reprise keys generate', () => {
  it('writes a 0600 PKCS#8 key, prints its id, never prints the private key, and adds it to a trust store', async () => {
    const k = join(dir, 'officer.pem');
    const store = join(dir, 'trust.json');
    const r = await runCli(['keys', 'generate', '--out', k, '--role', 'quarantine-officer', '--trust-store', store]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ed25519:[0-9a-f]{64}\n$/);
    expect(r.stdout + r.stderr).not.toContain('PRIVATE KEY');
    expect((await stat(k)).mode & 0o777).toBe(0o600);
    const ts = JSON.parse(await readFile(store, 'utf8'));
    expect(ts.keys[0]).toMatchObject({ keyId: r.stdout.trim(), role: 'quarantine-officer', status: 'active' });
    const again = await runCli(['keys', 'generate', '--out', k, '--role', 'reviewer']);
    expect(again.code).toBe(3);
    expect((await runCli(['keys', 'generate', '--out', join(dir, 'x.pem'), '--role', 'admin'])).code).toBe(3);
  });
});
