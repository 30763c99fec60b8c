/**
 * What the engine host may read and sign with, on behalf of whoever holds the API: the
 * folders the user chose (roots) and the key files the user picked for signing. The API
 * is reachable by anything holding the web host's token, or by a compromised renderer in
 * Electron, so a path in a request is never enough by itself: it must lie under a root,
 * and a key file must be one the user picked (Electron's native dialog, `reprise serve
 * --key`) or one the host made (the training journal's officer key). A kernel adapter,
 * code the engine runs, is granted the same way (`reprise serve --kernel-adapter`).
 *
 * Everything is compared by real path (symlinks and `..` resolved), and the caller gets
 * the real path back and hands *that* to the workers, so the file checked is the file read.
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { isWithin } from '../../app/core/files.js';
import { ApiError } from './api-error.js';

export { isWithin };

/**
 * The real path of an absolute path that may not exist yet (a journal directory to be
 * created): the realpath of its nearest existing ancestor, joined with the rest.
 */
export async function realPathOf(p: string): Promise<string> {
  const abs = resolve(p);
  try {
    return await realpath(abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const parent = dirname(abs);
    if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === abs) throw e;
    return join(await realPathOf(parent), basename(abs));
  }
}

export interface PathGateHints {
  /** How the user adds a root (ends the refusal message). */
  root: string;
  /** How the user picks a key file for signing. */
  key: string;
  /** How the user allows a kernel adapter (code the engine runs). */
  adapter: string;
}

export class PathGate {
  private readonly roots: string[] = [];
  private readonly keys = new Set<string>();
  private readonly adapters = new Set<string>();

  constructor(private readonly hints: PathGateHints) {}

  /** Adds a folder the user chose; it must exist and be a directory. */
  async addRoot(dir: string): Promise<string> {
    const real = await realpath(resolve(dir));
    if (!(await stat(real)).isDirectory()) throw new Error(`${dir} is not a directory`);
    if (!this.roots.some((r) => isWithin(r, real))) this.roots.push(real);
    return real;
  }

  /**
   * A file the user picked: its folder becomes a root (its trust store, its neighbours). It
   * must be a file: the folder "of" a folder is its parent, which nobody picked.
   */
  async addFileFolder(file: string): Promise<void> {
    const real = await realpath(resolve(file));
    if (!(await stat(real)).isFile()) throw new Error(`${file} is not a file`);
    await this.addRoot(dirname(real));
  }

  /** A key file the user picked for signing (or one the host made). */
  async addKey(file: string): Promise<void> {
    this.keys.add(await realpath(resolve(file)));
  }

  /**
   * A kernel adapter the user allowed (the native dialog, `reprise serve --kernel-adapter`)
   * or one the host wrote (the examples'). An adapter is code the engine imports and runs,
   * so lying under a root is not enough: like a signing key, it must be named by the user.
   */
  async addAdapter(file: string): Promise<void> {
    this.adapters.add(await realpath(resolve(file)));
  }

  /** The real path of an allowed kernel adapter; a one-line refusal for any other. */
  async adapterFile(p: unknown, what: string): Promise<string> {
    if (typeof p !== 'string' || p === '' || !isAbsolute(p))
      throw new ApiError(`${what} must be an absolute path`, true);
    let real: string;
    try {
      real = await realpath(p);
    } catch (e) {
      throw new ApiError(`cannot read the ${what} ${p}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`, true);
    }
    if (this.adapters.has(real)) return real;
    throw new ApiError(
      `refused: ${p} is code the engine would run and was not allowed as a kernel adapter; ${this.hints.adapter}`,
      true,
    );
  }

  /** The folders granted (real paths): what a job's reads are confined to (EngineOptions.readRoots). */
  grantedRoots(): string[] {
    return [...this.roots];
  }

  /** The key files picked for signing (real paths), in the order they were granted. */
  grantedKeys(): string[] {
    return [...this.keys];
  }

  /** The real path of `p` if it lies under a root; a one-line refusal otherwise. */
  async confine(p: unknown, what: string): Promise<string> {
    if (typeof p !== 'string' || p === '' || !isAbsolute(p))
      throw new ApiError(`${what} must be an absolute path`, true);
    if (p.includes('\0')) throw new ApiError(`${what} is not a valid path`, true);
    let real: string;
    try {
      real = await realPathOf(p);
    } catch (e) {
      throw new ApiError(`cannot open ${p}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`, true);
    }
    if (this.roots.some((r) => isWithin(r, real))) return real;
    throw new ApiError(`refused: ${p} is outside the folders this workbench may read; ${this.hints.root}`, true);
  }

  /** The real path of a key file the user picked; a one-line refusal for any other. */
  async keyFile(p: unknown, what: string): Promise<string> {
    if (typeof p !== 'string' || p === '' || !isAbsolute(p))
      throw new ApiError(`choose the ${what} (an absolute path)`, true);
    let real: string;
    try {
      real = await realpath(p);
    } catch (e) {
      throw new ApiError(`cannot read the ${what} ${p}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`, true);
    }
    if (this.keys.has(real)) return real;
    throw new ApiError(`refused: ${p} was not picked for signing; ${this.hints.key}`, true);
  }
}
