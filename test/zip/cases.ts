/**
 * The attack archives of issue 5, built from raw header bytes by the tests' own generator
 * (gen.ts), each with the rule that must refuse it: attacks.test.ts checks each is refused
 * from memory, source.test.ts that a file on disk gives the very same findings.
 */
import zlib from 'node:zlib';
import { descriptor, gen, type GenEntry, type Spec } from './gen.js';

export const text = 'a line of an investigation package\n'.repeat(40);
export const deflated = zlib.deflateRawSync(Buffer.from(text));
export const two = (a: Partial<GenEntry> = {}, b: Partial<GenEntry> = {}): Spec => ({
  entries: [
    { name: 'manifest.json', data: text, ...a },
    { name: 'data/dataset.raw', data: '{"rows":[]}', ...b },
  ],
});
export const both = (f: Record<string, number>): Partial<GenEntry> => ({ lh: f, ch: f });
const named = (...names: (string | Buffer)[]): Spec => ({ entries: names.map((name) => ({ name, data: 'x' })) });
export const unixMode = (mode: number) => ({ ch: { madeBy: 0x0314, eattr: (mode << 16) >>> 0 } });

export type Case = [label: string, rule: string, bytes: () => Buffer, limits?: Record<string, number>];

export const CASES: Case[] = [
  ['too short for an end record', 'RPR-ZIP-001', () => Buffer.alloc(10)],
  ['no end record at all', 'RPR-ZIP-001', () => Buffer.alloc(100, 0x41)],
  ['an archive comment', 'RPR-ZIP-002', () => gen({ ...two(), trailer: Buffer.from('comment') })],
  [
    'an end record claiming a comment that is not there',
    'RPR-ZIP-002',
    () => gen({ ...two(), eocd: { commentLen: 5 } }),
  ],
  ['an entry comment', 'RPR-ZIP-002', () => gen(two({ ch: { comment: Buffer.from('hidden') } }))],
  [
    'a second end record inside the central directory',
    'RPR-ZIP-003',
    () => gen(two({ ch: { comment: Buffer.concat([Buffer.from([0x50, 0x4b, 5, 6]), Buffer.alloc(18)]) } })),
  ],
  ['the end record on disk 1', 'RPR-ZIP-004', () => gen({ ...two(), eocd: { disk: 1 } })],
  ['the central directory on disk 2', 'RPR-ZIP-004', () => gen({ ...two(), eocd: { cdDisk: 2 } })],
  ['an entry starting on disk 1', 'RPR-ZIP-004', () => gen(two({ ch: { disk: 1 } }))],
  ['entries on disk != total', 'RPR-ZIP-005', () => gen({ ...two(), eocd: { onDisk: 1 } })],
  ['more entries declared than recorded', 'RPR-ZIP-005', () => gen({ ...two(), eocd: { onDisk: 3, total: 3 } })],
  ['fewer entries declared than recorded', 'RPR-ZIP-005', () => gen({ ...two(), eocd: { onDisk: 1, total: 1 } })],
  ['a ZIP64 sentinel offset in the end record', 'RPR-ZIP-006', () => gen({ ...two(), eocd: { cdOffset: 0xffffffff } })],
  ['a ZIP64 sentinel entry count', 'RPR-ZIP-006', () => gen({ ...two(), eocd: { onDisk: 0xffff, total: 0xffff } })],
  ['a ZIP64 sentinel size in a central record', 'RPR-ZIP-006', () => gen(two({ ch: { usize: 0xffffffff } }))],
  [
    'a ZIP64 sentinel size in a local header',
    'RPR-ZIP-006',
    () => gen(two({ lh: { csize: 0xffffffff, usize: 0xffffffff } })),
  ],
  [
    'a ZIP64 extra field',
    'RPR-ZIP-006',
    () =>
      gen(
        two(
          both({}) && {
            lh: { extra: Buffer.concat([Buffer.from([1, 0, 8, 0]), Buffer.alloc(8)]) },
            ch: { extra: Buffer.concat([Buffer.from([1, 0, 8, 0]), Buffer.alloc(8)]) },
          },
        ),
      ),
  ],
  [
    'a ZIP64 end locator before the end record',
    'RPR-ZIP-006',
    () => gen({ ...two(), beforeEocd: Buffer.concat([Buffer.from([0x50, 0x4b, 6, 7]), Buffer.alloc(16)]) }),
  ],
  [
    'data between the central directory and the end record',
    'RPR-ZIP-007',
    () => gen({ ...two(), beforeEocd: Buffer.from('x') }),
  ],
  ['a central directory offset out of bounds', 'RPR-ZIP-007', () => gen({ ...two(), eocd: { cdOffset: 0x7ffffff0 } })],
  ['a central record running past the directory', 'RPR-ZIP-007', () => gen({ ...two(), eocd: { cdSize: 50 } })],
  [
    'prepended data (a polyglot)',
    'RPR-ZIP-008',
    () => gen({ ...two(), prefix: Buffer.from('MZ\x90\x00 this is not a zip') }),
  ],
  ['data between entries', 'RPR-ZIP-008', () => gen(two({ after: Buffer.from('hidden') }))],
  ['data after the last entry', 'RPR-ZIP-008', () => gen(two({}, { after: Buffer.from('hidden') }))],
  [
    'two central records on one local header (full overlap)',
    'RPR-ZIP-009',
    () => gen({ ...two(), extraCentral: [{ name: Buffer.from('copy.txt'), offset: 0 }] }),
  ],
  [
    'an entry whose data covers the next header (quoted overlap)',
    'RPR-ZIP-009',
    () => gen(two(both({ csize: deflated.length + 40 }), {})),
  ],
  ['no local header at the offset', 'RPR-ZIP-010', () => gen(two({}, { lh: { sig: 0x01020304 } }))],
  ['a local offset past the entries', 'RPR-ZIP-010', () => gen(two({}, { ch: { offset: 100000 } }))],
  ['local name differs', 'RPR-ZIP-011', () => gen(two({ lh: { name: Buffer.from('manifest.jsoN') } }))],
  ['local flags differ', 'RPR-ZIP-012', () => gen(two({ lh: { flags: 0x0800 } }))],
  ['local method differs', 'RPR-ZIP-012', () => gen(two({ lh: { method: 0 } }))],
  ['local version differs', 'RPR-ZIP-012', () => gen(two({ lh: { ver: 45 } }))],
  ['local time differs', 'RPR-ZIP-012', () => gen(two({ lh: { time: 1234 } }))],
  ['local CRC differs', 'RPR-ZIP-013', () => gen(two({ lh: { crc: 1 } }))],
  ['local compressed size differs', 'RPR-ZIP-013', () => gen(two({ lh: { csize: 3 } }))],
  ['local uncompressed size differs', 'RPR-ZIP-013', () => gen(two({ lh: { usize: 3 } }))],
  [
    'flag bit 3 with no descriptor',
    'RPR-ZIP-014',
    () => gen({ entries: [{ name: 'a.txt', data: text, ...both({ flags: 8 }) }] }),
  ],
  [
    'a descriptor with a wrong CRC',
    'RPR-ZIP-014',
    () =>
      gen({
        entries: [
          { name: 'a.txt', data: text, ...both({ flags: 8 }), dd: descriptor(7, deflated.length, text.length) },
        ],
      }),
  ],
  [
    'a descriptor with a wrong size',
    'RPR-ZIP-014',
    () =>
      gen({
        entries: [
          {
            name: 'a.txt',
            data: text,
            ...both({ flags: 8 }),
            dd: descriptor(zlib.crc32(text), deflated.length, text.length + 1, false),
          },
        ],
      }),
  ],
  ['a CRC both headers agree on, but wrong', 'RPR-ZIP-015', () => gen(two(both({ crc: 0xdeadbeef })))],
  ['a stored entry with a wrong CRC', 'RPR-ZIP-015', () => gen(two({ method: 0, ...both({ crc: 5 }) }))],
  ['output longer than declared', 'RPR-ZIP-016', () => gen(two(both({ usize: text.length - 1 })))],
  ['output when zero bytes are declared', 'RPR-ZIP-016', () => gen(two(both({ usize: 0 })))],
  ['output shorter than declared', 'RPR-ZIP-017', () => gen(two(both({ usize: text.length + 1 })))],
  ['a truncated deflate stream', 'RPR-ZIP-017', () => gen(two({ raw: deflated.subarray(0, deflated.length - 4) }))],
  [
    'a corrupt deflate stream',
    'RPR-ZIP-017',
    () => gen(two({ raw: Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]) })),
  ],
  [
    'compressed bytes left over',
    'RPR-ZIP-018',
    () => gen(two({ raw: Buffer.concat([deflated, Buffer.from('JUNK')]) })),
  ],
  [
    'a ratio no deflate stream reaches (a declared size its data cannot hold)',
    'RPR-ZIP-019',
    () => gen({ entries: [{ name: 'zeros.bin', data: 'x', ...both({ usize: 1024 * 1024 }) }] }),
  ],
  [
    'a ratio beyond a lowered maxRatio',
    'RPR-ZIP-019',
    () => gen({ entries: [{ name: 'zeros.bin', data: Buffer.alloc(2 * 1024 * 1024) }] }),
    { maxRatio: 300 },
  ],
  ['method 12 (bzip2)', 'RPR-ZIP-020', () => gen(two(both({ method: 12 })))],
  ['method 14 (LZMA)', 'RPR-ZIP-020', () => gen(two(both({ method: 14 })))],
  ['traditional encryption', 'RPR-ZIP-021', () => gen(two(both({ flags: 1 })))],
  ['strong encryption', 'RPR-ZIP-021', () => gen(two(both({ flags: 0x41 })))],
  ['masked headers', 'RPR-ZIP-021', () => gen(two(both({ flags: 0x2000 })))],
  ['AES (method 99)', 'RPR-ZIP-021', () => gen(two(both({ method: 99 })))],
  [
    'a symbolic link',
    'RPR-ZIP-022',
    () => gen({ entries: [{ name: 'link', data: '/etc/passwd', method: 0, ...unixMode(0o120777) }] }),
  ],
  ['a FIFO', 'RPR-ZIP-022', () => gen({ entries: [{ name: 'fifo', data: '', method: 0, ...unixMode(0o010644) }] })],
  [
    'a block device',
    'RPR-ZIP-022',
    () => gen({ entries: [{ name: 'dev', data: '', method: 0, ...unixMode(0o060644) }] }),
  ],
  [
    'a character device',
    'RPR-ZIP-022',
    () => gen({ entries: [{ name: 'tty', data: '', method: 0, ...unixMode(0o020620) }] }),
  ],
  ['a socket', 'RPR-ZIP-022', () => gen({ entries: [{ name: 'sock', data: '', method: 0, ...unixMode(0o140755) }] })],
  [
    'a Unix directory type on a file name',
    'RPR-ZIP-022',
    () => gen({ entries: [{ name: 'file', data: 'x', ...unixMode(0o040755) }] }),
  ],
  [
    'a Unix regular-file type on a directory name',
    'RPR-ZIP-022',
    () => gen({ entries: [{ name: 'dir/', data: '', method: 0, ...unixMode(0o100644) }] }),
  ],
  [
    'a DOS directory attribute on a file name',
    'RPR-ZIP-022',
    () => gen({ entries: [{ name: 'file', data: 'x', ch: { eattr: 0x10 } }] }),
  ],
  ['a directory entry with content', 'RPR-ZIP-022', () => gen({ entries: [{ name: 'dir/', data: 'x' }] })],
  [
    'a unicode-path extra field',
    'RPR-ZIP-023',
    () =>
      gen(two({ ch: { extra: Buffer.concat([Buffer.from([0x75, 0x70, 9, 0, 1, 0, 0, 0, 0]), Buffer.from('evil')]) } })),
  ],
  ['a truncated extra field', 'RPR-ZIP-024', () => gen(two({ ch: { extra: Buffer.from([0x99, 0x99, 0xff, 0x00]) } }))],
  ['an extra area of 3 bytes', 'RPR-ZIP-024', () => gen(two({ lh: { extra: Buffer.from([1, 2, 3]) } }))],
  ['an empty archive', 'RPR-ZIP-025', () => gen({ entries: [] })],
  [
    'stored sizes that differ',
    'RPR-ZIP-026',
    () => gen(two({ method: 0, ...both({ csize: text.length, usize: text.length + 5 }) })),
  ],
  ['an archive over maxArchiveBytes', 'RPR-ZIP-030', () => gen(two()), { maxArchiveBytes: 100 }],
  ['entries over maxEntries', 'RPR-ZIP-031', () => gen(two()), { maxEntries: 1 }],
  ['an entry over maxEntryBytes', 'RPR-ZIP-032', () => gen(two()), { maxEntryBytes: 100 }],
  ['a declared 4 GiB entry (default limits)', 'RPR-ZIP-032', () => gen(two(both({ usize: 0xfffffffe })))],
  ['a total over maxTotalBytes', 'RPR-ZIP-033', () => gen(two()), { maxTotalBytes: 1000 }],
  ['an empty name', 'RPR-ZIP-040', () => gen(named(''))],
  ['an absolute path', 'RPR-ZIP-041', () => gen(named('/etc/passwd'))],
  ['a drive letter', 'RPR-ZIP-041', () => gen(named('c:evil'))],
  ['a UNC path', 'RPR-ZIP-041', () => gen(named('\\\\server\\share\\x'))],
  ['a backslash', 'RPR-ZIP-042', () => gen(named('a\\b'))],
  ['a ".." segment', 'RPR-ZIP-043', () => gen(named('a/../../b'))],
  ['a "." segment', 'RPR-ZIP-043', () => gen(named('./a'))],
  ['an empty segment', 'RPR-ZIP-043', () => gen(named('a//b'))],
  ['a NUL', 'RPR-ZIP-044', () => gen(named('a\u0000.txt'))],
  ['a newline', 'RPR-ZIP-044', () => gen(named('a\n.txt'))],
  ['a C1 control', 'RPR-ZIP-044', () => gen(named('a\u0085.txt'))],
  ['a right-to-left override', 'RPR-ZIP-045', () => gen(named('report\u202Efdp.exe'))],
  ['a first-strong isolate', 'RPR-ZIP-045', () => gen(named('a\u2068b'))],
  ['a case collision', 'RPR-ZIP-046', () => gen(named('Readme.txt', 'README.TXT'))],
  ['an NFC collision', 'RPR-ZIP-046', () => gen(named('caf\u00e9', 'cafe\u0301'))],
  ['a sharp-s collision', 'RPR-ZIP-046', () => gen(named('stra\u00dfe', 'STRASSE'))],
  ['a file and a directory of one name', 'RPR-ZIP-047', () => gen(named('a', 'a/b'))],
  [
    'a file and an explicit directory entry',
    'RPR-ZIP-047',
    () =>
      gen({
        entries: [
          { name: 'a', data: 'x' },
          { name: 'a/', data: '', method: 0 },
        ],
      }),
  ],
  ['a file beside a directory differing in case', 'RPR-ZIP-046', () => gen(named('A', 'a/b'))],
  ['a duplicate entry', 'RPR-ZIP-048', () => gen(named('a.txt', 'a.txt'))],
  ['a percent-encoded slash', 'RPR-ZIP-049', () => gen(named('a%2Fb'))],
  ['a percent-encoded dot-dot', 'RPR-ZIP-049', () => gen(named('%2e%2e/evil'))],
  ['a double-encoded backslash', 'RPR-ZIP-049', () => gen(named('a%255cb'))],
  ['a non-ASCII name without the UTF-8 flag', 'RPR-ZIP-050', () => gen(named(Buffer.from([0x61, 0x81])))],
  [
    'a name flagged UTF-8 that is not',
    'RPR-ZIP-050',
    () => gen({ entries: [{ name: Buffer.from([0x61, 0xff]), data: 'x', ...both({ flags: 0x800 }) }] }),
  ],
  ['an over-long name', 'RPR-ZIP-051', () => gen(named('d/'.repeat(300) + 'x'))],
  ['an over-long segment', 'RPR-ZIP-051', () => gen(named('a'.repeat(256)))],
  [
    'a trailing dot beside the name Windows makes of it',
    'RPR-ZIP-046',
    () => gen(named('extras/notes.txt', 'extras/notes.txt.')),
  ],
  [
    'a trailing space beside the name Windows makes of it',
    'RPR-ZIP-046',
    () => gen(named('extras/notes.txt', 'extras/notes.txt ')),
  ],
  ['a trailing dot', 'RPR-ZIP-052', () => gen(named('extras/notes.txt.'))],
  ['a directory with a trailing space', 'RPR-ZIP-052', () => gen(named('extras /notes.txt'))],
  ['a Windows device name', 'RPR-ZIP-053', () => gen(named('CON'))],
  ['a Windows device name with an extension', 'RPR-ZIP-053', () => gen(named('extras/aux.txt'))],
  ['an NTFS alternate data stream', 'RPR-ZIP-054', () => gen(named('notes.txt', 'notes.txt:hidden'))],
];
