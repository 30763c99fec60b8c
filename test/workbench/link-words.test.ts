/**
 * A link's words: what-if substitutions on a verify are refused as a whole (a verify would
 * drop them and show a PASS that reads as the what-if asked), and a refused option is blamed
 * on the option whose file failed, not on one whose path merely begins it; `artifact=` on
 * what is no exported report is said not to apply.
 */
import { describe, expect, it } from 'vitest';
import { linkTrouble, optionRefusal } from '../../renderer/src/lib/deep-link.js';

const views = ['findings', 'chain', 'case'];
const names = ['trustStore', 'providers', 'artifact', 'journal'];
const declared = [
  { name: 'trustStore', help: 'the trust store' },
  { name: 'providers', help: 'the provider registry' },
  { name: 'artifact', help: 'the artifact an exported report is checked against' },
  { name: 'journal', help: 'the quarantine journal' },
];

describe('what-if substitutions in a link', () => {
  it('are refused on a verify, named or implied, nothing opened', () => {
    const implied = linkTrouble('#view=findings&path=/r/intact.dump.json&whatif=model%3Dref-2', names, views);
    expect(implied).toBe(
      'This link asks for a verify (it names no mode) with what-if substitutions ("whatif=model=ref-2"), which apply to a replay only (mode=replay), so nothing was opened.',
    );
    expect(linkTrouble('#path=/r/a&mode=verify&whatif=', names, views)).toMatch(/"mode=verify" with what-if/);
    expect(linkTrouble('#example=dumps/a.json&mode=verify&whatif=model%3Dref-2', names, views)).toMatch(
      /apply to a replay only/,
    );
  });

  it('are taken on a replay, and on an example that names no mode (its own action decides)', () => {
    expect(linkTrouble('#path=/r/a&mode=replay&whatif=model%3Dref-2', names, views)).toBeNull();
    expect(linkTrouble('#path=/r/a&mode=replay&whatif=', names, views)).toBeNull();
    expect(linkTrouble('#example=tg/x.json&whatif=model%3Dref-2', names, views)).toBeNull();
  });
});

describe('the refused option', () => {
  it('is the one whose whole path the message names, not one whose path begins it', () => {
    const said = optionRefusal(
      'cannot read provider registry /root/ts.providers.json: ENOENT: no such file or directory',
      { trustStore: '/root/ts', providers: '/root/ts.providers.json' },
      declared,
    )!;
    expect(said).toContain('the option providers (the provider registry) = /root/ts.providers.json');
    expect(said).not.toContain('option trustStore');
  });

  it('is none when only a longer path begins with an option', () => {
    expect(
      optionRefusal(
        'cannot read provider registry /root/ts.providers.json: gone',
        { trustStore: '/root/ts' },
        declared,
      ),
    ).toBeNull();
  });

  it('is a folder option when the message names a file inside it', () => {
    expect(
      optionRefusal(
        'cannot read /r/journal/entries.jsonl: gone',
        { journal: '/r/journal', trustStore: '/r/t' },
        declared,
      ),
    ).toContain('the option journal');
  });

  it("is artifact= on a dump, said to apply only to exported reports, not to decide the dump's verdict", () => {
    const said = optionRefusal(
      "the link's artifact option applies to exported reports; /r/intact.dump.json is of kind replay-dump",
      { artifact: '/r/intact.dump.json' },
      declared,
    )!;
    expect(said).toContain('artifact');
    expect(said).toContain('applies only to exported reports');
    expect(said).not.toContain('cannot use');
    expect(said).not.toContain('decides the verdict');
  });
});
