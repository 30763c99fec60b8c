/**
 * Entry-name rules. A name is refused when any reader could resolve it somewhere other
 * than a plain relative path of the archive. A name only Windows would extract elsewhere,
 * and two names only a folding file system would make one file (collisions are checked
 * across names in reader.ts), are warnings: Reprise never extracts, and the formats read by
 * name (upstream Nemosyne writes and reads such names: docs/zip-reader.md).
 */
import type { ZipLimits } from './limits.js';

export interface NameProblem {
  rule: string;
  severity: 'fail' | 'warning';
  message: string;
}

const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;

/**
 * Windows names a device, not a file, by these in any directory, whatever follows the
 * first dot and with spaces before it (CON, aux.txt, "nul .tar.gz", COM¹ with a superscript
 * digit), case-insensitively: extracting such an entry writes to the device or fails.
 * CONIN$ and CONOUT$ are the console's; COM0 and LPT0 are listed by current Windows.
 */
const WINDOWS_DEVICE =
  /^(?:con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3]|conin\$|conout\$) *(?:\..*)?$/iu;

/** Windows strips a segment's trailing dots and spaces: "notes.txt." and "notes.txt " are "notes.txt". */
const TRAILING_DOT_OR_SPACE = /[. ]+$/u;

/** What Windows does not take in a file name, besides the separators: a colon (a drive, a stream) and these. */
const WINDOWS_CHARS = /[:<>"|?*]/gu;

/**
 * What a Windows-only finding adds: these names are harmless to read by name, which is
 * all Reprise does, and a hazard only to whoever extracts the archive (a kind's docs say
 * whether its writer may write them: docs/zip-reader.md).
 */
const readInstead = (where: string, what: string): string =>
  `Reprise reads entries by name and never extracts them, so the archive is checked as it is. Do not extract it on ${where} with a tool that keeps names; read the ${what} in Reprise instead`;
const WINDOWS_ONLY = readInstead('Windows', 'member');
const windows = (rule: string, hazard: string): NameProblem => ({
  rule,
  severity: 'warning',
  message: `${hazard}; ${WINDOWS_ONLY}`,
});

/** Problems Windows alone would have with a name: another file's name, a device, a name it refuses. */
function windowsProblems(segments: readonly string[]): NameProblem[] {
  const out: NameProblem[] = [];
  if (segments.some((s) => s !== '.' && s !== '..' && TRAILING_DOT_OR_SPACE.test(s)))
    out.push(
      windows(
        'RPR-ZIP-052',
        'a path segment ends in a dot or a space, which Windows strips (extracted there, the entry would land on another name)',
      ),
    );
  const device = segments.find((s) => WINDOWS_DEVICE.test(s));
  if (device !== undefined)
    out.push(
      windows(
        'RPR-ZIP-053',
        `the path segment ${JSON.stringify(device)} is a Windows device name (CON, PRN, AUX, NUL, COM0-9, LPT0-9, with any extension: extracted there, the entry would be written to the device)`,
      ),
    );
  // "a:b" is the stream "b" of file "a" on NTFS (and "a:" a drive): another file's bytes.
  const chars = [...new Set(segments.join('/').match(WINDOWS_CHARS) ?? [])];
  if (chars.length > 0)
    out.push(
      windows(
        'RPR-ZIP-054',
        `entry name contains ${chars.map((c) => JSON.stringify(c)).join(', ')}, which Windows does not take in a file name (a colon names a drive or a stream of another file; < > " | ? * are refused): extracted there, the entry would land elsewhere or nowhere`,
      ),
    );
  return out;
}

/** Problems with one decoded entry name (directories end with `/`). */
export function checkName(name: string, byteLength: number, limits: ZipLimits): NameProblem[] {
  const out: NameProblem[] = [];
  if (name.length === 0) return [{ rule: 'RPR-ZIP-040', severity: 'fail', message: 'entry name is empty' }];
  if (byteLength > limits.maxNameBytes)
    out.push({
      rule: 'RPR-ZIP-051',
      severity: 'fail',
      message: `entry name is ${byteLength} bytes, over the limit of ${limits.maxNameBytes}`,
    });
  if (CONTROL.test(name))
    out.push({ rule: 'RPR-ZIP-044', severity: 'fail', message: 'entry name contains NUL or a control character' });
  if (BIDI.test(name))
    out.push({
      rule: 'RPR-ZIP-045',
      severity: 'fail',
      message: 'entry name contains a bidirectional control character',
    });
  if (name.includes('\\'))
    out.push({ rule: 'RPR-ZIP-042', severity: 'fail', message: 'entry name contains a backslash' });
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name) || name.startsWith('\\\\')) {
    out.push({ rule: 'RPR-ZIP-041', severity: 'fail', message: 'entry name is an absolute, UNC or drive-letter path' });
  }
  const body = name.endsWith('/') ? name.slice(0, -1) : name;
  const segments = body.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..')) {
    out.push({ rule: 'RPR-ZIP-043', severity: 'fail', message: 'entry name has a ".", ".." or empty path segment' });
  }
  out.push(...windowsProblems(segments));
  for (const s of segments) {
    if (Buffer.byteLength(s, 'utf8') > limits.maxSegmentBytes) {
      out.push({
        rule: 'RPR-ZIP-051',
        severity: 'fail',
        message: `a path segment is longer than ${limits.maxSegmentBytes} bytes`,
      });
      break;
    }
  }
  if (!out.some((p) => p.severity === 'fail')) {
    const upstream = upstreamSanitize(name);
    if (upstream !== name) {
      out.push({
        rule: 'RPR-ZIP-049',
        severity: 'fail',
        message:
          upstream === null
            ? "upstream Nemosyne's path sanitizer refuses this name"
            : `upstream Nemosyne's path sanitizer reads this name as "${upstream}"`,
      });
    }
  }
  return out;
}

/**
 * Upstream Nemosyne's `sanitizeEntryPath` (src/session/NemosynePackage.ts) as the spec
 * records it: percent-decoding up to 3 times, nested `%25`-wrapped escapes of 00, 2e, 2f,
 * 3a, 5c collapsed, `\` read as `/`, absolute, drive, `//`, `.`/`..` refused. Returns the
 * path upstream would use, or null when upstream refuses. Reprise refuses any name that
 * upstream would read differently, so both readers always agree on what an entry is.
 */
export function upstreamSanitize(raw: string): string | null {
  if (raw.includes('\0')) return null;
  let decoded = raw;
  for (let i = 0; i < 3; i++) {
    let next: string;
    try {
      next = decodeURIComponent(decoded);
    } catch {
      break;
    }
    if (next === decoded) break;
    decoded = next;
  }
  for (let i = 0; i < 8; i++) {
    const next = decoded
      .replace(/%(?:25)+(00|2e|2f|3a|5c)/gi, '%$1')
      .replace(/%(00|2e|2f|3a|5c)/gi, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    if (next === decoded) break;
    decoded = next;
  }
  if (decoded.includes('\0')) return null;
  const normalized = decoded.replace(/\\/g, '/');
  if (normalized.startsWith('/') || /^[a-zA-Z]:/.test(normalized)) return null;
  for (const part of normalized.split('/')) {
    if (part === '..' || part === '.' || /%2e/i.test(part)) return null;
  }
  return normalized;
}

/**
 * Two distinct names that are one under foldName. Read by name, as Reprise and upstream
 * Nemosyne read them, they are two members: upstream's `pack` writes each extra under its
 * exact name (fflate `zipSync` over an object keyed by name, after `sanitizeEntryPath`, which
 * folds neither case nor Unicode form nor trailing dots) and `unpack` reads each by it, refusing
 * only exact duplicates. So, like the Windows-only names, this is a hazard to extraction only:
 * a file system that folds case or Unicode form (Windows, macOS) or drops trailing dots and
 * spaces (Windows) would make the two one file.
 */
export function collisionProblem(name: string, prior: string): NameProblem {
  return {
    rule: 'RPR-ZIP-046',
    severity: 'warning',
    message: `entry ${JSON.stringify(name)} and ${JSON.stringify(prior)} are one name after NFC normalization, case folding and dropping trailing dots and spaces: two members to a reader that reads by name, one file to a file system that folds case or Unicode form (Windows, macOS); ${readInstead('Windows or macOS', 'members')}`,
  };
}

/**
 * A file and a directory (named, or implied by a longer name) that are one path under
 * foldName and not exactly: two paths to a reader that reads by name, as upstream Nemosyne's
 * `pack` writes and `unpack` reads them (keyed by exact name, see collisionProblem), so this
 * too is a hazard to extraction only. One exact name for both is RPR-ZIP-047 (reader.ts).
 */
export function fileDirectoryCollisionProblem(file: string, dirEntry: string, dir: string): NameProblem {
  return {
    rule: 'RPR-ZIP-046',
    severity: 'warning',
    message: `entry ${JSON.stringify(file)} is a file, and ${JSON.stringify(dirEntry)} uses ${JSON.stringify(dir)} as a directory: one name after NFC normalization, case folding and dropping trailing dots and spaces, so a file and a directory to a reader that reads by name, one path to a file system that folds case or Unicode form (Windows, macOS), which cannot hold both; ${readInstead('Windows or macOS', 'members')}`,
  };
}

/**
 * The key two names collide under: NFC, then full-ish case folding, then each segment's
 * trailing dots and spaces dropped (as Windows drops them), so that "notes.txt." collides
 * with "notes.txt" as well as being flagged by itself (RPR-ZIP-052).
 */
export function foldName(name: string): string {
  const folded = name.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
  return folded
    .split('/')
    .map((s) => (s === '.' || s === '..' ? s : s.replace(TRAILING_DOT_OR_SPACE, '')))
    .join('/');
}
