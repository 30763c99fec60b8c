/* eslint-disable @typescript-eslint/no-explicit-any -- the tests edit parsed JSON fixtures freely */
/**
 * Inherited names as artifact data: every name of Object.prototype plus `__proto__`, used
 * as an engine, output, execution id, input, artifact key, profile key, ε key, weight or
 * exit key, modifier id, rule name or claim-data key in a TG manifest or bundle, and as
 * names in an ACGP trace. Through the built CLI, as one batch directory: every file gets
 * its report (never exit 3, never an internal error), and no report shows a host object.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { buildScenario } from '../../app/kinds/tg/examples.js';
import { hashValue } from '../../app/core/hash.js';

export const INHERITED = [...Object.getOwnPropertyNames(Object.prototype), '__proto__'].filter(
  (n, i, a) => a.indexOf(n) === i,
);

/** An own member even for `__proto__` (plain assignment would set the prototype). */
function put(o: any, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}
function rename(o: any, from: string, to: string): void {
  const v = o[from];
  delete o[from];
  put(o, to, v);
}

type Edit = (m: any, n: string) => void;
const exec = (m: any, id: string) => m.executions.find((e: any) => e.executionId === id);
const artOf = (m: any, type: string) => Object.keys(m.artifacts).find((k) => m.artifacts[k].json?.type === type)!;
/** Edits one JSON artifact and re-keys it (references follow), so the manifest stays consistent. */
function editArtifact(m: any, type: string, edit: (j: any) => void): void {
  const old = artOf(m, type);
  const j = JSON.parse(JSON.stringify(m.artifacts[old].json));
  edit(j);
  const now = hashValue(j);
  delete m.artifacts[old];
  put(m.artifacts, now, { mediaType: 'application/json', json: j });
  for (const e of m.executions) e.inputs = e.inputs.map((i: string) => (i === old ? now : i));
  if (type === 'comp.FAGF.OUTPUT.WEIGHT-BUNDLE.v1_0') {
    m.policyContext.bundleHash = now;
    exec(m, 'x1').value.bundleHash = now;
  }
}

const TG_EDITS: Record<string, Edit> = {
  engine: (m, n) => void (exec(m, 'x6').engine = n),
  'engine-declared': (m, n) => {
    exec(m, 'x6').engine = n;
    put(m.replayProfiles, n, { specification: 'TG-RP', default: 'EXACT', outputs: {} });
  },
  output: (m, n) => void (exec(m, 'x6').output = n),
  'output-declared': (m, n) => {
    exec(m, 'x6').output = n;
    put(m.replayProfiles['TG-DECISION'].outputs, n, 'EXACT');
  },
  'execution-id': (m, n) => {
    exec(m, 'x4').executionId = n;
    exec(m, 'x6').inputs = [n];
  },
  input: (m, n) => void exec(m, 'x6').inputs.push(n),
  'artifact-key': (m, n) => put(m.artifacts, n, { mediaType: 'application/json', json: {} }),
  'artifact-hash': (m, n) => void (exec(m, 'x2').inputs[0] = n),
  'profile-key': (m, n) => put(m.replayProfiles, n, { specification: 'TG-RP', default: 'EXACT', outputs: {} }),
  'claim-ref': (m, n) => void (m.claimRef = n),
  'epsilon-key': (m, n) => editArtifact(m, 'comp.FAGF.OUTPUT.WEIGHT-BUNDLE.v1_0', (b) => put(b.epsilon, n, 0.01)),
  'epsilon-banded-output': (m, n) => {
    exec(m, 'x6').output = n;
    exec(m, 'x6').replayMode = 'BANDED';
    exec(m, 'x6').value = 0.5;
    put(m.replayProfiles['TG-DECISION'].outputs, n, 'BANDED');
  },
  'weight-key': (m, n) => editArtifact(m, 'comp.FAGF.OUTPUT.WEIGHT-BUNDLE.v1_0', (b) => put(b.weights, n, 0)),
  'exit-key': (m, n) => editArtifact(m, 'comp.FAGF.OUTPUT.WEIGHT-BUNDLE.v1_0', (b) => put(b.exits, n, 0.1)),
  'bundle-id': (m, n) => editArtifact(m, 'comp.FAGF.OUTPUT.WEIGHT-BUNDLE.v1_0', (b) => void (b.bundleId = n)),
  'modifier-id': (m, n) => editArtifact(m, 'comp.FAGF.OUTPUT.WEIGHT-BUNDLE.v1_0', (b) => void (b.modifiers[0].id = n)),
  'rule-name': (m, n) => editArtifact(m, 'tg.ruleset/v1', (r) => rename(r.rules, 'S', n)),
  'rule-var': (m, n) => editArtifact(m, 'tg.ruleset/v1', (r) => void (r.rules.S = { var: n })),
  'claim-data-key': (m, n) => editArtifact(m, 'tg.claim-inputs/v1', (c) => put(c.data, n, 1)),
  'pin-key': (m, n) => put(exec(m, 'x3').pins, n, 1),
  member: (m, n) => put(exec(m, 'x6'), n, 1),
};

const ACGP_EDITS: Record<string, (e: any, n: string) => void> = {
  'trace-id': (e, n) => void (e.trace_id = n),
  'blueprint-id': (e, n) => void (e.blueprint_id = n),
  'governance-tier': (e, n) => void (e.governance_tier = n),
  'dimension-name': (e, n) => rename(e.ctq_dimensions, 'reasoning_quality', n),
  'dimension-added': (e, n) =>
    put(e.ctq_dimensions, n, { score: 0.5, weight: 0.1, status: 'evaluated', contributors: [n] }),
  'provider-id': (e, n) => void (e.trust_debt.provider_id = n),
  intervention: (e, n) => void (e.intervention = n),
  status: (e, n) => void (e.ctq_dimensions.reasoning_quality.status = n),
  tripwire: (e, n) => void e.tripwires_triggered.push({ id: n, action: 'block' }),
  threshold: (e, n) => void e.trust_debt.thresholds_crossed.push(n),
  member: (e, n) => put(e, n, 1),
};

let dir = '';
let files = 0;

beforeAll(async () => {
  const base = mkdtempSync(join(tmpdir(), 'reprise-inherited-'));
  const ex = join(base, 'examples');
  expect((await runCli(['examples', ex])).code).toBe(0);
  dir = join(base, 'batch');
  mkdirSync(dir);
  const withA: any = await buildScenario({ claimRef: 'claim:inherited', withA: true });
  const text = JSON.stringify(withA);
  for (const n of INHERITED)
    for (const [where, edit] of Object.entries(TG_EDITS)) {
      const m = JSON.parse(text);
      edit(m, n);
      writeFileSync(join(dir, `tg-${where}-${n}.json`), JSON.stringify(m));
      files++;
    }
  const trace = readFileSync(join(ex, 'acgp', 'trace-clean.jsonl'), 'utf8')
    .trim()
    .split('\n');
  for (const n of INHERITED)
    for (const [where, edit] of Object.entries(ACGP_EDITS)) {
      const lines = trace.map((l, i) => {
        const e = JSON.parse(l);
        if (i === 0) edit(e, n);
        return JSON.stringify(e);
      });
      writeFileSync(join(dir, `acgp-${where}-${n}.jsonl`), lines.join('\n') + '\n');
      files++;
    }
}, 120_000);

describe('inherited names as artifact data', () => {
  it('an engine named constructor, __proto__ or toString is a finding (RPR-TG-014), not an internal error', async () => {
    for (const n of ['constructor', '__proto__', 'toString']) {
      const r = await runCli(['replay', join(dir, `tg-engine-${n}.json`)]);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(
        `RPR-TG-014  output comp.TG.OUTPUT.DECISION.v1_0 of engine ${n} has no declared replay mode`,
      );
    }
  });

  it('covers every Object.prototype name and __proto__', () => {
    expect(INHERITED).toEqual(
      expect.arrayContaining(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__']),
    );
    expect(readdirSync(dir)).toHaveLength(files);
  });

  for (const command of ['verify', 'replay'])
    it(`${command} of the batch directory: a report for every file, none an internal error, none showing a host object`, async () => {
      const r = await runCli([command, dir, '--jsonl', '--workers', '2'], { timeoutMs: 300_000 });
      expect(r.stderr).not.toMatch(/internal error/);
      expect(r.code).not.toBe(3);
      const reports = r.stdout
        .trim()
        .split('\n')
        .map(
          (l) => JSON.parse(l) as { verdict: string; findings: { rule: string; severity: string }[]; path?: string },
        );
      expect(reports).toHaveLength(files);
      for (const rep of reports) expect(['pass', 'fail', 'unavailable']).toContain(rep.verdict);
      expect(r.stdout).not.toMatch(/function Object|native code|\[object Object\]/);
      // The engine and output variants reach proper findings, not silence.
      const errs = reports.filter((x) =>
        x.findings.some((f) => f.rule.startsWith('RPR-KIND') || f.rule.endsWith('-000')),
      );
      expect(errs.map((x) => x.path)).toEqual([]);
    }, 320_000);

  it('text output of an output named constructor shows the name, not function Object()', async () => {
    // TG-DECISION's profile defaults to EXACT, so the output is declared; Reprise has no recomputation for it.
    const r = await runCli(['replay', join(dir, 'tg-output-constructor.json')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('RPR-TG-036  Reprise has no recomputation for TG-DECISION → constructor');
    expect(r.stdout).not.toMatch(/function Object|native code/);
  });
});

describe('the inherited-names lint rule (eslint.config.js INHERITED_NAMES)', () => {
  const lint = async (code: string): Promise<string[]> => {
    const { ESLint } = await import('eslint');
    const { ROOT } = await import('../helpers/cli.js');
    const [res] = await new ESLint({ cwd: ROOT }).lintText(code, { filePath: `${ROOT}app/kinds/tg/x.ts` });
    return (res?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };
  it('refuses {} as a string-keyed record, `in` with a computed key, and hasOwnProperty', async () => {
    for (const code of [
      'export const m: Record<string, number> = {};\n',
      'export const m = {} as Record<string, number>;\n',
      'export const f = (o: object, k: string) => k in o;\n',
      'export const f = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);\n',
    ])
      expect(await lint(code), code).toHaveLength(1);
  });
  it('allows the null-prototype record, Object.hasOwn, a Map, and fixed-key records', async () => {
    for (const code of [
      'export const m: Record<string, number> = Object.create(null) as Record<string, number>;\n',
      "export const f = (o: object, k: string) => Object.hasOwn(o, k) || 'type' in o;\n",
      'export const m = new Map<string, number>();\n',
      "export const m = {} as Record<'S' | 'I', number>;\n",
    ])
      expect(await lint(code), code).toEqual([]);
  });
});
