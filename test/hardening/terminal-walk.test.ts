/**
 * No raw terminal control reaches stdout or stderr, whatever command runs and whatever a
 * field holds: every command of the command table, each subcommand and each flag its usage
 * names, run with a hostile path and hostile values (generic walk: a new command is walked
 * without a line here), and deep scenarios that bring a hostile string to every field a
 * command prints (an envelope's keyid and payloadType, a stale lock's host and time, a
 * dumpId, claims, reasons, rationales, labels, model names, lint diagnostics, paths). Each
 * in text, --json and --jsonl, through the printer with both streams claimed to be
 * terminals; JSON output must still parse and give the hostile string back unchanged.
 * The real process (pipes, worker threads) is run for a few at the end.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../app/cli/commands/index.js';
import { runCli as runInProcess } from '../../app/cli/main.js';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { addToTrustStore, generateSigner, loadSigner, trustStoreEntry, writePrivateKey } from '../../app/core/keys.js';
import { hashBytes } from '../../app/core/hash.js';
import { sampleSpec, trustStoreDocument } from '../../app/kinds/replay-dump/examples.js';
import { writeExamples } from '../../app/examples/index.js';
import { LOCK_FILE } from '../../app/journal/format.js';
import type { AppendInput } from '../../app/journal/index.js';
import { listCases } from '../../app/journal/quarantine.js';
import { encodeJson } from '../../app/kinds/replay-dump/json-encoding.js';
import { buildDump, sampleSigner } from '../../app/kinds/replay-dump/writer.js';
import { cliBuilt, runCli as runProcess } from '../helpers/cli.js';
import { FAKED_LINE, HOSTILE as H, HOSTILE_NAME as HN, rawControls } from '../helpers/terminal.js';
import { forgeEntry } from '../journal/forge.helpers.js';

const tmp = mkdtempSync(join(tmpdir(), 'reprise-walk-'));
afterAll(() => rm(tmp, { recursive: true, force: true }));

/** Paths: a hostile directory and the files in it, a hostile path that does not exist, journals. */
const P = {
  dir: join(tmp, HN),
  unknown: join(tmp, HN, `${HN}.json`),
  dump: join(tmp, HN, 'evil.dump.json'),
  cut: join(tmp, HN, 'cut.json'),
  dup: join(tmp, 'dup.json'),
  spec: join(tmp, `${HN}.md`),
  env: join(tmp, 'envelope.json'),
  store: join(tmp, 'trust.json'),
  reviewer: join(tmp, 'reviewer.pem'),
  officer: join(tmp, 'officer.pem'),
  body: join(tmp, 'body.json'),
  judgement: join(tmp, 'judgement.json'),
  drift: join(tmp, 'drift.json'),
  rationale: join(tmp, 'rationale.txt'),
  journal: join(tmp, `journal-${HN}`),
  locked: join(tmp, 'locked'),
  examples: join(tmp, 'ex'),
  missing: join(tmp, 'missing', HN),
};
const manifest = (): string => join(P.examples, 'tg', 'banded-within-epsilon', 'manifest.json');
/** YAML's double-quoted form of a string: JSON's, with everything past ASCII as \u escapes. */
const yamlString = (s: string): string =>
  JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
/** A rationale of real content with the hostile string in it. */
const RATIONALE = `The reviewer read every finding of this artifact and the replayed outputs and records why: ${H} and nothing else changes the outcome.`;

async function writeFixtures(): Promise<void> {
  mkdirSync(P.dir, { recursive: true });
  mkdirSync(P.locked);
  await writeFile(P.unknown, JSON.stringify({ type: H, [H]: H }));
  await writeFile(P.dump, encodeJson(await buildDump(sampleSpec({ dumpId: H }), sampleSigner('revoked'))));
  await writeFile(P.cut, `{"type": ${JSON.stringify(H)}, "a": [1, 2`);
  await writeFile(P.dup, `{${JSON.stringify(H)}: 1, ${JSON.stringify(H)}: 2, "k": ${JSON.stringify(H)}}`);
  await writeFile(
    P.spec,
    `---\nengine: ${yamlString(H)}\noutputs: [${yamlString(H)}]\nreplay_profile:\n  outputs:\n    ${yamlString(H)}: ${yamlString(H)}\n---\n\n# ${H}\n`,
  );
  await writeFile(
    P.env,
    JSON.stringify({
      payloadType: H,
      payload: Buffer.from(JSON.stringify({ _type: H })).toString('base64'),
      signatures: [{ keyid: `ed25519:${H}`, sig: 'AA==' }],
    }),
  );
  await writeFile(P.store, trustStoreDocument());
  for (const [file, role] of [
    [P.reviewer, 'reviewer'],
    [P.officer, 'quarantine-officer'],
  ] as const) {
    const signer = generateSigner();
    await writePrivateKey(file, signer);
    await addToTrustStore(P.store, trustStoreEntry(signer, role, `${role} ${H}`));
  }
  await writeFile(P.body, JSON.stringify({ note: H, [H]: [H] }));
  await writeFile(P.judgement, JSON.stringify({ decision: 'note', rationale: RATIONALE }));
  await writeFile(
    P.drift,
    JSON.stringify({
      driftRate: { window: 4, maxRate: 0.1 },
      banded: [
        { model: H, drift: true },
        { model: H, drift: true },
      ],
    }),
  );
  await writeFile(P.rationale, RATIONALE);
  await writeExamples(P.examples);
}

/** A stale lock of this host (a pid that cannot run) whose time is hostile, so `journal unlock` breaks it. */
const staleLock = (): Promise<void> =>
  writeFile(join(P.locked, LOCK_FILE), JSON.stringify({ pid: 2 ** 31 - 2, host: hostname(), sinceUtc: H }));
/** A lock held on another host, whose name is hostile: `journal unlock` refuses it, naming the holder. */
const foreignLock = (): Promise<void> =>
  writeFile(join(P.journal, LOCK_FILE), JSON.stringify({ pid: 1, host: H, sinceUtc: H }));

const dumpHash = async (): Promise<string> => hashBytes(await readFile(P.dump));
/** The first quarantine case of the journal (its number depends on how many entries came before). */
const firstCase = async (): Promise<string> => (await listCases(P.journal, null)).cases[0]?.caseId ?? 'case-0';
/** The first case of `claim`. */
const caseOf = async (claim: string): Promise<string> =>
  (await listCases(P.journal, null)).cases.find((c) => c.subject.claimRef === claim)?.caseId ?? 'case-0';

/** The claim of the case opened through the CLI with a hostile reason. */
const WALK_CLAIM = 'claim:walk-1';
let hostileOpened = false;
/**
 * A case on the hostile claim id, opened around the writer (test/journal/forge.helpers.ts), once:
 * the writer refuses such an id for a new case, and a journal written before the rule still holds one.
 */
async function hostileCaseOnce(): Promise<void> {
  if (hostileOpened) return;
  hostileOpened = true;
  const input: AppendInput = {
    kind: 'quarantine-open',
    subject: { claimRef: H, artifact: await dumpHash() },
    body: { reason: RATIONALE, source: 'manual' },
  };
  forgeEntry(P.journal, input, await loadSigner(P.officer));
}

interface Scenario {
  argv: () => string[] | Promise<string[]>;
  before?: () => Promise<void>;
  after?: () => Promise<void>;
  /** Output shows the hostile string (escaped); false where the command prints none of it, 'text' where only its text does. */
  shows?: boolean | 'text';
  /** Output in --json and --jsonl mode is JSON (unless the flag is refused); false for help. */
  json?: boolean;
  /** The exit code in every mode, where the scenario is a refusal. */
  exits?: number;
}
const s = (argv: Scenario['argv'], more: Omit<Scenario, 'argv'> = {}): Scenario => ({ argv, ...more });

/**
 * Deep scenarios per command (a subcommand's are those whose argv starts with it), in the
 * order they run: later ones read what earlier ones wrote. Every command of COMMANDS and
 * every subcommand its usage names must have one (the last test says which has none).
 */
const DEEP: Record<string, Scenario[]> = {
  verify: [
    s(() => ['verify', P.dir, '--trust-store', P.store]),
    s(() => ['verify', P.unknown]),
    s(() => ['verify', P.dump, '--quiet']),
  ],
  replay: [s(() => ['replay', P.dir, '--trust-store', P.store]), s(() => ['replay', P.cut, '--quiet'])],
  canonicalize: [
    s(() => ['canonicalize', P.unknown]),
    s(() => ['canonicalize', P.unknown, '--hash'], { shows: false }),
    s(() => ['canonicalize', P.dup]),
  ],
  keys: [
    s(() => [
      'keys',
      'generate',
      '--out',
      join(tmp, `${HN}.pem`),
      '--role',
      'reviewer',
      '--label',
      H,
      '--trust-store',
      P.store,
    ]),
  ],
  journal: [
    s(
      () => [
        'journal',
        'record',
        P.journal,
        '--kind',
        'review-rationale',
        '--claim',
        H,
        '--body-file',
        P.body,
        '--key',
        P.reviewer,
      ],
      { shows: false },
    ),
    s(
      () => [
        'journal',
        'record',
        P.journal,
        '--kind',
        'replay-comparison',
        '--claim',
        H,
        '--body-file',
        P.drift,
        '--key',
        P.reviewer,
      ],
      { shows: false },
    ),
    s(
      async () => [
        'journal',
        'record',
        P.journal,
        '--kind',
        'review-rationale',
        '--claim',
        H,
        '--artifact',
        await dumpHash(),
        '--body-file',
        P.judgement,
        '--key',
        P.reviewer,
      ],
      { shows: false },
    ),
    // A reviewer's note whose text is hostile, then every note on the artifact listed (the text shown, escaped).
    s(
      async () => [
        'journal',
        'note',
        P.journal,
        '--artifact',
        await dumpHash(),
        '--body-file',
        P.rationale,
        '--key',
        P.reviewer,
        '--trust-store',
        P.store,
      ],
      { shows: false },
    ),
    s(async () => ['journal', 'notes', P.journal, '--artifact', await dumpHash(), '--trust-store', P.store]),
    s(() => ['journal', 'verify', P.journal, '--trust-store', P.store]),
    s(() => ['journal', 'proof', P.journal, '--entry', '0']),
    s(() => ['journal', 'proof', P.journal, '--entry', '0', '--out', join(tmp, `${HN}.proof.json`)]),
    s(() => ['journal', 'check-proof', join(tmp, `${HN}.proof.json`), '--trust-store', P.store]),
    s(() => ['journal', 'proof', P.journal, '--from', '1'], { shows: false }),
    // A witness cosigns (its state file under a hostile name), then a hostile witness name is refused.
    s(
      () => [
        'journal',
        'cosign',
        P.journal,
        '--key',
        P.officer,
        '--name',
        'witness.example',
        '--trust-store',
        P.store,
        '--state',
        join(tmp, `${HN}.witness.json`),
      ],
      { shows: false },
    ),
    s(() => ['journal', 'cosign', P.journal, '--key', P.officer, '--name', H, '--trust-store', P.store], {
      shows: false,
    }),
    s(() => ['journal', 'verify', P.journal, '--since', join(tmp, `${HN}.proof.json`), '--trust-store', P.store], {
      shows: false,
    }),
    s(() => ['journal', 'repair', P.journal, '--key', P.reviewer], { shows: 'text' }),
    s(() => ['journal', 'unlock', P.locked], { before: staleLock }),
    s(() => ['journal', 'unlock', P.journal], { before: foreignLock, after: () => rm(join(P.journal, LOCK_FILE)) }),
  ],
  quarantine: [
    // A hostile claim id is refused for a new case (RPR-QUAR-008), in every mode, and the refusal stays safe.
    s(
      async () => [
        'quarantine',
        'open',
        P.journal,
        '--claim',
        H,
        '--artifact',
        await dumpHash(),
        '--reason',
        RATIONALE,
        '--key',
        P.officer,
      ],
      { shows: false, exits: 3 },
    ),
    // A journal may hold one already (written before the rule, or by another tool): opened around the
    // writer, it is the first case, which list, show and the decisions below face. Then a case whose
    // reason is hostile, opened through the CLI (its --json output gives the reason back).
    s(
      async () => [
        'quarantine',
        'open',
        P.journal,
        '--claim',
        WALK_CLAIM,
        '--artifact',
        await dumpHash(),
        '--reason',
        RATIONALE,
        '--key',
        P.officer,
      ],
      { before: hostileCaseOnce, shows: false },
    ),
    s(() => ['quarantine', 'list', P.journal, '--trust-store', P.store]),
    s(async () => ['quarantine', 'show', P.journal, await firstCase(), '--trust-store', P.store]),
    s(async () => ['quarantine', 'show', P.journal, await caseOf(WALK_CLAIM), '--trust-store', P.store]),
    s(async () => ['quarantine', 'show', P.journal, H, '--trust-store', P.store]),
    s(
      async () => [
        'quarantine',
        'escalate',
        P.journal,
        await firstCase(),
        '--rationale-file',
        P.rationale,
        '--key',
        P.officer,
        '--trust-store',
        P.store,
      ],
      { shows: false },
    ),
    s(
      async () => [
        'quarantine',
        'release',
        P.journal,
        await firstCase(),
        '--rationale',
        RATIONALE,
        '--key',
        P.reviewer,
        '--trust-store',
        P.store,
      ],
      { shows: false },
    ),
    s(
      async () => [
        'quarantine',
        'uphold',
        P.journal,
        await firstCase(),
        '--rationale',
        RATIONALE,
        '--key',
        P.officer,
        '--trust-store',
        P.store,
      ],
      { shows: false },
    ),
  ],
  lint: [s(() => ['lint', P.spec]), s(() => ['lint', P.spec, '--format', 'sarif'])],
  attest: [
    s(() => ['attest', '--verify', P.env, '--trust-store', P.store]),
    s(() => ['attest', '--verify', P.env, '--manifest', P.unknown]),
    s(() => ['attest', manifest(), '--key', P.reviewer], { shows: false }),
  ],
  export: [
    s(() => ['export', P.dump, '--journal', P.journal, '--out', join(tmp, `${HN}.zip`), '--trust-store', P.store]),
  ],
  drift: [
    s(() => ['drift', P.journal, '--trust-store', P.store]),
    s(() => ['drift', P.journal, '--trust-store', P.store, '--journal', P.journal, '--key', P.reviewer]),
  ],
  examples: [s(() => ['examples', join(tmp, `ex-${HN}`)])],
  diff: [
    s(() => ['diff', P.dump, join(P.examples, 'dumps', 'intact.dump.json')]),
    s(() => ['diff', P.unknown, P.dup, '--html', join(tmp, `${HN}.diff.html`)]),
    s(() => ['diff', P.dump, '--replay']),
    s(() => ['diff', P.dump, manifest()]),
  ],
  rejudge: [
    // Judged under the trust store, then without one (the dump's verdict changes), then merged and diffed: hostile names in every line.
    s(() => ['rejudge', P.dir, '--out', join(tmp, `${HN}.a.jsonl`), '--trust-store', P.store]),
    s(() => ['rejudge', P.dir, '--out', join(tmp, `${HN}.b.jsonl`), '--shard', '0/1']),
    s(() => [
      'rejudge',
      'merge',
      join(tmp, `${HN}.a.jsonl`),
      '--key',
      P.reviewer,
      '--out',
      join(tmp, `${HN}.record.json`),
    ]),
    s(() => ['rejudge', P.dir, '--out', join(tmp, `${HN}.half.jsonl`), '--shard', '0/2']),
    s(() => ['rejudge', 'merge', join(tmp, `${HN}.half.jsonl`), '--key', P.reviewer, '--out', join(tmp, 'never.json')]),
    s(() => ['rejudge', 'diff', join(tmp, `${HN}.a.jsonl`), join(tmp, `${HN}.b.jsonl`)], { shows: false }),
    s(() => ['rejudge', 'diff', join(tmp, `${HN}.a.jsonl`), join(tmp, `${HN}.half.jsonl`)]),
  ],
  worker: [s(() => ['worker', '--queue', `redis://127.0.0.1:1/${H}`])],
};

interface Outcome {
  code: number;
  out: string;
  err: string;
}

/** Runs one command line in this process through the printer, both streams claimed to be terminals. */
async function run(argv: string[]): Promise<Outcome> {
  let out = '';
  let err = '';
  const code = await runInProcess(argv, {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    stdoutIsTTY: true,
    stderrIsTTY: true,
    cwd: tmp,
  });
  return { code, out, err };
}

/** The JSON documents of stdout (one, or one per line), or why it is not JSON. */
function jsonDocuments(out: string): unknown[] | string {
  try {
    return [JSON.parse(out)];
  } catch (e) {
    try {
      return out
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as unknown);
    } catch {
      return String(e);
    }
  }
}

const MODES = [[], ['--json'], ['--jsonl']] as const;
const label = (argv: string[]): string =>
  argv
    .map((a) => (a.startsWith(tmp) ? `<tmp>${a.slice(tmp.length)}` : a))
    .join(' ')
    .replace(/[^\x20-\x7e]/g, '?')
    .slice(0, 140);

/** Runs `argv` in each mode and checks both streams; the outcomes, by mode. */
async function walk(argv: string[], sc: Omit<Scenario, 'argv'> = {}): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const mode of MODES) {
    await sc.before?.();
    const o = await run([...argv, ...mode]);
    await sc.after?.();
    const where = `${label([...argv, ...mode])} (exit ${o.code})`;
    if (sc.exits !== undefined) expect(o.code, `${where}: ${o.err}`).toBe(sc.exits);
    expect(rawControls(o.out), `stdout of ${where}`).toEqual([]);
    expect(rawControls(o.err, true), `stderr of ${where}`).toEqual([]);
    expect(o.err, where).not.toMatch(/internal error|\n\s+at .*:\d+:\d+/);
    expect(o.out + o.err, `${where}: a field's line feed starts a line`).not.toMatch(FAKED_LINE);
    if (mode.length > 0 && sc.json !== false && o.code !== 3 && o.out !== '') {
      const docs = jsonDocuments(o.out);
      expect(typeof docs, `stdout of ${where} is JSON: ${String(docs)}`).toBe('object');
      if (sc.shows === undefined || sc.shows === true)
        expect(JSON.stringify(docs), `${where} gives the hostile string back`).toContain('\u202eTXT.EXE');
    }
    outcomes.push(o);
  }
  return outcomes;
}

beforeAll(writeFixtures, 120_000);

describe('deep scenarios: a hostile string in every field a command prints', () => {
  for (const cmd of COMMANDS) {
    it(`${cmd.name}`, async () => {
      for (const sc of DEEP[cmd.name] ?? []) {
        const argv = await sc.argv();
        const [text] = await walk(argv, sc);
        if (sc.shows !== false)
          expect(text!.out + text!.err, `${label(argv)} shows the hostile string escaped`).toMatch(/\\u202eTXT\.EXE/);
      }
    }, 300_000);
  }
});

/** A command's subcommands and value flags, read from its usage lines. */
async function usageOf(cmd: (typeof COMMANDS)[number]): Promise<{ subs: string[]; flags: string[] }> {
  const usage = typeof cmd.usage === 'string' ? cmd.usage : await cmd.usage();
  const subs = new Set<string>();
  const flags = new Set<string>();
  for (const line of usage.split('\n')) {
    const m = new RegExp(`reprise ${cmd.name} ([a-z][a-z|-]*)(?=\\s)`).exec(line);
    for (const sub of m?.[1]?.split('|') ?? []) subs.add(sub);
    for (const f of line.matchAll(/--([a-z][a-z-]*) (?![-[(|])\S/g)) flags.add(f[1]!);
  }
  return { subs: [...subs], flags: [...flags] };
}

/** The generic walk's lines may print the hostile string or not (a usage error need not quote it). */
const GENERIC = { shows: false };
const HELP = { shows: false, json: false };

describe('generic walk: every command, subcommand and value flag with a hostile path and values', () => {
  for (const cmd of COMMANDS) {
    it(
      cmd.name,
      async () => {
        const { subs, flags } = await usageOf(cmd);
        for (const sub of subs.length > 0 ? subs.map((x) => [x]) : [[]]) {
          const head = [cmd.name, ...sub];
          await walk([...head, P.missing], GENERIC);
          await walk([...head, P.unknown], GENERIC);
          await walk([...head, P.missing, `--${HN}`], GENERIC);
          for (const f of flags) {
            await walk([...head, P.missing, `--${f}`, H], GENERIC);
            await walk([...head, P.unknown, `--${f}`, P.missing], GENERIC);
          }
        }
        await walk([cmd.name, H], GENERIC);
        await walk([cmd.name, '--help'], HELP);
      },
      300_000,
    );
  }
  it('the command table itself', async () => {
    await walk([H], GENERIC);
    await walk(['--help'], HELP);
  });
});

describe('every command and subcommand has deep scenarios', () => {
  it('none is left out', async () => {
    const missing: string[] = [];
    for (const cmd of COMMANDS) {
      const deep = DEEP[cmd.name] ?? [];
      if (deep.length === 0) missing.push(cmd.name);
      const firsts = await Promise.all(deep.map(async (sc) => (await sc.argv())[1]));
      for (const sub of (await usageOf(cmd)).subs) if (!firsts.includes(sub)) missing.push(`${cmd.name} ${sub}`);
    }
    expect(missing).toEqual([]);
  });
});

describe('bytes the user asked for', () => {
  it('canonicalize writes the canonical bytes unchanged to a pipe, and escaped to a terminal', async () => {
    let piped = '';
    expect(
      await runInProcess(['canonicalize', P.unknown], {
        out: (t) => void (piped += t),
        err: () => undefined,
        stderrIsTTY: false,
        cwd: tmp,
      }),
    ).toBe(0);
    expect(piped).toBe(canonicalizeValue({ type: H, [H]: H }));
    expect(rawControls(piped)).not.toEqual([]);
    const { out } = await run(['canonicalize', P.unknown]);
    expect(rawControls(out)).toEqual([]);
    expect(JSON.parse(out)).toEqual({ type: H, [H]: H });
  });
});

describe.skipIf(!cliBuilt())('the real process (pipes, worker threads)', () => {
  const check = (r: { code: number | null; stdout: string; stderr: string }, what: string) => {
    expect(rawControls(r.stdout), `stdout of ${what}`).toEqual([]);
    expect(rawControls(r.stderr), `stderr of ${what}`).toEqual([]);
  };
  it('verify over the hostile directory on a worker thread: text, --json, --jsonl', async () => {
    for (const mode of MODES) {
      const r = await runProcess(['verify', P.dir, '--trust-store', P.store, '--workers', '1', ...mode]);
      expect(r.code, r.stderr).toBe(1);
      check(r, `verify --workers 1 ${mode.join('')}`);
      expect(r.stdout).toContain('\\u202eTXT.EXE');
    }
  }, 120_000);
  it('attest --verify of a hostile envelope, journal unlock of a hostile stale lock, canonicalize bytes into a pipe', async () => {
    const text = await runProcess(['attest', '--verify', P.env, '--trust-store', P.store]);
    check(text, 'attest --verify');
    expect(text.stdout).toContain(`naming key ed25519:E\\x1b[31mRED`);
    const json = await runProcess(['attest', '--verify', P.env, '--json']);
    check(json, 'attest --verify --json');
    expect(JSON.parse(json.stdout).keyId).toBe(`ed25519:${H}`);
    await staleLock();
    const unlock = await runProcess(['journal', 'unlock', P.locked]);
    expect(unlock.code, unlock.stderr).toBe(0);
    check(unlock, 'journal unlock');
    expect(unlock.stdout).toContain('(since E\\x1b[31mRED');
    const bytes = await runProcess(['canonicalize', P.unknown]);
    expect(bytes.stdout).toBe(canonicalizeValue({ type: H, [H]: H }));
  }, 120_000);
});
