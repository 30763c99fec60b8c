/**
 * The path gate (path-gate.ts) with what the shells granted it: the roots and keys given at
 * start-up, then files picked in a native dialog, each landing in order. Every path the API
 * names is checked only after every grant made before it has landed.
 */
import { PathGate, type PathGateHints } from './path-gate.js';

/** What a shell grants: folders chosen, files picked, key files and kernel adapters named. */
export interface Grant {
  roots?: string[];
  files?: string[];
  keys?: string[];
  adapters?: string[];
}

export class GrantedGate {
  private readonly gate: PathGate;
  /** Resolves once the grants made so far are in the gate. */
  private granted: Promise<void> | undefined;

  constructor(hints: PathGateHints) {
    this.gate = new PathGate(hints);
  }

  /**
   * Widens what the API may reach: folders the user chose, files the user picked to read
   * (their folder), key files picked for signing, kernel adapters picked to run. Called by
   * the shells only (the native dialog, the command line), never through the API.
   */
  grant(g: Grant): Promise<void> {
    // Chained: a call checks paths only after every grant made before it has landed.
    const done = (this.granted ?? Promise.resolve()).then(() => this.addGrant(g));
    this.granted = done.catch(() => undefined);
    return done;
  }

  /**
   * Each path on its own: one that cannot be granted (a recent folder since removed) is left
   * out and the others still land; the grant then fails naming every path left out.
   */
  private async addGrant(g: Grant): Promise<void> {
    const failed: string[] = [];
    const each = async (paths: string[] | undefined, add: (p: string) => Promise<unknown>): Promise<void> => {
      for (const p of paths ?? [])
        await add(p).catch((e: unknown) => failed.push(e instanceof Error ? e.message : `${p}: ${String(e)}`));
    };
    await each(g.roots, (r) => this.gate.addRoot(r));
    // A file picked in the native dialog to read (an artifact, a trust store): its folder.
    // Not a key nor an adapter: a link could otherwise name any file the user opened as code
    // to run or a key to sign with (PickRequest.use says when the dialog asked for one).
    await each(g.files, (f) => this.gate.addFileFolder(f));
    await each(g.keys, (k) => this.gate.addKey(k));
    await each(g.adapters, (a) => this.gate.addAdapter(a));
    if (failed.length > 0) throw new Error(failed.join('; '));
  }

  async confine(p: unknown, what: string): Promise<string> {
    await this.granted;
    return this.gate.confine(p, what);
  }

  async keyFile(p: unknown, what: string): Promise<string> {
    await this.granted;
    return this.gate.keyFile(p, what);
  }

  async adapterFile(p: unknown): Promise<string> {
    await this.granted;
    return this.gate.adapterFile(p, 'kernel adapter');
  }

  /**
   * What a run the host starts may open (EngineOptions.readRoots): the folders granted so far
   * and the key files picked for signing, each of those a root of its own (a replay that
   * anchors in a journal reads its key), after every grant made before the call has landed.
   */
  async readable(): Promise<string[]> {
    await this.granted;
    return [...this.gate.grantedRoots(), ...this.gate.grantedKeys()];
  }

  /** The key files granted so far (after every grant made before the call has landed). */
  async grantedKeys(): Promise<string[]> {
    await this.granted;
    return this.gate.grantedKeys();
  }
}
