/**
 * A large value crossing from a worker to the window in pieces, so that no single message
 * costs the window's thread long to receive. A report of 15,000 ACGP evaluations holds
 * 45,000 comparisons and a 15,000-point trajectory (~7 MB of JSON): parsed in the worker
 * and posted whole, its structured clone alone is one task of hundreds of milliseconds on
 * a loaded machine. Posted in pieces, the head (the value with its long arrays emptied)
 * comes first, then each long array's items PIECE_ITEMS at a time, each its own task, and
 * the window delivers the value, whole again, when the last piece is in.
 */

/** Items of one long array per message (2,000 comparisons clone in a few milliseconds). */
export const PIECE_ITEMS = 2000;
/** How deep the walk looks for long arrays (a report's are at most three levels down). */
const MAX_DEPTH = 6;

type Key = string | number;
export type Piece =
  | { p: 'whole'; value: unknown }
  | { p: 'head'; n: number; value: unknown; holes: Key[][] }
  | { p: 'part'; n: number; hole: number; items: unknown[] }
  | { p: 'end'; n: number };

interface Hole {
  path: Key[];
  items: unknown[];
}

/** `v` with every array longer than PIECE_ITEMS replaced by an empty one (copied along the way), the arrays noted in `holes`. */
function hollow(v: unknown, holes: Hole[], path: Key[]): unknown {
  if (typeof v !== 'object' || v === null || path.length > MAX_DEPTH) return v;
  if (Array.isArray(v)) {
    if (v.length > PIECE_ITEMS) {
      holes.push({ path, items: v });
      return [];
    }
    return v.map((x, i) => hollow(x, holes, [...path, i]));
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v))
    Object.defineProperty(out, k, {
      value: hollow(x, holes, [...path, k]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

/** Posts `value` whole, or, when it holds long arrays, as head, parts and end (`n` tells this value's pieces from others'). */
export function postInPieces(value: unknown, n: number, post: (p: Piece) => void): void {
  const holes: Hole[] = [];
  const head = hollow(value, holes, []);
  if (holes.length === 0) return post({ p: 'whole', value });
  post({ p: 'head', n, value: head, holes: holes.map((h) => h.path) });
  holes.forEach((h, hole) => {
    for (let i = 0; i < h.items.length; i += PIECE_ITEMS)
      post({ p: 'part', n, hole, items: h.items.slice(i, i + PIECE_ITEMS) });
  });
  post({ p: 'end', n });
}

/** The array a head left empty at `path` (own members only: the path came from its own keys). */
function arrayAt(v: unknown, path: Key[]): unknown[] {
  let x = v;
  for (const k of path) x = Object.getOwnPropertyDescriptor(x, k)?.value;
  if (!Array.isArray(x)) throw new Error('a piece names no array');
  return x;
}

/** Receives pieces in the order posted; calls `deliver` with each value once it is whole. */
export function assembler(deliver: (value: unknown) => void): (p: Piece) => void {
  const open = new Map<number, { value: unknown; holes: unknown[][] }>();
  return (p) => {
    if (p.p === 'whole') return deliver(p.value);
    if (p.p === 'head')
      return void open.set(p.n, { value: p.value, holes: p.holes.map((path) => arrayAt(p.value, path)) });
    const o = open.get(p.n);
    if (!o) return;
    if (p.p === 'part') {
      const into = o.holes[p.hole];
      if (into) for (const x of p.items) into.push(x);
      return;
    }
    open.delete(p.n);
    deliver(o.value);
  };
}
