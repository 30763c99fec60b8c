/**
 * Set-up for the drift tests that run the CLI in this process (the source, not a build): the
 * examples, a trust store of a reviewer, a quarantine officer and a trainer (and an outsider
 * in none), journals made by replaying examples, and manifests copied or edited.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSigner, type Signer } from '../../app/core/keys.js';
import { appendEntry } from '../../app/journal/writer.js';
import { cliIn, examplesIn } from '../cli/in-process.js';
import { makeKeys, tmp, type Keys } from '../journal/helpers.js';

export interface DriftBench {
  ex: string;
  work: string;
  keys: Keys;
  trainer: Signer;
  trainerPem: string;
}

export async function driftBench(prefix: string): Promise<DriftBench> {
  const ex = await examplesIn(`${prefix}ex-`);
  const work = tmp(prefix);
  const trainer = generateSigner();
  const keys = makeKeys(work, [{ signer: trainer, role: 'trainer', status: 'active' }]);
  const trainerPem = join(work, 'trainer.pem');
  writeFileSync(trainerPem, trainer.privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  return { ex, work, keys, trainer, trainerPem };
}

export const manifestOf = (b: DriftBench, name: string): string => join(b.ex, 'tg', name, 'manifest.json');

/**
 * `--policy` with the examples' governed bundle: without it an A within only the ε of the
 * bundle a manifest embeds is not decided (RPR-TG-043), and drift does not count it.
 */
export const governed = (b: DriftBench): string[] => ['--policy', join(b.ex, 'tg', 'bundle.json')];

/** `reprise drift ARGS --json` in this process (with the governed bundle): the exit code and the parsed document (null when none). */
export async function driftJson(
  b: DriftBench,
  ...args: string[]
): Promise<{ code: number; doc: DriftDoc | null; err: string }> {
  const policy = args.includes('--policy') ? [] : governed(b);
  const r = await cliIn(b.work, 'drift', ...args, ...policy, '--json');
  let doc: DriftDoc | null;
  try {
    doc = JSON.parse(r.out) as DriftDoc;
  } catch {
    doc = null; // a refusal (exit 3) prints no document
  }
  return { code: r.code, doc, err: r.err };
}

export interface DriftDoc {
  observations: number;
  duplicates?: number;
  findings?: { rule: string; severity: string; message: string }[];
  models: {
    model: string;
    drifted: number;
    inWindow: number;
    window: number;
    maxRate: number;
    rate: number | null;
    flag: boolean;
    anchor: { seq: number; entryHash: string; alreadyAnchored?: boolean } | null;
  }[];
}

let journals = 0;

/** A new journal holding the replays (with --journal) of the named examples, signed by the reviewer. */
export async function replayedJournal(b: DriftBench, names: string[], key = b.keys.reviewerPem): Promise<string> {
  const dir = join(b.work, `journal-${++journals}`);
  for (const n of names) {
    const r = await cliIn(
      b.work,
      'replay',
      manifestOf(b, n),
      '--journal',
      dir,
      '--key',
      key,
      '--trust-store',
      b.keys.trustPath,
      ...governed(b),
    );
    if (r.code === 3) throw new Error(`replay ${n} into ${dir}: ${r.err}`);
  }
  return dir;
}

/** Appends a replay-comparison entry with this body, signed by `signer` (checked against the bench's store). */
export async function recordComparison(b: DriftBench, dir: string, signer: Signer, body: Record<string, unknown>) {
  await appendEntry(
    dir,
    { kind: 'replay-comparison', subject: { claimRef: 'claim:hand' }, body: body as never },
    signer,
    {
      trustStore: b.keys.trust,
      fsync: false,
    },
  );
}

/** Copies of an example manifest under a new folder, `edit` applied to each copy's text. */
export function manifestCopies(
  b: DriftBench,
  name: string,
  count: number,
  edit: (text: string, i: number) => string = (t) => t,
): string {
  const dir = join(b.work, `copies-${++journals}`);
  const text = readFileSync(manifestOf(b, name), 'utf8');
  for (let i = 0; i < count; i++) {
    mkdirSync(join(dir, `c${String(i).padStart(2, '0')}`), { recursive: true });
    writeFileSync(join(dir, `c${String(i).padStart(2, '0')}`, 'manifest.json'), edit(text, i));
  }
  return dir;
}

/** A folder holding one copy of an example's manifest. */
export function oneCopy(b: DriftBench, name: string): string {
  const dir = join(b.work, `one-${++journals}`);
  mkdirSync(dir, { recursive: true });
  cpSync(manifestOf(b, name), join(dir, 'manifest.json'));
  return dir;
}

export const entriesText = (dir: string): string => readFileSync(join(dir, 'entries.jsonl'), 'utf8');
export const kindsIn = (dir: string): string[] =>
  entriesText(dir)
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { kind: string }).kind);
