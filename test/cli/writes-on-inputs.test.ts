/**
 * Commands that write a file never write it over what they read (journal proof, attest,
 * replay --out, export), and flags naming files are checked before anything is written
 * (keys generate --trust-store, verify --journal). Each case checks the input is unchanged.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliIn, examplesIn } from './in-process.js';

let ex: string;
/** A path under the examples folder (the CLI runs in this process, in the test's folder). */
const at = (p: string): string => join(ex, ...p.split('/'));
let [M, J, TS, KEY, BUNDLE] = ['', '', '', '', ''];

beforeAll(async () => {
  ex = await examplesIn('reprise-writes-on-inputs-');
  [M, J, TS, KEY, BUNDLE] = [
    'tg/recorded-anchored/manifest.json',
    'tg/journal',
    'tg/trust-store.json',
    'journal/keys/reviewer.pem',
    'tg/bundle.json',
  ].map(at) as [string, string, string, string, string];
});

/** Runs `args`, expects exit 3 with `message`, and `kept` unchanged. */
async function refused(args: string[], kept: string, message: RegExp): Promise<void> {
  const before = readFileSync(kept);
  const r = await cliIn(ex, ...args);
  expect(r.err).toMatch(message);
  expect(r.code).toBe(3);
  expect(readFileSync(kept).equals(before)).toBe(true);
}

const NEVER = /Reprise never overwrites its input/;

describe('journal proof --out', () => {
  it('refuses the journal folder and any file inside it', async () => {
    await refused(
      ['journal', 'proof', J, '--entry', '0', '--out', join(J, 'entries.jsonl')],
      join(J, 'entries.jsonl'),
      NEVER,
    );
    await refused(
      ['journal', 'proof', J, '--entry', '0', '--out', J],
      join(J, 'entries.jsonl'),
      /is the journal; Reprise never/,
    );
    const ok = await cliIn(ex, 'journal', 'proof', J, '--entry', '0', '--out', at('proof.json'));
    expect(ok.code).toBe(0);
  });
});

describe('attest --out', () => {
  const attest = (out: string) => ['attest', M, '--key', KEY, '--journal', J, '--trust-store', TS, '--out', out];
  it('refuses the key, the manifest, the trust store, a file inside --journal, --policy', async () => {
    await refused(attest(KEY), KEY, /is the --key file; Reprise never overwrites its input/);
    await refused(attest(M), M, /is the manifest being attested/);
    await refused(attest(TS), TS, /is the --trust-store file/);
    await refused(attest(join(J, 'entries.jsonl')), join(J, 'entries.jsonl'), NEVER);
    await refused([...attest(BUNDLE), '--policy', BUNDLE], BUNDLE, NEVER);
  });
});

describe('replay --out', () => {
  const replay = (...more: string[]) => ['replay', M, '--journal', J, '--trust-store', TS, ...more];
  it('refuses every file an option names, not only the manifest', async () => {
    await refused([...replay('--out', TS)], TS, /is the --trust-store file/);
    await refused([...replay('--out', join(J, 'checkpoints.jsonl'))], join(J, 'checkpoints.jsonl'), NEVER);
    await refused([...replay('--policy', BUNDLE, '--out', BUNDLE)], BUNDLE, NEVER);
    await refused([...replay('--key', KEY, '--out', KEY)], KEY, NEVER);
  });
  it('refuses an empty --out instead of ignoring it', async () => {
    const r = await cliIn(ex, ...replay('--out', ''));
    expect(r.err).toMatch(/--out needs a file name/);
    expect(r.code).toBe(3);
  });
});

describe('export --out', () => {
  const exp = (path: string, out: string, ...more: string[]) => [
    'export',
    path,
    '--journal',
    J,
    '--trust-store',
    TS,
    '--out',
    out,
    ...more,
  ];
  it('refuses the journal, the trust store, --policy, --report, --attestation', async () => {
    await refused(exp(M, join(J, 'entries.jsonl')), join(J, 'entries.jsonl'), NEVER);
    await refused(exp(M, TS), TS, /is the --trust-store file/);
    await refused(exp(M, BUNDLE, '--policy', BUNDLE), BUNDLE, NEVER);
    const given = at('given.json');
    writeFileSync(given, '{}\n');
    await refused(exp(M, given, '--report', given), given, /is the --report file/);
    await refused(exp(M, given, '--attestation', given), given, /is the --attestation file/);
  });
  it('refuses them for a case folder too', async () => {
    await refused(exp(at('tg/exact-intact'), TS), TS, /is the --trust-store file/);
    await refused(exp(at('tg/exact-intact'), join(J, 'entries.jsonl')), join(J, 'entries.jsonl'), NEVER);
  });
});

describe('keys generate --trust-store', () => {
  it('refuses a folder or a path in a missing folder before writing any key', async () => {
    const d = await cliIn(
      ex,
      'keys',
      'generate',
      '--out',
      at('kx.pem'),
      '--role',
      'reviewer',
      '--trust-store',
      at('tg'),
    );
    expect(d.code).toBe(3);
    expect(existsSync(at('kx.pem'))).toBe(false);
    const args = [
      'keys',
      'generate',
      '--out',
      at('ky.pem'),
      '--role',
      'reviewer',
      '--trust-store',
      at('nodir/ts.json'),
    ];
    const m = await cliIn(ex, ...args);
    expect(m.err).toBe(`reprise: cannot write --trust-store ${at('nodir/ts.json')}: its folder does not exist\n`);
    expect(m.code).toBe(3);
    expect(existsSync(at('ky.pem'))).toBe(false);
  });
  it('removes the new key when the store cannot take it (not a trust store)', async () => {
    writeFileSync(at('not-a-store.json'), 'not json\n');
    const r = await cliIn(
      ex,
      'keys',
      'generate',
      '--out',
      at('kz.pem'),
      '--role',
      'reviewer',
      '--trust-store',
      at('not-a-store.json'),
    );
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/the new key .*kz\.pem was removed/);
    expect(existsSync(at('kz.pem'))).toBe(false);
  });
});

describe('--journal DIR', () => {
  it('verify refuses a missing folder and a file (exit 3), naming the flag', async () => {
    const miss = await cliIn(ex, 'verify', M, '--journal', at('typo_dir'), '--trust-store', TS);
    expect(miss.err).toMatch(/^reprise: cannot read --journal .*typo_dir: /);
    expect(miss.code).toBe(3);
    const intact = await cliIn(ex, 'verify', at('tg/exact-intact/manifest.json'), '--journal', at('typo_dir'));
    expect(intact.code).toBe(3);
    const file = await cliIn(ex, 'verify', M, '--journal', TS, '--trust-store', TS);
    expect(file.err).toMatch(/cannot read --journal .*: a regular file, not a folder/);
    expect(file.code).toBe(3);
  });
  it('a replay with --key may still create its journal; without --key it only reads', async () => {
    const fresh = at('new-journal');
    const w = await cliIn(ex, 'replay', at('tg/banded-drift-material/manifest.json'), '--journal', fresh, '--key', KEY);
    expect(w.err).not.toMatch(/cannot read --journal/);
    expect(existsSync(join(fresh, 'entries.jsonl'))).toBe(true);
    const r = await cliIn(ex, 'replay', at('tg/exact-intact/manifest.json'), '--journal', at('other-missing'));
    expect(r.code).toBe(3);
  });
});

describe('examples DIR', () => {
  // Run in an empty folder of its own: before the fix, '' wrote the examples into the working folder.
  it('refuses an empty DIR, writing nothing into the working folder', async () => {
    const here = process.cwd();
    const cwd = at('cwd');
    mkdirSync(cwd);
    process.chdir(cwd);
    try {
      const r = await cliIn(cwd, 'examples', '');
      expect(r.err).toMatch(/examples needs a folder name/);
      expect(r.code).toBe(3);
    } finally {
      process.chdir(here);
    }
    expect(readdirSync(cwd)).toEqual([]);
  });
  it("never replaces a user's file, names it, and writes a previous run's folder again", async () => {
    const dir = join(ex, 'again');
    expect((await cliIn(ex, 'examples', dir)).code).toBe(0);
    expect((await cliIn(ex, 'examples', dir)).code).toBe(0);
    const mine = join(dir, 'journal', 'keys', 'reviewer.pem');
    writeFileSync(mine, 'MY OWN PRIVATE KEY\n');
    const r = await cliIn(ex, 'examples', dir);
    expect(r.err).toBe(
      `reprise: ${mine} exists and is not the example Reprise would write there; Reprise never overwrites a file (name a new or empty folder)\n`,
    );
    expect(r.code).toBe(3);
    expect(readFileSync(mine, 'utf8')).toBe('MY OWN PRIVATE KEY\n');
  });
  it('writes into an empty folder that exists', async () => {
    const dir = join(ex, 'empty');
    mkdirSync(dir);
    expect((await cliIn(ex, 'examples', dir)).code).toBe(0);
  });
});

describe('journal check-proof authenticity', () => {
  it('names the checkpoint signer it verified, and a revoked signer on a FAIL', async () => {
    expect((await cliIn(ex, 'journal', 'proof', J, '--entry', '0', '--out', at('p0.json'))).code).toBe(0);
    const r = await cliIn(ex, 'journal', 'check-proof', at('p0.json'), '--trust-store', TS, '--json');
    expect(r.code).toBe(0);
    const a = JSON.parse(r.out).authenticity;
    const signer = JSON.parse(readFileSync(at('p0.json'), 'utf8')).checkpoint.signer;
    expect(a.status).toBe('trusted-signer');
    expect(a.keyId).toBe(signer);
    expect(a.statement).toContain("the proof's checkpoint (tree");
    const store = JSON.parse(readFileSync(TS, 'utf8'));
    for (const k of store.keys) if (k.keyId === signer) k.status = 'revoked';
    writeFileSync(at('revoked-ts.json'), JSON.stringify(store));
    const f = await cliIn(
      ex,
      'journal',
      'check-proof',
      at('p0.json'),
      '--trust-store',
      at('revoked-ts.json'),
      '--json',
    );
    expect(f.code).toBe(1);
    const b = JSON.parse(f.out).authenticity;
    expect(b.status).toBe('revoked-signer');
    expect(b.keyId).toBe(signer);
  });
});
