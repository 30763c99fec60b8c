/**
 * The one interface every artifact kind implements (detect, verify, replay), after
 * diffoscope's comparators: adding a kind touches its own folder and one line in
 * registry.ts.
 */
import type { ArtifactKind } from '../../shared/report.js';
import type { KindResult } from '../core/report.js';
import type { TrustStore } from '../core/keys.js';
import type { Sniffed } from './sniff.js';

/** Options that reach every kind (from CLI flags or the workbench). */
export interface EngineOptions {
  trustStore?: string;
  providers?: string;
  policy?: string;
  profiles?: string;
  journal?: string;
  /** `--what-if model=…` / `shape=…` substitutions (training only). */
  whatIf?: string[];
  /** Archive limits and other numeric overrides by name. */
  limits?: Record<string, number>;
  /** Signing key for artifacts the run writes (anchors, attestations). */
  key?: string;
  /** Kernel adapter (command or module) for Nemosyne packages. */
  kernelAdapter?: string;
  /** `replay --out FILE`: where a kind writes its replay artifact (the TG comparison artifact). */
  out?: string;
  /**
   * How a message names an option to the person reading it: a flag on the command line
   * (the default), the control that sets it in the workbench (set by its engine host).
   */
  optionWords?: Partial<Record<'profiles' | 'kernelAdapter', string>>;
}

export interface KindContext {
  readonly options: EngineOptions;
  /** The path as the user gave it (what reports show). */
  readonly path: string;
  /** The trust store named by --trust-store, parsed once per process; null when none was given. */
  trustStore(): Promise<TrustStore | null>;
  /** Reports progress (0..1) for long work; a no-op unless someone listens. */
  progress(fraction: number, label?: string): void;
}

export interface KindHandler {
  readonly kind: ArtifactKind;
  /** Content test, never the file name. Handlers are asked in registry order. */
  detect(s: Sniffed): boolean;
  /**
   * Before detection, for a large document that will be parsed while another thread strips
   * it (Sniffed.stripsInWorker): a kind may ask that thread for speculative work it would
   * otherwise do after the parse (Sniffed.planSignature). Must not fail the run: the kind
   * checks any such result against the parsed document before using it.
   */
  prepare?(s: Sniffed, ctx: KindContext): Promise<void>;
  verify(s: Sniffed, ctx: KindContext): Promise<KindResult>;
  /** Verify, then re-execute; absent for kinds with nothing to re-execute. */
  replay?(s: Sniffed, ctx: KindContext): Promise<KindResult>;
  /** Its replay writes `--out` (a TG replay comparison); other kinds refuse the flag. */
  readonly writesOut?: boolean;
}

/** Kinds that are directories (an evidence journal). */
export interface DirectoryKindHandler {
  readonly kind: ArtifactKind;
  detectDir(dir: string): Promise<boolean>;
  verifyDir(dir: string, ctx: KindContext): Promise<KindResult>;
}
