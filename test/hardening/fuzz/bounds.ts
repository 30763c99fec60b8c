/**
 * Issue 27's families: long single tokens and wide objects, placed where each kind reads
 * them (a member of a JSON document, a ROM front-matter line, bullet or JSON artifact, a
 * JSON Lines line, a JSON member of an archive). Each must be refused or read within the
 * budget: the parse bounds (app/core/jcs/bounds.ts), the ROM front matter's bound
 * (rom-reader.ts) and the trace line limit (acgp/lines.ts) stop them before any parser
 * spends memory per byte or per value. Files are written in pieces, never held whole.
 */
import { closeSync, cpSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { gen } from '../../zip/gen.js';
import type { FuzzCase } from './runner.js';
import type { Member } from './zip.js';

const MiB = 1024 * 1024;
/**
 * A long token: a string, name or number of 48 MiB. A document that is one long string is
 * held about eight times over, in every kind (its bytes, its text, the parsed value, the
 * stripping thread's copy, the canonical text and its UTF-8 for the hash): long tokens must
 * cost no more than that, and 48 MiB documents stay within the 512 MiB budget. Where a bound
 * refuses a token unread, it is placed at the sizes: a 40 MiB front-matter line, a
 * 100 MiB trace line.
 */
export const LONG = 48 * MiB;
/** A wide object: two million distinct member names (about 26 MB, the 1-2 million). */
export const WIDE = 2_000_000;
/** Many tiny items: eight million `0,` (16 MB; 100 MB of them took 1.5 GB). */
export const TINY = 8_000_000;

/** A piece of a hostile file: text, a unit repeated to a size, or generated members or items. */
export type Piece = string | { repeat: string; bytes: number } | { members: number } | { items: number };

/** The text of a generated piece, in chunks of about 1 MiB. */
function* chunks(p: Exclude<Piece, string>): Generator<string> {
  if ('repeat' in p) {
    const chunk = p.repeat.repeat(Math.max(1, Math.floor(MiB / p.repeat.length)));
    for (let n = 0; n < p.bytes; n += chunk.length) yield chunk;
    return;
  }
  const count = 'members' in p ? p.members : p.items;
  const one = 'members' in p ? (i: number) => `"k${i}":0` : () => '0';
  for (let i = 0; i < count;) {
    let s = '';
    for (; i < count && s.length < MiB; i++) s += (i > 0 ? ',' : '') + one(i);
    yield s;
  }
}

export function writePieces(path: string, pieces: readonly Piece[]): void {
  const fd = openSync(path, 'w');
  try {
    for (const p of pieces) {
      if (typeof p === 'string') writeSync(fd, p);
      else for (const c of chunks(p)) writeSync(fd, c);
    }
  } finally {
    closeSync(fd);
  }
}

/** The bytes of `pieces` (for an archive member: up to 48 MiB in the test's memory). */
function piecesBytes(pieces: readonly Piece[]): Buffer {
  const parts: Buffer[] = [];
  for (const p of pieces) {
    if (typeof p === 'string') parts.push(Buffer.from(p));
    else for (const c of chunks(p)) parts.push(Buffer.from(c));
  }
  return Buffer.concat(parts);
}

/** The hostile values, each as the pieces of one JSON value. */
export const HOSTILE_VALUES: readonly [label: string, value: Piece[]][] = [
  ['a 48 MiB string', ['"', { repeat: 'a', bytes: LONG }, '"']],
  ['a 48 MiB string of escapes', ['"', { repeat: '\\"', bytes: LONG }, '"']],
  ['a 48 MiB number', [{ repeat: '1', bytes: LONG }]],
  ['an object of 2,000,000 distinct members', ['{', { members: WIDE }, '}']],
  ['an array of 8,000,000 tiny items', ['[', { items: TINY }, ']']],
];

/** JSON text (an object or an array) with `value` as its last member ("~") or element. */
export function inJson(base: string, value: readonly Piece[]): Piece[] {
  const t = base.trimEnd();
  const close = t.at(-1)!;
  const body = t.slice(0, -1);
  const comma = /[{[]\s*$/.test(body) ? '' : ',';
  return [body + comma + (close === '}' ? '"~":' : ''), ...value, close];
}

const caseOf = (label: string, pieces: readonly Piece[]): FuzzCase => ({
  label,
  write: (path) => writePieces(path, pieces),
});

/** Every hostile value as the last member of a JSON document of the kind, and (for an object) a 48 MiB member name. */
export function jsonDocument(kind: string, base: string): FuzzCase[] {
  const cases = HOSTILE_VALUES.map(([label, value]) =>
    caseOf(`${kind}: ${label} as its last member`, inJson(base, value)),
  );
  if (base.trimEnd().endsWith('}')) {
    const t = base.trimEnd();
    cases.push(caseOf(`${kind}: a 48 MiB member name`, [t.slice(0, -1) + ',"~', { repeat: 'a', bytes: LONG }, '":0}']));
  }
  return cases;
}

/** A ROM dump with a 40 MiB front-matter line after its `type` line, a 48 MiB front-matter value, a 48 MiB bullet string, and a wide JSON artifact. */
export function romDump(base: string): FuzzCase[] {
  const typeLine = base.indexOf('\n', base.indexOf('type:')) + 1;
  const id = base.indexOf('\nid: ') + 1;
  const bullet = base.indexOf('* [tensor_type]: ');
  const wideArtifact = `## sha256:${'0'.repeat(64)}\n* [media_type]: "application/json"\n\`\`\`json\n`;
  return [
    caseOf('replay-dump (ROM): a 40 MiB front-matter line after the type line', [
      base.slice(0, typeLine) + 'zz: "',
      { repeat: 'a', bytes: 40 * MiB },
      '"\n' + base.slice(typeLine),
    ]),
    caseOf('replay-dump (ROM): a 48 MiB front-matter value (its type line then beyond what detection reads)', [
      base.slice(0, id) + 'id: "',
      { repeat: 'a', bytes: LONG },
      '"' + base.slice(base.indexOf('\n', id)),
    ]),
    caseOf('replay-dump (ROM): a 48 MiB bullet string', [
      base.slice(0, bullet) + '* [tensor_type]: "',
      { repeat: 'a', bytes: LONG },
      '"' + base.slice(base.indexOf('\n', bullet)),
    ]),
    caseOf('replay-dump (ROM): a JSON artifact of 2,000,000 distinct members', [
      base + '\n' + wideArtifact + '{',
      { members: WIDE },
      '}\n```\n',
    ]),
  ];
}

/** A JSON Lines file (a trace, a journal's entries) with a 100 MiB line, a first line of 8,000,000 items, and a line of 2,000,000 members. */
export function jsonLines(kind: string, first: string, rest: string): { label: string; pieces: Piece[] }[] {
  const firstOpen = first.slice(0, -1) + ',"~":';
  return [
    {
      label: `${kind}: a 100 MiB second line`,
      pieces: [first + '\n{"~":"', { repeat: 'a', bytes: 100 * MiB }, '"}\n' + rest],
    },
    {
      label: `${kind}: a first line of 8,000,000 tiny items`,
      pieces: [firstOpen + '[', { items: TINY }, ']}\n' + rest],
    },
    {
      label: `${kind}: a first line of 2,000,000 distinct members`,
      pieces: [firstOpen + '{', { members: WIDE }, '}}\n' + rest],
    },
  ];
}

export const jsonLinesFile = (kind: string, first: string, rest: string): FuzzCase[] =>
  jsonLines(kind, first, rest).map((c) => caseOf(c.label, c.pieces));

/** A journal directory (a copy of `src`) whose entries file holds each hostile line. */
export function journalDir(src: string, first: string, rest: string): FuzzCase[] {
  return jsonLines('journal', first, rest).map((c) => ({
    label: c.label,
    write: (path: string) => {
      cpSync(src, path, { recursive: true });
      writePieces(join(path, 'entries.jsonl'), c.pieces);
    },
  }));
}

/** An archive whose first JSON member is a wide object, or a 48 MiB string (stored, so no ratio limit stops it first). */
export function archive(kind: string, ms: readonly Member[]): FuzzCase[] {
  const target = ms.findIndex((m) => m.name.endsWith('.json'));
  const withMember = (pieces: Piece[]) => () =>
    gen({
      entries: ms.map((m, i) => ({ name: m.name, data: i === target ? piecesBytes(pieces) : m.data, method: 0 })),
    });
  const cases: [string, () => Buffer][] = [
    [
      `${kind}: ${ms[target]!.name} as an object of 2,000,000 distinct members`,
      withMember(['{', { members: WIDE }, '}']),
    ],
    [
      `${kind}: ${ms[target]!.name} holding a 48 MiB string`,
      withMember(['{"~":"', { repeat: 'a', bytes: LONG }, '"}']),
    ],
  ];
  return cases.map(([label, bytes]) => ({ label, write: (path: string) => writeFileSync(path, bytes()) }));
}
