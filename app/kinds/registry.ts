/**
 * The registry of artifact kinds, asked in this order (most specific first). Adding a
 * kind is its own folder under app/kinds/ plus one import and one line here; everything
 * the rooms above know about kinds (flags, limits, option names, examples, the kind list)
 * is read from these handlers' declarations (types.ts, KindDeclarations).
 * Detection is by content only, never by file name.
 * Only each kind's declare.ts is imported here: its verify and replay (index.ts) load when
 * a job of the kind runs (KindHandler.load), so reading the registry loads no checks.
 */
import { availableParallelism } from 'node:os';
import {
  ENGINE_OPTIONS,
  type Decider,
  type DirectoryKindHandler,
  type EngineOptions,
  type KindDeclarations,
  type KindHandler,
  type KindLimit,
  type KindOption,
} from './types.js';
import type { OperationName } from './operations.js';
import { DEFAULT_LIMITS, ZIP_WORKERS_LIMIT } from '../zip/limits.js';
import { FINDINGS_LIMIT, MAX_FINDINGS_PER_RULE } from '../core/findings.js';
import { ITEMS_LIMIT, MAX_ITEMS, MAX_MEMBER_NAMES, MEMBER_NAMES_LIMIT } from '../core/json-limits.js';
import { CASE_LINKS_DEFAULT, CASE_LINKS_HELP, CASE_LINKS_LIMIT } from '../core/case-limits.js';
import { acgpEvalKind, acgpTraceKind } from './acgp/declare.js';
import { replayDumpKind } from './replay-dump/declare.js';
import { tgBundleKind, tgManifestKind } from './tg/declare.js';
import { journalKind } from './journal/declare.js';
import { nemosynePackageKind } from './nemosyne/declare.js';
import { evidenceBundleKind } from './evidence-bundle/declare.js';
import { rejudgementKind } from './rejudgement/declare.js';
import { reportKind } from './report/declare.js';

export const FILE_KIND_LIST = [
  replayDumpKind,
  acgpTraceKind,
  acgpEvalKind,
  tgManifestKind,
  tgBundleKind,
  evidenceBundleKind,
  nemosynePackageKind,
  rejudgementKind,
  reportKind,
] as const;
export const DIRECTORY_KIND_LIST = [journalKind] as const;

export const KINDS: readonly KindHandler[] = [...FILE_KIND_LIST];
export const DIRECTORY_KINDS: readonly DirectoryKindHandler[] = [...DIRECTORY_KIND_LIST];

/** Options the engine itself reads for every kind (engine/run.ts). */
export { ENGINE_OPTIONS };

/** The archive reader's budgets (app/zip/limits.ts), shared by every ZIP kind. */
const ARCHIVE_LIMITS: readonly KindLimit[] = [
  ...Object.entries(DEFAULT_LIMITS).map(([name, d]) => ({
    name,
    default: d,
    help: 'archive reader (app/zip/limits.ts)',
  })),
  // Its default depends on the machine (at most 2 threads); 0 inflates on the calling thread.
  {
    name: ZIP_WORKERS_LIMIT,
    default: Math.min(2, availableParallelism()),
    help: "threads inflating a package's entries (0: none)",
  },
  // Every report's, whatever its kind (app/core/findings.ts).
  {
    name: FINDINGS_LIMIT,
    default: MAX_FINDINGS_PER_RULE,
    help: 'findings listed per rule in a report; the rest are counted (RPR-REPORT-001)',
  },
  // Every JSON artifact's, whatever its kind: checked before the parse that tells the kind (app/core/jcs/bounds.ts).
  {
    name: MEMBER_NAMES_LIMIT,
    default: MAX_MEMBER_NAMES,
    help: 'distinct member names in one JSON document (an artifact, an ACGP trace line), counted before it is parsed',
  },
  // A case's (verify DIR --case), whatever the kinds of its artifacts (app/engine/case/assemble.ts).
  { name: CASE_LINKS_LIMIT, default: CASE_LINKS_DEFAULT, help: CASE_LINKS_HELP },
  {
    name: ITEMS_LIMIT,
    default: MAX_ITEMS,
    help: 'array elements and object members in one JSON document (an artifact, an ACGP trace line), counted before it is parsed',
  },
];

/**
 * Adds a kind after the built-in ones, for tests only (test/kinds/plugin-kind.test.ts):
 * it proves a kind's declarations reach every room without touching another file.
 * Call it before the rooms that read the registry build their tables.
 */
export function registerKind(h: KindHandler | DirectoryKindHandler): void {
  if ('detectDir' in h) (DIRECTORY_KINDS as DirectoryKindHandler[]).push(h);
  else (KINDS as KindHandler[]).push(h);
}

const allKinds = (): readonly (KindHandler | DirectoryKindHandler)[] => [...KINDS, ...DIRECTORY_KINDS];

/** Whether some kind would use the stripped canonical bytes of a large document starting with `head` (KindHandler.stripsCanonical). */
export function canonicalStripWanted(head: Uint8Array): boolean {
  return KINDS.some((k) => k.stripsCanonical?.(head) ?? false);
}

/** Every kind's name, in registry order (what EngineInfo.kinds lists). */
export function kindNames(): string[] {
  return allKinds().map((k) => k.kind);
}

/** The kinds that declare an option of this name (`whatIf`: the kinds a what-if replay applies to). */
export function kindsTaking(option: string): string[] {
  return allKinds()
    .filter((k) => k.options?.some((o) => o.name === option))
    .map((k) => k.kind);
}

/** The kinds that offer an operation beyond verify and replay (KindDeclarations.operations), in registry order. */
export function kindsOffering(op: OperationName): string[] {
  return allKinds()
    .filter((k) => k.operations?.[op])
    .map((k) => k.kind);
}

/** Every kind's rules that carry a recomputed value against the recorded one (KindHandler.recomputedRules), each once. */
export function recomputedRules(): string[] {
  return [...new Set(allKinds().flatMap((k) => k.recomputedRules ?? []))];
}

const same = (a: KindOption, b: KindOption): boolean =>
  JSON.stringify({ ...a, values: a.values?.pattern.source }) ===
  JSON.stringify({ ...b, values: b.values?.pattern.source });

/** An option as every kind declares it: what it decides is each kind's own (KindOption.decides). */
function shared(o: KindOption): KindOption {
  if (o.decides === undefined) return o;
  const { decides: _own, ...rest } = o;
  return rest;
}

/** Every option, the engine's first, each once; two different declarations of one name are a bug. */
export function declaredOptions(): KindOption[] {
  const out = new Map<string, KindOption>();
  for (const declared of [...ENGINE_OPTIONS, ...allKinds().flatMap((k) => k.options ?? [])]) {
    const o = shared(declared);
    const seen = out.get(o.name);
    if (seen && !same(seen, o)) throw new Error(`option ${o.name} is declared twice, differently`);
    out.set(o.name, o);
  }
  return [...out.values()];
}

let deciders: Map<string, Map<string, Decider[]>> | null = null;

/**
 * The options of a kind that decide its findings, by rule id (KindOption.decides); undefined
 * for a kind none does. Built once per process: a case asks it for each of its artifacts.
 */
export function decidersOf(kind: string): ReadonlyMap<string, readonly Decider[]> | undefined {
  deciders ??= new Map(allKinds().flatMap((k) => kindDeciders(k)));
  return deciders.get(kind);
}

function kindDeciders(k: KindDeclarations): [string, Map<string, Decider[]>][] {
  const byRule = new Map<string, Decider[]>();
  for (const o of k.options ?? [])
    for (const d of o.decides ?? []) {
      const rule = typeof d === 'string' ? d : d.rule;
      // A rule the kind does not declare is never among its findings: the declaration is wrong.
      if (!Object.hasOwn(k.rules.ids, rule)) throw new Error(`${k.kind}: --${o.flag} decides ${rule}, no rule of it`);
      const list = byRule.get(rule) ?? [];
      list.push({
        name: o.name,
        flag: o.flag,
        ...(typeof d === 'string' ? {} : { pointerEndsWith: d.pointerEndsWith }),
      });
      byRule.set(rule, list);
    }
  return byRule.size > 0 ? [[k.kind, byRule]] : [];
}

/** The declarations of the kind a report names (`artifact.kind`); null for unknown content. */
export function kindNamed(kind: string): KindDeclarations | null {
  return allKinds().find((k) => k.kind === kind) ?? null;
}

/**
 * The options set in `options` that a run of this kind does not read: those some other kind
 * declares and this one does not. The engine's own (ENGINE_OPTIONS) are read for every kind,
 * a kind that hands its options on (`forwardsOptions`) reads them all, and the engine's
 * internal members (alone, readRoots, optionWords...) are no declared option. One answer for
 * both faces: the CLI refuses these for a file named alone (engine/run.ts), and the
 * workbench, which sends its fields with every file, says them beside the verdict
 * (main/host/job-side.ts), since either way the verdict was made without them.
 */
export function unreadOptions(kind: KindDeclarations, options: EngineOptions): KindOption[] {
  if (kind.forwardsOptions) return [];
  const engine = new Set<string>(ENGINE_OPTIONS.map((o) => o.name));
  const read = new Set((kind.options ?? []).map((o) => o.name));
  return declaredOptions().filter(
    (o) => !engine.has(o.name) && !read.has(o.name) && options[o.name as keyof EngineOptions] !== undefined,
  );
}

/** Every `--limit` name with its default: the archive reader's first, then each kind's. */
export function declaredLimits(): KindLimit[] {
  const out = new Map<string, KindLimit>();
  for (const l of [...ARCHIVE_LIMITS, ...allKinds().flatMap((k) => k.limits ?? [])])
    if (!out.has(l.name)) out.set(l.name, l);
  return [...out.values()];
}

/** Options the workbench may send (StartJobRequest.options, an example's options). */
export function workbenchOptionNames(): string[] {
  return declaredOptions()
    .filter((o) => o.workbench)
    .map((o) => o.name);
}
