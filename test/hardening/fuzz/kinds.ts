/**
 * Every input kind the registry knows, each with its built-in example as the base of its
 * hostile variants, the flags the CLI needs to judge it, and its huge cases: a dump of
 * 100,000 tiny artifacts, a trace of 200,000 tiny lines, a package of 50,000 tiny members,
 * a bundle of 100,000 rules, and the like; and issue 27's long tokens and wide objects
 * (bounds.ts), placed where each kind reads them.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ROOT } from '../../helpers/cli.js';
import { join, relative } from 'node:path';
import { kindNames } from '../../../app/kinds/registry.js';
import {
  emit,
  mutateAnyLine,
  mutateBytes,
  mutateJsonOrBytes,
  mutateLines,
  hostileValue,
  INHERITED,
  Raw,
  type Doc,
  type Rng,
} from './mutate.js';
import { manyMembers, membersOf, mutateZip } from './zip.js';
import { seeded, writeBytes, type FuzzCase } from './runner.js';
import { archive, journalDir, jsonDocument, jsonLinesFile, romDump } from './bounds.js';

export interface FuzzKind {
  /** The registry's kind name (or `unknown`), plus the encoding when a kind has two. */
  name: string;
  /** Flags every run of it needs (trust store, providers, ...). */
  args: string[];
  /** Random small cases, verified in batches. */
  small(count: number): FuzzCase[];
  /** Random small cases to replay one by one (kinds with something to re-execute). */
  replays?(count: number): FuzzCase[];
  /** Huge cases, each run alone with `command`. */
  huge: { command: string[]; case: FuzzCase }[];
  /** Long single tokens and wide objects (bounds.ts), each verified alone. */
  bounds: FuzzCase[];
}

const read = (p: string) => readFileSync(p, 'utf8');
const hex64 = (i: number) => i.toString(16).padStart(64, '0');
const range = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));

/** Random cases of one base text, mutated by `how`. */
function drawn(
  kind: string,
  base: string,
  how: (r: Rng, text: string) => Buffer | string,
  offset = 0,
): (count: number) => FuzzCase[] {
  return (count) =>
    range(count, (i) =>
      seeded(kind, i + offset, (r) => ({
        label: `a hostile variant of the ${kind} example`,
        write: writeBytes(how(r, base)),
      })),
    );
}

function dumpJson(ex: string): FuzzKind {
  const base = read(join(ex, 'dumps/intact.dump.json'));
  const doc = JSON.parse(base) as { artifacts: Record<string, Doc> };
  const many = (good: boolean) => {
    // Keys in canonical order, so the dump is refused for its artifacts, not its member order.
    const tiny = range(
      100_000,
      (i) =>
        [
          `sha256:${good ? '' : 'f'}${hex64(i).slice(good ? 0 : 1)}`,
          { mediaType: 'text/plain', text: String(i) },
        ] as const,
    );
    const artifacts = Object.fromEntries(
      [...Object.entries(doc.artifacts), ...tiny].sort(([a], [b]) => (a < b ? -1 : 1)),
    );
    return JSON.stringify({ ...doc, artifacts });
  };
  return {
    name: 'replay-dump (JSON)',
    args: ['--trust-store', join(ex, 'dumps/trust-store.json'), '--providers', join(ex, 'dumps/providers.json')],
    small: drawn('dump-json', base, mutateJsonOrBytes),
    replays: drawn('dump-json', base, mutateJsonOrBytes, 10_000),
    huge: [
      {
        command: ['verify'],
        case: { label: 'a dump of 100,000 tiny artifacts, none hashing to its key', write: writeBytes(many(false)) },
      },
    ],
    bounds: jsonDocument('replay-dump (JSON)', base),
  };
}

/** A ROM bullet (`* [name]: value`) with a hostile name or value; any other line damaged bytewise. */
function romLine(r: Rng, line: string): string {
  const m = /^\* \[([^\]]*)\]: (.*)$/.exec(line);
  if (!m) return mutateAnyLine(r, line);
  return r.int(3) === 0 ? `* [${r.pick(INHERITED)}]: ${m[2]}` : `* [${m[1]}]: ${emit(hostileValue(r))}`;
}

function dumpRom(ex: string): FuzzKind {
  const base = read(join(ex, 'dumps/intact.rom.md'));
  const how = (r: Rng, t: string) => (r.int(4) === 0 ? mutateBytes(r, Buffer.from(t)) : mutateLines(r, t, romLine));
  const tiny = range(
    100_000,
    (i) => `## sha256:${hex64(i)}\n* [media_type]: "text/plain"\n\`\`\`text\n${i}\n\`\`\`\n`,
  ).join('\n');
  return {
    name: 'replay-dump (ROM)',
    args: ['--trust-store', join(ex, 'dumps/trust-store.json'), '--providers', join(ex, 'dumps/providers.json')],
    small: drawn('dump-rom', base, how),
    replays: drawn('dump-rom', base, how, 10_000),
    huge: [
      {
        command: ['verify'],
        case: { label: 'a ROM dump of 100,000 tiny embedded artifacts', write: writeBytes(base + '\n' + tiny) },
      },
    ],
    bounds: romDump(base),
  };
}

function tgManifest(ex: string): FuzzKind {
  const base = read(join(ex, 'tg/exact-intact/manifest.json'));
  const doc = JSON.parse(base) as { executions: Record<string, unknown>[] };
  const executions = [...doc.executions, ...range(100_000, (i) => ({ executionId: `x${i}` }))];
  return {
    name: 'tg-replay-manifest',
    args: [],
    small: drawn('tg-manifest', base, mutateJsonOrBytes),
    replays: drawn('tg-manifest', base, mutateJsonOrBytes, 10_000),
    huge: [
      {
        command: ['replay'],
        case: {
          label: 'a manifest of 100,000 tiny executions',
          write: writeBytes(JSON.stringify({ ...doc, executions })),
        },
      },
    ],
    bounds: jsonDocument('tg-replay-manifest', base),
  };
}

function tgBundle(ex: string): FuzzKind {
  const base = read(join(ex, 'tg/bundle.json'));
  const modifiers = range(100_000, (i) => ({ id: `m${i}`, when: { '>': [{ var: 'sourceAgeDays' }, i] }, factor: 0.9 }));
  return {
    name: 'tg-policy-bundle',
    args: [],
    small: drawn('tg-bundle', base, mutateJsonOrBytes),
    huge: [
      {
        command: ['verify'],
        case: {
          label: 'a bundle of 100,000 rules',
          write: writeBytes(JSON.stringify({ ...(JSON.parse(base) as object), modifiers })),
        },
      },
    ],
    bounds: jsonDocument('tg-policy-bundle', base),
  };
}

function acgpEval(ex: string): FuzzKind {
  const base = read(join(ex, 'acgp/seed-eval.json'));
  const doc = JSON.parse(base) as Record<string, unknown>;
  const dims = Object.fromEntries(
    range(100_000, (i) => [`d${i}`, { score: 0.5, weight: 0.00001, status: 'evaluated', contributors: ['c'] }]),
  );
  return {
    name: 'acgp-eval',
    args: [],
    small: drawn('acgp-eval', base, mutateJsonOrBytes),
    replays: drawn('acgp-eval', base, mutateJsonOrBytes, 10_000),
    huge: [
      {
        command: ['verify'],
        case: {
          label: 'an EVAL of 100,000 tiny CTQ dimensions',
          write: writeBytes(JSON.stringify({ ...doc, ctq_dimensions: dims })),
        },
      },
    ],
    bounds: jsonDocument('acgp-eval', base),
  };
}

function acgpTrace(ex: string): FuzzKind {
  const base = read(join(ex, 'acgp/trace-clean.jsonl'));
  const array = read(join(ex, 'acgp/trace-private-provider.json'));
  const how = (r: Rng, t: string) =>
    r.int(4) === 0 ? mutateBytes(r, Buffer.from(t)) : mutateLines(r, t, mutateAnyLine);
  const first = base.split('\n')[0]!;
  return {
    name: 'acgp-trace',
    args: [],
    small: (n) => [
      ...drawn('acgp-trace', base, how)(n - Math.floor(n / 3)),
      ...drawn('acgp-trace-array', array, mutateJsonOrBytes)(Math.floor(n / 3)),
    ],
    replays: drawn('acgp-trace', base, how, 10_000),
    huge: [
      {
        command: ['replay'],
        case: {
          label: 'a trace of 200,000 tiny lines',
          write: writeBytes(first + '\n' + '{"trace_id":"t"}\n'.repeat(200_000)),
        },
      },
    ],
    bounds: [
      ...jsonLinesFile('acgp-trace (JSON Lines)', first, base.slice(first.length + 1)),
      ...jsonDocument('acgp-trace (JSON array)', array),
    ],
  };
}

async function zipKind(name: string, kind: string, zip: Buffer, args: string[]): Promise<FuzzKind> {
  const ms = await membersOf(zip);
  const bytes = manyMembers(ms, 50_000);
  return {
    name,
    args,
    small: (count) =>
      range(count, (i) =>
        seeded(kind, i, (r) => ({
          label: `a hostile layout or member of the ${kind} example`,
          write: writeBytes(mutateZip(r, ms)),
        })),
      ),
    huge: [{ command: ['verify'], case: { label: 'an archive of 50,000 tiny members', write: writeBytes(bytes) } }],
    bounds: archive(kind, ms),
  };
}

export const nemosyne = (ex: string) =>
  zipKind('nemosyne-package', 'nemosyne', readFileSync(join(ex, 'packages/intact/v3.nemosyne')), [
    '--kernel-adapter',
    join(ex, 'packages/kernel-adapter.mjs'),
    '--profiles',
    join(ex, 'packages/profiles.json'),
  ]);

export const evidenceBundle = (bundle: Buffer, trustPath: string) =>
  zipKind('evidence-bundle', 'evidence-bundle', bundle, ['--trust-store', trustPath]);

/** A copy of the sample journal with one of its files damaged (or gone). */
function journalCase(src: string, r: Rng): (path: string) => void {
  const file = r.pick(['entries.jsonl', 'checkpoints.jsonl']);
  const text = read(join(src, file));
  const op = r.int(6);
  return (path) => {
    cpSync(src, path, { recursive: true });
    if (op === 0) rmSync(join(path, file));
    else
      writeFileSync(
        join(path, file),
        op === 1 ? mutateBytes(r, Buffer.from(text)) : mutateLines(r, text, mutateAnyLine),
      );
  };
}

function journal(ex: string): FuzzKind {
  const src = join(ex, 'journal/sample');
  const first = read(join(src, 'entries.jsonl')).split('\n')[0]!;
  const tiny = (path: string) => {
    mkdirSync(path);
    writeFileSync(join(path, 'entries.jsonl'), first + '\n' + '{"seq":1}\n'.repeat(200_000));
    cpSync(join(src, 'checkpoints.jsonl'), join(path, 'checkpoints.jsonl'));
  };
  return {
    name: 'journal',
    args: ['--trust-store', join(ex, 'journal/trust-store.json')],
    small: (count) =>
      range(count, (i) =>
        seeded('journal', i, (r) => ({ label: 'a damaged copy of the sample journal', write: journalCase(src, r) })),
      ),
    huge: [
      { command: ['verify'], case: { label: 'a journal of 200,000 tiny entry lines', write: tiny } },
      {
        command: ['journal', 'verify'],
        case: { label: 'a journal of 200,000 tiny entry lines (journal verify)', write: tiny },
      },
    ],
    bounds: journalDir(src, first, read(join(src, 'entries.jsonl')).slice(first.length + 1)),
  };
}

function unknown(ex: string): FuzzKind {
  const base = read(join(ex, 'unknown/not-an-artifact.json'));
  const noise = (r: Rng) => Buffer.from(range(1 + r.int(4096), () => r.int(256)));
  return {
    name: 'unknown',
    args: [],
    small: drawn('unknown', base, (r, t) => (r.int(4) === 0 ? noise(r) : mutateJsonOrBytes(r, t))),
    huge: [
      {
        command: ['verify'],
        case: { label: 'a JSON array of 1,000,000 tiny items', write: writeBytes('[' + '0,'.repeat(999_999) + '0]') },
      },
      {
        command: ['verify'],
        case: {
          label: 'a JSON object of 100,000 tiny members',
          write: writeBytes(emit(new Raw('{' + range(100_000, (i) => `"k${i}":${i}`).join(',') + '}'))),
        },
      },
    ],
    bounds: jsonDocument('unknown', base),
  };
}

/**
 * A real re-judgement record as the base: the examples' dumps re-judged inline and merged,
 * signed with the examples' reviewer key (through the CLI, as an audit team makes one).
 */
function rejudgement(ex: string): FuzzKind {
  const work = mkdtempSync(join(tmpdir(), 'reprise-fuzz-rejudge-'));
  const run = (args: string[]) => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), ...args], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`reprise ${args.join(' ')}: ${r.stderr}`);
  };
  const shard = join(work, 'shard.jsonl');
  const record = join(work, 'record.json');
  run(['rejudge', join(ex, 'dumps'), '--out', shard, '--trust-store', join(ex, 'dumps/trust-store.json')]);
  run(['rejudge', 'merge', shard, '--key', join(ex, 'journal/keys/reviewer.pem'), '--out', record]);
  const base = read(record);
  rmSync(work, { recursive: true, force: true });
  const doc = JSON.parse(base) as Record<string, unknown>;
  return {
    name: 'rejudgement',
    args: [],
    small: drawn('rejudgement', base, mutateJsonOrBytes),
    huge: [
      {
        command: ['verify'],
        case: {
          label: 'a record with 100,000 extra counts',
          write: writeBytes(
            JSON.stringify({ ...doc, counts: Object.fromEntries(range(100_000, (i) => [`v${i}`, i])) }),
          ),
        },
      },
    ],
    bounds: jsonDocument('rejudgement', base),
  };
}

/**
 * An exported report as the base: the report of the examples' intact dump as `verify --json`
 * writes it, checked against that dump (--artifact), so every variant is also run again.
 */
function exportedReport(ex: string): FuzzKind {
  const art = join(ex, 'dumps/intact.dump.json');
  const trust = join(ex, 'dumps/trust-store.json');
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'bin', 'reprise.js'), 'verify', art, '--trust-store', trust, '--json'],
    {
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`reprise verify ${art}: ${r.stderr}`);
  const base = r.stdout;
  const doc = JSON.parse(base) as Record<string, unknown>;
  const finding = { rule: 'RPR-X-001', severity: 'info', message: 'm' };
  return {
    name: 'reprise-report',
    args: ['--artifact', art, '--trust-store', trust],
    small: drawn('reprise-report', base, mutateJsonOrBytes),
    huge: [
      {
        command: ['verify'],
        case: {
          label: 'a report of 100,000 findings',
          write: writeBytes(JSON.stringify({ ...doc, findings: range(100_000, () => finding) })),
        },
      },
      {
        command: ['verify'],
        case: {
          label: 'a report of 100,000 malformed findings',
          write: writeBytes(JSON.stringify({ ...doc, findings: range(100_000, (i) => ({ rule: i })) })),
        },
      },
    ],
    bounds: jsonDocument('reprise-report', base),
  };
}

/** The kind `verify` detects for each built-in example file (one run over them all), by path relative to `ex`. */
function exampleKinds(ex: string): Map<string, string> {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin', 'reprise.js'), 'verify', ex, '--jsonl'], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const kinds = new Map<string, string>();
  for (const line of r.stdout.split('\n').filter(Boolean)) {
    const { artifact } = JSON.parse(line) as { artifact: { path: string; kind: string } };
    kinds.set(relative(ex, artifact.path), artifact.kind);
  }
  return kinds;
}

/**
 * A kind without an entry above is still fuzzed: the first built-in example `verify` finds
 * to be of that kind is the base of generic hostile variants (JSON or bytes), with the
 * long-token and wide-object families when it is JSON. So a new kind is fuzzed with nothing
 * added here, from the examples it declares; an entry of its own adds its huge cases. A
 * kind with no example file (a directory kind) has none, and the coverage test says so.
 */
function generic(ex: string, kind: string, detected: Map<string, string>): FuzzKind | null {
  const path = [...detected].find(([, k]) => k === kind)?.[0];
  if (path === undefined) return null;
  const bytes = readFileSync(join(ex, path));
  const text = bytes.toString('utf8');
  const json = (() => {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  })();
  return {
    name: `${kind} (generic, ${path})`,
    args: [],
    small: json
      ? drawn(kind, text, mutateJsonOrBytes)
      : (n) =>
          range(n, (i) =>
            seeded(kind, i, (r) => ({
              label: `a hostile variant of ${path}`,
              write: writeBytes(mutateBytes(r, bytes)),
            })),
          ),
    huge: [],
    bounds: json ? jsonDocument(kind, text) : [],
  };
}

/** Every kind's fuzz setup, in registry order (unknown last), and a generic one for each kind with none of its own. */
export async function fuzzKinds(
  ex: string,
  bundle: { bytes: Buffer; trustPath: string; caseBytes?: Buffer },
): Promise<FuzzKind[]> {
  const own = await ownFuzzKinds(ex, bundle);
  const covered = new Set(own.map((k) => k.name.split(' ')[0]));
  const missing = kindNames().filter((k) => !covered.has(k));
  if (missing.length === 0) return own;
  const detected = exampleKinds(ex);
  const extra = missing.map((k) => generic(ex, k, detected)).filter((k): k is FuzzKind => k !== null);
  return [...own.slice(0, -1), ...extra, own.at(-1)!];
}

async function ownFuzzKinds(
  ex: string,
  bundle: { bytes: Buffer; trustPath: string; caseBytes?: Buffer },
): Promise<FuzzKind[]> {
  return [
    dumpJson(ex),
    dumpRom(ex),
    acgpTrace(ex),
    acgpEval(ex),
    tgManifest(ex),
    tgBundle(ex),
    await evidenceBundle(bundle.bytes, bundle.trustPath),
    // A case bundle (export DIR --journal): the same kind, its other manifest type and members.
    ...(bundle.caseBytes
      ? [await zipKind('evidence-bundle case', 'case-bundle', bundle.caseBytes, ['--trust-store', bundle.trustPath])]
      : []),
    await nemosyne(ex),
    journal(ex),
    rejudgement(ex),
    exportedReport(ex),
    unknown(ex),
  ];
}
