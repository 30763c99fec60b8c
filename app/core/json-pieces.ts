/**
 * The text `JSON.stringify(value)` gives a JSON data value, in pieces of about `size` UTF-16
 * code units (at most about twice that, unless one item alone is larger), so that a
 * document of a hundred thousand timeline events is written without ever being one string
 * (nor, once encoded, one buffer). An object's members are taken one by one, `levels`
 * deep; an array's items in runs, each run one native JSON.stringify sized to make about a
 * piece (one call per item would cost more than the whole text at once). For JSON data
 * only (plain objects and arrays, strings, finite numbers, booleans, null, and `undefined`
 * members, which JSON.stringify leaves out): no toJSON, no replacer.
 */
export function* jsonPieces(value: unknown, size: number, levels = 2): Generator<string> {
  const pending = new Pending(size);
  yield* pieces(value, levels, pending);
  if (pending.length > 0) yield pending.take();
}

/** The text waiting to make up a piece. */
class Pending {
  private parts: string[] = [];
  length = 0;
  constructor(readonly size: number) {}

  /** Adds `s`; the piece, when the pending text has reached its size. */
  add(s: string): string | undefined {
    this.parts.push(s);
    this.length += s.length;
    return this.length >= this.size ? this.take() : undefined;
  }

  take(): string {
    const s = this.parts.join('');
    this.parts = [];
    this.length = 0;
    return s;
  }
}

function* text(s: string, pending: Pending): Generator<string> {
  const piece = pending.add(s);
  if (piece !== undefined) yield piece;
}

function* pieces(v: unknown, levels: number, pending: Pending): Generator<string> {
  if (levels === 0 || typeof v !== 'object' || v === null) return yield* text(JSON.stringify(v), pending);
  if (Array.isArray(v)) return yield* items(v, pending);
  yield* text('{', pending);
  let first = true;
  for (const [k, e] of Object.entries(v)) {
    if (e === undefined) continue;
    yield* text((first ? '' : ',') + JSON.stringify(k) + ':', pending);
    first = false;
    yield* pieces(e, levels - 1, pending);
  }
  yield* text('}', pending);
}

/** The items of an array, in runs of about a piece (an undefined item is null, as in JSON.stringify's text). */
function* items(v: readonly unknown[], pending: Pending): Generator<string> {
  if (v.length === 0) return yield* text('[]', pending);
  let run = 16;
  for (let i = 0; i < v.length;) {
    const n = Math.min(run, v.length - i);
    const s = JSON.stringify(v.slice(i, i + n));
    // The run's text without its brackets: the array's own open it, a comma joins it on.
    yield* text((i === 0 ? '[' : ',') + s.slice(1, -1), pending);
    i += n;
    // The next run as long as this one's items suggest a piece holds.
    run = Math.max(1, Math.floor((n * pending.size) / s.length));
  }
  yield* text(']', pending);
}
