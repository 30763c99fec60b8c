/**
 * `reprise journal notes` as a reader sees it (app/cli/commands/journal-note.ts): a listing is
 * only as good as its journal, so a failing or unverifiable journal says so on stderr and in
 * the exit code (as `quarantine list` does); each version names its author; a note with a
 * problem shows it on its line and is never the latest version nor a counted edit.
 * Driven through the built CLI, as /tmp/rt-notes/repro/repro.sh (F1, F2a, F2b) does.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cliBuilt, runCli, type CliResult } from '../helpers/cli.js';
import { tmp } from './helpers.js';

const A = `sha256:${'a'.repeat(64)}`;
const ORIGINAL = "reviewer one's original note text here";
const REPLACEMENT = 'replacement text written by reviewer two';
const PLANTED = 'text planted by a key nobody trusts';

interface Listed {
  entryHash: string;
  author: string;
  label: string | null;
  text: string;
  supersedes: string | null;
  supersededBy: string | null;
  problem: string | null;
}

interface World {
  base: string;
  /** rev's note, edited by rev2. */
  j: string;
  /** j, then an edit of rev2's note planted by a key no store holds. */
  j2: string;
  store: string;
  revokedStore: string;
  e0: string;
  e1: string;
  planted: string;
  keyOf: Record<string, string>;
}

async function ok(args: string[]): Promise<CliResult> {
  const r = await runCli(args);
  expect(r.code, r.stderr).toBe(0);
  return r;
}

async function makeKey(base: string, name: string, role: string, store: boolean): Promise<string> {
  const out = join(base, `${name}.pem`);
  const inStore = store ? ['--trust-store', join(base, 'ts.json')] : [];
  await ok(['keys', 'generate', '--out', out, '--role', role, '--label', name, ...inStore]);
  return out;
}

async function note(base: string, dir: string, key: string, text: string, supersedes?: string) {
  const body = join(base, `body-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(body, text);
  const edit = supersedes ? ['--supersedes', supersedes] : [];
  const args = ['journal', 'note', dir, '--artifact', A, '--body-file', body, '--key', key];
  const r = await ok([...args, '--trust-store', join(base, 'ts.json'), ...edit, '--json']);
  return (JSON.parse(r.stdout) as { entryHash: string }).entryHash;
}

/** The repro's world: rev and rev2 in the store (rev2 revoked in a second one), unk in none. */
async function setUp(): Promise<World> {
  const base = tmp('reprise-notes-listing-');
  const rev = await makeKey(base, 'rev', 'reviewer', true);
  const rev2 = await makeKey(base, 'rev2', 'reviewer', true);
  const unk = await makeKey(base, 'unk', 'quarantine-officer', false);
  const store = join(base, 'ts.json');
  const doc = JSON.parse(readFileSync(store, 'utf8')) as { keys: { label: string; status: string }[] };
  for (const k of doc.keys) if (k.label === 'rev2') k.status = 'revoked';
  const revokedStore = join(base, 'ts-rev2-revoked.json');
  writeFileSync(revokedStore, JSON.stringify(doc));
  const j = join(base, 'J');
  const e0 = await note(base, j, rev, ORIGINAL);
  const e1 = await note(base, j, rev2, REPLACEMENT, e0);
  const j2 = join(base, 'J2');
  cpSync(j, j2, { recursive: true });
  const forged = join(base, 'forged.json');
  const body = { type: 'reprise.judgement/v1', decision: 'note', rationale: PLANTED, pointer: '', supersedes: e1 };
  writeFileSync(forged, JSON.stringify(body));
  const rec = ['journal', 'record', j2, '--kind', 'review-rationale', '--claim', 'x', '--artifact', A];
  await ok([...rec, '--body-file', forged, '--key', unk]);
  const list = await runCli(['journal', 'notes', j2, '--artifact', A, '--json']);
  const notes = (JSON.parse(list.stdout) as { notes: Listed[] }).notes;
  const keyOf = { rev: notes[0]!.author, rev2: notes[1]!.author, unk: notes[2]!.author };
  return { base, j, j2, store, revokedStore, e0, e1, planted: notes[2]!.entryHash, keyOf };
}

const listing = (dir: string, store: string | null, json = false) =>
  runCli([
    'journal',
    'notes',
    dir,
    '--artifact',
    A,
    ...(store ? ['--trust-store', store] : []),
    ...(json ? ['--json'] : []),
  ]);

/** The text listing's header-and-author block of the note whose entry hash is `hash`. */
function block(stdout: string, hash: string): string {
  const b = stdout.split(/^(?=#\d+ )/m).find((s) => s.split(' ')[2] === hash);
  expect(b, `no listed note ${hash} in:\n${stdout}`).toBeDefined();
  return b!;
}

const header = (b: string) => b.split('\n')[0]!;

describe.skipIf(!cliBuilt())('journal notes: the listing says what it stands on', () => {
  let w: World;
  beforeAll(async () => {
    w = await setUp();
  }, 120_000);

  it('names each version author (label and key id), so an edit by another reviewer reads as theirs', async () => {
    const r = await listing(w.j, w.store);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(block(r.stdout, w.e0)).toContain(`by rev ${w.keyOf['rev']}`);
    expect(block(r.stdout, w.e1)).toContain(`by rev2 ${w.keyOf['rev2']}`);
    expect(header(block(r.stdout, w.e1))).toContain(`(latest) edits ${w.e0}`);
    const json = await listing(w.j, w.store, true);
    const notes = (JSON.parse(json.stdout) as { notes: Listed[] }).notes;
    expect(notes.map((n) => [n.label, n.author])).toEqual([
      ['rev', w.keyOf['rev']],
      ['rev2', w.keyOf['rev2']],
    ]);
  });

  it('a revoked reviewer edit: FAIL on stderr, exit 1, its problem on its line, never latest or an edit', async () => {
    const r = await listing(w.j, w.revokedStore);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^journal verdict FAIL/);
    expect(r.stderr).toMatch(/RPR-JOURNAL-009/);
    const edit = header(block(r.stdout, w.e1));
    expect(edit).toMatch(/revoked/);
    expect(edit).not.toMatch(/\(latest\)/);
    expect(edit).not.toMatch(/ edits /);
    expect(header(block(r.stdout, w.e0))).toMatch(/\(latest\)$/);
    const json = await listing(w.j, w.revokedStore, true);
    expect(json.code).toBe(1);
    const out = JSON.parse(json.stdout) as { verdict: string; notes: Listed[] };
    expect(out.verdict).toBe('fail');
    expect(out.notes[1]!.problem).toMatch(/revoked/);
  });

  it('a planted edit by a key the store lacks: exit 1, shown with its problem, not latest', async () => {
    const r = await listing(w.j2, w.store);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^journal verdict FAIL/);
    const planted = block(r.stdout, w.planted);
    expect(header(planted)).toMatch(/not in the trust store/);
    expect(header(planted)).not.toMatch(/\(latest\)| edits /);
    expect(planted).toContain(`by ${w.keyOf['unk']} (not in the trust store)`);
    expect(header(block(r.stdout, w.e1))).toMatch(/\(latest\) edits /);
  });

  it('without --trust-store: UNAVAILABLE on stderr, exit 2, every author marked unchecked', async () => {
    const r = await listing(w.j2, null);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^journal verdict UNAVAILABLE/);
    expect(r.stderr).toMatch(/RPR-JOURNAL-011/);
    for (const h of [w.e0, w.e1, w.planted]) expect(block(r.stdout, h)).toMatch(/\(unchecked: no trust store\)/);
    const json = await listing(w.j2, null, true);
    expect(json.code).toBe(2);
    const out = JSON.parse(json.stdout) as { artifact: string; verdict: string; findings: { rule: string }[] };
    expect(out.artifact).toBe(A);
    expect(out.verdict).toBe('unavailable');
    expect(out.findings.map((f) => f.rule)).toContain('RPR-JOURNAL-011');
  });

  it('a directory that is no journal is a usage error (exit 3), as for quarantine list', async () => {
    const r = await listing(join(w.base, 'nothing-here'), w.store);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/is not a journal/);
  });
});
