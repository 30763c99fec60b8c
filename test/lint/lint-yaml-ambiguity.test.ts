/**
 * DL-104 refuses what YAML readers disagree on where it reads (red team M3, L3): a repeated
 * key (the lint used to read the first, js-yaml and PyYAML keep the last, so a violating spec
 * passed), a `<<` merge key and an alias (reported as `output << has mode null`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { lintText } from '../../app/lint/index.js';
import { cliIn } from '../cli/in-process.js';
import { tmp } from '../journal/helpers.js';

const spec = (fm: string) => `---\n${fm}---\n# Engine\n`;
const errors = (fm: string) => lintText('x.md', spec(fm)).diagnostics.map((d) => `${d.level}:${d.line}:${d.message}`);

/** The red team's specs: each reads as a violation to a last-wins reader. Lines count the `---`. */
const REPEATS: [name: string, fm: string, expected: RegExp][] = [
  [
    'one output, two defaults',
    'engine: TG-X\noutputs:\n  - comp.A\nreplay_profile:\n  default: EXACT\n  default: BANDED\n',
    /^error:7:key default is repeated in replay_profile \(lines 6 and 7\)/,
  ],
  [
    'a second replay_profile, BANDED without epsilon',
    'engine: TG-X\noutputs:\n  - comp.A\nreplay_profile:\n  default: EXACT\nreplay_profile:\n  outputs:\n    comp.A: BANDED\n',
    /^error:7:key replay_profile is repeated in the front matter \(lines 5 and 7\)/,
  ],
  [
    'a second outputs list, its output without a mode',
    'engine: TG-X\noutputs:\n  - comp.A\noutputs:\n  - comp.B\nreplay_profile:\n  outputs:\n    comp.A: EXACT\n',
    /^error:5:key outputs is repeated in the front matter \(lines 3 and 5\)/,
  ],
  [
    'a second policy_refs with an empty epsilon',
    'engine: TG-X\noutputs:\n  - comp.A\nreplay_profile:\n  outputs:\n    comp.A: BANDED\n  policy_refs:\n    epsilon: comp.FAGF.OUTPUT.WEIGHT-BUNDLE.v1_0\n  policy_refs:\n    epsilon: ""\n',
    /^error:10:key policy_refs is repeated in replay_profile \(lines 8 and 10\)/,
  ],
  [
    'epsilon twice in one policy_refs',
    'engine: TG-X\noutputs: [comp.A]\nreplay_profile:\n  outputs: {comp.A: BANDED}\n  policy_refs:\n    epsilon: comp.FAGF.OUTPUT.WEIGHT-BUNDLE.v1_0\n    epsilon: ""\n',
    /^error:8:key epsilon is repeated in replay_profile\.policy_refs \(lines 7 and 8\)/,
  ],
  [
    'the same key quoted and in `? :` form',
    'engine: TG-X\n"engine": TG-Y\noutputs: [comp.A]\n? replay_profile\n: {default: EXACT}\nreplay_profile: {default: BANDED}\n',
    /^error:(3:key engine|7:key replay_profile) is repeated in the front matter \(lines (2 and 3|5 and 7)\)/,
  ],
  [
    'an output keyed twice, quoted then `? :`',
    'engine: TG-X\noutputs:\n  - comp.A\nreplay_profile:\n  outputs:\n    "comp.A": EXACT\n    ? comp.A\n    : BANDED\n',
    /^error:8:output comp\.A is listed twice in replay_profile\.outputs \(lines 7 and 8\)/,
  ],
];

describe('DL-104: a key repeated where the lint reads is an error naming both lines', () => {
  for (const [name, fm, expected] of REPEATS)
    it(name, () => {
      const got = errors(fm);
      expect(got.length).toBeGreaterThan(0);
      expect(got.every((m) => expected.test(m))).toBe(true);
    });

  it('the first spec is a violation to a last-wins reader, so first-wins must not pass it', () => {
    const lastWins = parse(REPEATS[0]![1], { uniqueKeys: false }) as { replay_profile: { default: string } };
    expect(lastWins.replay_profile.default).toBe('BANDED'); // BANDED with no epsilon
  });

  it('a repeat on one line (a flow mapping) says so', () => {
    expect(errors('engine: E\noutputs: [a]\nreplay_profile: {default: EXACT, default: EXACT}\n')).toEqual([
      expect.stringMatching(/^error:4:key default is repeated in replay_profile \(twice on line 4\)/),
    ]);
  });

  it('keys it does not read may repeat in mappings it does not read', () => {
    expect(errors('engine: E\noutputs: [a]\nnotes:\n  x: 1\n  x: 2\nreplay_profile:\n  default: EXACT\n')).toEqual([]);
  });

  it('the CLI exits 1 on each, naming the file and line', async () => {
    const dir = tmp('reprise-lint-dup-');
    REPEATS.forEach(([, fm], i) => writeFileSync(join(dir, `s${i}.md`), spec(fm)));
    const r = await cliIn(dir, 'lint', dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${REPEATS.length} engine specifications checked`);
    REPEATS.forEach((_, i) => expect(r.out).toMatch(new RegExp(`s${i}\\.md:\\d+: error DL-104 .*(repeated|twice)`)));
  });
});

describe('DL-104: merge keys and aliases are refused, naming the line', () => {
  it('a `<<` merge key in replay_profile.outputs', () => {
    const got = errors(
      'engine: TG-X\nbase: &b\n  comp.A: BANDED\noutputs:\n  - comp.A\nreplay_profile:\n  outputs:\n    <<: *b\n    comp.A: EXACT\n',
    );
    expect(got).toEqual([
      'error:9:replay_profile.outputs has a merge key (<<): DL-104 does not read merge keys or aliases and refuses them',
    ]);
    expect(got.join()).not.toMatch(/has mode null/);
  });

  it('a merge key at the top level or in replay_profile', () => {
    expect(errors('engine: E\nb: &b {default: EXACT}\noutputs: [a]\nreplay_profile:\n  <<: *b\n')).toEqual([
      expect.stringMatching(/^error:6:replay_profile has a merge key \(<<\)/),
    ]);
    expect(errors('x: &x {engine: E}\n<<: *x\nengine: E\noutputs: [a]\nreplay_profile: {default: EXACT}\n')).toEqual([
      expect.stringMatching(/^error:3:the front matter has a merge key \(<<\)/),
    ]);
  });

  it('an alias as a value, a list entry or a key the lint reads', () => {
    expect(errors('engine: E\nm: &m EXACT\noutputs: [a]\nreplay_profile:\n  default: *m\n')).toEqual([
      'error:6:replay_profile.default is an alias (*m): DL-104 does not read aliases and refuses them',
    ]);
    expect(errors('engine: E\nc: &c a\noutputs: [*c]\nreplay_profile: {default: EXACT}\n')).toEqual([
      expect.stringMatching(/^error:4:an entry of outputs is an alias \(\*c\)/),
    ]);
    expect(errors('engine: E\nc: &c a\noutputs: [a]\nreplay_profile:\n  outputs:\n    *c : EXACT\n')).toEqual([
      expect.stringMatching(/^error:7:replay_profile\.outputs has an alias key \(\*c\)/),
    ]);
    expect(
      errors(
        'engine: E\ne: &e comp.X\noutputs: [a]\nreplay_profile:\n  default: BANDED\n  policy_refs: {epsilon: *e}\n',
      ),
    ).toEqual([expect.stringMatching(/^error:7:replay_profile\.policy_refs\.epsilon is an alias \(\*e\)/)]);
  });

  it('anchors and aliases outside what it reads are left alone', () => {
    expect(errors('engine: E\nx: &x 1\ny: *x\noutputs: [a]\nreplay_profile: {default: EXACT}\n')).toEqual([]);
  });
});
