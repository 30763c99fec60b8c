/**
 * Calls awaiting their answers, by id: the one promise-per-id client every message link
 * uses (the window's socket worker, the shell's link to the engine's process, the host's
 * journal worker). The link numbers its messages with `open`, settles each answer by the
 * id it carries, and fails every call still waiting when the other side dies.
 */
export class PendingCalls<T = unknown> {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: T) => void; reject: (e: Error) => void }>();

  /** Calls still waiting for their answer. */
  get size(): number {
    return this.waiting.size;
  }

  /** A new call: the id its message carries, and the promise its answer settles. */
  open(): { id: number; answer: Promise<T> } {
    const id = this.nextId++;
    const answer = new Promise<T>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    return { id, answer };
  }

  /** Settles call `id` (an answer for no waiting call, late or forged, is ignored): whether it was waiting. */
  settle(id: number, outcome: { ok: true; value: T } | { ok: false; error: Error }): boolean {
    const w = this.waiting.get(id);
    if (!w) return false;
    this.waiting.delete(id);
    if (outcome.ok) w.resolve(outcome.value);
    else w.reject(outcome.error);
    return true;
  }

  /** Fails every waiting call (the other side stopped). */
  failAll(error: () => Error): void {
    const all = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of all) w.reject(error());
  }
}
