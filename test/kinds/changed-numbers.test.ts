/**
 * Numbers that change value, in every kind: a literal whose parse is another number
 * (`1E-400` read as 0, `9007199254740993` as …992) is not the number hashed, signed and
 * replayed, so each kind reports it under its own I-JSON rule, naming the member. Generated:
 * each kind's example (or test artifact) gets each literal at one hashed numeric value.
 * Literals that are their double (`0`, `0.0`, `1e-300`) give no such finding.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Finding, Report } from '../../shared/report.js';
import { runBytes, runPath } from '../../app/engine/run.js';
import { writeExamples } from '../../app/examples/index.js';
import { canonicalizeValue } from '../../app/core/jcs.js';
import { hashBytes } from '../../app/core/hash.js';
import { buildPackageParts, packPackage, sampleProfiles } from '../../app/kinds/nemosyne/package-writer.js';
import { parseProfiles } from '../../app/kinds/nemosyne/profiles.js';
import { readEntries } from '../../app/zip/parallel.js';
import { readStructure } from '../../app/zip/reader.js';
import { resolveLimits } from '../../app/zip/limits.js';
import { writeZip } from '../../app/zip/writer.js';
import { bundleOf, judged } from '../evidence-bundle/helpers.js';

const CHANGED = ['1E-400', '-1e-999', '9007199254740993'];
const KEPT = ['0', '0.0', '1e-300'];
const MARK = '\u0000number\u0000';

/** `text` (a JSON document) with the number at `pointer` written as `token`, in the text's own indentation. */
function inject(text: string, pointer: string, token: string): string {
  const v = JSON.parse(text) as Record<string, unknown>;
  const path = pointer
    .split('/')
    .slice(1)
    .map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
  let o = v;
  for (const t of path.slice(0, -1)) o = o[t] as Record<string, unknown>;
  const last = path[path.length - 1]!;
  if (typeof o[last] !== 'number') throw new Error(`${pointer} is not a number`);
  o[last] = MARK;
  const indent = /^[[{]\r?\n([ \t]+)/.exec(text)?.[1];
  return JSON.stringify(v, null, indent).replace(JSON.stringify(MARK), token) + (text.endsWith('\n') ? '\n' : '');
}

interface Case {
  name: string;
  rule: string;
  /** Where the finding points (`line:N`: the member is named in the message instead). */
  pointer: string;
  member: string;
  /** `fail` where the value is hashed or signed; ACGP checks a trace without hashing it. */
  severity: 'fail' | 'warning';
  run(token: string): Promise<Report>;
}

let ex: string;
let tgInputs = '';
const scratch = () => mkdtempSync(join(tmpdir(), 'reprise-numbers-'));

/** An example file with the number replaced, verified with the example's options. */
function fileCase(
  name: string,
  rel: string,
  pointer: string,
  rule: string,
  options: Record<string, string> = {},
  severity: 'fail' | 'warning' = 'fail',
  edit?: (text: string, token: string) => string,
): Case {
  return {
    name,
    rule,
    pointer,
    member: pointer,
    severity,
    async run(token) {
      const text = readFileSync(join(ex, rel), 'utf8');
      const p = join(scratch(), rel.split('/').pop()!);
      writeFileSync(p, edit ? edit(text, token) : inject(text, pointer, token));
      const opts = Object.fromEntries(Object.entries(options).map(([k, v]) => [k, join(ex, v)]));
      return runPath(p, 'verify', opts);
    },
  };
}

/** Lines of a JSON Lines file, one injected. */
const lineEdit = (line: number, pointer: string) => (text: string, token: string) =>
  text
    .split('\n')
    .map((l, i) => (i === line - 1 ? inject(l, pointer, token) : l))
    .join('\n');

async function unzip(bytes: Buffer): Promise<{ name: string; data: Buffer }[]> {
  const zs = readStructure(bytes, resolveLimits(undefined));
  if (!zs.ok) throw new Error('not a zip');
  const c = await readEntries(bytes, zs.entries, () => true);
  return zs.entries.map((e, i) => ({ name: e.name, data: c[i]!.bytes! }));
}

const CASES: Case[] = [
  fileCase('replay dump (JSON)', 'dumps/intact.dump.json', '/seed', 'RPR-DUMP-003', {
    trustStore: 'dumps/trust-store.json',
  }),
  fileCase(
    'replay dump (ROM)',
    'dumps/intact.rom.md',
    '/seed',
    'RPR-DUMP-003',
    { trustStore: 'dumps/trust-store.json' },
    'fail',
    (t, token) => t.replace(/^seed: 42$/m, `seed: ${token}`),
  ),
  fileCase(
    'ACGP EVAL',
    'acgp/seed-eval-corrected.json',
    '/ctq_dimensions/reasoning_quality/score',
    'RPR-ACGP-017',
    {},
    'fail',
  ),
  fileCase(
    'ACGP trace (JSON Lines)',
    'acgp/trace-clean.jsonl',
    '/1/ctq_dimensions/reasoning_quality/score',
    'RPR-ACGP-017',
    {},
    'fail',
    lineEdit(2, '/ctq_dimensions/reasoning_quality/score'),
  ),
  fileCase('TG policy bundle', 'tg/bundle.json', '/driftRate/window', 'RPR-TG-001'),
  {
    name: 'TG replay manifest (an artifact under its hash)',
    rule: 'RPR-TG-001',
    severity: 'fail',
    // The claim inputs' artifact, whose key is H(json): known once the examples are written.
    get pointer() {
      return `/artifacts/${tgInputs}/json/data/source/reliability`;
    },
    get member() {
      return this.pointer;
    },
    run: (token) =>
      fileCase(
        '',
        'tg/exact-intact/manifest.json',
        `/artifacts/${tgInputs}/json/data/source/reliability`,
        'RPR-TG-001',
      ).run(token),
  },
  {
    name: 'evidence journal (directory)',
    rule: 'RPR-JOURNAL-002',
    pointer: 'line:2',
    member: '/body/epsilon',
    severity: 'fail',
    async run(token) {
      const dir = join(scratch(), 'journal');
      cpSync(join(ex, 'journal', 'sample'), dir, { recursive: true });
      writeFileSync(
        join(dir, 'entries.jsonl'),
        lineEdit(2, '/body/epsilon')(readFileSync(join(dir, 'entries.jsonl'), 'utf8'), token),
      );
      return runPath(dir, 'verify', { trustStore: join(ex, 'journal', 'trust-store.json') });
    },
  },
  {
    name: 'Nemosyne package (manifest)',
    rule: 'RPR-NEM-002',
    pointer: 'entry:manifest.json#/createdAt',
    member: '/createdAt',
    severity: 'fail',
    async run(token) {
      const parts = buildPackageParts(2, { digest: false });
      const zip = packPackage(parts, (a) => ({
        entries: a.entries.map((e) =>
          e.name === 'manifest.json'
            ? { ...e, data: Buffer.from(inject(Buffer.from(e.data).toString('utf8'), '/createdAt', token)) }
            : e,
        ),
      }));
      return runBytes('p.nemosyne', zip, 'verify', {});
    },
  },
  {
    name: 'Nemosyne package (dataset, under its identity)',
    rule: 'RPR-NEM-023',
    pointer: 'entry:data/dataset.raw#/rows/0/petalLength',
    member: '/rows/0/petalLength',
    severity: 'fail',
    async run(token) {
      const parts = buildPackageParts(2, { digest: false });
      for (const f of parts.files)
        if (f.name === 'data/dataset.raw')
          f.data = Buffer.from(inject(f.data.toString('utf8'), '/rows/0/petalLength', token));
      return runBytes('p.nemosyne', packPackage(parts), 'verify', {});
    },
  },
  {
    name: 'evidence bundle (the signed checkpoint)',
    rule: 'RPR-EVB-005',
    pointer: 'entry:checkpoint.json#/treeSize',
    member: '/treeSize',
    severity: 'fail',
    async run(token) {
      const j = await judged();
      const files = await unzip(await bundleOf(j));
      const cp = files.find((f) => f.name === 'checkpoint.json')!;
      cp.data = Buffer.from(inject(cp.data.toString('utf8'), '/treeSize', token));
      // The manifest's digests follow, so only the number itself is wrong.
      const m = files[0]!;
      const manifest = JSON.parse(m.data.toString('utf8')) as {
        members: { name: string; sha256: string; size: number }[];
      };
      for (const x of manifest.members) {
        const d = files.find((f) => f.name === x.name)!.data;
        Object.assign(x, { sha256: hashBytes(d), size: d.length });
      }
      m.data = Buffer.from(canonicalizeValue(manifest) + '\n');
      return runBytes('b.zip', writeZip(files), 'verify', { trustStore: j.keys.trustPath });
    },
  },
];

const ofRule = (r: Report, c: Case): Finding[] =>
  r.findings.filter(
    (f) => f.rule === c.rule && f.pointer === c.pointer && /underflows|not exactly representable/.test(f.message),
  );

describe('a number whose parse changes its value is a finding in every kind', () => {
  beforeAll(async () => {
    ex = scratch();
    await writeExamples(ex);
    const m = JSON.parse(readFileSync(join(ex, 'tg/exact-intact/manifest.json'), 'utf8')) as {
      artifacts: Record<string, { json?: { type?: string } }>;
    };
    tgInputs = Object.keys(m.artifacts).find((k) => m.artifacts[k]!.json?.type === 'tg.claim-inputs/v1')!;
  }, 120_000);

  for (const c of CASES) {
    for (const token of CHANGED) {
      it(`${c.name}: ${token} is a ${c.severity} ${c.rule} naming the member`, async () => {
        const r = await c.run(token);
        const found = ofRule(r, c);
        expect(found, JSON.stringify(r.findings, null, 1)).toHaveLength(1);
        expect(found[0]!.severity).toBe(c.severity);
        expect(found[0]!.pointer!.endsWith(c.member) || found[0]!.message.includes(`at ${c.member}`)).toBe(true);
        if (c.severity === 'fail') expect(r.verdict).not.toBe('pass');
      }, 60_000);
    }
    it(`${c.name}: ${KEPT.join(', ')} are their double: no such finding`, async () => {
      for (const token of KEPT) {
        const r = await c.run(token);
        expect(ofRule(r, c), token).toEqual([]);
      }
    }, 60_000);
  }
});

describe('a number whose parse changes its value in a file an option names', () => {
  it('TG --policy: RPR-TG-001 naming the member', async () => {
    const work = scratch();
    const m = JSON.parse(readFileSync(join(ex, 'tg/exact-intact/manifest.json'), 'utf8')) as {
      artifacts: Record<string, unknown>;
      policyContext: { bundleHash: string };
    };
    delete m.artifacts[m.policyContext.bundleHash];
    const manifest = join(work, 'manifest.json');
    writeFileSync(manifest, JSON.stringify(m, null, 2));
    const policy = join(work, 'bundle.json');
    writeFileSync(policy, inject(readFileSync(join(ex, 'tg/bundle.json'), 'utf8'), '/driftRate/window', '1E-400'));
    const r = await runPath(manifest, 'replay', { policy });
    const f = r.findings.find((x) => x.rule === 'RPR-TG-001');
    expect(f, JSON.stringify(r.findings)).toMatchObject({ severity: 'fail', pointer: '/driftRate/window' });
    expect(f!.message).toContain('the --policy file');
    expect(f!.message).not.toContain(policy);
    expect(r.verdict).toBe('fail');
  });
  it('a Nemosyne profile registry is refused (a usage error naming the member)', () => {
    const text = sampleProfiles().replace(/"authority": "[^"]*"/, '"authority": 1E-400');
    expect(() => parseProfiles(Buffer.from(text), 'reg.json')).toThrow(
      /profile registry reg\.json: not I-JSON: .*underflows.* at \/authority/,
    );
  });
});
