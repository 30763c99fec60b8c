import { describe, expect, it } from 'vitest';
import { linkFor, readLink, type LinkState } from '../../renderer/src/lib/deep-link.js';

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
    });
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
    });
  });
  it('replace our own parameters and nothing else', () => {
    const h = linkFor('#token=t&view=chain&path=/old&whatif=model%3Dref-9&picked=x&report=y', base({ view: 'replay' }));
    expect(h).toBe('#token=t&view=replay');
  });
});
