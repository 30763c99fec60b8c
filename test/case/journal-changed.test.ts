/**
 * A journal of a case is read twice: verified, then its facts (judgements, links, events)
 * streamed again (app/kinds/journal/case-facts.ts). When its files change in between (a
 * writer appends, someone swaps entries.jsonl for an edited copy), the facts are not those
 * of the journal verified: the second read must say so (ChangedWhileReadError), and the case
 * must take the journal as an artifact it could not verify (RPR-CASE-002), never list an
 * unverified judgement beside a PASS.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChangedWhileReadError } from '../../app/core/errors.js';
import { writeExamples } from '../../app/examples/index.js';
import { verifyJournal } from '../../app/journal/verify.js';
import { verifyForCase } from '../../app/engine/case/verify-one.js';
import { journalCaseFacts } from '../../app/kinds/journal/case-facts.js';
import { journalCode } from '../../app/kinds/journal/index.js';
import { tmp } from '../journal/helpers.js';

let base = '';
let sample = '';

beforeAll(async () => {
  base = tmp('reprise-journal-changed-');
  await writeExamples(join(base, 'examples'));
  sample = join(base, 'examples', 'journal', 'sample');
}, 60_000);

/** A copy of the sample journal, its verification's read, and the read of its facts after `change`. */
async function readAfter(name: string, change: (dir: string) => void) {
  const dir = join(base, name);
  cpSync(sample, dir, { recursive: true });
  const v = await verifyJournal(dir, null, { keep: false });
  change(dir);
  return journalCaseFacts(dir, v);
}

describe('a journal that changes between its verification and its case facts', () => {
  it('reads as verified when nothing changed', async () => {
    const facts = await readAfter('same', () => undefined);
    expect(facts.judgements!.length).toBeGreaterThan(0);
  });

  const changes: [string, (dir: string) => void, RegExp][] = [
    [
      'an entry rewritten in place (same length)',
      (dir) => {
        const p = join(dir, 'entries.jsonl');
        writeFileSync(p, readFileSync(p, 'utf8').replace('"decision":"accept"', '"decision":"reject"'));
      },
      /entries\.jsonl: \d+ line\(s\) with root sha256:[0-9a-f]{64} verified/,
    ],
    [
      'an entry appended',
      (dir) => {
        const p = join(dir, 'entries.jsonl');
        const lines = readFileSync(p, 'utf8');
        writeFileSync(p, lines + lines.split('\n')[0] + '\n');
      },
      /entries\.jsonl/,
    ],
    [
      'a checkpoint appended',
      (dir) => {
        const p = join(dir, 'checkpoints.jsonl');
        const lines = readFileSync(p, 'utf8');
        writeFileSync(p, lines + lines.split('\n')[0] + '\n');
      },
      /checkpoints\.jsonl: \d+ line\(s\), \d+ bytes verified/,
    ],
  ];
  for (const [what, change, why] of changes)
    it(`${what}: the facts read says so`, async () => {
      const e = await readAfter(what.replace(/\W+/g, '-'), change).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(ChangedWhileReadError);
      expect((e as Error).message).toMatch(why);
      expect((e as Error).message).toMatch(/changed while the case read it/);
    });

  it('in a case, the journal is an artifact it could not verify, with nothing of it listed', async () => {
    const dir = join(base, 'in-case');
    cpSync(sample, dir, { recursive: true });
    const verifyDir = journalCode.verifyDir.bind(journalCode);
    // The change lands between the verification and the facts' read, as a writer's append would.
    journalCode.verifyDir = async (d, ctx) => {
      const r = await verifyDir(d, ctx);
      const p = join(d, 'entries.jsonl');
      writeFileSync(p, readFileSync(p, 'utf8').replace('"decision":"accept"', '"decision":"reject"'));
      return r;
    };
    try {
      const o = await verifyForCase(dir, 'J', 'verify', {});
      expect(o.ok).toBe(false);
      if (o.ok) return;
      expect(o.unreadable.path).toBe('J');
      expect(o.unreadable.message).toMatch(/^J changed while the case read it \(entries\.jsonl: /);
      expect(o.unreadable.usage).toBe(true);
    } finally {
      journalCode.verifyDir = verifyDir;
    }
  });
});
