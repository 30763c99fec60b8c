/**
 * `reprise rejudge diff OLD NEW`: what a re-judgement changed (docs/rejudge.md). OLD and NEW
 * are each a complete set of shard files (a directory of them, or one file: a `--records`
 * file or a shard 0/1), checked as a merge checks them; artifacts are matched by their list
 * name. Every artifact whose verdict changed is listed with the rules that came and went, and
 * so is every one whose content or rules changed under the same verdict: a file swapped under
 * its name that still fails, for another rule, is not an unchanged artifact.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../../core/errors.js';
import { assembleShards, sortNames, type JudgedRecord, type RuleHit, type RunSpec } from '../../rejudge/index.js';

/** One artifact judged in both whose verdict, content (SHA-256) or rules differ. */
export interface ArtifactChange {
  path: string;
  sha256: { old: string; new: string };
  verdict: { old: JudgedRecord['verdict']; new: JudgedRecord['verdict'] };
  /** Rules (with severity) above info in NEW and not in OLD, then the reverse. */
  added: RuleHit[];
  removed: RuleHit[];
}

export interface JudgementDiff {
  /** Options whose digest differs (or that one side lacks): name, old, new. */
  options: { name: string; old: string | null; new: string | null }[];
  engine: { old: string; new: string } | null;
  /** Artifacts whose verdict changed. */
  changed: ArtifactChange[];
  /** Artifacts whose verdict is the same but whose content or rules changed. */
  sameVerdict: ArtifactChange[];
  /** Names judged only in NEW, only in OLD. */
  added: string[];
  removed: string[];
  /** Artifacts in both with the same verdict, content and rules. */
  unchanged: number;
}

async function shardFilesOf(arg: string): Promise<string[]> {
  let st;
  try {
    st = await stat(arg);
  } catch (e) {
    throw new UsageError(`cannot read ${arg}: ${(e as NodeJS.ErrnoException).code ?? 'error'}`, 'path');
  }
  if (!st.isDirectory()) return [arg];
  const files = sortNames((await readdir(arg)).filter((n) => n.endsWith('.jsonl'))).map((n) => join(arg, n));
  if (files.length === 0) throw new UsageError(`${arg} holds no shard file (*.jsonl)`, 'path');
  return files;
}

/** A complete judgement: its run and its records by name; refused (naming why) when the shards do not make one. */
export async function loadJudgement(arg: string): Promise<{ run: RunSpec; records: Map<string, JudgedRecord> }> {
  const records = new Map<string, JudgedRecord>();
  const a = await assembleShards(await shardFilesOf(arg), (line) => {
    const r = JSON.parse(line) as JudgedRecord;
    records.set(r.path, r);
  });
  if (a.problems.length > 0 || !a.run)
    throw new UsageError(
      `${arg} is not a complete judgement: ${a.problems.map((p) => p.message).join('; ') || 'no shard'}`,
      'bad-file',
    );
  return { run: a.run, records };
}

const hitKey = (h: RuleHit) => `${h.rule} ${h.severity}`;
const minus = (a: RuleHit[], b: RuleHit[]) => a.filter((h) => !b.some((x) => hitKey(x) === hitKey(h)));

/** How `a` became `b`; null when verdict, content and rules (as a set: their order is the report's) are the same. */
function change(path: string, a: JudgedRecord, b: JudgedRecord): ArtifactChange | null {
  const [added, removed] = [minus(b.rules, a.rules), minus(a.rules, b.rules)];
  if (a.verdict === b.verdict && a.sha256 === b.sha256 && added.length + removed.length === 0) return null;
  return {
    path,
    sha256: { old: a.sha256, new: b.sha256 },
    verdict: { old: a.verdict, new: b.verdict },
    added,
    removed,
  };
}

export async function diffJudgements(oldArg: string, newArg: string): Promise<JudgementDiff> {
  const [o, n] = [await loadJudgement(oldArg), await loadJudgement(newArg)];
  const names = sortNames([...new Set([...o.records.keys(), ...n.records.keys()])]);
  const out: JudgementDiff = {
    options: [],
    engine: o.run.engine === n.run.engine ? null : { old: o.run.engine, new: n.run.engine },
    changed: [],
    sameVerdict: [],
    added: [],
    removed: [],
    unchanged: 0,
  };
  for (const name of sortNames([...new Set([...Object.keys(o.run.options), ...Object.keys(n.run.options)])])) {
    const [a, b] = [o.run.options[name] ?? null, n.run.options[name] ?? null];
    if (a !== b) out.options.push({ name, old: a, new: b });
  }
  for (const name of names) {
    const [a, b] = [o.records.get(name), n.records.get(name)];
    if (!a) out.added.push(name);
    else if (!b) out.removed.push(name);
    else {
      const c = change(name, a, b);
      if (!c) out.unchanged++;
      else (c.verdict.old === c.verdict.new ? out.sameVerdict : out.changed).push(c);
    }
  }
  return out;
}
