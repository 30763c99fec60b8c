/**
 * ZIP layout mutations for the archive kinds (Nemosyne packages, evidence bundles): the
 * members of a real example, rewritten by the tests' own generator (test/zip/gen.ts) with
 * members removed, repeated, reordered, renamed, their content damaged, or a header field,
 * the end record or the gaps between records lying.
 */
import { readEntries } from '../../../app/zip/parallel.js';
import { readStructure } from '../../../app/zip/reader.js';
import { resolveLimits } from '../../../app/zip/limits.js';
import { gen, type Eocd, type GenEntry, type Spec } from '../../zip/gen.js';
import { editList, INHERITED, mutateBytes, mutateJsonOrBytes, type Rng } from './mutate.js';

export interface Member {
  name: string;
  data: Buffer;
}

/** The members of a well-formed archive, read by the engine's own reader. */
export async function membersOf(zip: Buffer): Promise<Member[]> {
  const zs = readStructure(zip, resolveLimits(undefined));
  if (!zs.ok) throw new Error('a fuzz base archive must be well formed');
  const content = await readEntries(zip, zs.entries, () => true);
  return zs.entries.map((e, i) => ({ name: e.name, data: Buffer.from(content[i]!.bytes!) }));
}

const HEADER_FIELDS = ['crc', 'csize', 'usize', 'flags', 'method', 'ver', 'time', 'date'] as const;
const EOCD_FIELDS: (keyof Eocd)[] = ['onDisk', 'total', 'cdSize', 'cdOffset', 'commentLen', 'disk'];
const NAMES = [
  ...INHERITED,
  '../escape',
  '/abs',
  'C:x',
  'a\\b',
  'a\u0000b',
  'a\u202eb',
  'x'.repeat(65_535),
  '',
  'MANIFEST.JSON',
  'dir/',
  'ｍanifest.json',
];

const WIDE = new Set(['crc', 'csize', 'usize', 'offset', 'eattr', 'cdSize', 'cdOffset']);

/** A value at the edge of the field's width (16 or 32 bits). */
function edge(r: Rng, field: string): number {
  return WIDE.has(field)
    ? r.pick([0, 1, 0xffffffff, 0x7fffffff, r.int(0x100000)])
    : r.pick([0, 1, 0xffff, 0x8000, r.int(0x10000)]);
}

const lie = (r: Rng, fields: readonly string[]) => {
  const f = r.pick(fields);
  return { [f]: edge(r, f) };
};

function damageContent(r: Rng, m: Member): Member {
  const text = m.data.toString('utf8');
  try {
    JSON.parse(text);
    return { name: m.name, data: mutateJsonOrBytes(r, text) };
  } catch {
    return { name: m.name, data: mutateBytes(r, m.data) };
  }
}

function editMembers(r: Rng, ms: Member[]): Member[] {
  const out = [...ms];
  editList(
    r,
    out,
    (m) => (r.int(2) ? m : { name: m.name, data: Buffer.from('{}') }),
    (m, op) => (op === 3 ? { name: r.pick(NAMES), data: m.data } : damageContent(r, m)),
  );
  return out;
}

/** The archive's layout: one header field, the end record, or the space between records lies. */
function editLayout(r: Rng, spec: Spec): void {
  const e: GenEntry | undefined = spec.entries[r.int(spec.entries.length)];
  switch (r.int(6)) {
    case 0:
      if (e) e.lh = lie(r, HEADER_FIELDS);
      break;
    case 1:
      if (e) e.ch = lie(r, [...HEADER_FIELDS, 'offset', 'disk', 'eattr', 'madeBy']);
      break;
    case 2:
      spec.eocd = lie(r, EOCD_FIELDS);
      break;
    case 3:
      spec[r.pick(['prefix', 'beforeEocd', 'trailer'] as const)] = Buffer.from('PK\u0005\u0006 junk');
      break;
    case 4:
      for (const x of spec.entries) x.method = 0;
      break;
    default:
      spec.extraCentral = [{ name: Buffer.from('alias.json'), offset: 0 }];
  }
}

/** A hostile archive built from `ms`: member edits, a layout lie, and sometimes byte damage on top. */
export function mutateZip(r: Rng, ms: Member[]): Buffer {
  let edited = ms;
  for (let n = r.int(3); n > 0 || edited === ms; n--) edited = editMembers(r, edited);
  const spec: Spec = { entries: edited.map((m) => ({ name: m.name, data: m.data })) };
  if (r.int(2) === 0) editLayout(r, spec);
  const zip = gen(spec);
  return r.int(4) === 0 ? mutateBytes(r, zip) : zip;
}

/** `count` tiny members after the real ones: the reader's entry budget, not the heap, must stop it. */
export function manyMembers(ms: Member[], count: number): Buffer {
  const tiny = Array.from({ length: count }, (_, i): GenEntry => ({ name: `data/t${i}`, data: 'x', method: 0 }));
  return gen({ entries: [...ms.map((m) => ({ name: m.name, data: m.data })), ...tiny] });
}
