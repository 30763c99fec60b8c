import { describe, expect, it } from 'vitest';
import {
  linkFor,
  linkOptionNames,
  linkTrouble,
  optionRefusal,
  readLink,
  seenChanged,
  sentCase,
  withoutKey,
  type LinkState,
} from '../../renderer/src/lib/deep-link.js';

const base = (s: Partial<LinkState>): LinkState => ({
  view: 'findings',
  source: null,
  mode: null,
  whatIf: [],
  name: null,
  ...s,
});

describe('deep links', () => {
  it('name the view and the example, and keep the token', () => {
    const h = linkFor(
      '#token=abc',
      base({ source: { type: 'example', path: 'dumps/intact.dump.json' }, mode: 'verify' }),
    );
    expect(new URLSearchParams(h.slice(1)).get('token')).toBe('abc');
    expect(readLink(h)).toEqual({
      view: 'findings',
      example: 'dumps/intact.dump.json',
      path: null,
      mode: 'verify',
      whatIf: null,
      picked: null,
      report: null,
      options: {},
      caseFolder: null,
      seen: null,
    });
  });
  it('in the Case view name the case folder and the options it ran with, never a key, and not the open artifact', () => {
    const h = linkFor(
      '#token=abc',
      base({
        view: 'case',
        source: { type: 'path', path: '/cases/a/dump.json' },
        mode: 'verify',
        caseFolder: '/cases/a',
        caseOptions: { trustStore: '/cases/trust.json', key: '/keys/k.pem' },
      }),
      ['trustStore', 'key'],
    );
    const link = readLink(h, ['trustStore', 'key']);
    expect(link.view).toBe('case');
    expect(link.caseFolder).toBe('/cases/a');
    expect(link.options).toEqual({ trustStore: '/cases/trust.json' });
    expect(link.path).toBeNull();
    expect(new URLSearchParams(h.slice(1)).get('token')).toBe('abc');
    // Another view writes the artifact again, with no case.
    const other = readLink(linkFor(h, base({ source: { type: 'path', path: '/x.json' }, caseFolder: '/cases/a' })));
    expect(other.caseFolder).toBeNull();
    expect(other.path).toBe('/x.json');
  });
  it("in the Case view say a replayed case's mode, and no mode for a verified one (whatever the open artifact ran)", () => {
    const at = (caseMode: 'verify' | 'replay' | null, mode: 'verify' | 'replay') =>
      readLink(linkFor('', base({ view: 'case', source: null, mode, caseFolder: '/cases/a', caseMode })));
    expect(at('replay', 'verify')).toMatchObject({ caseFolder: '/cases/a', mode: 'replay' });
    expect(at('verify', 'replay')).toMatchObject({ caseFolder: '/cases/a', mode: null });
    expect(at(null, 'replay').mode).toBeNull();
  });
  it('carry what-if substitutions, and an explicit "as recorded" for a replay without any', () => {
    const ex = { type: 'example', path: 'dumps/whatif.dump.json' } as const;
    const sub = readLink(
      linkFor('', base({ source: ex, mode: 'replay', whatIf: ['model=ref-2', 'shape=advisor.cpu_v2'] })),
    );
    expect(sub.whatIf).toEqual(['model=ref-2', 'shape=advisor.cpu_v2']);
    // The example's own options are a what-if: a link to its replay as recorded must say so.
    expect(readLink(linkFor('', base({ source: ex, mode: 'replay', whatIf: [] }))).whatIf).toEqual([]);
    // A verify has no substitutions to state; an old link without `whatif` leaves the example's own.
    expect(readLink(linkFor('', base({ source: ex, mode: 'verify' }))).whatIf).toBeNull();
    expect(readLink('#example=x&mode=replay').whatIf).toBeNull();
  });
  it('a file by path; a picked file by its name only, never reopenable', () => {
    expect(
      readLink(
        linkFor(
          '',
          base({ source: { type: 'path', path: '/cases/a b.json' }, mode: 'replay', whatIf: ['model=ref-1'] }),
        ),
      ),
    ).toMatchObject({ path: '/cases/a b.json', mode: 'replay', whatIf: ['model=ref-1'] });
    const picked = readLink(
      linkFor('', base({ source: { type: 'upload', uploadId: 'upload-3' }, mode: 'verify', name: 'claim.json' })),
    );
    expect(picked).toEqual({
      view: 'findings',
      example: null,
      path: null,
      mode: null,
      whatIf: null,
      picked: 'claim.json',
      report: null,
      options: {},
      caseFolder: null,
      seen: null,
    });
  });
  it('a saved report by its name only, never reopenable', () => {
    expect(readLink(linkFor('', base({ name: 'case-17.report.json', savedReport: true })))).toEqual({
      view: 'findings',
      example: null,
      path: null,
      mode: null,
      whatIf: null,
      picked: null,
      report: 'case-17.report.json',
      options: {},
      caseFolder: null,
      seen: null,
    });
  });
  it('replace our own parameters and nothing else', () => {
    const h = linkFor('#token=t&view=chain&path=/old&whatif=model%3Dref-9&picked=x&report=y', base({ view: 'replay' }));
    expect(h).toBe('#token=t&view=replay');
  });

  const declared = [
    { name: 'trustStore', help: 'the trust store (reprise.trust-store/v1) deciding who signed what' },
    { name: 'providers', help: 'the provider registry replays re-execute against' },
    { name: 'policy', help: 'a policy' },
    { name: 'key', help: 'a signing key (never a workbench option; here to prove it is never carried)' },
  ];
  const names = linkOptionNames(declared);
  it('carry every option the job ran with, and never a key', () => {
    expect(names).toEqual(['trustStore', 'providers', 'policy']);
    const src = { type: 'path', path: '/cases/dump.json' } as const;
    const h = linkFor(
      '#token=t&trustStore=/old.json',
      base({
        source: src,
        mode: 'verify',
        options: { trustStore: '/cases/trust.json', policy: '/p.json', key: '/k.pem' },
        caseFolder: null,
        seen: null,
      }),
      names,
    );
    const p = new URLSearchParams(h.slice(1));
    expect(p.get('trustStore')).toBe('/cases/trust.json');
    expect(p.get('policy')).toBe('/p.json');
    expect(p.has('key')).toBe(false);
    expect(p.get('token')).toBe('t');
    expect(readLink(h, names).options).toEqual({ trustStore: '/cases/trust.json', policy: '/p.json' });
    // A key put in a link by hand is not read as an option either.
    expect(readLink('#path=/a&key=/k.pem&trustStore=/t', [...names, 'key']).options).toEqual({ trustStore: '/t' });
    // A picked file cannot be reopened: its options are not written.
    const up = linkFor(
      '',
      base({ source: { type: 'upload', uploadId: 'u' }, name: 'x', options: { trustStore: '/t' } }),
      names,
    );
    expect(readLink(up, names).options).toEqual({});
  });
  it('name the refused option in words, or nothing when the failure is not about an option', () => {
    const opts = { trustStore: '/gone/trust.json', providers: '/ok/providers.json' };
    const said = optionRefusal(
      'refused: /gone/trust.json is outside the folders this workbench may read; start reprise serve with --root DIR naming a folder that contains it',
      opts,
      declared,
    );
    expect(said).toContain(
      'option trustStore (the trust store (reprise.trust-store/v1) deciding who signed what) = /gone/trust.json',
    );
    expect(said).toContain('It was not run without it');
    expect(optionRefusal('cannot open /cases/dump.json: no such file or directory', opts, declared)).toBeNull();
  });
});

describe('links the window refuses or cleans', () => {
  const views = ['findings', 'chain', 'case'];
  const options = ['trustStore', 'providers'];

  it('a link that opens one thing, each parameter once, is no trouble; a bare token is none either', () => {
    expect(linkTrouble('#token=t&view=chain&path=/r/a.json&trustStore=/r/ts.json', options, views)).toBeNull();
    expect(linkTrouble('#token=t', options, views)).toBeNull();
    // A repeated what-if is a list, not an ambiguity.
    expect(linkTrouble('#view=chain&example=x&whatif=a=1&whatif=b=2', options, views)).toBeNull();
  });

  it('names the two things an ambiguous link would open, and an option given twice', () => {
    expect(linkTrouble('#example=dumps/a.json&path=/r/b.json', options, views)).toMatch(
      /names "example=dumps\/a\.json" and "path=\/r\/b\.json": it is ambiguous/,
    );
    expect(linkTrouble('#path=/r/a&trustStore=/r/t1&trustStore=/o/t2', options, views)).toMatch(
      /gives trustStore more than once \("trustStore=\/r\/t1", "trustStore=\/o\/t2"\)/,
    );
  });

  it('refuses an option given empty or with spaces at an end, which would run without it or on another file', () => {
    expect(linkTrouble('#path=/r/a&trustStore=', options, views)).toBe(
      'This link gives "trustStore=" with no value: it would run without that option and say nothing of it, so nothing was opened.',
    );
    expect(linkTrouble('#path=/r/a&providers=%20', options, views)).toMatch(/"providers= " with no value/);
    expect(linkTrouble('#path=/r/a&trustStore=/r/ts.json%20', options, views)).toMatch(
      /"trustStore=\/r\/ts\.json " ?, a path with spaces at an end/,
    );
  });

  it('refuses a parameter, view or mode it does not know rather than running without it', () => {
    expect(linkTrouble('#path=/r/a&kernelAdapter=/r/k.mjs', options, views)).toMatch(
      /"kernelAdapter" is no part of a link/,
    );
    expect(linkTrouble('#view=admin&path=/r/a', options, views)).toMatch(/the view "admin"/);
    expect(linkTrouble('#mode=delete&path=/r/a', options, views)).toMatch(/mode=verify or mode=replay/);
    // A hash that is not a link at all (a JSON object) is one unknown parameter.
    expect(linkTrouble('#{"view":"chain"}', options, views)).toMatch(/not one this workbench understands/);
  });

  it('refuses what-if substitutions on a case, which apply to one replay and would be dropped without a word', () => {
    expect(linkTrouble('#view=case&case=/r/c&mode=replay&whatif=model%3Dref-9', options, views)).toBe(
      'This link opens the case "case=/r/c" with what-if substitutions ("whatif=model=ref-9"), which apply to one artifact\'s replay, never to a case, so nothing was opened.',
    );
    expect(linkTrouble('#view=case&sent=c-1&whatif=', options, views)).toMatch(/what-if substitutions \("whatif="\)/);
    // The window's own case link carries none.
    const written = linkFor('#token=t', {
      view: 'case',
      caseFolder: '/r/c',
      caseMode: 'replay',
      whatIf: ['model=ref-9'],
    } as unknown as Parameters<typeof linkFor>[1]);
    expect(written).not.toContain('whatif');
    expect(linkTrouble(written, options, views)).toBeNull();
  });

  it('quotes a long parameter cut short', () => {
    const said = linkTrouble(`#example=a&path=${'x'.repeat(5000)}`, options, views)!;
    expect(said.length).toBeLessThan(1000);
    expect(said).toContain('…');
  });

  it('never keeps a key in a fragment, and leaves a fragment without one as it is', () => {
    expect(withoutKey('#token=t&path=/r/a&key=/home/me/reviewer.pem')).toBe('#token=t&path=%2Fr%2Fa');
    expect(withoutKey('#token=t&path=/r/a')).toBe('#token=t&path=/r/a');
  });

  it('reads the name of a case sent from the window, and none when the link names none', () => {
    expect(sentCase('#view=case&sent=case-17')).toBe('case-17');
    expect(sentCase('#view=case&sent=')).toBeNull();
    expect(sentCase('#view=case')).toBeNull();
  });

  it('say what the run saw of a reopenable artifact, and read it back', () => {
    const sha256 = `sha256:${'ab'.repeat(32)}`;
    const source = { type: 'path', path: '/r/claim.dump.json' } as const;
    const h = linkFor('#token=t', base({ source, mode: 'verify', seen: { sha256, verdict: 'pass' } }));
    expect(readLink(h).seen).toEqual({ sha256, verdict: 'pass' });
    expect(linkTrouble(h, [], views)).toBeNull();
    // A picked file cannot be reopened: its link says nothing of a run.
    const picked = linkFor(
      '#',
      base({ source: { type: 'upload', uploadId: 'u-1' }, name: 'a.json', seen: { sha256, verdict: 'fail' } }),
    );
    expect(picked).not.toMatch(/sha256|verdict/);
  });

  it('refuses what a run saw when it is malformed, or said of nothing reopenable', () => {
    const sha = `sha256:${'0'.repeat(64)}`;
    expect(linkTrouble(`#path=/r/a&verdict=passed`, [], views)).toMatch(
      /"verdict=passed"; a verdict is pass, fail or unavailable/,
    );
    expect(linkTrouble(`#path=/r/a&verdict=pass&sha256=abc`, [], views)).toMatch(/"sha256=abc", which is no SHA-256/);
    expect(linkTrouble(`#path=/r/a&sha256=${sha}`, [], views)).toMatch(/without that run's verdict/);
    expect(linkTrouble(`#view=case&case=/r/c&verdict=pass`, [], views)).toMatch(/names no path or example/);
    expect(linkTrouble(`#path=/r/a&verdict=pass&verdict=fail`, [], views)).toMatch(/gives verdict more than once/);
  });

  it('say when the reopened file is another, or the same bytes read another verdict', () => {
    const [a, b] = [`sha256:${'a'.repeat(64)}`, `sha256:${'b'.repeat(64)}`];
    expect(seenChanged(null, { sha256: b, verdict: 'fail' }, '/r/x')).toBeNull();
    expect(seenChanged({ sha256: a, verdict: 'pass' }, { sha256: a, verdict: 'pass' }, '/r/x')).toBeNull();
    expect(seenChanged({ sha256: a, verdict: 'pass' }, { sha256: b, verdict: 'pass' }, '/r/x')).toBe(
      `This link was made from a file whose SHA-256 was ${a} (PASS); the file now at /r/x is ${b}: it is not the file the link was shared from.`,
    );
    expect(seenChanged({ sha256: a, verdict: 'pass' }, { sha256: a, verdict: 'unavailable' }, '/r/x')).toMatch(
      /^This link was made when \/r\/x read PASS; the same bytes now read UNAVAILABLE with the link's options: a file one of them names/,
    );
  });
});
