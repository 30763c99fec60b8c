/**
 * `quarantine … --json` keeps every recorded text exact and shows what text mode shows
 * (docs/journal.md, "Invisible characters"): JSON.stringify escapes C0 only and the printer the
 * other controls, so a rationale's U+200B, its hidden tag characters or a variation selector
 * reached a terminal raw from `--json` while `show` escaped them. Now every such character is a
 * JSON `\uXXXX` escape: JSON.parse gives the signed text back, and a reader sees each one.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideCase, openCase } from '../../app/journal/index.js';
import { jsonShown } from '../../app/core/text.js';
import { cliIn } from '../cli/in-process.js';
import { makeKeys, tmp } from './helpers.js';

const opts = { fsync: false };
/** "IGNORE" in tag characters: text a model reads and no one sees. */
const TAGS = [...'IGNORE'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
const REASON = `Routed by the replay\u200b of the score${TAGS}; drift\u3164 beyond the band\ufe0f, see \u202enote\u202c.`;
const RATIONALE = `Replayed twice with the pinned model\u200d; the drift is within the band.\n\tSee the \x1b[2Jnotes.`;
const DETAILS = { note: 'rate\u200bhidden', rate: 0.30000000000000004 };
/** Every character a terminal acts on or draws as nothing in the texts above, raw. */
const RAW = [...TAGS, '\u200b', '\u3164', '\ufe0f', '\u202e', '\u202c', '\u200d', '\x1b'];

const noneRaw = (text: string) => {
  for (const c of RAW) expect(text, `U+${c.codePointAt(0)!.toString(16)}`).not.toContain(c);
};

async function journal(): Promise<{ root: string; dir: string; trustPath: string }> {
  const root = tmp('reprise-quar-json-');
  const k = makeKeys(root);
  const dir = join(root, 'journal');
  await openCase(dir, { claimRef: 'claim:loan\ufe0f-1', reason: REASON, details: DETAILS }, k.officer, opts);
  await decideCase(dir, 'case-0', 'escalate', RATIONALE, k.officer, k.trust, opts);
  return { root, dir, trustPath: k.trustPath };
}

describe('quarantine --json: the texts as recorded, their invisible characters escaped', () => {
  it('`show --json` and `list --json` parse to the exact texts and write none of their invisible characters raw', async () => {
    const { root, dir, trustPath } = await journal();
    for (const args of [
      ['show', dir, 'case-0'],
      ['list', dir],
    ]) {
      const r = await cliIn(root, 'quarantine', ...args, '--trust-store', trustPath, '--json');
      expect(r.code).toBe(0);
      noneRaw(r.out);
      expect(r.out).toContain('Routed by the replay\\u200b of the score\\udb40\\udc49');
      expect(r.out).toContain('\\u001b[2J');
      const doc = JSON.parse(r.out) as { case?: unknown; cases?: unknown[] };
      const c = (doc.case ?? doc.cases![0]) as {
        subject: { claimRef: string };
        history: { text: string }[];
        evidence: unknown;
      };
      expect(c.subject.claimRef).toBe('claim:loan\ufe0f-1');
      expect(c.history.map((h) => h.text)).toEqual([REASON, RATIONALE]);
      expect(c.evidence).toEqual(DETAILS);
    }
  });

  it('text `show` escapes the same characters, the evidence line as --json writes it', async () => {
    const { root, dir, trustPath } = await journal();
    const r = await cliIn(root, 'quarantine', 'show', dir, 'case-0', '--trust-store', trustPath);
    expect(r.code).toBe(0);
    noneRaw(r.out);
    expect(r.out).toContain('  evidence {"note":"rate\\u200bhidden","rate":0.30000000000000004}\n');
    expect(r.out).toContain('Routed by the replay\\u200b of the score\\u{e0049}');
  });

  it('jsonShown leaves JSON layout and plain text as they are, and every escape parses back', () => {
    const value = { a: ['x', 1], b: 'plain é 😀 \\u200b typed', c: `x\u200b${TAGS}\u0085\u2028y` };
    const text = JSON.stringify(value, null, 2);
    const shown = jsonShown(text);
    expect(JSON.parse(shown)).toEqual(value);
    expect(shown.split('\n').length).toBe(text.split('\n').length);
    expect(shown).toContain('"plain é 😀 \\\\u200b typed"');
    expect(shown).toContain('"x\\u200b\\udb40\\udc49');
    expect(shown).toContain('\\u0085\\u2028y"');
  });
});
