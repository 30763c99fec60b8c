/**
 * Hostile variants of a well-formed input, drawn from a seeded PRNG so a failing case is
 * rebuilt from its seed alone: byte flips and truncation, and structural edits of JSON
 * (removed and duplicated members, deep nesting, long strings, control characters,
 * numbers at the edges of IEEE 754, inherited names), of lines (JSONL, ROM Markdown).
 */

/** mulberry32 over an FNV-1a hash of the seed text: small, fast, the same everywhere. */
export class Rng {
  private s: number;
  constructor(readonly seed: string) {
    let h = 0x811c9dc5;
    for (let i = 0; i < seed.length; i++) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193);
    this.s = h >>> 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
}

/** A JSON token written as is: numbers no JavaScript number holds, nesting no parser should follow. */
export class Raw {
  constructor(readonly text: string) {}
}
/** An object whose members may repeat a name (JSON text allows it; a parser must refuse or decide). */
export class Members {
  constructor(readonly entries: [string, Doc][]) {}
}
export type Doc = null | boolean | number | string | Raw | Members | Doc[] | { [k: string]: Doc };

export function emit(v: Doc): string {
  if (v instanceof Raw) return v.text;
  if (v instanceof Members) return '{' + v.entries.map(([k, x]) => JSON.stringify(k) + ':' + emit(x)).join(',') + '}';
  if (Array.isArray(v)) return '[' + v.map(emit).join(',') + ']';
  if (v !== null && typeof v === 'object') return emit(new Members(Object.entries(v)));
  return JSON.stringify(v);
}

export const EDGE_NUMBERS = [
  '1E-400',
  '1e309',
  '-1e309',
  '9007199254740993',
  '-9007199254740993',
  '-0',
  '0.1e-999999',
  '1e999999',
  '123456789012345678901234567890',
  '0.30000000000000004',
  '5e-324',
  '1.7976931348623157e308',
  '-0.0',
  '00',
  '1.',
  '.5',
  '+1',
  'NaN',
  'Infinity',
  '0x10',
];
export const INHERITED = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'isPrototypeOf',
];
const CONTROL = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u2029',
  '\u202e',
  '\ufeff',
  '\r',
];

function longString(r: Rng): string {
  const n = r.pick([64 * 1024, 1024 * 1024, 4 * 1024 * 1024]);
  return r.pick(['a', 'é', '😀', '\\', '"'])!.repeat(n);
}

function deep(r: Rng): Raw {
  const n = r.pick([600, 5_000, 100_000]);
  const [o, c] = r.pick([
    ['[', ']'],
    ['{"a":', '}'],
  ] as const);
  // Closed or left open: both must be refused at the depth limit, not followed.
  return new Raw(o.repeat(n) + '1' + (r.int(2) ? c.repeat(n) : ''));
}

/** A hostile value to put where any value was. */
export function hostileValue(r: Rng): Doc {
  switch (r.int(8)) {
    case 0:
      return new Raw(r.pick(EDGE_NUMBERS));
    case 1:
      return longString(r);
    case 2:
      return 'x' + r.pick(CONTROL) + 'y';
    case 3:
      return deep(r);
    case 4:
      return new Raw(`"\\ud800${r.pick(['', 'x', '\\u0000'])}"`); // a lone surrogate
    case 5:
      return r.pick([null, true, 0, '', [], {}]);
    case 6:
      return Object.fromEntries([[r.pick(INHERITED), r.pick([1, {}, null, 'x'])]]) as Doc;
    default:
      return new Array<Doc>(r.pick([1_000, 100_000])).fill(r.pick([0, 'a', {}, []]));
  }
}

/** Every object as `Members`, so edits can repeat and rename names freely. */
function toMembers(v: unknown): Doc {
  if (Array.isArray(v)) return v.map(toMembers);
  if (v !== null && typeof v === 'object')
    return new Members(Object.entries(v).map(([k, x]): [string, Doc] => [k, toMembers(x)]));
  return v as Doc;
}

/** A place holding a value: an array and its index, or an object's members and the member's index. */
type Slot = { list: Doc[] | [string, Doc][]; i: number; named: boolean };

function slots(v: Doc, out: Slot[] = [], depth = 0): Slot[] {
  if (depth > 64) return out;
  if (Array.isArray(v))
    v.forEach((x, i) => {
      out.push({ list: v, i, named: false });
      slots(x, out, depth + 1);
    });
  else if (v instanceof Members)
    v.entries.forEach(([, x], i) => {
      out.push({ list: v.entries, i, named: true });
      slots(x, out, depth + 1);
    });
  return out;
}

function editSlot(r: Rng, s: Slot): void {
  const op = r.int(5);
  if (op === 0) s.list.splice(s.i, 1);
  else if (op === 1 && s.named) {
    // The same name twice: the original, then a second value.
    const [k] = s.list[s.i] as [string, Doc];
    (s.list as [string, Doc][]).splice(s.i + 1, 0, [k, hostileValue(r)]);
  } else if (op === 2 && s.named) (s.list[s.i] as [string, Doc])[0] = r.pick(INHERITED);
  else if (op === 3 && !s.named)
    (s.list as Doc[]).splice(s.i, 0, ...new Array<Doc>(r.pick([2, 1000])).fill((s.list as Doc[])[s.i]!));
  else if (s.named) (s.list[s.i] as [string, Doc])[1] = hostileValue(r);
  else (s.list as Doc[])[s.i] = hostileValue(r);
}

/** 1 to 3 structural edits of a JSON document (parsed from `text`), written back as JSON text. */
export function mutateJson(r: Rng, text: string): string {
  let root = toMembers(JSON.parse(text));
  for (let n = 1 + r.int(3); n > 0; n--) {
    const all = slots(root);
    if (all.length === 0) root = hostileValue(r);
    else editSlot(r, r.pick(all));
  }
  return emit(root);
}

/** Byte-level damage: flips, truncation, inserted junk, cut or repeated ranges, bad UTF-8. */
export function mutateBytes(r: Rng, b: Buffer): Buffer {
  const at = () => r.int(b.length + 1);
  switch (r.int(7)) {
    case 0: {
      const c = Buffer.from(b);
      for (let n = 1 + r.int(8); n > 0 && c.length > 0; n--) {
        const k = r.int(c.length);
        c[k] = c[k]! ^ (1 << r.int(8));
      }
      return c;
    }
    case 1:
      return b.subarray(0, at());
    case 2: {
      const i = at();
      return Buffer.concat([
        b.subarray(0, i),
        Buffer.from(
          r.pick([[0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0], [0xef, 0xbb, 0xbf], [0xf4, 0x90, 0x80, 0x80]]),
        ),
        b.subarray(i),
      ]);
    }
    case 3: {
      const i = at();
      return Buffer.concat([b.subarray(0, i), b.subarray(Math.min(b.length, i + 1 + r.int(64)))]);
    }
    case 4: {
      const i = at();
      const j = Math.min(b.length, i + 1 + r.int(256));
      return Buffer.concat([b.subarray(0, j), b.subarray(i, j), b.subarray(j)]);
    }
    case 5:
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]);
    default: {
      const i = at();
      return Buffer.concat([
        b.subarray(0, i),
        Buffer.from(Array.from({ length: 1 + r.int(32) }, () => r.int(256))),
        b.subarray(i),
      ]);
    }
  }
}

/**
 * One edit of a list in place: an item removed, repeated (as `again` makes it), two items
 * swapped, or item i replaced by `replace` (the caller's own damage, chosen by `op`).
 */
export function editList<T>(r: Rng, list: T[], again: (x: T) => T, replace: (x: T, op: number) => T): void {
  const i = r.int(list.length);
  const op = r.int(5);
  if (op === 0) list.splice(i, 1);
  else if (op === 1) list.splice(r.int(list.length + 1), 0, again(list[i]!));
  else if (op === 2) {
    const j = r.int(list.length);
    [list[i], list[j]] = [list[j]!, list[i]!];
  } else if (list.length > 0) list[i] = replace(list[i]!, op);
}

/** Line-level damage: a line removed, repeated, swapped, emptied, or replaced by a hostile value. */
export function mutateLines(r: Rng, text: string, mutateLine: (r: Rng, line: string) => string): string {
  const lines = text.split('\n');
  editList(
    r,
    lines,
    (l) => l,
    (l, op) => (op === 3 ? r.pick(['', ' ', '\r', '\u0000', emit(hostileValue(r))]) : mutateLine(r, l)),
  );
  return lines.join('\n');
}

/** A line of JSON mutated structurally, any other line at the byte level. */
export function mutateAnyLine(r: Rng, line: string): string {
  try {
    JSON.parse(line);
  } catch {
    return mutateBytes(r, Buffer.from(line)).toString('latin1');
  }
  return mutateJson(r, line);
}

/** Either a structural or a byte-level mutation of a JSON document. */
export function mutateJsonOrBytes(r: Rng, text: string): Buffer {
  return r.int(3) === 0 ? mutateBytes(r, Buffer.from(text)) : Buffer.from(mutateJson(r, text));
}
