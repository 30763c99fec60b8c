/**
 * The command table and lazy loading (app/cli/commands/index.ts): `--help` lists every
 * command from the table, `--version` and `--help` load no engine code, each command's
 * module is imported only when it runs, and a batch on worker threads that ends in a
 * usage error still exits 3 with one line and lets the process end.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../app/cli/commands/index.js';
import { EXTERNAL_COMMANDS } from '../../app/cli/main.js';
import { BIN, ROOT, runCli, type CliResult } from '../helpers/cli.js';

let dir: string;
let hooks: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reprise-commands-'));
  // A module hook that writes down every import (thread, importer, imported). The preload
  // that registers it runs again in each worker thread (workers inherit --import), each
  // with its own hooks, so every line names the thread whose import it was.
  await writeFile(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
let thread = null;
export async function initialize(data) { thread = data.threadId; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.REPRISE_TRACE, JSON.stringify([thread, context.parentURL ?? null, r.url]) + '\\n');
  return r;
}
`,
  );
  hooks = join(dir, 'register.mjs');
  await writeFile(
    hooks,
    `import { register } from 'node:module';\nimport { threadId } from 'node:worker_threads';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)}, { data: { threadId } });\n`,
  );
});

async function usageOf(c: (typeof COMMANDS)[number]): Promise<string> {
  return typeof c.usage === 'string' ? c.usage : c.usage();
}

interface Loaded {
  /** The dist/ modules the main thread loaded (relative to dist/). */
  modules: string[];
  /** The dist/ modules worker threads loaded. */
  workerModules: string[];
  /** The main thread's modules that import nothing of ours (constants). */
  leaves: Set<string>;
}

/** What each thread loaded, from a trace of [thread, importer, imported] lines. */
function loadedModules(trace: string): Loaded {
  const rel = (u: string) => u.slice(u.lastIndexOf('/dist/') + 6);
  const main = new Set<string>();
  const workers = new Set<string>();
  const importers = new Set<string>();
  for (const line of trace.split('\n').filter(Boolean)) {
    const [thread, from, to] = JSON.parse(line) as [number, string | null, string];
    if (!to.includes('/dist/')) continue;
    (thread === 0 ? main : workers).add(rel(to));
    if (thread === 0 && from?.includes('/dist/')) importers.add(rel(from));
  }
  return {
    modules: [...main],
    workerModules: [...workers],
    leaves: new Set([...main].filter((m) => !importers.has(m))),
  };
}

/** Runs the built CLI and returns its result and the dist/ modules its threads loaded. */
function traced(args: string[], name: string): Promise<CliResult & Loaded> {
  const trace = join(dir, `${name}.trace`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', hooks, BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, REPRISE_TRACE: trace },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => err.push(d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      void readFile(trace, 'utf8')
        .catch(() => '')
        .then((t) =>
          resolve({
            code,
            stdout: Buffer.concat(out).toString('utf8'),
            stderr: Buffer.concat(err).toString('utf8'),
            ...loadedModules(t),
          }),
        );
    });
  });
}

// Engine code the main thread of a help or a pooled batch never loads. app/journal/layout.js
// (the journal directory test the path walk shares) imports nothing of ours.
const ENGINE = /^app\/(engine\/run|jobs\/execute|core\/jcs|core\/keys|journal(?!\/layout\.js))\b/;

/**
 * A kind's module the main thread loaded that is not its declaration: the registry reads
 * only declare.js (and what it imports: constants that import nothing of ours); a kind's
 * verify and replay (its index.js and what that imports) load with a job of the kind.
 */
function kindCode(r: Loaded): string[] {
  return r.modules.filter(
    (m) =>
      m.startsWith('app/kinds/') &&
      m !== 'app/kinds/registry.js' &&
      !/^app\/kinds\/[^/]+\/declare\.js$/.test(m) &&
      !r.leaves.has(m),
  );
}

describe('the command table', () => {
  it('--help lists every command of the table and every external one, each with its summary, and exits 0', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    const rows = [...COMMANDS, ...EXTERNAL_COMMANDS];
    const w = Math.max(...rows.map((c) => c.name.length));
    for (const c of rows) expect(r.stdout).toContain(`\n  ${c.name.padEnd(w)}  ${c.summary}\n`);
    const listed = r.stdout.split('commands:\n')[1]!.split('\n\n')[0]!.split('\n');
    expect(listed.map((l) => l.trim().split(/\s+/)[0])).toEqual(rows.map((c) => c.name));
  });

  it('--version prints the package version and exits 0', async () => {
    const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V', 'version']) {
      const r = await runCli([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`reprise ${version}\n`);
      expect(r.stderr).toBe('');
    }
  });

  it('each entry loads the command it describes (same name, summary and usage)', async () => {
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
    for (const c of COMMANDS) {
      const cmd = await c.load();
      expect({ name: cmd.name, summary: cmd.summary }).toEqual({ name: c.name, summary: c.summary });
      // A command's usage opens its help (verify/replay list their options below it).
      expect((await usageOf(c)).startsWith(cmd.usage), c.name).toBe(true);
    }
  });

  it("'reprise COMMAND --help' prints the table's usage and summary for every command", async () => {
    for (const c of COMMANDS) {
      const r = await runCli([c.name, '--help']);
      expect(r.code, c.name).toBe(0);
      expect(r.stdout, c.name).toBe(`usage: ${await usageOf(c)}\n\n${c.summary}\n`);
    }
  });
});

describe('lazy loading', () => {
  it('--version and --help load no command module and no engine code', async () => {
    for (const args of [['--version'], ['--help']]) {
      const r = await traced(args, args.join('_'));
      expect(r.code).toBe(0);
      expect(r.modules).toContain('app/cli/main.js');
      // The table (index.js) and the help texts (info.js), no command's implementation.
      expect(r.modules.filter((m) => m.startsWith('app/cli/commands/')).sort()).toEqual([
        'app/cli/commands/index.js',
        'app/cli/commands/info.js',
      ]);
      expect(r.modules.filter((m) => ENGINE.test(m))).toEqual([]);
      expect(kindCode(r)).toEqual([]);
    }
  });

  it("verify --help reads the kinds' declarations for its options and loads no kind's verify or replay", async () => {
    const r = await traced(['verify', '--help'], 'verify_help');
    expect(r.code).toBe(0);
    expect(r.modules).toContain('app/cli/commands/check.js');
    expect(r.modules).toEqual(
      expect.arrayContaining(['app/kinds/registry.js', 'app/kinds/tg/declare.js', 'app/kinds/journal/declare.js']),
    );
    expect(r.modules.filter((m) => ENGINE.test(m))).toEqual([]);
    expect(kindCode(r)).toEqual([]);
  });

  it('verify --workers 2 loads the engine only in its worker threads, and inline (--workers 0) on the main thread', async () => {
    const d = join(dir, 'batch');
    await mkdir(d, { recursive: true });
    for (const n of ['a.json', 'b.json', 'c.json']) await writeFile(join(d, n), '{"not":"an artifact"}');
    const pooled = await traced(['verify', d, '--workers', '2', '--jsonl'], 'pooled');
    expect(pooled.code).toBe(1);
    expect(pooled.stdout.trim().split('\n')).toHaveLength(3);
    expect(pooled.modules).toContain('app/engine/paths.js');
    expect(pooled.modules.filter((m) => ENGINE.test(m))).toEqual([]);
    expect(kindCode(pooled)).toEqual([]);
    const inline = await traced(['verify', d, '--workers', '0', '--jsonl'], 'inline');
    expect(inline.code).toBe(1);
    const paths = (s: string) =>
      s
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { artifact: { path: string } }).artifact.path);
    expect(paths(inline.stdout)).toEqual(paths(pooled.stdout));
    expect(inline.modules).toContain('app/engine/run.js');
  });

  it("a --workers 2 batch of every kind loads each kind's verify in the workers, never on the main thread", async () => {
    const d = join(dir, 'examples');
    expect((await runCli(['examples', d])).code).toBe(0);
    const r = await traced(['verify', d, '--workers', '2', '--jsonl'], 'pooled_examples');
    const kinds = new Set(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { artifact: { kind: string } }).artifact.kind),
    );
    expect([...kinds]).toEqual(
      expect.arrayContaining([
        'replay-dump',
        'acgp-eval',
        'acgp-trace',
        'tg-replay-manifest',
        'tg-policy-bundle',
        'nemosyne-package',
        'journal',
      ]),
    );
    // The trace sees the kinds' code where it does load: in the workers.
    for (const k of ['acgp', 'journal', 'nemosyne', 'replay-dump', 'tg'])
      expect(r.workerModules).toContain(`app/kinds/${k}/index.js`);
    expect(r.modules.filter((m) => ENGINE.test(m))).toEqual([]);
    expect(kindCode(r)).toEqual([]);
  });
});

describe('errors of lazily loaded commands', () => {
  it('a key error (core/keys.ts, loaded by the command) is still one line and exit 3', async () => {
    const notPem = join(dir, 'not-a-key.pem');
    await writeFile(notPem, 'hello');
    for (const [key, message] of [
      [join(dir, 'no-such-key.pem'), /^reprise: cannot read key file .*no-such-key\.pem: ENOENT\n$/],
      [notPem, /^reprise: the key file is not a PKCS#8 PEM private key\n$/],
    ] as const) {
      const r = await runCli(['journal', 'repair', join(dir, 'j'), '--key', key]);
      expect(r.code).toBe(3);
      expect(r.stderr).toMatch(message);
    }
  });

  it('a flag value that starts with a dash is refused with how to give it, on one line before the usage', async () => {
    const r = await runCli(['journal', 'proof', join(dir, 'j'), '--entry', '-1']);
    expect(r.code).toBe(3);
    const [first, second] = r.stderr.split('\n');
    expect(first).toBe(
      "reprise: Option '--entry' argument is ambiguous. Did you forget to specify the option argument for '--entry'? To specify an option argument starting with a dash use '--entry=-XYZ'.",
    );
    expect(second).toMatch(/^usage: reprise journal /);
  });
});

describe('a usage error in a batch on worker threads', () => {
  for (const workers of ['1', '2']) {
    it(`--workers ${workers}: a missing path exits 3 with one line, no stack trace, and the process ends`, async () => {
      const d = join(dir, `ok-${workers}`);
      await mkdir(d, { recursive: true });
      await writeFile(join(d, 'x.json'), '{}');
      for (const args of [
        ['verify', join(dir, 'missing.json')],
        ['verify', d, join(dir, 'nope', 'missing.json')],
        ['replay', join(dir, 'missing.json'), '--jsonl'],
      ]) {
        const r = await runCli([...args, '--workers', workers], { timeoutMs: 45_000 });
        expect(
          r.code,
          `${args.join(' ')}${r.code === null ? ': killed after 45 s, the process did not end' : ''}`,
        ).toBe(3);
        expect(r.stderr).toMatch(/^reprise: no such file or directory: .*missing\.json\n$/);
        expect(r.stdout).toBe('');
      }
    });
  }
});
