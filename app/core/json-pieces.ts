/**
 * The text `JSON.stringify(value)` gives a JSON data value, in pieces of about `size` UTF-16
 * code units, so that a document of a hundred thousand timeline events is written without
 * ever being one string (nor, once encoded, one buffer): the members of the value and of
 * its members (`levels` deep) are serialized one by one and joined into pieces; deeper
 * values are serialized whole, and one larger than `size` is a piece of its own. For JSON
 * data only (plain objects and arrays, strings, finite numbers, booleans, null, and
 * `undefined` members, which JSON.stringify leaves out): no toJSON, no replacer.
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
  constructor(private readonly size: number) {}

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
  if (levels === 0 || typeof v !== 'object' || v === null) {
    // An array's undefined item is null in JSON.stringify's text (an object's is left out by the caller).
    return yield* text(JSON.stringify(v) ?? 'null', pending);
  }
  if (Array.isArray(v)) {
    yield* text('[', pending);
    for (let i = 0; i < v.length; i++) {
      if (i > 0) yield* text(',', pending);
      yield* pieces(v[i], levels - 1, pending);
    }
    return yield* text(']', pending);
  }
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
