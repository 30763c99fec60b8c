/**
 * `reprise diff` in this process, through the printer, on the built-in examples; and how it
 * fails closed (docs/compare.md): a replay that did not pass or compared nothing never exits
 * 0, no input is overwritten through a link, numbers beyond double precision are compared as
 * written, a malformed saved report is refused in one line, an option that would have no
 * effect is refused.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cp, link, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcessCli } from '../helpers/in-process-cli.js';
import { writeExamples } from '../../app/examples/index.js';
import type { DiffResult } from '../../shared/diff.js';

const tmp = mkdtempSync(join(tmpdir(), 'reprise-diff-'));
const ex = (p: string) => join(tmp, 'ex', p);
const at = (p: string) => join(tmp, p);
/** A saved report of the intact dump (verify --json), whose members the tests edit. */
let saved: Record<string, unknown>;
beforeAll(async () => {
  await writeExamples(join(tmp, 'ex'));
  saved = JSON.parse((await cli('verify', ex('dumps/intact.dump.json'), '--json')).out) as Record<string, unknown>;
}, 60_000);
afterAll(() => rm(tmp, { recursive: true, force: true }));

const cli = (...args: string[]) => inProcessCli(tmp, args);
const diff = (...args: string[]) => cli('diff', ...args);
const json = (out: string) => JSON.parse(out) as DiffResult & { compared: string };
type DiffJson = DiffResult & { replay?: { replayed: boolean; note: string } };

describe('reprise diff', () => {
  it('an intact dump against a tampered one: the altered text as its changed span, the verdicts, exit 1', async () => {
    const r = await diff(ex('dumps/intact.dump.json'), ex('dumps/fail/altered-artifact.dump.json'), '--json');
    expect(r.code, r.err).toBe(1);
    const d = json(r.out);
    expect(d.compared).toBe('two replay-dump artifacts');
    const text = d.differences.find((e) => /^\/content\/artifacts\/.*\/text$/.test(e.pointer))!;
    expect(text.op).toBe('changed');
    expect((text.left as string).slice(text.span!.prefix, text.span!.prefix + text.span!.left)).toBe('one sentence');
    expect((text.right as string).slice(text.span!.prefix, text.span!.prefix + text.span!.right)).toBe('two sentences');
    expect(d.differences.find((e) => e.pointer === '/verdict')).toMatchObject({ left: 'unavailable', right: 'fail' });
  });

  it('two files whose rows shifted: the inserted row added, a moved row named on each side', async () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({ id: i, score: i / 10 }));
    const moved = structuredClone(rows);
    moved.splice(2, 0, { id: 100, score: 0 });
    moved[6]!.score = 9;
    await writeFile(join(tmp, 'rows-a.json'), JSON.stringify({ rows }));
    await writeFile(join(tmp, 'rows-b.json'), JSON.stringify({ rows: moved }));
    const r = await diff(join(tmp, 'rows-a.json'), join(tmp, 'rows-b.json'));
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain('  added    /content/rows/2  (absent) → {"id":100,"score":0}\n');
    expect(r.out).toContain(
      '  changed  /content/rows/5/score (right: /content/rows/6/score)  0.5 → 9  (right − left = 8.5)\n',
    );
    expect(r.out).toContain('  length   /content/rows  8 → 9 items\n');
    const d = json((await diff(join(tmp, 'rows-a.json'), join(tmp, 'rows-b.json'), '--json')).out);
    expect(d.differences.find((e) => e.rightPointer !== undefined)).toMatchObject({
      op: 'changed',
      pointer: '/content/rows/5/score',
      rightPointer: '/content/rows/6/score',
    });
  });

  it('an artifact against itself is identical, exit 0', async () => {
    const r = await diff(ex('dumps/intact.dump.json'), ex('dumps/intact.dump.json'));
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('identical: no difference');
  });

  it('--key is refused: a diff never writes to a journal', async () => {
    const m = ex('tg/exact-intact/manifest.json');
    const r = await diff(m, '--replay', '--journal', at('never-written'), '--key', at('any.pem'));
    expect(r.code).toBe(3);
    expect(r.err).toContain('reprise diff only compares and writes nothing there');
    await expect(readFile(join(at('never-written'), 'entries.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('--html with more than 100,000 differences asked for is refused up front, writing nothing', async () => {
    const page = at('too-many.html');
    const a = ex('dumps/intact.dump.json');
    const r = await diff(a, a, '--html', page, '--max-differences', '100001');
    expect(r.code).toBe(3);
    expect(r.err).toContain('--html lists at most 100,000 differences');
    await expect(readFile(page)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await diff(a, a, '--html', page, '--max-differences', '100000')).code).toBe(0);
  });

  it('two saved reports differing in a member outside the known ones are not identical: the added members are listed', async () => {
    const text = JSON.stringify(saved);
    const art = saved['artifact'] as Record<string, unknown>;
    writeFileSync(at('plain.report.json'), text);
    writeFileSync(
      at('extra.report.json'),
      JSON.stringify({ ...saved, extra: '<tampered>', artifact: { ...art, signedBy: 'ed25519:00' } }),
    );
    const r = await diff(at('plain.report.json'), at('extra.report.json'), '--json');
    expect(r.code, r.err).toBe(1);
    const added = json(r.out).differences.map((d) => [d.op, d.pointer]);
    expect(added).toEqual(
      expect.arrayContaining([
        ['added', '/extra'],
        ['added', '/artifact/signedBy'],
      ]),
    );
    expect(json(r.out).total).toBe(2);
  });

  it('an invisible character added shows as its escape, in the terminal and on the page', async () => {
    writeFileSync(at('zw-a.json'), JSON.stringify({ a: 'ab', k: 1 }));
    writeFileSync(at('zw-b.json'), JSON.stringify({ a: 'a\u200bb', k: '1\ufeff' }));
    const r = await diff(at('zw-a.json'), at('zw-b.json'), '--html', at('zw.html'));
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain('"ab" → "a\\u200bb"');
    expect(r.out).toContain('1 → "1\\ufeff"');
    const page = await readFile(at('zw.html'), 'utf8');
    expect(page).toContain('<ins>\\u200b</ins>');
    expect(page).not.toContain('\u200b');
  });

  it('a saved report that is not strict JSON is said why it was read as another kind', async () => {
    const text = JSON.stringify(saved);
    writeFileSync(at('dup.report.json'), `${text.slice(0, -1)},"verdict":"fail"}`);
    writeFileSync(at('ok.report.json'), text);
    const r = await diff(at('dup.report.json'), at('ok.report.json'));
    expect(r.code).toBe(3);
    expect(r.err).toMatch(
      /\(reprise-report\) with .* \(report of replay-dump\): diff compares two artifacts of one kind \(.*dup\.report\.json was not read as JSON: not one I-JSON document: ERR_DUPLICATE_KEY: duplicate member name "verdict"/,
    );
  });

  it('refuses two artifacts of different kinds, exit 3', async () => {
    const r = await diff(ex('dumps/intact.dump.json'), ex('tg/exact-intact/manifest.json'));
    expect(r.code).toBe(3);
    expect(r.err).toMatch(
      /cannot compare .* \(replay-dump\) with .* \(tg-replay-manifest\): diff compares two artifacts of one kind/,
    );
    expect(r.out).toBe('');
  });

  it('a dump whose type was removed (so of no kind) against the intact dump: the type removed, the kind changed, exit 1', async () => {
    const intact = JSON.parse(await readFile(ex('dumps/intact.dump.json'), 'utf8')) as Record<string, unknown>;
    delete intact['type'];
    await writeFile(at('no-type.dump.json'), JSON.stringify(intact));
    const r = await diff(ex('dumps/intact.dump.json'), at('no-type.dump.json'), '--json');
    expect(r.code, r.err).toBe(1);
    const d = json(r.out);
    expect(d.compared).toBe('a replay-dump artifact and an unknown artifact');
    expect(d.differences.find((e) => e.pointer === '/content/type')).toMatchObject({
      op: 'removed',
      left: 'kernel.replay_dump',
    });
    expect(d.differences.find((e) => e.pointer === '/artifact/kind')).toMatchObject({
      left: 'replay-dump',
      right: 'unknown',
    });
    const text = await diff(at('no-type.dump.json'), ex('dumps/intact.dump.json'));
    expect(text.out.split('\n')[0]).toBe('an unknown artifact and a replay-dump artifact');
  });

  it('saved reports are compared as their artifacts would be: one of no kind with one of a kind', async () => {
    const unknown = await cli('verify', ex('unknown/not-an-artifact.json'), '--json');
    await writeFile(at('unknown.report.json'), unknown.out);
    await writeFile(at('dump.report.json'), JSON.stringify(saved));
    const r = await diff(at('dump.report.json'), at('unknown.report.json'), '--json');
    expect(r.code, r.err).toBe(1);
    const d = json(r.out);
    expect(d.compared).toBe('saved reports of a replay-dump artifact and an unknown artifact');
    expect(d.differences.find((e) => e.pointer === '/artifact/kind')).toMatchObject({
      left: 'replay-dump',
      right: 'unknown',
    });
    // A saved report against a live file is still refused: one is compared as saved, the other as run.
    expect((await diff(at('dump.report.json'), ex('unknown/not-an-artifact.json'))).code).toBe(3);
  });

  it('one replay: originals against replayed values, with their exact decimal differences', async () => {
    const r = await diff(ex('tg/banded-drift-material/manifest.json'), '--replay', '--json');
    expect(r.code, r.err).toBe(1);
    const d = json(r.out);
    expect(d.compared).toBe('original against replayed');
    expect(d.differences.map((e) => e.difference)).toEqual(['-0.1', '-0.02']);
  });

  it('the replays of two manifests: their comparisons side by side', async () => {
    const r = await diff(
      ex('tg/banded-drift-material/manifest.json'),
      ex('tg/banded-drift-not-material/manifest.json'),
      '--replay',
      '--json',
    );
    expect(r.code, r.err).toBe(1);
    const d = json(r.out);
    expect(d.compared).toBe('the replays of two tg-replay-manifest artifacts');
    expect(d.differences.some((e) => /^\/comparisons\/\d+\/(original|replayed|delta)$/.test(e.pointer))).toBe(true);
    expect(d.differences.every((e) => typeof e.left !== 'number' || typeof e.right !== 'number' || e.difference)).toBe(
      true,
    );
  });

  it("two saved reports of one manifest's replays under two model versions", async () => {
    const opts = ['--trust-store', ex('dumps/trust-store.json'), '--providers', ex('dumps/providers.json')];
    for (const [model, file] of [
      ['ref-1', 'a.json'],
      ['ref-2', 'b.json'],
    ] as const) {
      const { out } = await cli(
        'replay',
        ex('dumps/whatif/drift.dump.json'),
        ...opts,
        '--what-if',
        `model=${model}`,
        '--json',
      );
      await writeFile(join(tmp, file), out);
    }
    const r = await diff(join(tmp, 'a.json'), join(tmp, 'b.json'), '--json');
    expect(r.code, r.err).toBe(1);
    const d = json(r.out);
    expect(d.compared).toBe('two saved reports of replay-dump artifacts');
    expect(d.differences.some((e) => e.pointer === '/details/whatIf/substitutions/model')).toBe(true);
    expect(d.differences.some((e) => e.pointer.startsWith('/details/expression/replayed/tokens/'))).toBe(true);
  });

  it('--html writes one self-contained page with a permalink per difference; never over an input', async () => {
    const page = join(tmp, 'diff.html');
    const r = await diff(ex('dumps/intact.dump.json'), ex('dumps/fail/altered-artifact.dump.json'), '--html', page);
    expect(r.code, r.err).toBe(1);
    const html = await readFile(page, 'utf8');
    expect(html).toMatch(/<tr id="d-changed-%2F[^"]*"><td><a class="perma" href="#d-changed-%2F/);
    expect(html).toContain('<del>one sentence</del>');
    expect(html).not.toMatch(/<script|<link|src=/i);
    const same = await diff(page, ex('dumps/intact.dump.json'), '--html', page);
    expect(same.code).toBe(3);
    expect(same.err).toContain('never overwrites its input');
  });

  it('--max-differences lists fewer and says so; bad usage is exit 3', async () => {
    const r = await diff(
      ex('dumps/intact.dump.json'),
      ex('dumps/fail/altered-artifact.dump.json'),
      '--max-differences',
      '2',
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/\d+ difference\(s\), the first 2 listed \(--max-differences 2\)/);
    expect((await diff(ex('dumps/intact.dump.json'))).code).toBe(3);
    expect((await diff('a', 'b', 'c')).code).toBe(3);
    expect((await diff(join(tmp, 'missing.json'), ex('dumps/intact.dump.json'))).code).toBe(3);
    expect((await diff(ex('dumps/intact.dump.json'), ex('dumps/intact.dump.json'), '--bogus')).code).toBe(3);
  });
});

/** Writes `text` as a file of the temporary folder and gives its path. */
async function file(name: string, text: string): Promise<string> {
  await writeFile(at(name), text);
  return at(name);
}
/** A saved report: the intact dump's, with `edit` applied to a copy. */
const report = (name: string, edit: (r: Record<string, unknown>) => void): Promise<string> => {
  const r = structuredClone(saved);
  edit(r);
  return file(name, JSON.stringify(r));
};

describe('reprise diff A --replay never exits 0 over a replay that failed, was unavailable or compared nothing', () => {
  it('no trust store: the replay is UNAVAILABLE, said after the diff, exit 2', async () => {
    const r = await diff(ex('dumps/intact.dump.json'), '--replay');
    expect(r.code, r.err).toBe(2);
    expect(r.out).toContain('identical: no difference\n');
    expect(r.out).toMatch(/the replay of .*intact\.dump\.json is UNAVAILABLE: RDS-007 no trust store was given/);
  });

  it('a tampered dump: nothing was replayed, the replay is FAIL with its first failing finding, exit 1', async () => {
    const tampered = [ex('dumps/fail/altered-artifact.dump.json'), '--providers', ex('dumps/providers.json')];
    const r = await diff(...tampered, '--replay');
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain('nothing was replayed: the replay is FAIL: RDS-F001 ');
    expect(r.out).not.toContain('identical');
    const j = JSON.parse((await diff(...tampered, '--replay', '--json')).out) as DiffJson;
    expect(j.replay).toMatchObject({ replayed: false, note: expect.stringContaining('FAIL: RDS-F001') });
  });

  it('nothing was replayed is never "identical": not in JSON, not on the page', async () => {
    const page = at('nothing.html');
    const opts = ['--trust-store', ex('dumps/trust-store.json'), '--providers', ex('dumps/providers.json')];
    const r = await diff(ex('dumps/fail/altered-artifact.dump.json'), '--replay', ...opts, '--json', '--html', page);
    expect(r.code, r.err).toBe(1);
    const j = JSON.parse(r.out) as DiffJson;
    expect(j).toMatchObject({ identical: false, total: 0, replay: { replayed: false } });
    expect(j.replay!.note).toMatch(/^nothing was replayed: the replay is FAIL: RDS-F001 /);
    const html = await readFile(page, 'utf8');
    expect(html).not.toMatch(/identical/i);
    expect(html).toContain('nothing was replayed: the replay is FAIL: RDS-F001 ');
    expect(html).not.toContain('<table');
  });

  it('an unknown kind: nothing was replayed, exit 1; the HTML page says so too', async () => {
    const page = at('unknown.html');
    const r = await diff(ex('unknown/not-an-artifact.json'), '--replay', '--html', page);
    expect(r.code, r.err).toBe(1);
    expect(r.out).toContain('nothing was replayed: the replay is FAIL: RPR-KIND-001 ');
    expect(await readFile(page, 'utf8')).toContain('nothing was replayed: the replay is FAIL: RPR-KIND-001 ');
  });

  it('a replay that passes with its trust store and providers is identical, exit 0', async () => {
    const r = await diff(
      ex('dumps/intact.dump.json'),
      '--trust-store',
      ex('dumps/trust-store.json'),
      '--providers',
      ex('dumps/providers.json'),
      '--replay',
    );
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain('identical: no difference\n');
    expect(r.out).not.toContain('the replay of');
  });
});

describe('--html never overwrites an input, through a link', () => {
  it('refuses the target of an input that is a symbolic link, and a hard link of an input', async () => {
    const a = await file('a.json', '{"a":1}\n');
    const b = await file('b.json', '{"a":2}\n');
    await symlink('a.json', at('la.json'));
    await link(a, at('ha.json'));
    for (const [input, out] of [
      [at('la.json'), a],
      [at('ha.json'), a],
      [a, at('la.json')],
      [a, at('ha.json')],
    ] as const) {
      const r = await diff(input, b, '--html', out);
      expect(r.code, `${input} --html ${out}`).toBe(3);
      expect(r.err).toContain('never overwrites its input');
    }
    expect(await readFile(a, 'utf8')).toBe('{"a":1}\n');
  });
});

describe('numbers beyond double precision are compared as written', () => {
  const pairs = [
    ['9007199254740993', '9007199254740992'],
    ['123456789.123456789', '123456789.123456788'],
    ['1e-400', '0'],
  ] as const;

  it('two saved reports differing only in such a number differ, exit 1, and show both literals', async () => {
    for (const [x, y] of pairs) {
      const [l, r] = await Promise.all(
        [x, y].map((v, i) =>
          report(`n${i}.json`, (rep) => ((rep['details'] as Record<string, unknown>)['n'] = 'N')).then(async (p) =>
            file(`num-${i}.json`, (await readFile(p, 'utf8')).replace('"N"', v)),
          ),
        ),
      );
      const out = await diff(l!, r!, '--json');
      expect(out.code, `${x} against ${y}: ${out.err}`).toBe(1);
      const d = JSON.parse(out.out) as DiffJson;
      expect(d.differences).toEqual([
        {
          op: 'changed',
          pointer: '/details/n',
          left: Number(x),
          right: Number(y),
          leftLiteral: x,
          ...(String(Number(y)) === y ? {} : { rightLiteral: y }),
        },
      ]);
      expect((await diff(l!, r!)).out).toContain(`${x} → ${y}  (as written: beyond double precision`);
    }
  });

  it('the same value in two spellings is no difference', async () => {
    const l = await file('same-l.json', '{"n":[9007199254740993,1]}');
    const r = await file('same-r.json', '{"n":[9007199254740993.0,1]}');
    const d = JSON.parse((await diff(l, r, '--json')).out) as DiffJson;
    expect(d.differences.filter((e) => e.pointer.startsWith('/content'))).toEqual([]);
  });

  it("JSON content: the number's pointer, a whole document that is one number too", async () => {
    const l = await file('c-l.json', '{"rows":[{"n":9007199254740993}]}');
    const r = await file('c-r.json', '{"rows":[{"n":9007199254740992}]}');
    const d = JSON.parse((await diff(l, r, '--json')).out) as DiffJson;
    expect(d.differences.find((e) => e.pointer === '/content/rows/0/n')).toMatchObject({
      leftLiteral: '9007199254740993',
    });
    const [one, two] = [await file('one.json', '1e-400'), await file('two.json', '0')];
    const w = JSON.parse((await diff(one, two, '--json')).out) as DiffJson;
    expect(w.differences.find((e) => e.pointer === '/content')).toMatchObject({ leftLiteral: '1e-400', right: 0 });
  });
});

describe('a saved report is checked for what the diff reads', () => {
  it('refuses a malformed one in one line naming what is wrong, exit 3, no internal error', async () => {
    const cases: [string, string][] = [
      ['{"schema":"reprise.report/v1","artifact":{"kind":"x"},"findings":[],"verdict":5}', '/verdict must be'],
      ['{"schema":"reprise.report/v1","artifact":{},"findings":[]}', '/artifact/kind must be a string'],
      [
        '{"schema":"reprise.report/v1","artifact":{"kind":"x"},"findings":[null],"verdict":"fail"}',
        '/findings must be',
      ],
      ['{"schema":"reprise.report/v1","artifact":{"kind":"x"},"findings":[],"verdict":"pass","chain":{}}', '/chain'],
      [
        '{"schema":"reprise.report/v1","artifact":{"kind":"x"},"findings":[],"verdict":"pass","comparisons":[1]}',
        '/comparisons must be',
      ],
    ];
    for (const [i, [text, why]] of cases.entries()) {
      const p = await file(`bad-${i}.json`, text);
      const r = await diff(p, p);
      expect(r.code, text).toBe(3);
      expect(r.err).toContain(why);
      expect(r.err).not.toContain('internal error');
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.out).toBe('');
    }
  });

  it('a report without its chain against a whole one: the chain removed, not changed to nothing', async () => {
    const r = await diff(ex('reports/well-formed.report.json'), ex('reports/no-chain.report.json'), '--json');
    expect(r.code, r.err).toBe(1);
    expect((JSON.parse(r.out) as DiffJson).differences).toEqual([{ op: 'removed', pointer: '/chain', left: [] }]);
  });
});

describe('shown strings are never cut inside a surrogate pair', () => {
  it('the terminal and the page hold no U+FFFD', async () => {
    const [e, f] = ['\u{1F600}', '\u{1F601}'];
    const l = await file(
      'u1.json',
      JSON.stringify({ a: `${e.repeat(100)}zAw${e.repeat(100)}`, c: `a${e.repeat(1500)}z` }),
    );
    const r = await file(
      'u2.json',
      JSON.stringify({ a: `${e.repeat(100)}zBw${e.repeat(100)}`, c: `b${f.repeat(1500)}z` }),
    );
    const page = at('u.html');
    const out = await diff(l, r, '--html', page);
    expect(out.code, out.err).toBe(1);
    expect(out.out).not.toContain('\ufffd');
    expect(await readFile(page, 'utf8')).not.toContain('\ufffd');
  });
});

describe('options are named as given, and never silently ignored', () => {
  it('--max-differences abc is refused naming --max-differences once', async () => {
    const r = await diff(ex('dumps/intact.dump.json'), ex('dumps/intact.dump.json'), '--max-differences', 'abc');
    expect(r.code).toBe(3);
    expect(r.err).toContain(' --max-differences takes a whole number');
    expect(r.err).not.toContain('----');
  });

  it('--what-if without --replay is refused as verify refuses it', async () => {
    const r = await diff(ex('dumps/intact.dump.json'), ex('dumps/intact.dump.json'), '--what-if', 'model=ref-2');
    expect(r.code).toBe(3);
    expect(r.err).toContain('--what-if and --out belong to replay');
  });

  it('engine options, or --replay, with two saved reports are refused: saved reports are compared as saved', async () => {
    const p = await report('plain.json', () => undefined);
    for (const extra of [
      ['--providers', ex('dumps/providers.json')],
      ['--trust-store', ex('dumps/trust-store.json')],
      ['--limit', 'json-items=5'],
      ['--replay'],
    ]) {
      const r = await diff(p, p, ...extra);
      expect(r.code, extra.join(' ')).toBe(3);
      expect(r.err).toContain(`${extra[0]} has no effect: saved reports are compared as saved`);
    }
    expect((await diff(p, p)).code).toBe(0);
  });
});

describe('what diff writes never lands on what it reads', () => {
  /** A copy of an example folder, so a write the diff failed to refuse spoils no other test. */
  const copy = async (from: string, name: string): Promise<string> => {
    await cp(ex(from), at(name), { recursive: true });
    return at(name);
  };
  const refused = async (args: string[], kept: string[], why: string): Promise<void> => {
    const before = await Promise.all(kept.map((p) => readFile(p, 'utf8')));
    const r = await diff(...args);
    expect(r.code, args.join(' ')).toBe(3);
    expect(r.err).toContain(why);
    expect(r.out).toBe('');
    expect(await Promise.all(kept.map((p) => readFile(p, 'utf8')))).toEqual(before);
  };

  it('--out naming the manifest replayed is refused in replay words, before the replay runs', async () => {
    const m = join(await copy('tg/exact-intact', 'out-self'), 'manifest.json');
    const ts = ['--trust-store', ex('tg/trust-store.json')];
    const why = `--out ${m} is the artifact being replayed; Reprise never overwrites its input`;
    await refused([m, '--replay', ...ts, '--out', m], [m], why);
  });

  it('--out with two manifests is refused (it holds one comparison), whichever file it names', async () => {
    const a = join(await copy('tg/exact-intact', 'out-a'), 'manifest.json');
    const b = join(await copy('tg/banded-drift-material', 'out-b'), 'manifest.json');
    for (const out of [b, at('out-two.json')]) {
      await refused(
        [a, b, '--replay', '--out', out],
        [a, b],
        '--out holds one TG replay comparison: give one manifest',
      );
      await expect(readFile(at('out-two.json'))).rejects.toThrow();
    }
  });

  it('--html inside an input folder (a journal) is refused', async () => {
    const [a, b] = [await copy('journal/sample', 'j-a'), await copy('journal/sample', 'j-b')];
    const entries = join(a, 'entries.jsonl');
    await refused([a, b, '--html', entries], [entries], `--html ${entries} is inside ${a}`);
  });

  it('--html or --out naming a file an option reads is refused', async () => {
    const ts = await file('ts-copy.json', await readFile(ex('dumps/trust-store.json'), 'utf8'));
    const pr = await file('pr-copy.json', await readFile(ex('dumps/providers.json'), 'utf8'));
    const d = ex('dumps/intact.dump.json');
    await refused([d, d, '--trust-store', ts, '--html', ts], [ts], `--html ${ts} is the --trust-store file`);
    await refused([d, '--replay', '--providers', pr, '--html', pr], [pr], `--html ${pr} is the --providers file`);
    const m = join(await copy('tg/exact-intact', 'out-opt'), 'manifest.json');
    await refused([m, '--replay', '--trust-store', ts, '--out', ts], [ts], `--out ${ts} is the --trust-store file`);
  });
});

describe('one saved report with --replay', () => {
  it('is refused as two are: nothing is replayed, so nothing is "original against replayed"', async () => {
    const p = await report('one-saved.json', () => undefined);
    const r = await diff(p, '--replay');
    expect(r.code).toBe(3);
    expect(r.err).toContain('--replay has no effect: a saved report is compared as saved');
    expect(r.out).toBe('');
  });
});

describe('the first line is escaped as every shown text is', () => {
  it("a saved report's kind holding a line break forges no line", async () => {
    const forged = (r: Record<string, unknown>) =>
      ((r['artifact'] as Record<string, unknown>)['kind'] = 'x\nidentical: no difference\n');
    const l = await report('forged-l.json', forged);
    const r = await report('forged-r.json', (rep) => (forged(rep), (rep['verdict'] = 'fail')));
    const out = await diff(l, r);
    expect(out.out.split('\n')).not.toContain('identical: no difference');
    expect(out.code, out.err).toBe(1);
    expect(out.out.split('\n')[0]).toContain('x\\x0aidentical');
  });
});

describe('values are shown as JSON', () => {
  it('a string changed to a number reads as a change, in the terminal and on the page', async () => {
    const [l, r] = [await file('type-l.json', '{"a":"1","b":"x"}'), await file('type-r.json', '{"a":1,"b":"y"}')];
    const page = at('type.html');
    const out = await diff(l, r, '--html', page);
    expect(out.code, out.err).toBe(1);
    expect(out.out).toContain('  changed  /content/a  "1" → 1\n');
    expect(out.out).toContain('  changed  /content/b  "x" → "y"\n');
    expect(await readFile(page, 'utf8')).toContain('<td><pre><bdi>&quot;1&quot;</bdi></pre></td><td><pre>1</pre></td>');
  });
});
