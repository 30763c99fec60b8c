/**
 * The one interface every artifact kind implements, after diffoscope's comparators: a
 * handler detects, verifies and replays its kind, and declares everything the rooms above
 * need to know about it (its flags and limits, its examples, the wording of its origin
 * statement, its examples, its operations beyond verify and replay). The CLI's flags and
 * help, EngineOptions, the host's option names and the lists of kinds outside app/
 * (shared/kinds.ts and the schema's kind enum, generated: test/kinds/generated.test.ts) are
 * built from these declarations (registry.ts), so adding a kind is its own folder and its
 * line in registry.ts.
 *
 * A kind's folder holds two entry points: declare.ts (the KindHandler: declarations and
 * detection, light, what registry.ts imports) and index.ts (its KindCode: verify and
 * replay, imported by `load()` when a job of the kind runs).
 */
import type { CaseNeed } from '../../shared/case.js';
import type { ArtifactKind, Finding, Report } from '../../shared/report.js';
import type { RuleDeclarations } from '../core/findings.js';
import type { KindResult } from '../core/report.js';
import type { TrustStore } from '../core/keys.js';
import type { DIRECTORY_KIND_LIST, FILE_KIND_LIST } from './registry.js';
import type { KindOperations, OperationName, OperationOffer } from './operations.js';
import type { StripWork } from '../threads/canonical.js';
import type { Sniffed } from './sniff.js';

/**
 * An `unavailable` finding an option decides: its rule id; or, for a rule that also says
 * what no option decides, its rule's findings whose pointer ends with `pointerEndsWith`.
 */
export type DecidedFinding = string | { readonly rule: string; readonly pointerEndsWith: string };

/** An option that decides findings of one rule (KindOption.decides), as the registry's table holds it. */
export interface Decider {
  /** The EngineOptions member and the CLI flag (without its dashes). */
  readonly name: string;
  readonly flag: string;
  /** Only the rule's findings whose pointer ends so; every one of them when absent. */
  readonly pointerEndsWith?: string;
}

/** A kind's deciding options by rule id; undefined for a kind none does (registry.ts decidersOf). */
export type DecidersOf = (kind: string) => ReadonlyMap<string, readonly Decider[]> | undefined;

/**
 * The options, but those `given`, that decide some of the unavailable `findings` under a
 * kind's table `byRule`, each with the rules it decides (sorted, each once), by flag;
 * undefined when none does. One reading for the case that writes an artifact's `needs`
 * (engine/case/part.ts) and the case bundle's verify that checks them (evidence-bundle).
 */
export function neededOptions(
  findings: readonly Finding[],
  byRule: ReadonlyMap<string, readonly Decider[]>,
  given: (option: string) => boolean = () => false,
): CaseNeed[] | undefined {
  let found: Map<string, CaseNeed> | undefined;
  for (const f of findings) {
    const deciders = f.severity === 'unavailable' ? byRule.get(f.rule) : undefined;
    for (const d of deciders ?? []) {
      if (given(d.name)) continue;
      if (d.pointerEndsWith !== undefined && !(f.pointer ?? '').endsWith(d.pointerEndsWith)) continue;
      found ??= new Map();
      const need = found.get(d.name) ?? { option: d.name, flag: d.flag, rules: [] };
      if (!need.rules.includes(f.rule)) need.rules.push(f.rule);
      found.set(d.name, need);
    }
  }
  if (!found) return undefined;
  const needs = [...found.values()].sort((a, b) => (a.flag < b.flag ? -1 : a.flag > b.flag ? 1 : 0));
  for (const n of needs) n.rules.sort();
  return needs;
}

/**
 * An option a kind reads: one member of EngineOptions, one CLI flag, and (with
 * `workbench`) an option the workbench may send. Kinds that share an option declare it
 * identically but for `decides` (the registry refuses two different declarations of one name).
 */
export interface KindOption {
  /** The EngineOptions member (what the workbench sends, what the kind reads). */
  readonly name: string;
  /** The CLI flag, without its dashes. */
  readonly flag: string;
  /** The flag's value in usage lines (FILE, DIR, model=V|shape=S). */
  readonly arg: string;
  readonly help: string;
  /** A path the CLI checks at once (core/files.ts): a regular file, or also a directory, or a directory. */
  readonly path?: 'file' | 'file-or-directory' | 'directory';
  /**
   * For a `directory`: the flag with which a run that writes (a replay, not a verify) writes
   * into it, and so may create it when it is missing (TG's `--journal` with `--key`).
   */
  readonly createdWith?: string;
  /** Given several times: a list. */
  readonly multiple?: true;
  /** Belongs to `replay` (`verify` refuses it). */
  readonly replayOnly?: true;
  /** The workbench may send it as a path (StartJobRequest.options, an example's options). */
  readonly workbench?: true;
  /** Each value must match `pattern`; the usage error says "takes <describe>". */
  readonly values?: { readonly pattern: RegExp; readonly describe: string };
  /**
   * The kind's own `unavailable` findings that this option, given, would decide: those that
   * say it was not given (a dump's RDS-007 without --trust-store). A case names the option
   * beside an artifact holding one (shared/case.ts CaseArtifact.needs), so the reviewer is
   * told which option decides it without reading words. Each kind declares its own.
   */
  readonly decides?: readonly DecidedFinding[];
}

/**
 * The options the engine itself reads for every kind (engine/run.ts). A kind declares one
 * again, the same declaration with its own `decides`, to say which of its findings it decides.
 */
export const TRUST_STORE_OPTION = {
  name: 'trustStore',
  flag: 'trust-store',
  arg: 'FILE',
  path: 'file',
  workbench: true,
  help: 'the trust store (reprise.trust-store/v1) deciding who signed what',
} as const satisfies KindOption;
export const ENGINE_OPTIONS = [TRUST_STORE_OPTION] as const satisfies readonly KindOption[];

/** A numeric budget a kind enforces, overridable with `--limit NAME=N`. */
export interface KindLimit {
  readonly name: string;
  readonly default: number;
  readonly help: string;
}

export interface ExampleFile {
  /** Path relative to the examples directory, with `/` separators. */
  path: string;
  bytes: Uint8Array | string;
  /** What the file demonstrates, and the verdict and rule it is made for. */
  note: string;
  /** `whatIf`: the substitutions (`model=ref-2`) a trainer example is made to be replayed with. */
  expect?: {
    verdict: 'pass' | 'fail' | 'unavailable';
    rule?: string;
    command?: 'verify' | 'replay';
    whatIf?: string[];
  };
  /** Engine options the example needs (workbench options), as paths relative to the
   * examples directory (e.g. {trustStore: 'dumps/trust-store.json'}); the workbench applies them. */
  options?: Record<string, string>;
}

/** A kind's sample and training artifacts (`reprise examples`): deterministic bytes. */
export interface ExampleWriter {
  readonly name: string;
  build(): Promise<ExampleFile[]> | ExampleFile[];
}

/** What every kind declares besides its code. */
export interface KindDeclarations<O extends readonly KindOption[] = readonly KindOption[]> {
  readonly kind: ArtifactKind;
  /**
   * The options it reads. The engine's own (ENGINE_OPTIONS) need not be declared: a kind
   * declares one again (TRUST_STORE_OPTION) only to say which of its findings it `decides`.
   */
  readonly options?: O;
  /** Its budgets (`--limit`), with their defaults. */
  readonly limits?: readonly KindLimit[];
  /** Its examples, loaded only when examples are written (they import writers and keys). */
  readonly examples?: () => Promise<ExampleWriter>;
  /**
   * For a kind whose result sets no `authenticity` (it carries no signature): why its
   * report establishes consistency only. Kinds with signatures set KindResult.authenticity.
   */
  readonly consistencyOnly?: string;
  /**
   * Its rules whose finding recomputes the value at its pointer, carrying the recomputed
   * value as `expected` and the recorded one as `actual`: the workbench shows their values
   * as "recorded" then "recomputed", the words of its chain and comparisons.
   */
  readonly recomputedRules?: readonly string[];
  /**
   * The operations it offers beyond verify and replay (app/kinds/operations.ts), with what
   * each applies to; its code (KindCode.operations) implements them.
   */
  readonly operations?: { readonly [N in OperationName]?: OperationOffer };
  /** The rule ids its reports carry (its rule-ids.ts), and the page of docs/rules/ that says each in full. */
  readonly rules: { readonly doc: string; readonly ids: RuleDeclarations };
  /** It hands every option on to another artifact it runs (an exported report's artifact): none goes unread. */
  readonly forwardsOptions?: boolean;
  /**
   * Its content as a diff reads it when the text is not one JSON document (a JSON Lines
   * trace): the JSON texts it holds, compared as an array of their values, and what one of
   * them is called in a diff's words ("line"). Absent: a diff compares content that is one
   * JSON document only (app/engine/compare-sides.ts).
   */
  readonly contentDocuments?: { readonly unit: string; split(text: string): string[] };
}

type AnyDeclared =
  | (typeof ENGINE_OPTIONS)[number]
  | NonNullable<(typeof FILE_KIND_LIST)[number]['options']>[number]
  | NonNullable<(typeof DIRECTORY_KIND_LIST)[number]['options']>[number];
/** The options with a literal name (a kind that declares none has the default, `string`). */
type DeclaredOption = AnyDeclared extends infer O
  ? O extends KindOption
    ? string extends O['name']
      ? never
      : O
    : never
  : never;

/**
 * Options that reach every kind (from CLI flags or the workbench): one member per option
 * the registry's kinds declare, a list for `multiple` ones, and the `--limit` overrides.
 */
export type EngineOptions = {
  [O in DeclaredOption as O['name']]?: O extends { readonly multiple: true } ? string[] : string;
} & {
  /** `--limit NAME=N` overrides by limit name (the archive reader's and each kind's). */
  limits?: Record<string, number>;
  /**
   * How a refusal names an option to the person reading it: a flag on the command line (the
   * default), the control that sets it in the workbench (set by its engine host). Refusals
   * only: a finding is part of the report, whose bytes must not depend on the host.
   */
  optionWords?: Partial<Record<'artifact', string>>;
  /**
   * Set by the engine for a replayed case, never by a user: an artifact whose kind has
   * nothing to re-execute (a policy bundle, a package) is verified, and its report says so
   * (RPR-REPLAY-002, info), instead of failing as a replay asked of that one artifact does
   * (RPR-REPLAY-001). A case replays what can be replayed; it does not fail the rest.
   */
  verifyWhatCannotReplay?: boolean;
  /**
   * Set by the CLI when one file is verified on its own (not a folder, not a case), and by
   * the workbench's host for every artifact it opens, never by a user: `--artifact`, which only an exported report reads, is then refused for any other
   * kind rather than ignored; in a folder or a case it is for the reports among its files.
   */
  alone?: boolean;
  /**
   * Set by the CLI with `alone`, never by a user or the workbench: every option was typed for
   * this one file, so one its kind does not read (`--policy` on a policy bundle, `--providers`
   * on a package) is refused rather than ignored, since the run would read as a check made
   * with it. The workbench sends its Open view's fields with every file and leaves this unset.
   */
  flagsTyped?: boolean;
  /**
   * Set by the workbench's host, never by a user: the folders (real paths) every file the run
   * opens must lie in, checked on the open descriptor (core/files.ts withReadConfinement).
   */
  readRoots?: string[];
};

export interface KindContext {
  readonly options: EngineOptions;
  /** The path as the user gave it (what reports show). */
  readonly path: string;
  /** The trust store named by --trust-store, parsed once per process; null when none was given. */
  trustStore(): Promise<TrustStore | null>;
  /** Reports progress (0..1) for long work; a no-op unless someone listens. */
  progress(fraction: number, label?: string): void;
  /**
   * Runs another artifact through the engine (detection, its kind, the report) with these
   * options: what a kind carrying a report about an artifact (an exported report) checks it
   * against. The engine supplies it, so no kind imports the engine or another kind.
   */
  rerun(path: string, mode: 'verify' | 'replay', options: EngineOptions): Promise<Report>;
  /**
   * The registry's table of the options that decide each kind's findings (KindOption.decides):
   * what a case bundle checks its case's `needs` against. The engine supplies it, so no kind
   * imports the registry, which imports every kind.
   */
  decidersOf: DecidersOf;
}

/**
 * What runs a job of a kind: its own module, imported by KindHandler.load only when such a
 * job runs. The declarations (declare.ts) stay apart so that the rooms reading only them
 * (the CLI's flags and help, a batch's main thread while workers run the jobs) never load
 * verification code.
 */
export interface KindCode {
  verify(s: Sniffed, ctx: KindContext): Promise<KindResult>;
  /** Verify, then re-execute; absent for kinds with nothing to re-execute. */
  replay?(s: Sniffed, ctx: KindContext): Promise<KindResult>;
  /** The operations its declarations offer (KindDeclarations.operations). */
  operations?: KindOperations;
}

export interface KindHandler<O extends readonly KindOption[] = readonly KindOption[]> extends KindDeclarations<O> {
  /** Content test, never the file name. Handlers are asked in registry order. */
  detect(s: Sniffed): boolean;
  /**
   * Called before detection, for a document large enough that its parse overlaps other
   * work (Sniffed.stripsInWorker): a kind may declare speculative work it would otherwise
   * do after the parse, which the engine hands the stripping thread (Sniffed.handStrippingThread).
   * Must not fail the run: the kind checks any such result against the parsed document
   * before using it.
   */
  beforeParse?(s: Sniffed, ctx: KindContext): Promise<StripWork | null>;
  /**
   * Whether a large JSON document starting with `head` (its first 64 KiB) may be this
   * kind's, written so that the kind would use its stripped canonical bytes
   * (Sniffed.takeStrippedCanonical). Only then is it stripped on another thread while it is
   * parsed: the stripping holds a second copy of the document, which no other kind needs
   * (a 96 MiB EVAL string took the run over 512 MiB).
   */
  stripsCanonical?(head: Uint8Array): boolean;
  /** Its verify and replay (a dynamic import of the kind's index.ts). */
  load(): Promise<KindCode>;
  /** Its replay writes `--out` (a TG replay comparison); other kinds refuse the flag. */
  readonly writesOut?: boolean;
}

/** What runs a job of a directory kind (DirectoryKindHandler.load), as KindCode. */
export interface DirectoryKindCode {
  verifyDir(dir: string, ctx: KindContext): Promise<KindResult>;
  /** The operations its declarations offer that apply to a directory (what it offers a case). */
  operations?: Pick<KindOperations, 'caseFacts'>;
}

/** Kinds that are directories (an evidence journal). */
export interface DirectoryKindHandler<
  O extends readonly KindOption[] = readonly KindOption[],
> extends KindDeclarations<O> {
  detectDir(dir: string): Promise<boolean>;
  load(): Promise<DirectoryKindCode>;
}
