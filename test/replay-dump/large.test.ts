/**
 * Large dumps (>= STRIP_IN_WORKER_MIN): the signed payload comes from the document's own
 * bytes, stripped of whitespace on another thread while the main thread parses. The
 * verdicts must be exactly those of the serializing path, for intact, tampered and
 * non-canonically written dumps, read from a file (shared memory) or given as bytes.
 */
import { spawnSync } from 'node:child_process';
import { appendFile, chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../shared/report.js';
import { makeContext, runBytes, runPath } from '../../app/engine/run.js';
import { Sniffed, STRIP_IN_WORKER_MIN } from '../../app/kinds/sniff.js';
import { replayDumpKind } from '../../app/kinds/replay-dump/declare.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { sampleSpec, trustStoreDocument } from '../../app/kinds/replay-dump/examples.js';
import { stripToCanonical, canonicalizeText } from '../../app/core/jcs.js';
import { hashBytes } from '../../app/core/hash.js';
import type { EngineOptions } from '../../app/kinds/types.js';
import type { EngineJob, JobOutcome } from '../../app/jobs/protocol.js';

/** The built engine (dist/, built by npm test): its stripping thread runs, with the work the dump kind hands it. */
const built = (await import(new URL('../../dist/app/engine/run.js', import.meta.url).href)) as {
  runPath: (p: string, mode: 'verify', o: EngineOptions) => Promise<Report>;
  makeContext: typeof makeContext;
  handDeclaredWork: (s: Sniffed, ctx: ReturnType<typeof makeContext>) => Promise<void>;
};
/** The built job runner: a picked file followed while it is written (app/engine/arriving.ts), stripped on the thread as it comes. */
const builtJobs = (await import(new URL('../../dist/app/jobs/execute.js', import.meta.url).href)) as {
  executeJob: (job: EngineJob) => Promise<JobOutcome>;
};
const BuiltSniffed = (
  (await import(new URL('../../dist/app/kinds/sniff.js', import.meta.url).href)) as { Sniffed: typeof Sniffed }
).Sniffed;

let dir: string;
let store: string;
let text: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reprise-large-'));
  store = join(dir, 'trust.json');
  await writeFile(store, trustStoreDocument());
  // ~9 MiB of markdown with quotes, backslashes, tabs, newlines and non-ASCII, plus JSON.
  const line = (i: number) => `- "quoted" C:\\path\ttab évidence ✓ #${i}`;
  const lines: string[] = [];
  for (let i = 0; lines.length * 40 < STRIP_IN_WORKER_MIN + 512 * 1024; i++) lines.push(line(i));
  const rows = Array.from({ length: 2000 }, (_, i) => ({ id: i, score: i / 7, tag: `r${i}` }));
  const spec = sampleSpec({
    dumpId: 'dump.large',
    materials: [
      { mediaType: 'text/markdown', text: lines.join('\n') },
      { mediaType: 'application/json', json: { rows } },
      { mediaType: 'text/plain', text: 'é✓ plain words '.repeat(20000) + 'END' },
    ],
  });
  text = encodeJson(await buildDump(spec, sampleSigner('active')));
}, 60_000);

/** Verifies `t` as a picked file: the job starts at once and follows the bytes written in 1 MiB pieces, then marked whole as the web host marks it. */
async function asArriving(name: string, t: string, trustStore: string): Promise<Report> {
  const bytes = Buffer.from(t, 'utf8');
  const p = join(dir, `arriving-${name}`);
  await writeFile(p, '', { mode: 0o600 });
  const outcome = builtJobs.executeJob({
    op: 'runPath',
    path: p,
    mode: 'verify',
    options: { trustStore },
    shown: name,
    arriving: bytes.length,
  });
  for (let i = 0; i < bytes.length; i += 1 << 20) {
    await appendFile(p, bytes.subarray(i, i + (1 << 20)));
    await new Promise((r) => setTimeout(r, 2));
  }
  await chmod(p, 0o400);
  const o = await outcome;
  if (!o.ok) throw new Error(o.message);
  return o.report;
}

const rules = (r: Report) =>
  r.findings
    .filter((f) => f.severity !== 'info')
    .map((f) => f.rule)
    .sort();

async function both(name: string, t: string): Promise<Report[]> {
  const p = join(dir, name);
  await writeFile(p, t);
  const fromFile = await runPath(p, 'verify', { trustStore: store });
  const fromBytes = await runBytes(p, Buffer.from(t, 'utf8'), 'verify', { trustStore: store });
  expect(fromBytes.verdict).toBe(fromFile.verdict);
  expect(rules(fromBytes)).toEqual(rules(fromFile));
  expect(fromBytes.chain).toEqual(fromFile.chain);
  // The report names the bytes verified: read once, hashed from that one read.
  expect(fromFile.artifact.sha256).toBe(hashBytes(Buffer.from(t, 'utf8')));
  expect(fromBytes.artifact.sha256).toBe(fromFile.artifact.sha256);
  return [fromFile, fromBytes];
}

describe('large dumps: canonical bytes stripped on another thread', () => {
  it('the stripped bytes are the canonical bytes of a canonically written dump', () => {
    expect(Buffer.byteLength(text)).toBeGreaterThan(STRIP_IN_WORKER_MIN);
    const st = stripToCanonical(Buffer.from(text, 'utf8'));
    expect(st).not.toBeNull();
    expect(Buffer.from(st!.bytes).toString('utf8')).toBe(canonicalizeText(text));
    expect(st!.members.map((m) => m.name)).toEqual(Object.keys(JSON.parse(text)));
  });

  it('the dump kind takes the stripped bytes instead of serializing the document', async () => {
    const s = new Sniffed('x.dump.json', Buffer.from(text, 'utf8'));
    const ctx = makeContext('x.dump.json', { trustStore: store });
    const work = await replayDumpKind.beforeParse!(s, ctx);
    expect(work).not.toBeNull();
    s.handStrippingThread(work!);
    expect(replayDumpKind.detect(s)).toBe(true);
    expect(s.stripping).toBe(true);
    const r = await (await replayDumpKind.load()).verify(s, ctx);
    expect(s.stripping).toBe(false);
    expect(r.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    // A small dump has nothing to take.
    const small = new Sniffed(
      's.dump.json',
      Buffer.from(encodeJson(await buildDump(sampleSpec(), sampleSigner('active'))), 'utf8'),
    );
    expect(replayDumpKind.detect(small)).toBe(true);
    expect(small.stripping).toBe(false);
  });

  it('the engine hands the stripping thread the work the dump kind declares: the signature is cut out and checked there', async () => {
    const s = new BuiltSniffed('x.dump.json', Buffer.from(text, 'utf8'));
    await built.handDeclaredWork(s, built.makeContext('x.dump.json', { trustStore: store }));
    expect(s.json()?.ok).toBe(true);
    const st = await s.takeStrippedCanonical();
    expect(st?.omitted).toBe('signature');
    expect(st?.signature?.ok).toBe(true);
  });

  it('an intact large dump passes, its signature checked', async () => {
    for (const r of await both('intact.dump.json', text)) {
      expect(r.verdict).toBe('pass');
      expect(r.chain.find((n) => n.id === 'signature')?.status).toBe('match');
    }
  });

  it('one changed byte in an artifact fails the artifact and the signature', async () => {
    const t = text.replace('#4242', '#4243');
    expect(t).not.toBe(text);
    for (const r of await both('tampered.dump.json', t)) {
      expect(r.verdict).toBe('fail');
      expect(r.chain.find((n) => n.id === 'signature')?.status).toBe('mismatch');
      expect(rules(r)).toContain('RDS-F001');
    }
  });

  it('one changed value in a JSON artifact fails that artifact (its canonical bytes cut from the stripped document)', async () => {
    const t = text.replace('"tag":"r1500"', '"tag":"r1501"');
    expect(t).not.toBe(text);
    for (const r of await both('json-tampered.dump.json', t)) {
      const bad = r.chain.filter((n) => n.id.startsWith('artifact:') && n.status === 'mismatch');
      expect(bad).toHaveLength(1);
      expect(bad[0]!.label).toContain('json');
      expect(rules(r)).toContain('RDS-F001');
    }
  });

  it('a change to the signed members after the signature (trustDecision) fails the signature', async () => {
    const t = text
      .replace('"decision": "trusted"', '"decision": "unknown"')
      .replace('"decision":"trusted"', '"decision":"unknown"');
    expect(t).not.toBe(text);
    for (const r of await both('decision.dump.json', t))
      expect(r.chain.find((n) => n.id === 'signature')?.status).toBe('mismatch');
  });

  it('non-canonical escapes or numbers fall back to serializing: still a pass', async () => {
    const escaped = text.replace('"dump.large"', '"\\u0064ump.large"');
    expect(escaped).not.toBe(text);
    expect(stripToCanonical(Buffer.from(escaped, 'utf8'))).toBeNull();
    for (const r of await both('escaped.dump.json', escaped)) expect(r.verdict).toBe('pass');
    const number = text.replace(/"temperature": ([\d.]+)/, (_m, n: string) => `"temperature": ${n}e0`);
    expect(number).not.toBe(text);
    expect(stripToCanonical(Buffer.from(number, 'utf8'))).toBeNull();
    for (const r of await both('number.dump.json', number)) expect(r.verdict).toBe('pass');
  });

  it('members out of order are RDS-004 whatever the path', async () => {
    const t = text.replace(/\{\s*"advisor"([^}]*)\}/, (_m, rest: string) => {
      const o = JSON.parse(`{"advisor"${rest}}`) as Record<string, unknown>;
      return JSON.stringify(Object.fromEntries(Object.entries(o).reverse()));
    });
    expect(t).not.toBe(text);
    for (const r of await both('order.dump.json', t)) expect(rules(r)).toContain('RDS-004');
  });

  it('a truncated large dump (an unterminated string) is refused, never a hang', async () => {
    const cut = text.slice(0, text.indexOf('#4242'));
    const p = join(dir, 'truncated.dump.json');
    await writeFile(p, cut);
    const r = await runPath(p, 'verify', { trustStore: store });
    expect(r.verdict).toBe('fail');
    const cli = spawnSync(process.execPath, ['bin/reprise.js', 'verify', p, '--json'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(cli.status).toBe(1);
  }, 90_000);

  it('through the CLI (the built engine, with its worker thread) the verdicts are the same', async () => {
    const cli = (name: string) =>
      spawnSync(process.execPath, ['bin/reprise.js', 'verify', join(dir, name), '--json', '--trust-store', store], {
        encoding: 'utf8',
      });
    await both('cli-intact.dump.json', text);
    await both('cli-tampered.dump.json', text.replace('#4242', '#4243'));
    const ok = cli('cli-intact.dump.json');
    expect(ok.status).toBe(0);
    expect((JSON.parse(ok.stdout) as Report).chain.find((n) => n.id === 'signature')?.status).toBe('match');
    const bad = cli('cli-tampered.dump.json');
    expect(bad.status).toBe(1);
    expect(rules(JSON.parse(bad.stdout) as Report)).toContain('RDS-F001');
  }, 60_000);

  it('the stripping thread (signature checked there, long escape-free texts hashed there) gives the verdicts of this thread', async () => {
    const { trustStoreEntry } = await import('../../app/core/keys.js');
    const revokedStore = join(dir, 'revoked-trust.json');
    await writeFile(
      revokedStore,
      JSON.stringify({
        type: 'reprise.trust-store/v1',
        keys: [trustStoreEntry(sampleSigner('active'), 'reviewer', 'revoked now', 'revoked')],
      }),
    );
    const otherStore = join(dir, 'other-trust.json');
    await writeFile(
      otherStore,
      JSON.stringify({
        type: 'reprise.trust-store/v1',
        keys: [trustStoreEntry(sampleSigner('unknown'), 'reviewer', 'another key')],
      }),
    );
    const sig = (JSON.parse(text) as { signature: string }).signature;
    const forged = sig.slice(0, 10) + (sig[10] === 'A' ? 'B' : 'A') + sig.slice(11);
    const cases: [string, string, string][] = [
      ['intact', text, store],
      ['text tampered', text.replace('#4242', '#4243'), store],
      ['json tampered', text.replace('"tag":"r1500"', '"tag":"r1501"'), store],
      ['escape-free text tampered', text.replace('plain words END', 'plain wordz END'), store],
      ['signature forged', text.replace(sig, forged), store],
      ['revoked key', text, revokedStore],
      ['key not in the store', text, otherStore],
      ['out of order', text.replace('"dumpId"', '"dumpId "'), store],
    ];
    for (const [name, t, ts] of cases) {
      const p = join(dir, `thread-${name.replace(/ /g, '-')}.dump.json`);
      await writeFile(p, t);
      const threaded = await built.runPath(p, 'verify', { trustStore: ts });
      const here = await runPath(p, 'verify', { trustStore: ts });
      expect(threaded.verdict, name).toBe(here.verdict);
      expect(rules(threaded), name).toEqual(rules(here));
      expect(threaded.chain, name).toEqual(here.chain);
      expect(threaded.artifact.sha256, name).toBe(hashBytes(Buffer.from(t, 'utf8')));
      // Picked, the bytes stripped (and hashed, and the signature's payload cut) as they arrive: the same report.
      const picked = await asArriving(name, t, ts);
      expect(picked.verdict, name).toBe(here.verdict);
      expect(rules(picked), name).toEqual(rules(here));
      expect(picked.chain, name).toEqual(here.chain);
      expect(picked.artifact.sha256, name).toBe(threaded.artifact.sha256);
    }
    const verdict = async (t: string, ts: string) => {
      const p = join(dir, 'thread-check.dump.json');
      await writeFile(p, t);
      return built.runPath(p, 'verify', { trustStore: ts });
    };
    expect((await verdict(text, store)).verdict).toBe('pass');
    const forgedReport = await verdict(text.replace(sig, forged), store);
    expect(forgedReport.chain.find((n) => n.id === 'signature')?.status).toBe('mismatch');
    expect(rules(forgedReport)).toContain('RDS-F001');
    expect(rules(await verdict(text, revokedStore))).toContain('RDS-007');
  }, 120_000);
});
