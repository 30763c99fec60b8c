/**
 * Every input of `reprise drift` counts or says why not (docs/tg-replay.md, "What drift
 * reads"): content no kind claims fails the run (RPR-KIND-001, in verify's words), named or
 * in a folder; a file of another kind named as PATH is refused (exit 3), and in a folder is
 * listed as skipped; a file that cannot be read refuses the run (exit 3); a journal in a
 * folder is read as a journal, with the tree it was judged at.
 */
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyJournal } from '../../app/journal/verify.js';
import { cliIn } from '../cli/in-process.js';
import { driftBench, driftJson, manifestOf, oneCopy, replayedJournal, type DriftBench } from './drift-helpers.js';

let b: DriftBench;
let n = 0;

beforeAll(async () => {
  b = await driftBench('reprise-drift-every-');
});

/** A new folder under the bench holding a copy of `example`'s manifest as a.json. */
function folderWithManifest(example = 'banded-within-epsilon'): string {
  const dir = join(b.work, `inputs-${++n}`);
  mkdirSync(dir, { recursive: true });
  copyFileSync(manifestOf(b, example), join(dir, 'a.json'));
  return dir;
}

/** A copy of a manifest cut short (its first 3000 bytes), written at `path`. */
const truncatedAt = (path: string): void =>
  writeFileSync(path, readFileSync(manifestOf(b, 'banded-within-epsilon')).subarray(0, 3000));

const rules = (doc: { findings?: { rule: string; severity: string }[] } | null) =>
  (doc?.findings ?? []).map((f) => `${f.rule}:${f.severity}`);

describe('content no kind claims is never passed over', () => {
  it('a truncated manifest named alone fails the run (RPR-KIND-001, exit 1), not "0 replays, exit 0"', async () => {
    const dir = folderWithManifest();
    truncatedAt(join(dir, 'b.json'));
    const r = await driftJson(b, join(dir, 'b.json'));
    expect(r.code).toBe(1);
    expect(rules(r.doc)).toEqual(['RPR-KIND-001:fail']);
    expect(r.doc?.findings?.[0]?.message).toMatch(/b\.json: the file looks cut short \(truncated\)/);
  });

  it('a truncated manifest beside a good one in a folder: the good one counts, the run fails', async () => {
    const dir = folderWithManifest();
    truncatedAt(join(dir, 'b.json'));
    const r = await driftJson(b, dir);
    expect(r.code).toBe(1);
    expect(r.doc?.observations).toBe(1);
    expect(rules(r.doc)).toEqual(['RPR-KIND-001:fail']);
  });
});

describe('a file of another kind', () => {
  it('in a folder is skipped and named as skipped; the run is not failed for it', async () => {
    const dir = folderWithManifest();
    copyFileSync(join(b.ex, 'tg', 'bundle.json'), join(dir, 'bundle.json'));
    const r = await driftJson(b, dir);
    expect(r.code).toBe(0);
    expect(r.doc?.observations).toBe(1);
    expect((r.doc as { skipped?: unknown } | null)?.skipped).toEqual([
      { path: join(dir, 'bundle.json'), kind: 'tg-policy-bundle' },
    ]);
    const text = await cliIn(b.work, 'drift', dir);
    expect(text.out).toContain(
      `skipped ${join(dir, 'bundle.json')}: of kind tg-policy-bundle, which drift does not count`,
    );
  });

  it('named as PATH is refused (exit 3): it is no manifest', async () => {
    const r = await cliIn(b.work, 'drift', join(b.ex, 'tg', 'bundle.json'));
    expect(r.code).toBe(3);
    expect(r.err).toContain('is not a TG replay manifest');
  });
});

describe('a file that cannot be read refuses the run', () => {
  it('a FIFO in a folder: exit 3 naming it, nothing counted silently', async () => {
    const dir = folderWithManifest();
    execFileSync('mkfifo', [join(dir, 'b.fifo')]);
    const r = await cliIn(b.work, 'drift', dir);
    expect(r.code).toBe(3);
    expect(r.err).toContain(`${join(dir, 'b.fifo')}: a FIFO`);
  });

  it('a link to nothing in a folder: exit 3 naming it', async () => {
    const dir = folderWithManifest();
    symlinkSync(join(dir, 'gone.json'), join(dir, 'c.json'));
    const r = await cliIn(b.work, 'drift', dir);
    expect(r.code).toBe(3);
    expect(r.err).toContain(join(dir, 'c.json'));
  });
});

describe('journals', () => {
  it('a journal inside a folder is read as a journal (not skipped), and the tree it was judged at is printed', async () => {
    const j = await replayedJournal(b, ['banded-drift-not-material']);
    const dir = join(b.work, `holds-journal-${++n}`);
    mkdirSync(dir);
    execFileSync('cp', ['-R', j, join(dir, 'journal')]);
    const r = await driftJson(b, dir, '--trust-store', b.keys.trustPath);
    expect(r.doc?.models).toEqual([expect.objectContaining({ drifted: 1, inWindow: 1, flag: true })]);
    const v = await verifyJournal(join(dir, 'journal'), b.keys.trust);
    const cp = v.latestCheckpoint!;
    expect((r.doc as { journals?: unknown } | null)?.journals).toEqual([
      {
        path: join(dir, 'journal'),
        treeSize: v.entryLines,
        root: v.root,
        checkpoint: { ...cp },
      },
    ]);
    const text = await cliIn(b.work, 'drift', j, '--trust-store', b.keys.trustPath);
    expect(text.out).toContain(`journal ${j} judged at tree size ${v.entryLines}, root ${v.root}`);
    expect(text.out).toContain(`latest signed checkpoint: tree size ${cp.treeSize}, root ${cp.rootHash}`);
  });

  it('the checkpoint it judged, saved as a file, is one `journal verify --checkpoint` holds the journal to', async () => {
    const j = await replayedJournal(b, ['banded-drift-not-material', 'banded-within-epsilon']);
    const r = await driftJson(b, j, '--trust-store', b.keys.trustPath);
    const held = join(b.work, `held-${++n}.json`);
    writeFileSync(
      held,
      JSON.stringify((r.doc as unknown as { journals: { checkpoint: unknown }[] }).journals[0]!.checkpoint),
    );
    const verify = () => cliIn(b.work, 'journal', 'verify', j, '--trust-store', b.keys.trustPath, '--checkpoint', held);
    expect((await verify()).code).toBe(0);
    // The newest entry and its checkpoint cut off: the held checkpoint tells.
    const cut = (f: string) => {
      const lines = readFileSync(join(j, f), 'utf8').trimEnd().split('\n');
      writeFileSync(join(j, f), lines.slice(0, -1).join('\n') + '\n');
    };
    cut('entries.jsonl');
    cut('checkpoints.jsonl');
    expect((await verify()).code).toBe(1);
  });

  it('a folder of manifests only still counts them as before', async () => {
    const r = await driftJson(b, oneCopy(b, 'banded-drift-material'));
    expect(r.code).toBe(1);
    expect(r.doc?.models).toEqual([expect.objectContaining({ drifted: 1, inWindow: 1, flag: true })]);
    expect(rules(r.doc)).toEqual([]);
  });
});
