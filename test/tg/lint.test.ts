/** DL-104 (reprise lint): each error and the warning, and the text, JSON and SARIF 2.1.0 outputs. */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { lintText } from '../../app/lint/index.js';
import { runCli, writeExamples } from './helpers.js';

const spec = (fm: string, body = '# Engine\n') => `---\n${fm}---\n\n${body}`;
const msgs = (s: string) => lintText('x.md', s).diagnostics.map((d) => `${d.level}:${d.line}:${d.message}`);

describe('DL-104 rules', () => {
  it('passes a spec declaring one mode per output', () => {
    const r = lintText(
      'ok.md',
      spec(
        'engine: TG-DECISION\noutputs:\n  - comp.TG.OUTPUT.DECISION.v1_0\nreplay_profile:\n  specification: TG-RP\n  default: EXACT\n',
      ),
    );
    expect(r.isSpec).toBe(true);
    expect(r.diagnostics).toEqual([]);
  });
  it('an output with no mode (not listed, no default) is an error', () => {
    expect(
      msgs(spec('engine: E\noutputs:\n  - a.v1\n  - b.v1\nreplay_profile:\n  outputs:\n    a.v1: EXACT\n')),
    ).toEqual([expect.stringMatching(/^error:5:output b\.v1 has no replay mode/)]);
  });
  it('a mode outside EXACT/BANDED/RECORDED is an error', () => {
    expect(msgs(spec('engine: E\noutputs: [a.v1]\nreplay_profile:\n  outputs:\n    a.v1: FUZZY\n'))).toEqual([
      expect.stringMatching(/^error:6:output a\.v1 has mode "FUZZY"/),
    ]);
  });
  it('an output listed twice (in outputs, or as a duplicate YAML key) is an error with its line', () => {
    expect(msgs(spec('engine: E\noutputs: [a.v1, a.v1]\nreplay_profile:\n  default: EXACT\n'))).toEqual([
      expect.stringMatching(/^error:3:output a\.v1 is listed twice in `outputs`/),
    ]);
    expect(
      msgs(spec('engine: E\noutputs: [a.v1]\nreplay_profile:\n  outputs:\n    a.v1: EXACT\n    a.v1: BANDED\n')),
    ).toEqual([expect.stringMatching(/^error:7:output a\.v1 is listed twice in replay_profile\.outputs/)]);
  });
  it('a BANDED output without policy_refs.epsilon is an error; with it, fine', () => {
    expect(msgs(spec('engine: E\noutputs: [a.v1]\nreplay_profile:\n  outputs:\n    a.v1: BANDED\n'))).toEqual([
      expect.stringMatching(/^error:.*BANDED but replay_profile\.policy_refs\.epsilon/),
    ]);
    expect(
      msgs(
        spec(
          'engine: E\noutputs: [a.v1]\nreplay_profile:\n  outputs:\n    a.v1: BANDED\n  policy_refs:\n    epsilon: comp.FAGF.OUTPUT.WEIGHT-BUNDLE.v1_0\n',
        ),
      ),
    ).toEqual([]);
  });
  it('a profile CSI the engine does not list is a warning', () => {
    expect(
      msgs(spec('engine: E\noutputs: [a.v1]\nreplay_profile:\n  default: EXACT\n  outputs:\n    z.v1: EXACT\n')),
    ).toEqual([expect.stringMatching(/^warning:7:.*z\.v1/)]);
  });
  it('no replay_profile at all is an error; files without engine front matter are skipped; broken YAML is an error', () => {
    expect(msgs(spec('engine: E\noutputs: [a.v1]\n'))).toEqual([expect.stringMatching(/^error:.*no `replay_profile`/)]);
    expect(lintText('readme.md', '# Just docs\n').isSpec).toBe(false);
    expect(lintText('x.md', spec('title: not an engine\n')).isSpec).toBe(false);
    expect(msgs(spec('engine: E\noutputs: [a.v1\n'))[0]).toMatch(/^error:.*not valid YAML/);
  });
});

describe('reprise lint (CLI)', () => {
  let ex = '';
  beforeAll(async () => {
    ex = await writeExamples();
  });
  it('text: exit 1 on the failing example, 0 on the passing one', async () => {
    const bad = await runCli(['lint', join(ex, 'tg', 'specs')]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/tg-enrich-context\.mdx:\d+: error DL-104/);
    const ok = await runCli(['lint', join(ex, 'tg', 'specs', 'tg-score-trust.md')]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('0 errors');
  });
  it('JSON and SARIF 2.1.0', async () => {
    const j = await runCli(['lint', join(ex, 'tg', 'specs'), '--format', 'json']);
    const doc = JSON.parse(j.stdout) as { errors: number; warnings: number };
    expect(doc.errors).toBe(3);
    expect(doc.warnings).toBe(1);
    const s = await runCli(['lint', join(ex, 'tg', 'specs'), '--format', 'sarif']);
    expect(s.code).toBe(1);
    const sarif = JSON.parse(s.stdout) as {
      version: string;
      runs: {
        tool: { driver: { name: string; rules: { id: string }[] } };
        results: {
          ruleId: string;
          level: string;
          locations: { physicalLocation: { region: { startLine: number } } }[];
        }[];
      }[];
    };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0]!.tool.driver.rules[0]!.id).toBe('DL-104');
    expect(sarif.runs[0]!.results.map((r) => r.level).sort()).toEqual(['error', 'error', 'error', 'warning']);
    expect(
      sarif.runs[0]!.results.every(
        (r) => r.ruleId === 'DL-104' && r.locations[0]!.physicalLocation.region.startLine > 1,
      ),
    ).toBe(true);
  });
  it('usage errors exit 3', async () => {
    expect((await runCli(['lint'])).code).toBe(3);
    expect((await runCli(['lint', '/nonexistent/path'])).code).toBe(3);
    expect((await runCli(['lint', ex, '--format', 'xml'])).code).toBe(3);
  });
});
